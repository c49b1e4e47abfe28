"""The web view in a real browser (Debian's chromium driven by Playwright) during a replayed
game: the moves appear as they are played, "double" and "take" reach the session and the cube
follows, the match file downloads. And its calibrate view: a corner dragged with the mouse is
saved where it was dropped.

Set BGBOARD_WEB_SCREENSHOT=FILE.png to keep the screenshot (docs/web-live.png was made so).
"""

import json
import os
import re

import numpy as np
import pytest
from playwright.sync_api import expect, sync_playwright

from bgboard.calibration.file import Calibration, from_dict
from bgboard.controller.calibrating import Desk, inset_corners
from bgboard.controller.live import LiveState
from bgboard.controller.web import serve
from bgboard.engine.game import Match
from bgboard.vision.synthetic import START_POINTS, Scene, random_scene, render
from web_helpers import Replay

CHROMIUM = "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="Chromium is not installed (apt-get install chromium)")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
TURNS = 5


def move_text(action) -> str:
    """An action as the page's move list words it."""
    return f"{action.color.key} {action.dice[0]}{action.dice[1]}: {action.play.move}"


def tutor_words(advice: dict) -> str:
    """The words the page must show for the coach's advice."""
    if advice["kind"] == "cube":
        return f"cube for {advice['player']}: {advice['advice']}"
    dice = "".join(map(str, advice["dice"]))
    return f"{advice['player']} {dice}: {advice['move']} is {advice['verdict']}; " \
        f"best {advice['best']}"


@pytest.fixture
def replay():
    replay = Replay(turns=TURNS)
    server = serve(replay.live, port=0, calibration=from_dict(replay.calibration))
    yield replay, server
    server.stop()
    replay.stop()


@pytest.fixture
def page():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield browser.new_page(viewport={"width": 1400, "height": 1050}, accept_downloads=True)
        browser.close()


def test_the_page_follows_a_replayed_game_and_doubles(replay, page, tmp_path):
    replay, server = replay
    page.goto(server.url)
    expect(page.locator("#score")).to_have_text("Alice 0 - 0 Bob (money game, game 1)")
    replay.start()
    seen = set()
    while not replay.done.is_set():
        seen.add(page.locator("#moves li").count())
        page.wait_for_timeout(100)
    expected = [move_text(a) for a in replay.film.match.games[0].record[:TURNS]]
    expect(page.locator("#moves li")).to_have_text(expected)
    assert len(seen - {TURNS}) >= 3, f"the moves did not appear one by one: {sorted(seen)}"
    page.wait_for_function("document.getElementById('camera').naturalWidth === 1280")
    expect(page.locator("#camera-overlay polygon")).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("camera: ok (replay)")
    advice = replay.live.snapshot()["tutor"]
    assert replay.coach.outstanding == 0 and advice is not None
    newest = re.compile("^" + re.escape(tutor_words(advice)))
    expect(page.locator("#tutor li").first).to_have_text(newest)
    assert page.locator("#tutor li").count() >= 2

    roller = replay.match.games[-1].turn.key
    taker = "black" if roller == "white" else "white"
    expect(page.locator("#turn")).to_contain_text(f"({roller})")
    expect(page.locator("#cube")).to_have_text("1 (centred)")
    page.click("button[data-button=double]")
    expect(page.locator("#pressed")).to_have_text("double sent")
    expect(page.locator("#cube")).to_have_text(f"1 (centred), {roller} doubles to 2")
    assert replay.pressed == ["double"]
    expect(page.locator("#board .cube text")).to_have_text("2")
    expect(page.locator("#events li").first).to_have_text(f"{roller} doubles to 2")
    page.screenshot(path=os.environ.get("BGBOARD_WEB_SCREENSHOT", tmp_path / "web.png"),
                    full_page=True)

    page.click("button[data-button=take]")
    expect(page.locator("#cube")).to_have_text(f"2 ({taker}'s)")
    assert replay.pressed == ["double", "take"]
    with page.expect_download() as download:
        page.click("a[href='match.mat']")
    text = open(download.value.path(), encoding="utf-8").read()
    assert text == replay.live.match_file("mat")
    assert "Doubles => 2" in text and "Takes" in text


