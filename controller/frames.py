"""Frames from a camera device, a stream URL, a video file (all cv2.VideoCapture) or a
folder of images in name order."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}


@dataclass
class FrameSource:
    """Frames in order with their rate; `count` is None when unknown. Unreadable images in a
    folder come through as None, so the caller can report them and go on."""

    path: Path
    fps: float
    count: int | None

    def __iter__(self) -> Iterator[np.ndarray | None]:
        if self.path.is_dir():
            for image in _images(self.path):
                yield cv2.imread(str(image))
            return
        capture = cv2.VideoCapture(str(self.path))
        try:
            while True:
                ok, frame = capture.read()
                if not ok:
                    return
                yield frame
        finally:
            capture.release()


def _images(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


def open_frames(path: str, fps: float | None = None) -> FrameSource:
    """A video file or an image folder; ValueError/OSError with the reason if it is neither."""
    source = Path(path)
    if not source.exists():
        raise FileNotFoundError(f"{path}: no such file or folder")
    if source.is_dir():
        count = len(_images(source))
        if not count:
            raise ValueError(f"{path}: the folder holds no images")
        return FrameSource(source, fps or 10.0, count)
    capture = cv2.VideoCapture(str(source))
    try:
        if not capture.isOpened():
            raise ValueError(f"{path}: not a video file OpenCV can read")
        frames = int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) or None
        rate = fps or capture.get(cv2.CAP_PROP_FPS) or 10.0
        ok, _ = capture.read()
        if not ok:
            raise ValueError(f"{path}: the video has no readable frame")
    finally:
        capture.release()
    return FrameSource(source, rate, frames)


def camera_frames(spec: str, fps: float | None = None,
                  status: Callable[[bool, str], None] | None = None,
                  ) -> Iterator[tuple[float, np.ndarray | None]]:
    """(time, frame) from a camera: a device number, a stream URL, a video file or a folder.

    Files and folders run as fast as they are read, their time taken from the frame rate;
    they end with their last frame. A device or stream runs until stopped: when it gives no
    frames it is reported through `status(False, why)` and opened again with back-off."""
    if spec.isdigit() or "://" in spec:
        yield from _live(int(spec) if spec.isdigit() else spec, status or (lambda ok, why: None))
        return
    source = open_frames(spec, fps)
    for index, frame in enumerate(source):
        yield index / source.fps, frame


def _live(device: int | str, status: Callable[[bool, str], None]):
    start = time.monotonic()
    delay, ok = 0.5, None
    while True:
        capture = cv2.VideoCapture(device)
        while capture.isOpened():
            good, frame = capture.read()
            if not good:
                break
            if ok is not True:
                status(True, "frames arrive")
                ok, delay = True, 0.5
            yield time.monotonic() - start, frame
        capture.release()
        if ok is not False:
            status(False, f"no frames from {device!r}; trying again")
            ok = False
        yield time.monotonic() - start, None
        time.sleep(delay)
        delay = min(delay * 2, 5.0)
