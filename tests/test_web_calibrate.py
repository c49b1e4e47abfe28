"""The calibrate view (issue 26): its endpoints through Starlette's TestClient, the saved file
against `bgboard calibrate --corners`, bgboard play taking a saved calibration, and
`bgboard calibrate --web` run as a user runs it."""

import dataclasses
import json
import re
import subprocess
import sys
from functools import cache

import cv2
import httpx
import numpy as np
import pytest
from starlette.testclient import TestClient

from bgboard.calibration.file import Calibration, from_dict, load
from bgboard.controller.calibrating import Desk, first_corners, inset_corners
from bgboard.controller.cli import main
from bgboard.controller.live import LiveState
from bgboard.controller.play import LiveGame, PlayOptions
from bgboard.controller.turns.session import Session
from bgboard.controller.web import create_app
from bgboard.engine.game import Match
from bgboard.vision.synthetic import START_POINTS, Scene, random_scene, render

SIZE = (1280, 720)
FIELD = {"p1": [1100, 600], "p12": [100, 600], "p13": [100, 100], "p24": [1100, 100]}
"""A 1000 x 500 px field, White's edge at the bottom, White's 1-point on the right."""
BLANK_CHECK = ("the start position read through these corners: 16 of 24 points right (not 1, 6, "
               "8, 12, 13, 17, 19, 24: check the corners, that the camera sees the whole field "
               "and that the checkers stand as at the start)")
"""What calibrating on a board with no checkers says: the start position's 8 occupied points
read empty."""


@cache
def start_frame():
    """A rendered start position and its true calibration."""
    return render(Scene(START_POINTS, look=random_scene(0).look), 0)


def blank() -> np.ndarray:
    return np.full((SIZE[1], SIZE[0], 3), 128, np.uint8)


def desk_on(image: np.ndarray, out, corners=None, **options) -> Desk:
    size = (image.shape[1], image.shape[0])
    return Desk(lambda: image, out, Calibration(size, corners or inset_corners(size)),
                **options)


def client_of(desk: Desk) -> TestClient:
    return TestClient(create_app(None, desk=desk))


def test_the_corners_start_where_the_field_is_found_else_inset():
    corners, note = first_corners(blank(), Calibration(SIZE, FIELD).geometry)
    assert corners == {"p1": (1152.0, 648.0), "p12": (128.0, 648.0), "p13": (128.0, 72.0),
                       "p24": (1152.0, 72.0)}
    assert note == "cannot find the field: drag each corner onto the field's corner"
    start = start_frame()
    corners, note = first_corners(start.image, Calibration(SIZE, FIELD).geometry)
    assert note == "the field was found"
    for key, xy in start.calibration["corners_px"].items():
        assert np.hypot(*np.subtract(corners[key], xy)) < 12


def test_the_page_state_and_the_frame(tmp_path):
    client = client_of(desk_on(blank(), tmp_path / "cal.json", note="the field was found"))
    page = client.get("/calibrate")
    assert page.status_code == 200 and 'src="static/calibrate.js"' in page.text
    assert client.get("/static/calibrate.js").status_code == 200
    assert client.get("/").status_code == 404  # no game: the calibrate view alone
    assert client.get("/calibrate/state").json() == {
        "image_size": [1280, 720], "out": str(tmp_path / "cal.json"), "live": False,
        "note": "the field was found", "game": False,
        "corners_px": {"p1": [1152.0, 648.0], "p12": [128.0, 648.0], "p13": [128.0, 72.0],
                       "p24": [1152.0, 72.0]}}
    answer = client.get("/calibrate/frame.jpg")
    assert answer.headers["content-type"] == "image/jpeg"
    seen = cv2.imdecode(np.frombuffer(answer.content, np.uint8), cv2.IMREAD_COLOR)
    assert seen.shape == (720, 1280, 3) and abs(int(seen[360, 640, 1]) - 128) < 3


