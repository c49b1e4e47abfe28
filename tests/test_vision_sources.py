"""Frame sources: a real video file through cv2.VideoCapture, an image folder, bad input; the
camera controls.

Picamera2 cannot be installed here (it needs libcamera on a Pi) and no USB camera is plugged
in, so the cameras are stand-ins (tests/camera_fakes.py) that record what bgboard asks of
them; the refusals of a capture are also exercised for real on a video file, and the missing
Picamera2 with the real import failing.
"""

import importlib.util
import sys

import cv2
import numpy as np
import pytest

from bgboard.calibration.camera import CameraSettings
from bgboard.vision.sources import (
    FolderSource,
    VideoSource,
    open_source,
    refused_note,
    settled,
)
from camera_fakes import PI_CONTROLS, install_capture, install_picamera2

LOCKED_PI = CameraSettings("picamera", (1640, 1232), 12000, 1.5, colour_gains=(1.9, 1.6))
LOCKED_USB = CameraSettings("usb", (1280, 720), 156, 0, wb_temperature=4600)


def _frame(i: int) -> np.ndarray:
    img = np.zeros((120, 160, 3), np.uint8)
    img[:, : 10 * (i + 1)] = 255
    return img


def _clip(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for i in range(5):
        writer.write(_frame(i))
    writer.release()
    return path


def test_a_video_file_gives_its_frames_in_order(tmp_path):
    source = open_source(str(_clip(tmp_path)))
    assert isinstance(source, VideoSource)
    frames = list(source.frames())
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    widths = [int((f.image[60, :, 0] > 128).sum()) for f in frames]
    assert [round(w, -1) for w in widths] == [10, 20, 30, 40, 50]


def test_a_folder_is_read_in_name_order_and_a_bad_file_is_reported(tmp_path):
    for i, name in enumerate(["b.png", "a.png", "c.png"]):
        cv2.imwrite(str(tmp_path / name), _frame(i))
    (tmp_path / "bb.png").write_bytes(b"broken")
    (tmp_path / "notes.txt").write_text("not an image")
    source = open_source(str(tmp_path))
    assert isinstance(source, FolderSource)
    frames = list(source.frames())
    assert [f.name for f in frames] == ["a.png", "b.png", "bb.png", "c.png"]
    assert frames[2].image is None and "cannot read the image" in frames[2].problem
    assert frames[0].image.shape == (120, 160, 3)


def test_a_folder_frame_cut_short_is_reported_not_read(tmp_path):
    whole = cv2.imencode(".jpg", _frame(3))[1].tobytes()
    (tmp_path / "a.jpg").write_bytes(whole)
    (tmp_path / "b.jpg").write_bytes(whole[:-200])
    a, b = open_source(str(tmp_path)).frames()
    assert a.image.shape == (120, 160, 3) and a.problem == ""
    assert b.image is None
    assert b.problem == f"{tmp_path / 'b.jpg'}: the image is cut short (the file ends before " \
                        "the picture does: an unfinished copy or download)"


def test_missing_sources_and_empty_folders_are_refused(tmp_path):
    with pytest.raises(OSError, match="does not exist"):
        open_source(str(tmp_path / "none.mp4"))
    with pytest.raises(ValueError, match="no image files"):
        open_source(str(tmp_path))


def test_the_pi_camera_is_configured_and_locked_as_the_settings_say(monkeypatch):
    camera = install_picamera2(monkeypatch)
    source = open_source("picamera", LOCKED_PI)
    main = {"size": (1640, 1232), "format": "BGR888"}
    assert camera.opened[0].calls == [
        ("create_video_configuration", main), ("configure", {"main": main}),
        ("set_controls", {"AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 1.5,
                          "AwbEnable": False, "ColourGains": (1.9, 1.6)})]
    assert source.refused == []


def test_the_pi_camera_without_settings_is_opened_as_before_and_automatic_on_request(
        monkeypatch):
    camera = install_picamera2(monkeypatch)
    open_source("picamera")
    open_source("picamera", CameraSettings("picamera"))
    main = {"size": (1280, 720), "format": "BGR888"}
    assert [c.calls for c in camera.opened] == [
        [("create_video_configuration", main), ("configure", {"main": main})],
        [("create_video_configuration", main), ("configure", {"main": main}),
         ("set_controls", {"AeEnable": True, "AwbEnable": True})]]


def test_controls_a_pi_camera_does_not_advertise_are_refused_not_sent(monkeypatch):
    camera = install_picamera2(monkeypatch, advertised=PI_CONTROLS[:3])  # a mono sensor
    source = open_source("picamera", LOCKED_PI)
    assert camera.opened[0].calls[-1] == (
        "set_controls", {"AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 1.5})
    assert source.refused == ["AwbEnable=False", "ColourGains=(1.9, 1.6)"]
    assert refused_note("picamera", source.refused) == (
        "camera picamera did not take AwbEnable=False, ColourGains=(1.9, 1.6): left as the "
        "camera sets them")


def test_the_pi_cameras_settings_are_read_from_its_metadata_once_settled(monkeypatch):
    camera = install_picamera2(monkeypatch)
    image, settings = settled(open_source("picamera", CameraSettings("picamera")))
    assert image.shape == (720, 1280, 3)
    assert settings == CameraSettings("picamera", (1280, 720), 12000, 1.5,
                                      colour_gains=(1.9, 1.6))
    pi = camera.opened[0]
    assert pi.frames == 61  # 60 frames to settle, then the one returned
    assert pi.calls[-4:] == [("start",), ("capture_metadata",), ("stop",), ("close",)]


def test_the_pi_camera_without_picamera2_says_how_to_install_it(monkeypatch):
    monkeypatch.delitem(sys.modules, "picamera2", raising=False)
    assert importlib.util.find_spec("picamera2") is None  # the real import fails here
    with pytest.raises(ValueError) as err:
        open_source("picamera")
    assert str(err.value) == (
        "the picamera source needs Picamera2: sudo apt install python3-picamera2 (a virtual "
        "environment sees it only when made with --system-site-packages)")


def test_a_usb_camera_gets_exactly_these_properties_in_this_order(monkeypatch):
    capture = install_capture(monkeypatch)
    source = open_source("0", LOCKED_USB)
    assert capture.opened[0].spec == 0
    assert capture.opened[0].sets == [
        (cv2.CAP_PROP_FRAME_WIDTH, 1280), (cv2.CAP_PROP_FRAME_HEIGHT, 720),
        (cv2.CAP_PROP_AUTO_EXPOSURE, 1), (cv2.CAP_PROP_EXPOSURE, 156), (cv2.CAP_PROP_GAIN, 0),
        (cv2.CAP_PROP_AUTO_WB, 0), (cv2.CAP_PROP_WB_TEMPERATURE, 4600)]
    assert source.refused == []
    open_source("0", CameraSettings("usb"))
    assert capture.opened[1].sets == [(cv2.CAP_PROP_AUTO_EXPOSURE, 3), (cv2.CAP_PROP_AUTO_WB, 1)]


def test_a_usb_cameras_settings_are_read_and_a_missing_control_stays_automatic(monkeypatch):
    install_capture(monkeypatch, values={cv2.CAP_PROP_EXPOSURE: 156.0, cv2.CAP_PROP_GAIN: 0.0})
    assert open_source("0").settings() == CameraSettings("usb", (640, 480), 156.0, 0.0)


def test_a_usb_camera_refusing_a_control_or_the_size_is_told(monkeypatch):
    install_capture(monkeypatch, refuse=(cv2.CAP_PROP_FRAME_HEIGHT, cv2.CAP_PROP_AUTO_WB))
    assert open_source("0", LOCKED_USB).refused == [
        "size 1280x720 (it gives 1280x480)", "auto_wb=0"]


def test_a_video_file_refuses_every_control_for_real(tmp_path):
    source = VideoSource(str(_clip(tmp_path)), CameraSettings("usb", (640, 480), 300, 4,
                                                             wb_temperature=4600))
    assert source.refused == ["size 640x480 (it gives 160x120)", "auto_exposure=1",
                              "exposure=300", "gain=4", "auto_wb=0", "wb_temperature=4600"]
    assert source.settings() == CameraSettings("usb", (160, 120))
    assert len(list(source.frames())) == 5


def test_settings_for_another_kind_of_camera_are_refused(monkeypatch):
    install_capture(monkeypatch)
    with pytest.raises(ValueError) as err:
        open_source("0", LOCKED_PI)
    assert str(err.value) == ("the calibration's camera settings are for a picamera camera, "
                              "not 0: calibrate with this camera")
