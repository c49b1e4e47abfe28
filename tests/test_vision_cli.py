"""`bgboard read`, `bgboard dice` and `bgboard calibrate` as a user runs them."""

import json
import subprocess
import sys

import cv2
import numpy as np

from bgboard.controller.cli import main
from bgboard.vision.synthetic import START_POINTS, Scene, dice_photo, random_scene, render
from camera_fakes import install_capture, install_picamera2
from vision_helpers import calibrated, write_frame


def test_read_json_is_the_observation(tmp_path, capsys):
    rendered, cal = calibrated(5, hand=0.0)
    image, cal_path = write_frame(tmp_path, rendered, cal)
    assert main(["read", str(image), "--calibration", str(cal_path), "--json"]) == 0
    obs = json.loads(capsys.readouterr().out)
    assert set(obs) == {"points", "bar", "off", "dice", "hand", "confidence", "point_options",
                        "xgid", "position_id"}
    assert obs["points"] == rendered.truth["points"]
    assert obs["bar"] == rendered.truth["bar"] and obs["off"] == rendered.truth["off"]
    assert 0.0 <= obs["confidence"] <= 1.0
    assert [options[0][0] for options in obs["point_options"]] == obs["points"]
    assert all(sum(p for _, p in options) <= 1.0 for options in obs["point_options"])


def test_read_with_the_colour_reader_gives_the_design_keys(tmp_path, capsys):
    rendered, cal = calibrated(5, hand=0.0)
    image, cal_path = write_frame(tmp_path, rendered, cal)
    args = ["read", str(image), "--calibration", str(cal_path), "--json", "--checkers", "colour"]
    assert main(args) == 0
    obs = json.loads(capsys.readouterr().out)
    assert set(obs) == {"points", "bar", "off", "dice", "hand", "confidence", "xgid",
                        "position_id"}
    assert obs["points"] == rendered.truth["points"]


def test_read_batch_reports_a_bad_image_in_its_line_and_exits_2(tmp_path, capsys):
    rendered, cal = calibrated(5, hand=0.0)
    image, cal_path = write_frame(tmp_path, rendered, cal)
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a png")
    code = main(["read", str(bad), str(image), "--calibration", str(cal_path), "--json"])
    assert code == 2
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first == {"image": str(bad), "error": f"{bad}: not a readable image"}
    assert second["image"] == str(image)
    assert second["points"] == rendered.truth["points"]