def test_the_grid_goes_through_the_posted_corners(tmp_path):
    answer = client_of(desk_on(blank(), tmp_path / "cal.json")).post(
        "/calibrate/preview", json={"corners_px": FIELD})
    assert answer.status_code == 200
    grid = answer.json()["grid"]
    assert grid["field"] == [[1100, 600], [100, 600], [100, 100], [1100, 100]]
    # the bar: 0.07 of the width after six columns of (1 - 0.07) / 12 = 0.0775 each
    assert grid["bar"] == [[635, 600], [565, 600], [565, 100], [635, 100]]
    assert len(grid["points"]) == 24
    # left base, right base, tip (0.42 of the height): point 1 at p1, 13 at p13
    assert grid["points"][0] == [[1100, 600], [1022.5, 600], [1061.25, 390]]
    assert grid["points"][6] == [[565, 600], [487.5, 600], [526.25, 390]]
    assert grid["points"][12] == [[177.5, 100], [100, 100], [138.75, 310]]
    assert answer.json()["svg"].count("<polygon") == 26


def test_the_reading_through_the_posted_corners_is_drawn(tmp_path):
    start = start_frame()
    desk = desk_on(start.image, tmp_path / "cal.json")
    answer = client_of(desk).post("/calibrate/preview",
                                  json={"corners_px": start.calibration["corners_px"]})
    seen = answer.json()
    assert seen["points"] == list(START_POINTS)
    assert seen["bar"] == {"white": 0, "black": 0}
    # each occupied point's count, white on black for White, black on white for Black
    counts = re.findall(r'font-weight="bold">(\d+)</text>', seen["svg"])
    assert counts == [str(abs(n)) for n in START_POINTS if n]
    assert seen["svg"].count('fill="#ffffff"') == 4


def test_save_writes_what_calibrate_corners_writes(tmp_path):
    start = start_frame()
    photo = tmp_path / "start.png"
    cv2.imwrite(str(photo), start.image)
    corners = {k: [round(x) + 3, round(y) - 2] for k, (x, y) in
               start.calibration["corners_px"].items()}
    by_cli, by_web = tmp_path / "cli.json", tmp_path / "web.json"
    assert main(["calibrate", str(photo), "--out", str(by_cli), "--corners",
                 *(f"{x},{y}" for x, y in corners.values())]) == 0
    desk = desk_on(start.image, by_web)
    answer = client_of(desk).post("/calibrate/save", json={"corners_px": corners})
    assert answer.status_code == 200
    assert answer.json() == {"saved": str(by_web), "message": f"wrote {by_web}: corners " +
                             " ".join(f"{k} {x},{y}" for k, (x, y) in corners.items()) +
                             "; the start position read through these corners: 24 of 24 "
                             "points right"}
    assert by_web.read_text().replace("web.board", "cli.board") == by_cli.read_text()
    saved = json.loads(by_web.read_text())
    assert saved["corners_px"] == corners and "colours" in saved
    white, black = saved["board"].pop("sets")  # the sets' colours, as calibrate keeps them
    assert saved["board"] == {"file": "web.board.png", "corners_px": corners}
    assert len(white) == len(black) == 3 and white[0] > black[0]  # White the lighter set
    web_board, cli_board = (cv2.imread(str(tmp_path / f"{name}.board.png"))
                            for name in ("web", "cli"))
    assert web_board.shape == (112, 26 * 32, 3)
    assert np.array_equal(web_board, cli_board)
    assert desk.saved.get_nowait().corners_px == {k: tuple(map(float, v))
                                                  for k, v in corners.items()}


def test_save_without_the_start_position_says_the_colours_are_not_learned(tmp_path):
    out = tmp_path / "cal.json"
    answer = client_of(desk_on(blank(), out)).post("/calibrate/save", json={"corners_px": FIELD})
    assert answer.json()["message"].startswith(
        f"wrote {out}: corners p1 1100,600 p12 100,600 p13 100,100 p24 1100,100; "
        f"colours not learned (")
    assert answer.json()["message"].endswith(f"; {BLANK_CHECK}")
    assert json.loads(out.read_text()) == {
        "version": 1, "image_size": [1280, 720],
        "corners_px": {"p1": [1100.0, 600.0], "p12": [100.0, 600.0], "p13": [100.0, 100.0],
                       "p24": [1100.0, 100.0]},
        "geometry": {"bar_width": 0.07, "point_depth": 0.42}}


