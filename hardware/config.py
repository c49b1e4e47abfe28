"""The hardware config file (TOML): wiring, the servo's cube table, buttons; checked on load.

A wrong file is refused with the reason (naming the file and the key) before any pin is
touched. Without a file, the bundled default.toml is used.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .layout import COUNT

DEFAULT = Path(__file__).with_name("default.toml")
FACES = (64, 2, 4, 8, 16, 32)
BUTTON_NAMES = ("double", "take", "pass", "undo", "confirm")
GPIO_PINS = range(28)
"""BCM numbers of the GPIO pins on the 40-pin header."""


@dataclass(frozen=True)
class Leds:
    """A 74HC595 chain: its three pins and the chain output of each logical LED."""

    data: int
    clock: int
    latch: int
    registers: int
    outputs: tuple[int, ...]


@dataclass(frozen=True)
class Servo:
    """The cube servo: pin, angle range, pulse widths (seconds), speed, face -> angle."""

    pin: int
    min_angle: float
    max_angle: float
    min_pulse: float
    max_pulse: float
    speed: float
    faces: dict[int, float]

    def angle(self, value: int) -> float:
        """The angle that shows cube value `value` (1 and 64 both show the 64 face)."""
        face = 64 if value == 1 else value
        if face not in self.faces:
            raise ValueError(f"no cube face {value} (faces are 1, {', '.join(map(str, FACES))})")
        return self.faces[face]


@dataclass(frozen=True)
class Buttons:
    """Button pins by name, debounce time and the long press that makes confirm "menu"."""

    pins: dict[str, int]
    bounce: float
    hold: float


@dataclass(frozen=True)
class Config:
    """A checked hardware config."""

    leds: Leds
    servo: Servo
    buttons: Buttons


def load_config(path: str | Path | None = None) -> Config:
    """Read and check a config file (default.toml when `path` is None)."""
    path = Path(path) if path is not None else DEFAULT
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    try:
        return parse_config(data)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def parse_config(data: dict[str, Any]) -> Config:
    """A Config from the parsed TOML tables; ValueError names the first problem."""
    _keys(data, "the file", {"leds", "servo", "buttons"})
    config = Config(_leds(data["leds"]), _servo(data["servo"]), _buttons(data["buttons"]))
    _pins_once(config)
    return config


def _leds(t: dict[str, Any]) -> Leds:
    _keys(t, "[leds]", {"data", "clock", "latch"}, {"registers", "outputs"})
    registers = _number(t, "[leds]", "registers", 4, int)
    if registers * 8 < COUNT:
        raise ValueError(f"[leds] registers = {registers} has fewer than {COUNT} outputs")
    outputs = tuple(t.get("outputs", range(COUNT)))
    size = registers * 8
    if (
        len(outputs) != COUNT
        or len(set(outputs)) != COUNT
        or not all(type(o) is int and 0 <= o < size for o in outputs)
    ):
        raise ValueError(f"[leds] outputs must be {COUNT} different integers 0..{size - 1}")
    pins = (_pin(t, "[leds]", k) for k in ("data", "clock", "latch"))
    return Leds(*pins, registers, outputs)


def _servo(t: dict[str, Any]) -> Servo:
    required = {"pin", "min_angle", "max_angle", "min_pulse_ms", "max_pulse_ms", "speed"}
    _keys(t, "[servo]", required | {"faces"})
    lo, hi = (_number(t, "[servo]", k) for k in ("min_angle", "max_angle"))
    pulse_lo, pulse_hi = (_number(t, "[servo]", k) for k in ("min_pulse_ms", "max_pulse_ms"))
    speed = _number(t, "[servo]", "speed")
    if not (lo < hi and 0 < pulse_lo < pulse_hi < 20 and speed > 0):
        raise ValueError("[servo] needs min_angle < max_angle, 0 < min_pulse_ms < "
                         "max_pulse_ms < 20 and speed > 0")
    faces = t["faces"]
    _keys(faces, "[servo.faces]", {str(f) for f in FACES})
    angles = {f: _number(faces, "[servo.faces]", str(f)) for f in FACES}
    for face, angle in angles.items():
        if not lo <= angle <= hi:
            raise ValueError(f"[servo.faces] {face} = {angle} is outside {lo}..{hi}")
    return Servo(_pin(t, "[servo]", "pin"), lo, hi, pulse_lo / 1000, pulse_hi / 1000, speed,
                 angles)


def _buttons(t: dict[str, Any]) -> Buttons:
    _keys(t, "[buttons]", set(BUTTON_NAMES), {"bounce_ms", "hold_s"})
    bounce = _number(t, "[buttons]", "bounce_ms", 50) / 1000
    hold = _number(t, "[buttons]", "hold_s", 1.0)
    if bounce < 0 or hold <= 0:
        raise ValueError("[buttons] needs bounce_ms >= 0 and hold_s > 0")
    return Buttons({n: _pin(t, "[buttons]", n) for n in BUTTON_NAMES}, bounce, hold)


def _pins_once(config: Config) -> None:
    """Refuse a pin wired to two things."""
    used: dict[int, str] = {}
    wiring = [(f"[leds] {k}", getattr(config.leds, k)) for k in ("data", "clock", "latch")]
    wiring.append(("[servo] pin", config.servo.pin))
    wiring += [(f"[buttons] {n}", p) for n, p in config.buttons.pins.items()]
    for name, pin in wiring:
        if pin in used:
            raise ValueError(f"GPIO{pin} is used twice: {used[pin]} and {name}")
        used[pin] = name


def _keys(t: object, where: str, required: set[str], optional: frozenset = frozenset()) -> None:
    if not isinstance(t, dict):
        raise ValueError(f"{where} must be a table")
    if missing := sorted(required - t.keys()):
        raise ValueError(f"{where} is missing {', '.join(missing)}")
    if unknown := sorted(t.keys() - required - optional):
        raise ValueError(f"{where} has unknown key {', '.join(unknown)}")


def _number(t: dict[str, Any], where: str, key: str, default: Any = None, kind: type = float):
    value = t.get(key, default)
    if type(value) not in ((int,) if kind is int else (int, float)) or not math.isfinite(value):
        raise ValueError(f"{where} {key} must be a{'n integer' if kind is int else ' number'}")
    return value


def _pin(t: dict[str, Any], where: str, key: str) -> int:
    pin = t[key]
    if type(pin) is not int or pin not in GPIO_PINS:
        raise ValueError(f"{where} {key} = {pin!r} is not a GPIO pin (BCM 0..27)")
    return pin
