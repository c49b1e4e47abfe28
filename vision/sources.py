"""Frame sources behind one interface: a camera, a video file or stream, a folder of images,
or a Raspberry Pi camera through Picamera2.

Every source yields `Frame`s; a frame that could not be read has `image=None` and a `problem`,
so dropped frames are reported instead of ending the run.

A camera (a device number or `picamera`) is opened with `CameraSettings` when given: its
resolution, exposure, gain and white balance fixed or set automatic. The controls it did not
take are in the source's `refused` (a note for the user, not a failure); `settings()` reads
what the camera runs with now.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..calibration.camera import CameraSettings

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
MAX_FAILURES = 30  # consecutive failed reads after which a live source counts as gone
SETTLE_FRAMES = 60  # frames (about 2 s) a camera's automatic exposure is given to settle
PICAMERA_SIZE = (1280, 720)  # the Pi camera's resolution unless the settings give one
V4L2_MANUAL, V4L2_AUTO = 1, 3  # V4L2's exposure_auto: manual, aperture priority (automatic)


@dataclass(frozen=True)
class Frame:
    """One frame: its number, its name (file name or frame number), the image or a problem."""

    index: int
    name: str
    image: np.ndarray | None
    problem: str = ""


class VideoSource:
    """cv2.VideoCapture: a camera index, a video file or a stream URL."""

    def __init__(self, spec: str | int, camera: CameraSettings | None = None):
        import cv2

        self.spec = spec
        self.capture = cv2.VideoCapture(spec)
        if not self.capture.isOpened():
            raise OSError(f"cannot open video source {spec!r}")
        self.live = isinstance(spec, int) or "://" in str(spec)
        self.refused = self._set(camera) if camera else []

    def _set(self, camera: CameraSettings) -> list[str]:
        """Ask for the settings' size and controls; the ones refused, as words."""
        import cv2

        refused = []
        if camera.size:
            self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, camera.size[0])
            self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, camera.size[1])
            got = self._size()
            if got != camera.size:
                refused.append(f"size {camera.size[0]}x{camera.size[1]} (it gives "
                               f"{got[0]}x{got[1]})")
        return refused + [f"{name}={value:g}" for name, prop, value in usb_controls(camera)
                          if not self.capture.set(prop, value)]

    def _size(self) -> tuple[int, int]:
        import cv2

        return (int(self.capture.get(cv2.CAP_PROP_FRAME_WIDTH)),
                int(self.capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))

    def settings(self) -> CameraSettings:
        """What the camera runs with now. V4L2 gives -1 for a control it lacks: that one is
        left automatic (None)."""
        import cv2

        exposure, gain, kelvin = (self.capture.get(p) for p in (
            cv2.CAP_PROP_EXPOSURE, cv2.CAP_PROP_GAIN, cv2.CAP_PROP_WB_TEMPERATURE))
        return CameraSettings("usb", self._size(), exposure if exposure > 0 else None,
                              gain if gain >= 0 else None,
                              wb_temperature=kelvin if kelvin > 0 else None)

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


def usb_controls(camera: CameraSettings) -> list[tuple[str, int, float]]:
    """(name, cv2 property, value) to set, in order, for `camera` on a USB camera: automatic
    exposure off then the exposure (or automatic on), the gain when given, automatic white
    balance off then its temperature (or automatic on). Values as V4L2 takes them."""
    import cv2

    if camera.exposure is None:
        exposure = [("auto_exposure", cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_AUTO)]
    else:
        exposure = [("auto_exposure", cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL),
                    ("exposure", cv2.CAP_PROP_EXPOSURE, camera.exposure)]
    gain = [] if camera.gain is None else [("gain", cv2.CAP_PROP_GAIN, camera.gain)]
    if camera.wb_temperature is None:
        white = [("auto_wb", cv2.CAP_PROP_AUTO_WB, 1)]
    else:
        white = [("auto_wb", cv2.CAP_PROP_AUTO_WB, 0),
                 ("wb_temperature", cv2.CAP_PROP_WB_TEMPERATURE, camera.wb_temperature)]
    return exposure + gain + white


def read_image(path: Path) -> np.ndarray | None:
    """The BGR image in the file at `path`; None when it is no image OpenCV reads. ValueError
    when it is a JPEG cut short (`cut_short`): OpenCV would give its top above a grey band,
    and a reader would read that as the board."""
    import cv2

    data = Path(path).read_bytes()
    if cut_short(data):
        raise ValueError(f"{path}: the image is cut short (the file ends before the picture "
                         "does: an unfinished copy or download)")
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) if data else None


