"""The camera's settings, read once it has settled at calibration and set again whenever it is
opened with that calibration: automatic exposure and white balance drifting during a game
change the colours and the brightness the reader learned.

In the calibration file they are the project's own optional key `camera` (the resolution is
the file's `image_size`); a file without it opens the camera as it comes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

KINDS = {"picamera": "colour_gains", "usb": "wb_temperature"}  # each kind's white balance key
CHECKS = {
    "exposure": ("a positive number", lambda v: _number(v) and v > 0),
    "gain": ("a number >= 0", lambda v: _number(v) and v >= 0),
    "colour_gains": ("[red, blue]: two positive numbers",
                     lambda v: isinstance(v, list) and len(v) == 2
                     and all(_number(x) and x > 0 for x in v)),
    "wb_temperature": ("a positive number (kelvin)", lambda v: _number(v) and v > 0),
}


@dataclass(frozen=True)
class CameraSettings:
    """How a camera is set when it is opened; None leaves that control automatic.

    `kind` is "picamera" (Picamera2) or "usb" (cv2.VideoCapture on a device, V4L2 on Linux).
    `exposure`: Picamera2's ExposureTime in microseconds, or CAP_PROP_EXPOSURE (V4L2's
    exposure_time_absolute, in 100 microsecond units); `gain`: AnalogueGain or CAP_PROP_GAIN;
    white balance: Picamera2's ColourGains (red, blue), or CAP_PROP_WB_TEMPERATURE in kelvin.
    `size` (width, height): the resolution asked for; None leaves the camera's own."""

    kind: str
    size: tuple[int, int] | None = None
    exposure: float | None = None
    gain: float | None = None
    colour_gains: tuple[float, float] | None = None
    wb_temperature: float | None = None

    def to_dict(self) -> dict:
        """The calibration file's `camera` key: the kind and its controls, null = automatic."""
        values = {k: getattr(self, k) for k in ("exposure", "gain", KINDS[self.kind])}
        return {"kind": self.kind,
                **{k: list(v) if isinstance(v, tuple) else v for k, v in values.items()}}

    def locked(self) -> str:
        """The controls it fixes, as words ("" when all are automatic)."""
        return ", ".join(f"{k} {v}" for k, v in self.to_dict().items()
                         if k != "kind" and v is not None)


def camera_from_dict(data, size: tuple[int, int] | None = None) -> CameraSettings:
    """The settings in a calibration file's `camera` key, opened at `size`; ValueError naming
    the bad key otherwise."""
    if not isinstance(data, dict):
        raise ValueError("camera is not an object")
    kind = data.get("kind")
    if kind not in KINDS:
        raise ValueError(f"camera.kind {kind!r} is not 'picamera' or 'usb'")
    keys = ("exposure", "gain", KINDS[kind])
    unknown = set(data) - {"kind", *keys}
    if unknown:
        raise ValueError(f"camera has unknown key {sorted(unknown)[0]!r} (for a {kind} camera)")
    for key in keys:
        what, good = CHECKS[key]
        if data.get(key) is not None and not good(data[key]):
            raise ValueError(f"camera.{key} {data[key]!r} is not {what} or null")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "kind"}
    return CameraSettings(kind, size, **values)


def _number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
