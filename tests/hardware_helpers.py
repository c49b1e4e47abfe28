"""Test helpers for hardware: gpiozero's MockFactory with a log of pin changes, and a model
of the 74HC595 chain that replays that log into the bits the LEDs would show."""

from __future__ import annotations

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bgboard.hardware.config import Config


class RecordingPin(MockPWMPin):
    """A PWM-capable mock pin that also appends (gpio, state) to its factory's `log`."""

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed:
            self._factory.log.append((int(self.info.name[4:]), value))
        return changed


def mock_factory() -> MockFactory:
    """A fresh MockFactory of RecordingPins, installed as gpiozero's pin factory."""
    factory = MockFactory(pin_class=RecordingPin)
    factory.log = []
    Device.pin_factory = factory
    return factory


def latched(log, config: Config) -> list[tuple[int, ...]]:
    """The logical LEDs lit at each latch pulse, replaying the pin log through 74HC595s."""
    leds = config.leds
    shift = [False] * leds.registers * 8
    data = False
    shown = []
    for pin, value in log:
        if pin == leds.data:
            data = bool(value)
        elif pin == leds.clock and value:
            shift = [data] + shift[:-1]
        elif pin == leds.latch and value:
            shown.append(tuple(i for i, out in enumerate(leds.outputs) if shift[out]))
    return shown


def pulses_ms(log, config: Config) -> list[float]:
    """Every servo pulse width set, in ms (0.0 = pulse stopped), rounded to 1 us."""
    frame_ms = 20.0
    return [round(v * frame_ms, 3) for pin, v in log if pin == config.servo.pin]
