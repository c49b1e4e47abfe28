"""The calibration file: loading, validation with reasons, saving, the field homography."""

import json

import numpy as np
import pytest

from bgboard.calibration.camera import CameraSettings, camera_from_dict
from bgboard.calibration.file import Calibration, from_dict, load, save
from bgboard.calibration.geometry import FieldGeometry

MINIMAL = {
    "version": 1,
    "image_size": [1280, 720],
    "corners_px": {"p1": [1100, 650], "p12": [180, 650], "p13": [200, 80], "p24": [1080, 80]},
}


def test_a_file_with_only_the_required_keys_loads_with_default_geometry(tmp_path):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(MINIMAL))
    cal = load(path)
    assert cal.image_size == (1280, 720)
    assert cal.corners_px["p13"] == (200.0, 80.0)
    assert cal.geometry == FieldGeometry(0.07, 0.42)


def test_homography_maps_field_corners_to_the_pixels_and_back():
    cal = from_dict(MINIMAL)
    px = cal.field_to_px([(0, 0), (1, 0), (1, 1), (0, 1), (0.5, 0.5)])
    assert np.allclose(px[:4], [[1100, 650], [180, 650], [200, 80], [1080, 80]], atol=1e-6)
    assert np.allclose(cal.px_to_field(px), [(0, 0), (1, 0), (1, 1), (0, 1), (0.5, 0.5)])


def test_save_then_load_keeps_geometry_and_extra_keys(tmp_path):
    data = dict(MINIMAL, geometry={"bar_width": 0.1, "point_depth": 0.4},
                colours={"light": [230, 230, 230]})
    path = tmp_path / "cal.json"
    save(from_dict(data), path)
    again = load(path)
    assert again.geometry == FieldGeometry(0.1, 0.4)
    assert again.extra == {"colours": {"light": [230, 230, 230]}}
    assert json.loads(path.read_text())["corners_px"]["p1"] == [1100.0, 650.0]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"version": 2}, "version 2 is not 1"),
        ({"image_size": [1280]}, "image_size [1280] is not two positive integers"),
        ({"corners_px": {"p1": [1, 2]}}, "missing key 'p12'"),
        ({"corners_px": dict(MINIMAL["corners_px"], p13="x")}, "corners_px.p13 'x' is not [x, y]"),
        ({"corners_px": dict(MINIMAL["corners_px"], p13=[1080, 80], p24=[200, 80])},
         "do not make a convex quadrilateral"),
        ({"geometry": {"bar_width": 0.9}}, "bar_width 0.9 is not in [0, 0.5)"),
        ({"geometry": {"depth": 0.3}}, "geometry has unknown key 'depth'"),
        ({"camera": [1]}, "camera is not an object"),
        ({"camera": {"exposure": 300}}, "camera.kind None is not 'picamera' or 'usb'"),
        ({"camera": {"kind": "usb", "colour_gains": [1.9, 1.6]}},
         "camera has unknown key 'colour_gains' (for a usb camera)"),
        ({"camera": {"kind": "usb", "exposure": -5}},
         "camera.exposure -5 is not a positive number or null"),
        ({"camera": {"kind": "picamera", "gain": "high"}},
         "camera.gain 'high' is not a number >= 0 or null"),
        ({"camera": {"kind": "picamera", "colour_gains": [1.9]}},
         "camera.colour_gains [1.9] is not [red, blue]: two positive numbers or null"),
        ({"camera": {"kind": "usb", "wb_temperature": True}},
         "camera.wb_temperature True is not a positive number (kelvin) or null"),
    ],
)
def test_bad_calibrations_are_refused_with_the_reason(change, reason):
    with pytest.raises(ValueError) as err:
        from_dict(dict(MINIMAL, **change), "cal.json")
    assert str(err.value).startswith("cal.json: ")
    assert reason in str(err.value)


def test_the_camera_settings_go_through_the_file_and_a_file_without_them_has_none(tmp_path):
    camera = {"kind": "picamera", "exposure": 12000, "gain": 1.5, "colour_gains": [1.9, 1.6]}
    path = tmp_path / "cal.json"
    save(from_dict(dict(MINIMAL, camera=camera)), path)
    cal = load(path)
    assert cal.camera() == CameraSettings("picamera", (1280, 720), 12000, 1.5, (1.9, 1.6))
    assert json.loads(path.read_text())["camera"] == camera
    save(from_dict(MINIMAL), path)
    assert load(path).camera() is None
    assert "camera" not in json.loads(path.read_text())


@pytest.mark.parametrize(("settings", "data"), [
    (CameraSettings("usb", (640, 480), 156.0, 0.0, wb_temperature=4600.0),
     {"kind": "usb", "exposure": 156.0, "gain": 0.0, "wb_temperature": 4600.0}),
    (CameraSettings("usb", (640, 480)),
     {"kind": "usb", "exposure": None, "gain": None, "wb_temperature": None}),
    (CameraSettings("picamera", (1280, 720), 12000, 1.5, colour_gains=(1.9, 1.6)),
     {"kind": "picamera", "exposure": 12000, "gain": 1.5, "colour_gains": [1.9, 1.6]}),
])
def test_camera_settings_round_trip_with_null_for_automatic(settings, data):
    assert settings.to_dict() == data
    assert camera_from_dict(json.loads(json.dumps(data)), settings.size) == settings


