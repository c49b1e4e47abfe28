"""bgboard: a smart backgammon board from a camera, a rules engine, LEDs and a servo cube."""

__version__ = "0.1.0"
