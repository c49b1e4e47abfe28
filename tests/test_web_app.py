"""The web view's endpoints through Starlette's TestClient, and serve() on a real socket."""

import json
import socket
import threading

import cv2
import httpx
import numpy as np
import pytest
from starlette.testclient import TestClient

from bgboard.calibration.file import from_dict
from bgboard.controller.live import BUTTONS, LiveState
from bgboard.controller.turns.events import Event
from bgboard.controller.web import create_app, page_state, serve
from bgboard.controller.web.pictures import camera_svg, read_svg
from bgboard.engine.game import Match
from bgboard.engine.matfile import write_mat
from bgboard.engine.sgf import write_sgf

START_POINTS = [-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2]
CALIBRATION = {"version": 1, "image_size": [1280, 720],
               "corners_px": {"p1": [1100, 620], "p12": [180, 620], "p13": [180, 100],
                              "p24": [1100, 100]}}


def fresh_live() -> LiveState:
    match = Match(length=5)
    match.new_game()
    return LiveState(match, ("Ann", "Bob"))


def played_live() -> LiveState:
    """Ann (white) opens 31 with 8/5 6/5; Bob (black) rolls 64 and plays 24/18 13/9."""
    live = fresh_live()
    game = live.match.games[-1]
    game.opening(3, 1)
    game.move("8/5 6/5")
    game.roll(6, 4)
    game.move("24/18 13/9")
    return live


def observation(points, dice=()) -> dict:
    return {"points": list(points), "bar": {"white": 0, "black": 0},
            "off": {"white": 0, "black": 0}, "hand": False, "confidence": 0.97,
            "dice": [{"value": v, "field_xy": list(xy), "cocked": False} for v, xy in dice]}


@pytest.fixture
def live():
    return fresh_live()


@pytest.fixture
def client(live):
    return TestClient(create_app(live))


def test_the_page_has_every_button_and_the_downloads(client):
    page = client.get("/")
    assert page.status_code == 200
    for name in BUTTONS:
        assert f'<button data-button="{name}">{name}</button>' in page.text
    assert 'href="match.mat"' in page.text and 'href="match.sgf"' in page.text
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/style.css").status_code == 200


def test_state_of_a_new_match(client):
    state = client.get("/state").json()
    assert state["position"]["points"] == START_POINTS
    assert state["position_id"] == "4HPwATDgc/ABMA"
    assert state["players"] == ["Ann", "Bob"]
    assert (state["dice"], state["turn"], state["moves"]) == (None, None, [])
    assert state["cube"] == {"value": 1, "owner": None, "offered_by": None}
    assert (state["score"], state["match_length"]) == ([0, 0], 5)
    assert (state["read_svg"], state["camera_svg"], state["has_camera"]) == (None, None, False)


def test_moves_dice_and_cube_of_a_game_in_play():
    live = played_live()
    game = live.match.games[-1]
    game.roll(5, 5)
    state = TestClient(create_app(live)).get("/state").json()
    assert state["moves"] == [
        {"color": "white", "kind": "move", "dice": [3, 1], "move": "8/5 6/5", "cube": None},
        {"color": "black", "kind": "move", "dice": [6, 4], "move": "24/18 13/9", "cube": None},
    ]
    assert (state["turn"], state["dice"]) == ("white", [5, 5])


def test_the_board_shows_each_led_and_the_offered_cube():
    live = played_live()
    live.match.games[-1].double()
    live.leds([[0, 0, 0]] * 26 + [[255, 160, 0], [0, 0, 0], [0, 255, 0], [0, 0, 0]])
    svg = page_state(live)["board_svg"]
    assert svg.count('class="led') == 30
    assert svg.count('class="led lit"') == 2
    assert 'fill="#ffa000" opacity="0.35"' in svg and 'fill="#00ff00" opacity="0.35"' in svg
    cube = svg[svg.index('<g class="cube">'):]
    assert ">2</text></g>" in cube and 'stroke="#ff9c1a"' in cube


def test_press_queues_the_button_for_the_play_loop(client, live):
    for name in BUTTONS:
        answer = client.post("/press", json={"button": name})
        assert (answer.status_code, answer.json()) == (200, {"pressed": name})
    assert [live.presses.get_nowait() for _ in BUTTONS] == list(BUTTONS)
    assert live.presses.empty()


def test_bad_presses_are_refused_with_a_reason(client, live):
    unknown = client.post("/press", json={"button": "menu"})
    assert unknown.status_code == 400
    assert unknown.text == "unknown button 'menu' (one of double, take, pass, undo, confirm)"
    form = client.post("/press", data={"button": "double"})
    assert (form.status_code, form.text) == (415, 'send JSON: {"button": NAME}')
    for body in (b"{not json", b'{"name": "double"}', b'["double"]'):
        bad = client.post("/press", content=body, headers={"Content-Type": "application/json"})
        assert (bad.status_code, bad.text) == (400, 'send JSON: {"button": NAME}')
    assert client.get("/press").status_code == 405
    assert live.presses.empty()


def test_camera_picture(client, live):
    assert client.get("/camera.jpg").status_code == 404
    image = np.zeros((72, 128, 3), np.uint8)
    image[:, :64] = (0, 0, 255)
    live.frame(image, observation(START_POINTS))
    answer = client.get("/camera.jpg")
    assert (answer.status_code, answer.headers["content-type"]) == (200, "image/jpeg")
    seen = cv2.imdecode(np.frombuffer(answer.content, np.uint8), cv2.IMREAD_COLOR)
    assert seen.shape == (72, 128, 3)
    assert abs(int(seen[36, 10, 2]) - 255) < 8 and int(seen[36, 120, 2]) < 8
    assert client.get("/state").json()["has_camera"] is True


