"""Stand-ins for cameras that cannot run here: Picamera2 needs libcamera and a Pi camera, and
no USB camera is plugged into the test machine. Each records exactly what bgboard asks of it.
"""

from __future__ import annotations

import sys
import types

import cv2
import numpy as np

PI_CONTROLS = ("AeEnable", "ExposureTime", "AnalogueGain", "AwbEnable", "ColourGains")
PI_METADATA = {"ExposureTime": 12000, "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6),
               "Lux": 400.0}


class FakePicamera2:
    """picamera2.Picamera2 as bgboard uses it: configuration, controls (only those in
    `advertised` exist, as libcamera advertises a camera's controls), frames, metadata."""

    advertised: tuple[str, ...] = PI_CONTROLS
    opened: list[FakePicamera2] = []

    def __init__(self) -> None:
        self.calls: list[tuple] = []
        self.size = (0, 0)
        self.frames = 0
        type(self).opened.append(self)

    @property
    def camera_controls(self) -> dict:
        return {name: (None, None, None) for name in self.advertised}

    def create_video_configuration(self, main: dict) -> dict:
        self.calls.append(("create_video_configuration", main))
        self.size = main["size"]
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.calls.append(("configure", config))

    def set_controls(self, controls: dict) -> None:
        self.calls.append(("set_controls", controls))

    def start(self) -> None:
        self.calls.append(("start",))

    def capture_array(self) -> np.ndarray:
        self.frames += 1
        return np.full((self.size[1], self.size[0], 3), 128, np.uint8)

    def capture_metadata(self) -> dict:
        self.calls.append(("capture_metadata",))
        return dict(PI_METADATA)

    def stop(self) -> None:
        self.calls.append(("stop",))

    def close(self) -> None:
        self.calls.append(("close",))


def install_picamera2(monkeypatch, advertised: tuple[str, ...] = PI_CONTROLS) -> type:
    """Put a `picamera2` module holding a fresh FakePicamera2 class into sys.modules."""
    camera = type("Picamera2", (FakePicamera2,), {"advertised": advertised, "opened": []})
    module = types.ModuleType("picamera2")
    module.Picamera2 = camera
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return camera


class FakeCapture:
    """cv2.VideoCapture on a USB camera as V4L2 answers: `set` records each call and refuses
    the properties in `refuse`; `get` gives `values`, -1 for a control it lacks."""

    refuse: tuple[int, ...] = ()
    values: dict[int, float] = {}
    opened: list[FakeCapture] = []

    def __init__(self, spec) -> None:
        self.spec = spec
        self.sets: list[tuple[int, float]] = []
        self.state = {cv2.CAP_PROP_FRAME_WIDTH: 640.0, cv2.CAP_PROP_FRAME_HEIGHT: 480.0,
                      **self.values}
        type(self).opened.append(self)

    def isOpened(self) -> bool:  # noqa: N802 (cv2's name)
        return True

    def set(self, prop: int, value: float) -> bool:
        self.sets.append((prop, value))
        if prop in self.refuse:
            return False
        self.state[prop] = float(value)
        return True

    def get(self, prop: int) -> float:
        return self.state.get(prop, -1.0)

    def read(self) -> tuple[bool, np.ndarray]:
        w, h = int(self.state[cv2.CAP_PROP_FRAME_WIDTH]), int(self.state[cv2.CAP_PROP_FRAME_HEIGHT])
        return True, np.full((h, w, 3), 128, np.uint8)

    def release(self) -> None:
        pass


def install_capture(monkeypatch, refuse: tuple[int, ...] = (),
                    values: dict[int, float] | None = None) -> type:
    """Make cv2.VideoCapture a fresh FakeCapture class."""
    capture = type("VideoCapture", (FakeCapture,),
                   {"refuse": refuse, "values": values or {}, "opened": []})
    monkeypatch.setattr(cv2, "VideoCapture", capture)
    return capture