@pytest.mark.parametrize(("corners", "reason"), [
    ({k: FIELD[k] for k in ("p1", "p12", "p13")},
     'send the four corners: {"corners_px": {"p1": [x, y], "p12": ..., "p13": ..., "p24": ...}}'),
    ([[1100, 600], [100, 600], [100, 100], [1100, 100]],
     'send the four corners: {"corners_px": {"p1": [x, y], "p12": ..., "p13": ..., "p24": ...}}'),
    (dict(FIELD, p1=[1300, 600]), "corner p1 [1300, 600] is outside the 1280x720 image"),
    (dict(FIELD, p24=[1100, -0.5]), "corner p24 [1100, -0.5] is outside the 1280x720 image"),
    (dict(FIELD, p12="100,600"), "corner p12 '100,600' is not [x, y]"),
    (dict(FIELD, p12=FIELD["p13"], p13=FIELD["p12"]),
     "corners_px p1, p12, p13, p24 do not make a convex quadrilateral in order"),
    ({"p1": [110, 60], "p12": [100, 60], "p13": [100, 50], "p24": [110, 50]},
     "corners_px enclose less than 1% of the image"),
])
def test_bad_corners_get_400_and_a_reason(tmp_path, corners, reason):
    out = tmp_path / "cal.json"
    desk = desk_on(blank(), out)
    client = client_of(desk)
    for path in ("/calibrate/preview", "/calibrate/save"):
        body = {"corners_px": corners} if isinstance(corners, dict) else corners
        answer = client.post(path, json=body)
        assert (answer.status_code, answer.text) == (400, reason)
    assert not out.exists() and desk.saved.empty()


def test_a_body_that_is_not_json_and_no_frame_yet(tmp_path):
    client = client_of(desk_on(blank(), tmp_path / "cal.json"))
    send = ('send JSON: {"corners_px": {"p1": [x, y], "p12": [x, y], "p13": [x, y], '
            '"p24": [x, y]}}')
    assert (client.post("/calibrate/save", data={"p1": "1"}).status_code) == 415
    bad = client.post("/calibrate/save", content=b"{no",
                      headers={"Content-Type": "application/json"})
    assert (bad.status_code, bad.text) == (400, send)
    waiting = client_of(Desk(lambda: None, tmp_path / "cal.json", Calibration(SIZE, FIELD)))
    assert waiting.get("/calibrate/state").status_code == 503
    assert waiting.get("/calibrate/frame.jpg").status_code == 404
    answer = waiting.post("/calibrate/save", json={"corners_px": FIELD})
    assert (answer.status_code, answer.text) == (503, "no camera picture yet")


def test_a_token_guards_the_calibrate_view(tmp_path):
    client = TestClient(create_app(None, token="s3cret", desk=desk_on(blank(),
                                                                     tmp_path / "cal.json")))
    for path in ("/calibrate", "/calibrate/state", "/calibrate/frame.jpg"):
        assert client.get(path).status_code == 401
    assert client.post("/calibrate/save", json={"corners_px": FIELD}).status_code == 401
    assert not (tmp_path / "cal.json").exists()
    assert client.get("/calibrate?token=s3cret").status_code == 200
    assert client.get("/calibrate/state").status_code == 200  # the page's cookie


def test_play_links_the_calibrate_view_and_draws_through_the_saved_corners(tmp_path):
    match = Match()
    match.new_game()
    live = LiveState(match, ("Ann", "Bob"))
    live.frame(blank(), {"points": list(START_POINTS), "bar": {"white": 0, "black": 0},
                         "off": {"white": 0, "black": 0}, "dice": [], "hand": False,
                         "confidence": 1.0})
    cal = from_dict({"version": 1, "image_size": list(SIZE), "corners_px": FIELD})
    desk = Desk(live.image, tmp_path / "cal.json", cal, live=True)
    client = TestClient(create_app(live, desk=desk))
    assert '<a href="calibrate">calibrate the camera</a>' in client.get("/").text
    state = client.get("/calibrate/state").json()
    assert (state["corners_px"], state["game"], state["live"]) == (FIELD, True, True)
    outline = '<polygon points="{} 100.0,600.0 100.0,100.0 1100.0,100.0"'
    assert outline.format("1100.0,600.0") in client.get("/state").json()["camera_svg"]
    moved = dict(FIELD, p1=[1120, 620])
    assert client.post("/calibrate/save", json={"corners_px": moved}).status_code == 200
    assert outline.format("1120.0,620.0") in client.get("/state").json()["camera_svg"]
    assert client.get("/calibrate/state").json()["corners_px"] == moved


