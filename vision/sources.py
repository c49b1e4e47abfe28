"""Frame sources behind one interface: a camera, a video file or stream, a folder of images,
or a Raspberry Pi camera through Picamera2.

Every source yields `Frame`s; a frame that could not be read has `image=None` and a `problem`,
so dropped frames are reported instead of ending the run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
MAX_FAILURES = 30  # consecutive failed reads after which a live source counts as gone


@dataclass(frozen=True)
class Frame:
    """One frame: its number, its name (file name or frame number), the image or a problem."""

    index: int
    name: str
    image: np.ndarray | None
    problem: str = ""


class VideoSource:
    """cv2.VideoCapture: a camera index, a video file or a stream URL."""

    def __init__(self, spec: str | int):
        import cv2

        self.spec = spec
        self.capture = cv2.VideoCapture(spec)
        if not self.capture.isOpened():
            raise OSError(f"cannot open video source {spec!r}")
        self.live = isinstance(spec, int) or "://" in str(spec)

    def frames(self) -> Iterator[Frame]:
        index = failures = 0
        try:
            while failures < MAX_FAILURES:
                ok, image = self.capture.read()
                if ok and image is not None:
                    failures = 0
                    yield Frame(index, str(index), image)
                elif not self.live:
                    return
                else:
                    failures += 1
                    yield Frame(index, str(index), None, "dropped frame")
                index += 1
        finally:
            self.capture.release()

    @property
    def fps(self) -> float:
        import cv2

        return float(self.capture.get(cv2.CAP_PROP_FPS) or 0.0)


class FolderSource:
    """The image files of a folder in name order."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise ValueError(f"{self.folder}: no image files")

    def frames(self) -> Iterator[Frame]:
        import cv2

        for index, path in enumerate(self.files):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                yield Frame(index, path.name, None, f"{path}: cannot read the image")
            else:
                yield Frame(index, path.name, image)


class PicameraSource:
    """A Raspberry Pi camera through Picamera2 (OpenCV cannot open it under libcamera)."""

    def __init__(self, size: tuple[int, int] = (1280, 720)):
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise OSError("the Pi camera needs the picamera2 package (apt install "
                          "python3-picamera2)") from None
        self.camera = Picamera2()
        config = self.camera.create_video_configuration(main={"size": size, "format": "BGR888"})
        self.camera.configure(config)

    def frames(self) -> Iterator[Frame]:
        self.camera.start()
        index = 0
        try:
            while True:
                try:
                    image = self.camera.capture_array()
                except RuntimeError as exc:
                    yield Frame(index, str(index), None, f"dropped frame ({exc})")
                else:
                    yield Frame(index, str(index), image)
                index += 1
        finally:
            self.camera.stop()


def open_source(spec: str):
    """The source a command-line argument names: `picamera`, a camera index, a folder, a
    video file or a stream URL."""
    if spec == "picamera":
        return PicameraSource()
    if spec.isdigit():
        return VideoSource(int(spec))
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if "://" not in spec and not path.exists():
        raise OSError(f"{spec} does not exist")
    return VideoSource(spec)
