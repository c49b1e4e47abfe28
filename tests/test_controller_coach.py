"""The tutor at the board: hints and verdicts from the real engine reach LEDs, web and journal."""

from __future__ import annotations

import pytest

from bgboard.controller.coach import Coach
from bgboard.controller.demo.film import film_calibration, film_match
from bgboard.controller.follow import settings_for
from bgboard.controller.turns.events import EventBus
from bgboard.controller.turns.session import Session
from bgboard.controller.turns.stabilizer import Stabilizer
from bgboard.controller.tutor import Tutor, TutorSettings
from bgboard.engine.board import WHITE
from bgboard.engine.game import Game, Match

pytest.importorskip("gnubg_nn", reason="gnubg-nn is not installed: no engine to tutor with")


def choices_before(record):
    """Each move of a game record with the number of legal plays its roll had."""
    game, out = Game(), []
    for action in record:
        if action.kind != "move":
            getattr(game, action.kind)()
            continue
        if not game.state.started:
            high, low = action.dice
            game.opening(*((high, low) if action.color is WHITE else (low, high)))
        else:
            game.roll(*action.dice)
        out.append((action, len(game.legal_plays())))
        game.move(action.play)
    return out


def test_hints_for_white_and_verdicts_for_black_on_a_filmed_game():
    film = film_match(2, games=1)
    match, bus = Match(), EventBus()
    shown, published, logged = [], [], []
    tutor = Tutor(TutorSettings(ply=0, engine="gnubg-nn", hints_per_game=None),
                  {"white": "hint", "black": "warn"})
    coach = Coach(tutor, match, show=shown.append, publish=published.append, log=logged.append)
    session = Session(match, bus, settings=settings_for(film_calibration(film)))
    bus.subscribe(coach)
    stabilizer = Stabilizer()
    with tutor:
        for i, obs in enumerate(film.observations()):
            if i in film.buttons:
                session.press(film.buttons[i])
            view = stabilizer.feed(obs, i / 10)
            if view is not None:
                session.view(view)
                coach.drain(wait=30)
    record = match.games[0].record
    assert record == film.match.games[0].record
    white_rolls = [a for a, choices in choices_before(record) if a.color is WHITE and choices > 1]
    hints = [p for p in published if p["kind"] == "hint"]
    verdicts = [p for p in published if p["kind"] == "verdict"]
    assert len(hints) == len(white_rolls)
    assert all(h["player"] == "white" and h["engine"] == "gnubg-nn" for h in hints)
    assert {v["player"] for v in verdicts} == {"black"}
    assert [r["type"] for r in logged] == ["tutor"] * len(verdicts)
    assert all(v["equity_loss"] >= 0 for v in verdicts)
    assert len(shown) == len(hints) + sum(v["warn"] for v in verdicts)