def test_play_reads_through_a_calibration_saved_in_the_web_view(tmp_path):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"version": 1, "image_size": list(SIZE), "corners_px": FIELD}))
    play = LiveGame(PlayOptions(calibration=str(path), out=str(tmp_path / "games")))
    session = Session(play.match, play.bus)
    play._calibrate(play.calibration, session)
    assert session.settings.white_right_high is False
    play.desk = desk_on(blank(), path, FIELD)
    mirrored = {"p1": [100, 600], "p12": [1100, 600], "p13": [1100, 100], "p24": [100, 100]}
    play.desk.save({"corners_px": mirrored})
    play._drain(session)
    assert play.reader.cal.corners_px == load(path).corners_px == {
        k: tuple(map(float, v)) for k, v in mirrored.items()}
    assert session.settings.white_right_high is True


def test_calibrate_web_serves_until_saved(tmp_path):
    photo, out = tmp_path / "blank.png", tmp_path / "cal.json"
    cv2.imwrite(str(photo), blank())
    proc = subprocess.Popen([sys.executable, "-m", "bgboard.controller.cli", "calibrate",
                             str(photo), "--out", str(out), "--web", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("calibrate on the page http://127.0.0.1:")
        assert first.endswith("/calibrate (cannot find the field: drag each corner onto the "
                              "field's corner)\n")
        url = first.split()[4]
        assert httpx.get(url + "/state", timeout=10).json()["corners_px"]["p1"] == [1152, 648]
        saved = httpx.post(url + "/save", json={"corners_px": FIELD}, timeout=30)
        assert saved.status_code == 200
        out_text, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert (proc.returncode, err) == (0, "")
    assert out_text == (f"wrote {out}: corners p1 1100,600 p12 100,600 p13 100,100 p24 1100,100"
                        f"\n{BLANK_CHECK}\n")
    assert load(out).corners_px["p13"] == (100.0, 100.0)


def test_calibrate_web_refusals_are_one_line(tmp_path, capsys):
    photo, out = tmp_path / "blank.png", tmp_path / "cal.json"
    cv2.imwrite(str(photo), blank())
    assert main(["calibrate", str(photo), "--out", str(out), "--port", "8000"]) == 2
    assert capsys.readouterr().err == ("bgboard calibrate: error: --port is the port of the "
                                       "--web page: give --web too\n")
    with pytest.raises(SystemExit) as stop:
        main(["calibrate", str(photo), "--out", str(out), "--web", "--click"])
    assert stop.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["calibrate", str(photo), "--out", str(out), "--web", "--port", "70000"]) == 2
    assert capsys.readouterr().err == ("bgboard calibrate: error: the web view cannot listen on "
                                       "port 70000: a port is 0-65535\n")
    assert main(["calibrate", str(photo), "--out", str(out)]) == 2
    assert capsys.readouterr().err == (f"bgboard calibrate: error: {photo}: cannot find the "
                                       f"field; give --corners, or drag them into place with "
                                       f"--web\n")


def test_play_keeps_corners_found_again_in_the_calibration_file(tmp_path, capsys):
    from bgboard.vision.steady import Change

    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"version": 1, "image_size": list(SIZE), "corners_px": FIELD}))
    play = LiveGame(PlayOptions(calibration=str(path), out=str(tmp_path / "games")))
    session = Session(play.match, play.bus)
    play._calibrate(play.calibration, session)
    moved = {k: (x + 20.0, y - 10.0) for k, (x, y) in FIELD.items()}
    play._field_moved(Change(dataclasses.replace(play.calibration, corners_px=moved), 22.4))
    assert load(path).corners_px == moved and play.calibration.corners_px == moved
    assert play.live.snapshot()["status"]["field"] == "moved 22 px: corners found again"
    play._field_moved(Change(None, float("inf")))
    assert load(path).corners_px == moved
    assert play.live.snapshot()["status"]["field"] == ("not where it was and not found again: "
                                                       "not read until it is")
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "board: moved 22 px: corners found again",
        "board: not where it was and not found again: not read until it is"]
    gone = tmp_path / "gone" / "cal.json"
    play.options = dataclasses.replace(play.options, calibration=str(gone))
    play._field_moved(Change(dataclasses.replace(play.calibration, corners_px=FIELD), 0.0))
    assert capsys.readouterr().err == ("bgboard play: note: the corners found again are not "
                                       f"kept in {gone}: No such file or directory\n")
