"""The core that follows a game: Observations in, a match and its events out.

Imports only `engine/` and each other (no vision, no calibration, no LEDs): docs/layout.md.
"""