def cut_short(data: bytes) -> bool:
    """Whether `data` is a JPEG whose last scan has no end-of-image marker after it (FF D9
    after the last start of scan, FF DA; neither occurs inside a scan's coded data)."""
    return data[:2] == b"\xff\xd8" and data.rfind(b"\xff\xd9") < data.rfind(b"\xff\xda")


class FolderSource:
    """The image files of a folder in name order."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise ValueError(f"{self.folder}: no image files")

    def frames(self) -> Iterator[Frame]:
        for index, path in enumerate(self.files):
            try:
                image = read_image(path)
            except ValueError as exc:
                yield Frame(index, path.name, None, str(exc))
                continue
            if image is None:
                yield Frame(index, path.name, None, f"{path}: cannot read the image")
            else:
                yield Frame(index, path.name, image)


class PicameraSource:
    """A Raspberry Pi camera through Picamera2 (OpenCV cannot open it under libcamera)."""

    def __init__(self, camera: CameraSettings | None = None):
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise ValueError("the picamera source needs Picamera2: sudo apt install "
                             "python3-picamera2 (a virtual environment sees it only when made "
                             "with --system-site-packages)") from None
        try:
            self.camera = Picamera2()
        except (RuntimeError, IndexError) as exc:
            raise OSError(f"cannot open the Pi camera ({exc})") from None
        self.size = camera.size if camera and camera.size else PICAMERA_SIZE
        config = self.camera.create_video_configuration(main={"size": self.size,
                                                              "format": "BGR888"})
        self.camera.configure(config)
        self.refused = self._set(camera) if camera else []

    def _set(self, camera: CameraSettings) -> list[str]:
        """Set the controls this camera advertises; the others, as words."""
        wanted = picamera_controls(camera)
        known = self.camera.camera_controls
        self.camera.set_controls({k: v for k, v in wanted.items() if k in known})
        return [f"{k}={v}" for k, v in wanted.items() if k not in known]

    def settings(self) -> CameraSettings:
        """What the camera runs with now, from the next frame's metadata (while frames run)."""
        meta = self.camera.capture_metadata()
        gains = meta.get("ColourGains")
        return CameraSettings("picamera", self.size, meta.get("ExposureTime"),
                              meta.get("AnalogueGain"),
                              colour_gains=tuple(gains) if gains else None)

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
            self.camera.close()


def picamera_controls(camera: CameraSettings) -> dict:
    """Picamera2 controls for `camera`: automatic exposure off when both exposure and gain are
    given (one alone is fixed, the other left to it), automatic white balance off when the
    colour gains are given."""
    controls: dict = {"AeEnable": camera.exposure is None or camera.gain is None}
    if camera.exposure is not None:
        controls["ExposureTime"] = round(camera.exposure)
    if camera.gain is not None:
        controls["AnalogueGain"] = camera.gain
    controls["AwbEnable"] = camera.colour_gains is None
    if camera.colour_gains is not None:
        controls["ColourGains"] = camera.colour_gains
    return controls


def camera_kind(spec: str) -> str | None:
    """The kind of camera a source names ("picamera", "usb" for a device number), or None
    for a recording or a stream."""
    return "picamera" if spec == "picamera" else "usb" if spec.isdigit() else None


def refused_note(spec: str, refused: list[str]) -> str:
    """The line that tells the user which controls the camera did not take."""
    return f"camera {spec} did not take {', '.join(refused)}: left as the camera sets them"


def settled(source) -> tuple[np.ndarray, CameraSettings]:
    """A camera's first good frame after SETTLE_FRAMES (its automatic exposure and white
    balance have settled by then) and the settings it runs with at that frame."""
    for frame in source.frames():
        if frame.image is not None and frame.index >= SETTLE_FRAMES:
            return frame.image, source.settings()
        if frame.index > SETTLE_FRAMES + MAX_FAILURES:
            break
    raise OSError("no frames came")


def open_source(spec: str, camera: CameraSettings | None = None):
    """The source a command-line argument names: `picamera`, a camera index, a folder, a
    video file or a stream URL. A camera is opened with `camera` (recordings and streams take
    none); ValueError when they are another kind of camera's."""
    kind = camera_kind(spec)
    if camera is not None and kind is not None and camera.kind != kind:
        raise ValueError(f"the calibration's camera settings are for a {camera.kind} camera, "
                         f"not {spec}: calibrate with this camera")
    if kind == "picamera":
        return PicameraSource(camera)
    if kind == "usb":
        return VideoSource(int(spec), camera)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if "://" not in spec and not path.exists():
        raise OSError(f"{spec} does not exist")
    return VideoSource(spec)