def test_read_a_missing_image_or_a_folder_given_as_a_file_is_one_line_and_exit_2(tmp_path):
    rendered, cal = calibrated(5, hand=0.0)
    image, cal_path = write_frame(tmp_path, rendered, cal)
    done = subprocess.run([sys.executable, "-m", "bgboard.controller.cli", "read",
                           str(tmp_path / "none.png"), "--calibration", str(cal_path)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == f"bgboard read: error: {tmp_path / 'none.png'}: no such file\n"
    folder = subprocess.run([sys.executable, "-m", "bgboard.controller.cli", "read",
                             str(tmp_path), "--calibration", str(cal_path)],
                            capture_output=True, text=True)
    assert (folder.returncode, folder.stderr) == (
        2, f"bgboard read: error: {tmp_path}: a folder, not an image file\n")
    cal_folder = subprocess.run([sys.executable, "-m", "bgboard.controller.cli", "read",
                                 str(image), "--calibration", str(tmp_path)],
                                capture_output=True, text=True)
    assert (cal_folder.returncode, cal_folder.stderr) == (
        2, f"bgboard read: error: calibration file {tmp_path} is a folder, not a file\n")


def test_a_jpeg_cut_short_is_refused_with_why_not_read_as_a_board(tmp_path, capsys):
    rendered, cal = calibrated(5, hand=0.0)
    _, cal_path = write_frame(tmp_path, rendered, cal)
    whole = cv2.imencode(".jpg", rendered.image)[1].tobytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(whole[:len(whole) * 2 // 3])
    why = f"{cut}: the image is cut short (the file ends before the picture does: an " \
          "unfinished copy or download)"
    done = subprocess.run([sys.executable, "-m", "bgboard.controller.cli", "read", str(cut),
                           "--calibration", str(cal_path)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (2, f"bgboard read: error: {why}\n")
    assert main(["dice", str(cut), str(cut), "--json"]) == 2
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == \
        [{"image": str(cut), "error": why}] * 2


def test_read_with_a_bad_calibration_says_why(tmp_path, capsys):
    rendered, cal = calibrated(5, hand=0.0)
    image, cal_path = write_frame(tmp_path, rendered, cal)
    cal_path.write_text(json.dumps({"version": 1, "image_size": [1280, 720]}))
    assert main(["read", str(image), "--calibration", str(cal_path)]) == 2
    assert "missing key 'corners_px'" in capsys.readouterr().err


def test_read_overlay_puts_the_diagram_beside_the_photo(tmp_path, capsys):
    rendered, cal = calibrated(5, hand=0.0)
    image, cal_path = write_frame(tmp_path, rendered, cal)
    out = tmp_path / "overlay.png"
    assert main(["read", str(image), "--calibration", str(cal_path), "--overlay", str(out)]) == 0
    assert cv2.imread(str(out)).shape == (600, round(1280 * 600 / 720) + 960, 3)
    assert "points [" in capsys.readouterr().out


def test_dice_command_reads_a_photo_of_dice(tmp_path, capsys):
    photo, truth = dice_photo([1, 2, 3, 4, 5, 6], seed=2)
    path = tmp_path / "dice.jpg"
    cv2.imwrite(str(path), photo)
    assert main(["dice", str(path), "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["image"] == str(path)
    assert sorted(d["value"] for d in line["dice"]) == [1, 2, 3, 4, 5, 6]
    for die in line["dice"]:
        x, y, w, h = die["box_px"]
        match = [t for t in truth if t["value"] == die["value"]][0]
        tx, ty, tw, th = match["box_px"]
        assert abs(x + w / 2 - tx - tw / 2) < tw / 2 and abs(y + h / 2 - ty - th / 2) < th / 2


def test_dice_command_batch_with_an_empty_file(tmp_path, capsys):
    photo, _ = dice_photo([4], seed=3)
    good, empty = tmp_path / "a.png", tmp_path / "b.png"
    cv2.imwrite(str(good), photo)
    empty.write_bytes(b"")
    assert main(["dice", str(good), str(empty), "--json"]) == 2
    a, b = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert [d["value"] for d in a["dice"]] == [4]
    assert b == {"image": str(empty), "error": f"{empty}: not a readable image"}


def test_calibrate_finds_orients_and_learns_from_the_start_position(tmp_path, capsys):
    look = random_scene(0).look
    start = render(Scene(START_POINTS, look=look), 0)
    photo, out = tmp_path / "start.png", tmp_path / "cal.json"
    cv2.imwrite(str(photo), start.image)
    assert main(["calibrate", str(photo), "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        "the start position read through these corners: 24 of 24 points right")
    cal = json.loads(out.read_text())
    for key, xy in start.calibration["corners_px"].items():
        assert np.linalg.norm(np.subtract(cal["corners_px"][key], xy)) < 12
    assert {"light", "dark", "board", "field", "frame"} <= set(cal["colours"])
    assert cal["colours"]["light"][0] > cal["colours"]["dark"][0]
    assert cal["board"]["file"] == "cal.board.png"  # the reader adapted to this board
    assert cv2.imread(str(tmp_path / "cal.board.png")).shape == (112, 26 * 32, 3)
    scene = random_scene(0)
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), render(scene, 0).image)
    capsys.readouterr()
    assert main(["read", str(frame), "--calibration", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["points"] == list(scene.points)


def test_calibrate_with_given_corners_and_no_start_position(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 128, np.uint8))
    out = tmp_path / "cal.json"
    corners = ["1100,650", "180,650", "200,80", "1080,80"]
    assert main(["calibrate", str(blank), "--out", str(out), "--corners", *corners]) == 0
    cal = json.loads(out.read_text())
    assert cal["corners_px"] == {"p1": [1100.0, 650.0], "p12": [180.0, 650.0],
                                 "p13": [200.0, 80.0], "p24": [1080.0, 80.0]}
    assert "colours" not in cal and "board" not in cal  # not the start position: not adapted
    said = capsys.readouterr()
    assert said.err == (
        "bgboard calibrate: note: colours not learned (the start position's five-checker rows "
        "are not told from the board by their colours): White is taken to be the lighter set "
        "and hands are seen by the frame band alone\n")
    assert said.out.splitlines()[1] == (
        "the start position read through these corners: 16 of 24 points right (not 1, 6, 8, 12, "
        "13, 17, 19, 24: check the corners, that the camera sees the whole field and that the "
        "checkers stand as at the start)")
    assert main(["calibrate", str(blank), "--out", str(out), "--corners", *corners,
                 "--no-learn"]) == 0
    assert capsys.readouterr().out == (f"wrote {out}: corners p1 1100,650 p12 180,650 p13 200,80 "
                                       "p24 1080,80\n")
    assert main(["calibrate", str(blank), "--out", str(out)]) == 2
    assert "cannot find the field" in capsys.readouterr().err


CORNERS = ["1100,650", "180,650", "200,80", "1080,80"]


def test_calibrate_on_the_pi_camera_locks_what_it_settled_on(tmp_path, capsys, monkeypatch):
    """The Pi camera is a stand-in (Picamera2 cannot run here): tests/camera_fakes.py."""
    camera = install_picamera2(monkeypatch)
    out = tmp_path / "cal.json"
    assert main(["calibrate", "picamera", "--out", str(out), "--corners", *CORNERS,
                 "--no-learn"]) == 0
    assert camera.opened[0].calls[2] == ("set_controls", {"AeEnable": True, "AwbEnable": True})
    cal = json.loads(out.read_text())
    assert cal["image_size"] == [1280, 720]
    assert cal["camera"] == {"kind": "picamera", "exposure": 12000, "gain": 1.5,
                             "colour_gains": [1.9, 1.6]}
    assert capsys.readouterr().out.splitlines()[1] == (
        "camera picamera settled at exposure 12000, gain 1.5, colour_gains [1.9, 1.6]: set so "
        "whenever it is opened with this file")
    assert main(["calibrate", "picamera", "--out", str(out), "--corners", *CORNERS,
                 "--no-learn", "--camera-auto"]) == 0
    assert json.loads(out.read_text())["camera"] == {"kind": "picamera", "exposure": None,
                                                    "gain": None, "colour_gains": None}
    assert capsys.readouterr().out.splitlines()[1] == (
        "camera picamera: exposure, gain and white balance left automatic")


def test_calibrate_on_a_usb_camera_notes_the_controls_it_refused(tmp_path, capsys, monkeypatch):
    """The USB camera is a stand-in capture that refuses automatic white balance."""
    install_capture(monkeypatch, refuse=(cv2.CAP_PROP_AUTO_WB,),
                    values={cv2.CAP_PROP_EXPOSURE: 156.0, cv2.CAP_PROP_GAIN: 0.0})
    out = tmp_path / "cal.json"
    corners = ["600,450", "40,450", "40,30", "600,30"]
    assert main(["calibrate", "0", "--out", str(out), "--corners", *corners, "--no-learn"]) == 0
    assert json.loads(out.read_text())["camera"] == {"kind": "usb", "exposure": 156.0,
                                                    "gain": 0.0, "wb_temperature": None}
    assert capsys.readouterr().err == (
        "bgboard calibrate: note: camera 0 did not take auto_wb=1: left as the camera sets "
        "them\n")


def test_calibrate_without_picamera2_or_the_camera_is_one_line(tmp_path, capsys):
    def calibrate(source: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bgboard.controller.cli", "calibrate",
                               source, "--out", str(tmp_path / "cal.json")],
                              capture_output=True, text=True, timeout=120)

    result = calibrate("picamera")
    assert (result.returncode, result.stderr) == (2, (
        "bgboard calibrate: error: the picamera source needs Picamera2: sudo apt install "
        "python3-picamera2 (a virtual environment sees it only when made with "
        "--system-site-packages)\n"))
    result = calibrate("99")  # no /dev/video99 here
    assert (result.returncode, result.stderr) == (
        2, "bgboard calibrate: error: cannot open video source 99\n")
    photo = tmp_path / "start.png"
    cv2.imwrite(str(photo), np.full((72, 128, 3), 128, np.uint8))
    assert main(["calibrate", str(photo), "--out", str(tmp_path / "cal.json"),
                 "--camera-auto"]) == 2
    assert capsys.readouterr().err == ("bgboard calibrate: error: --camera-auto is for a "
                                       "camera: a device number or picamera\n")


def test_a_calibration_with_a_bad_camera_key_is_one_line_naming_it(tmp_path, capsys):
    cal, frame = tmp_path / "cal.json", tmp_path / "frame.png"
    cv2.imwrite(str(frame), np.full((720, 1280, 3), 128, np.uint8))
    cal.write_text(json.dumps({"version": 1, "image_size": [1280, 720],
                               "corners_px": {"p1": [1100, 650], "p12": [180, 650],
                                              "p13": [200, 80], "p24": [1080, 80]},
                               "camera": {"kind": "usb", "exposure": "auto"}}))
    assert main(["read", str(frame), "--calibration", str(cal)]) == 2
    assert capsys.readouterr().err == (
        f"bgboard read: error: {cal}: camera.exposure 'auto' is not a positive number or "
        "null\n")