def drag(page, selector: str, dx: float, dy: float) -> None:
    """Press the mouse on the middle of `selector`, move it by (dx, dy) CSS pixels, let go."""
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=5)
    page.mouse.up()


def test_the_calibrate_view_saves_a_dragged_corner(page, tmp_path):
    start = render(Scene(START_POINTS, look=random_scene(0).look), 0)
    match = Match()
    match.new_game()
    live = LiveState(match)
    live.frame(start.image)
    out = tmp_path / "cal.json"
    server = serve(live, port=0, desk=Desk(live.image, out, from_dict(start.calibration),
                                           live=True))
    try:
        page.set_viewport_size({"width": 670, "height": 900})
        page.goto(server.url)
        page.click("text=calibrate the camera")
        expect(page.locator("#grid polygon")).to_have_count(26)  # field, bar, 24 points
        expect(page.locator("#grid text")).to_have_text([str(abs(n)) for n in START_POINTS if n])
        assert page.locator("#handles").bounding_box()["width"] == 640  # 2 frame px a CSS px
        drag(page, "#handles [data-corner=p13] circle", 30, 20)
        page.click("#save")
        expect(page.locator("#message")).to_have_text(re.compile(f"^wrote {re.escape(str(out))}"))
        x, y = start.calibration["corners_px"]["p13"]
        moved = dict(start.calibration["corners_px"], p13=[round(x + 60, 2), round(y + 40, 2)])
        assert json.loads(out.read_text())["corners_px"] == moved

        centre = np.mean(list(moved.values()), axis=0)
        dx, dy = (centre - moved["p1"]) / 2
        drag(page, "#handles [data-corner=p1] circle", dx, dy)  # p1 inside: no field
        expect(page.locator("#message")).to_have_text(
            "corners_px p1, p12, p13, p24 do not make a convex quadrilateral in order")
        page.click("#save")
        expect(page.locator("#message")).to_have_text(
            "corners_px p1, p12, p13, p24 do not make a convex quadrilateral in order")
        assert json.loads(out.read_text())["corners_px"] == moved
    finally:
        server.stop()


def test_a_corner_dragged_by_a_finger_on_the_calibrate_view_alone(tmp_path):
    """As `bgboard calibrate --web` serves it: a grey photo (no field found, the inset guess),
    a touch screen; p13 dragged 30, 20 CSS px right and down lands 60, 40 frame px away."""
    frame = np.full((720, 1280, 3), 128, np.uint8)
    out = tmp_path / "cal.json"
    server = serve(None, port=0, desk=Desk(lambda: frame, out, Calibration(
        (1280, 720), inset_corners((1280, 720))), learn=False))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 670, "height": 900}, has_touch=True)
            page = context.new_page()
            page.goto(server.url)
            expect(page.locator("#grid polygon")).to_have_count(26)
            box = page.locator("#handles [data-corner=p13] circle").bounding_box()
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            touch = context.new_cdp_session(page)
            for kind, step in [("touchStart", 0), *(("touchMove", i) for i in range(1, 6)),
                               ("touchEnd", None)]:
                points = [] if step is None else [{"x": x + 6 * step, "y": y + 4 * step}]
                touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
            page.click("#save")
            expect(page.locator("#message")).to_have_text(
                f"wrote {out}: corners p1 1152,648 p12 128,648 p13 188,112 p24 1152,72")
        finally:
            browser.close()
            server.stop()
    assert json.loads(out.read_text())["corners_px"] == {
        "p1": [1152.0, 648.0], "p12": [128.0, 648.0], "p13": [188.0, 112.0],
        "p24": [1152.0, 72.0]}