def test_bad_json_and_missing_file(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{nope")
    with pytest.raises(ValueError, match="not valid JSON"):
        load(path)
    with pytest.raises(OSError, match="does not exist"):
        load(tmp_path / "missing.json")
    with pytest.raises(OSError, match=f"^calibration file {tmp_path} is a folder, not a file$"):
        load(tmp_path)


def test_aspect_is_measured_from_the_corner_distances():
    cal = Calibration((1280, 720), {"p1": (1000, 600), "p12": (200, 600),
                                    "p13": (200, 100), "p24": (1000, 100)})
    assert cal.aspect() == pytest.approx(800 / 500)


def test_a_points_triangle_in_field_coordinates_and_in_pixels():
    geo = FieldGeometry(0.1, 0.4)  # columns 0.075 wide
    assert geo.triangle(1) == ((0.0, 0.0), (0.075, 0.0), (0.0375, 0.4))
    corners = [v for xy in geo.triangle(13, (10, 20), (400, 200)) for v in xy]
    assert corners == pytest.approx([380, 220, 410, 220, 395, 140])


def test_the_board_look_goes_beside_the_file_and_is_dropped_when_the_corners_move(tmp_path):
    import dataclasses

    from bgboard.calibration.file import BoardLook

    patches = np.random.default_rng(0).integers(0, 256, (26, 112, 32, 3), np.uint8)
    cal = from_dict(MINIMAL)
    adapted = dataclasses.replace(cal, board=BoardLook(dict(cal.corners_px), patches))
    path = tmp_path / "cal.json"
    save(adapted, path)
    data = json.loads(path.read_text())
    assert data["board"] == {"file": "cal.board.png", "corners_px": MINIMAL["corners_px"]}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cal.board.png", "cal.json"]
    again = load(path)
    assert np.array_equal(again.board_patches(), patches) and "board" not in again.extra
    assert again == cal  # the board look is not part of a calibration's value
    moved = dataclasses.replace(again, corners_px={**again.corners_px, "p1": (1101.0, 650.0)})
    assert moved.board_patches() is None  # a bumped camera: the look no longer fits
    save(moved, path)  # a calibration without a fitting look removes it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cal.json"]
    assert "board" not in json.loads(path.read_text()) and load(path).board is None


def test_the_sets_colours_are_kept_with_the_board_look_and_go_with_it(tmp_path):
    import dataclasses

    from bgboard.calibration.file import BoardLook

    patches = np.zeros((26, 112, 32, 3), np.uint8)
    sets = ((220.04, 119.0, 182.0), (26.0, 124.0, 137.0))
    cal = from_dict(MINIMAL)
    path = tmp_path / "cal.json"
    save(dataclasses.replace(cal, board=BoardLook(dict(cal.corners_px), patches, sets)), path)
    assert json.loads(path.read_text())["board"]["sets"] == [[220.0, 119.0, 182.0],
                                                              [26.0, 124.0, 137.0]]
    again = load(path)
    assert again.board_sets() == ((220.0, 119.0, 182.0), (26.0, 124.0, 137.0))
    moved = dataclasses.replace(again, corners_px={**again.corners_px, "p1": (1101.0, 650.0)})
    assert moved.board_sets() is None  # they go with the look when the corners move


@pytest.mark.parametrize("sets", [[[220, 119]], "white", [[1, 2, 3], [4, 5, "x"]],
                                  [[1, 2, 3], [4, 5, 6], [7, 8, 9]], [[1, 2, 3], [4, 5, None]]])
def test_bad_sets_colours_are_ignored_and_the_board_look_kept(tmp_path, sets):
    import cv2

    path = tmp_path / "cal.json"
    cv2.imwrite(str(tmp_path / "cal.board.png"), np.zeros((112, 26 * 32, 3), np.uint8))
    key = {"file": "cal.board.png", "corners_px": MINIMAL["corners_px"], "sets": sets}
    path.write_text(json.dumps({**MINIMAL, "board": key}))
    cal = load(path)
    assert cal.board_patches().shape == (26, 112, 32, 3) and cal.board_sets() is None


@pytest.mark.parametrize("key", [{"file": "gone.png", "corners_px": MINIMAL["corners_px"]},
                                 {"file": "cal.json", "corners_px": MINIMAL["corners_px"]},
                                 {"corners_px": MINIMAL["corners_px"]}, "cal.board.png",
                                 {"file": "cal.board.png", "corners_px": {"p1": [1, 2]}}])
def test_a_board_key_that_cannot_be_read_leaves_the_reader_unadapted(tmp_path, key):
    path = tmp_path / "cal.json"
    (tmp_path / "cal.board.png").write_bytes(b"not a png")
    path.write_text(json.dumps({**MINIMAL, "board": key}))
    cal = load(path)
    assert cal.board is None and cal.board_patches() is None
    assert cal.corners_px["p1"] == (1100.0, 650.0)
