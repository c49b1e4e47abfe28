"""Frames for the controller, from vision's frame sources: a recording (video file or image
folder) with its rate, or a live camera (device, stream URL, Pi camera), opened with the
calibration's camera settings and again with back-off whenever it stops giving frames."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from ..calibration.camera import CameraSettings
from ..vision.sources import FolderSource, VideoSource, open_source, refused_note


@dataclass
class RecordedFrames:
    """A recorded source's frames in order (None for one that could not be read), its rate
    and, when known, its number of frames."""

    source: VideoSource | FolderSource
    fps: float
    count: int | None

    def __iter__(self) -> Iterator[np.ndarray | None]:
        for frame in self.source.frames():
            yield frame.image


def is_live(spec: str) -> bool:
    return spec.isdigit() or "://" in spec or spec == "picamera"


def open_recording(path: str, fps: float | None = None) -> RecordedFrames:
    """A video file or an image folder; OSError or ValueError with the reason otherwise."""
    if is_live(path):
        raise ValueError(f"{path} is a live camera: record a video file or a folder of frames")
    source = open_source(path)
    if isinstance(source, FolderSource):
        return RecordedFrames(source, fps or 10.0, len(source.files))
    import cv2

    count = int(source.capture.get(cv2.CAP_PROP_FRAME_COUNT)) or None
    return RecordedFrames(source, fps or source.fps or 10.0, count)


def camera_frames(spec: str, fps: float | None = None,
                  status: Callable[[bool, str], None] | None = None,
                  camera: CameraSettings | None = None,
                  note: Callable[[str], None] | None = None,
                  ) -> Iterator[tuple[float, np.ndarray | None]]:
    """(time, frame) from a camera, a stream, a video file or a folder.

    Recordings run as fast as they are read, their time taken from their frame rate, and end
    with their last frame. A live camera is opened with the settings `camera` (the controls it
    does not take are told through `note`) and runs until stopped: when it gives no frames
    that is reported through `status(False, why)` and it is opened again with back-off.
    ValueError (Picamera2 missing, settings for another kind of camera) is not retried."""
    if not is_live(spec):
        recording = open_recording(spec, fps)
        for index, image in enumerate(recording):
            yield index / recording.fps, image
        return
    status = status or (lambda ok, why: None)
    note = note or (lambda text: None)
    start, delay, ok = time.monotonic(), 0.5, None
    while True:
        why = ""
        try:
            source = open_source(spec, camera)
            if source.refused:
                note(refused_note(spec, source.refused))
            for frame in source.frames():
                if frame.image is not None and ok is not True:
                    status(True, "frames arrive")
                    ok, delay = True, 0.5
                yield time.monotonic() - start, frame.image
        except OSError as exc:
            why = f" ({exc})"
        if ok is not False:
            status(False, f"no frames from {spec}{why}; trying again")
            ok = False
        yield time.monotonic() - start, None
        time.sleep(delay)
        delay = min(delay * 2, 5.0)