def test_match_files_download():
    live = played_live()
    client = TestClient(create_app(live))
    for kind, write in (("mat", write_mat), ("sgf", write_sgf)):
        answer = client.get(f"/match.{kind}")
        assert answer.status_code == 200
        assert answer.headers["content-disposition"] == \
            f'attachment; filename="bgboard-match.{kind}"'
        assert answer.text == write(live.match, ("Ann", "Bob"))
    assert "8/5 6/5" in client.get("/match.mat").text


def test_what_was_read_marks_the_points_that_differ_and_draws_the_dice():
    points = list(START_POINTS)
    points[5], points[4] = 4, 1  # a checker read on 5 instead of 6
    obs = observation(points, [(3, (0.8, 0.5)), (1, (0.7, 0.45))])
    position = {"points": START_POINTS}
    svg = read_svg(obs, position)
    assert svg.count('class="wrong"') == 2
    assert svg.count('<g class="die">') == 2
    over = camera_svg(obs, position, from_dict(CALIBRATION))
    assert over.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1280 720"')
    assert '<polygon points="1100.0,620.0 180.0,620.0 180.0,100.0 1100.0,100.0"' in over
    assert over.count('class="wrong"') == 2 and over.count('<g class="die">') == 2
    # 8 occupied points at the start, plus point 5 now: each gets its count
    assert over.count("font-weight=\"bold\"") == 9


def test_state_with_a_calibration_has_the_camera_overlay(live):
    live.frame(np.zeros((720, 1280, 3), np.uint8), observation(START_POINTS))
    state = TestClient(create_app(live, calibration=from_dict(CALIBRATION))).get("/state").json()
    assert state["camera_svg"].count('class="wrong"') == 0
    assert state["read_svg"].count('class="wrong"') == 0
    assert state["observation"]["confidence"] == 0.97


def test_a_token_guards_every_route(live):
    client = TestClient(create_app(live, token="s3cret"))
    for path in ("/", "/state", "/camera.jpg", "/match.mat", "/static/app.js"):
        assert client.get(path).status_code == 401
    assert client.get("/state?token=wrong").status_code == 401
    assert client.post("/press", json={"button": "double"}).status_code == 401
    assert live.presses.empty()
    assert client.get("/state", headers={"Authorization": "Bearer s3cret"}).status_code == 200
    page = client.get("/?token=s3cret")
    assert page.status_code == 200
    assert "bgboard_token=s3cret" in page.headers["set-cookie"]
    assert "httponly" in page.headers["set-cookie"].lower()
    assert client.get("/state").status_code == 200  # the page's cookie
    assert client.post("/press", json={"button": "take"}).status_code == 200
    assert live.presses.get_nowait() == "take"


def test_serve_off_the_loopback_needs_a_token(live):
    with pytest.raises(ValueError, match="the web view on 0.0.0.0 needs a token"):
        serve(live, "0.0.0.0", 0)


def _events(url: str, got: list, ready: threading.Event):
    with httpx.stream("GET", url, timeout=10) as answer:
        got.append(answer.headers["content-type"])
        for line in answer.iter_lines():
            if line.startswith("data: "):
                got.append(json.loads(line[6:]))
                ready.set()
                if len(got) == 3:
                    return


def test_serve_streams_each_change_and_stops(live):
    server = serve(live, port=0)
    try:
        assert server.url.startswith("http://127.0.0.1:") and server.url.endswith("/")
        got, ready = [], threading.Event()
        reader = threading.Thread(target=_events, args=(server.url + "events", got, ready))
        reader.start()
        assert ready.wait(10)
        live.event(Event("dice", "white rolled 31", {"color": "white", "dice": [3, 1]}))
        reader.join(10)
        assert got[0].startswith("text/event-stream")
        assert got[1]["events"] == []
        assert got[2]["events"] == [{"kind": "dice", "text": "white rolled 31",
                                     "color": "white", "dice": [3, 1]}]
        assert got[2]["version"] > got[1]["version"]
    finally:
        server.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.get(server.url, timeout=2)


def test_serve_with_a_token_on_every_address(live):
    server = serve(live, "0.0.0.0", 0, token="pa ss")
    try:
        port = server.url.split(":")[2].split("/")[0]
        assert server.url.endswith(f":{port}/?token=pa%20ss")
        local = f"http://127.0.0.1:{port}/state"
        assert httpx.get(local, timeout=5).status_code == 401
        assert httpx.get(local, params={"token": "pa ss"}, timeout=5).json()["players"] == \
            ["Ann", "Bob"]
    finally:
        server.stop()


def test_serve_on_a_busy_port_says_so(live):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        with pytest.raises(OSError, match=f"the web view cannot listen on 127.0.0.1:{port}"):
            serve(live, port=port)


def _read_to_the_end(url: str, opened: threading.Event, ended: list) -> None:
    with httpx.stream("GET", url, timeout=30) as answer:
        for line in answer.iter_lines():
            if line.startswith("data: "):
                opened.set()
    ended.append(True)


def test_stop_ends_the_open_event_streams(live):
    server = serve(live, port=0)
    opened, ended = threading.Event(), []
    reader = threading.Thread(target=_read_to_the_end,
                              args=(server.url + "events", opened, ended))
    reader.start()
    assert opened.wait(10)
    server.stop()
    reader.join(5)
    assert ended == [True]
