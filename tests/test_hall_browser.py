"""The hall's page in a real browser (Debian's chromium driven by Playwright): three boards
journal their games action by action through the relay and a real Mosquitto broker into the
hall; the page shows every board live (its diagram, score, who is on roll, the last move),
and a click opens one board large with its moves and its match file.

Set BGBOARD_HALL_SCREENSHOT=FILE.png to keep the screenshot."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect, sync_playwright

from bgboard.controller.broker import parse_url
from bgboard.controller.demo.film import film_calibration, film_match
from bgboard.controller.follow import settings_for
from bgboard.controller.hall import Hall
from bgboard.controller.live import match_facts
from bgboard.controller.recorder import follow
from bgboard.controller.relay import attach
from bgboard.controller.turns.journal import Journal, read_journal, rebuild
from bgboard.controller.web.hall import serve_hall
from mqtt_helpers import MOSQUITTO, Mosquitto
from test_web_browser import ARGS, CHROMIUM

pytestmark = pytest.mark.skipif(not (os.path.exists(CHROMIUM) and Path(MOSQUITTO).exists()),
                                reason="needs Chromium and Mosquitto (apt-get install "
                                       "chromium mosquitto)")
NAMES = ("table1", "table2", "table3")
SEEN = """() => {
  window.lastSeen = new Set();  // every last move table2's card showed
  new MutationObserver(() => {
    const last = document.querySelector('.card[data-board="table2"] .last');
    if (last) window.lastSeen.add(last.textContent);
  }).observe(document.getElementById("boards"), {childList: true, subtree: true});
}"""


def journalled(seed: int, path: Path) -> list[dict]:
    """The journal records of a filmed game as the recorder writes them."""
    film = film_match(seed, games=1)
    journal = Journal(path)
    journal.append({"type": "match", "length": 0, "players": ["Alice", "Bob"], "version": 1})
    follow(((i / 10, o) for i, o in enumerate(film.observations())),
           settings_for(film_calibration(film)), buttons=film.buttons, journal=journal)
    journal.close()
    return read_journal(path)


def move_text(m: dict) -> str:
    """A move of match_facts as the page words it."""
    if m["kind"] == "move":
        return f"{m['color']} {m['dice'][0]}{m['dice'][1]}: {m['move'] or '(no move)'}"
    if m["kind"] == "double":
        return f"{m['color']} doubles to {m['cube']}"
    if m["kind"] == "drop":
        return f"{m['color']} passes"
    return f"{m['color']} {m['kind']}s" + (f" (cube {m['cube']})" if m["cube"] else "")


def score_text(facts: dict) -> str:
    return f"Alice {facts['score'][0]} - {facts['score'][1]} Bob (money game, game 1)"


def test_the_hall_page_shows_every_board_live_and_one_large(tmp_path):
    games = {name: journalled(seed, tmp_path / f"{name}-source.jsonl")
             for name, seed in zip(NAMES, (1, 4, 8), strict=True)}
    broker = Mosquitto(tmp_path)
    hall = Hall(parse_url(broker.url()), tmp_path / "hall", note=lambda text: None)
    hall.start()
    server = serve_hall(hall, port=0)
    relays = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(server.url)
            expect(page.locator("#status")).to_have_text("page: connected")
            page.evaluate(SEEN)

            def play(name: str) -> None:
                journal = Journal(tmp_path / f"{name}.jsonl")
                relays.append(attach(journal, parse_url(broker.url()), name))
                for record in games[name]:
                    journal.append(record)
                    time.sleep(0.05)
                journal.close()

            players = [threading.Thread(target=play, args=(name,)) for name in NAMES]
            for player in players:
                player.start()
            for player in players:
                player.join()
            seen = page.evaluate("() => [...window.lastSeen]")
            assert len(seen) >= 5, f"the last move did not follow the game: {seen}"
            expect(page.locator(".card h2")).to_have_text([f"{n} (online)" for n in NAMES])
            expect(page.locator("#count")).to_have_text("3 boards")
            for name in NAMES:
                facts = match_facts(*rebuild(games[name]))
                card = page.locator(f".card[data-board={name}]")
                expect(card.locator(".score")).to_have_text(score_text(facts))
                expect(card.locator(".last")).to_have_text(move_text(facts["moves"][-1]))
                expect(card.locator("svg")).to_have_count(1)
                on_roll = facts["players"][facts["turn"] == "black"] + f" ({facts['turn']})"
                expect(card.locator(".turn")).to_have_text(f"on roll: {on_roll}")

            facts = match_facts(*rebuild(games["table2"]))
            page.click(".card[data-board=table2]")
            expect(page.locator("#detail")).to_be_visible()
            expect(page.locator("#detail-name")).to_have_text("table2 (online)")
            expect(page.locator("#detail-moves li")).to_have_text(
                [move_text(m) for m in facts["moves"]])
            assert page.locator("#detail-board svg").bounding_box()["width"] > 700
            page.screenshot(path=os.environ.get("BGBOARD_HALL_SCREENSHOT",
                                                tmp_path / "hall.png"), full_page=True)
            mat = page.request.get(server.url + "board/table2.mat").text()
            assert mat == (tmp_path / "hall" / "table2.mat").read_text()
            page.click("#detail-close")
            expect(page.locator("#detail")).to_be_hidden()
            browser.close()
    finally:
        for relay in relays:
            relay.close(wait=5)
        server.stop()
        hall.stop()
        broker.stop()
