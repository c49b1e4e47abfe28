"""The controller trusts the rules over any one frame: faults injected into a filmed game's
Observations (fed to `bgboard record --observations`) still give every action right, or an
"unsure" event and no record until the players decide; the evidence model, the LEDs and the
web view of an unsure."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from starlette.testclient import TestClient

from bgboard.controller.demo.film import film_match
from bgboard.controller.live import LiveState
from bgboard.controller.recorder import follow
from bgboard.controller.turns import evidence
from bgboard.controller.turns.events import Event, EventBus
from bgboard.controller.turns.journal import Journal, read_journal, rebuild
from bgboard.controller.turns.session import Settings
from bgboard.controller.turns.stabilizer import Die
from bgboard.controller.web import create_app
from bgboard.engine.board import START, START_POINTS
from bgboard.engine.game import Match
from bgboard.hardware import signals
from bgboard.hardware.layout import index
from cli_helpers import bgboard
from controller_helpers import board, frame_of

FILM = film_match(1, games=1)  # 63 actions; White's home on White's right (--home right)
UNSURE_AT = 605  # with wrong_die, the frame the session says it is unsure of White's dance
# (a frame before Black reaches for the board: after that the likelier reading is recorded)
TRUTH = [(a.color.key, list(a.dice), a.play.move if a.play else None)
         for a in FILM.match.games[0].record if a.kind == "move"]


def short_stacks(obs: dict, rng: random.Random, frame: int) -> dict:
    """Every stack of six or more read one short."""
    return {**obs, "points": [n - (n > 0) + (n < 0) if abs(n) >= 6 else n
                              for n in obs["points"]]}


def one_point(obs: dict, rng: random.Random, frame: int) -> dict:
    """White's 13-point one checker more for the first 40 s (its first ten turns)."""
    points = list(obs["points"])
    if frame < 400 and points[12]:
        points[12] += 1 if points[12] > 0 else -1
    return {**obs, "points": points}


def wrong_die(obs: dict, rng: random.Random, frame: int, rate: float = 0.3) -> dict:
    """A die read as another value in `rate` of the frames with dice."""
    if not obs["dice"] or rng.random() >= rate:
        return obs
    dice = [dict(d) for d in obs["dice"]]
    die = dice[rng.randrange(len(dice))]
    die["value"] = rng.choice([v for v in range(1, 7) if v != die["value"]])
    return {**obs, "dice": dice}


def flipped(obs: dict, rng: random.Random, frame: int, rate: float = 0.2) -> dict:
    """One occupied point's colour flipped in `rate` of the frames."""
    occupied = [i for i, n in enumerate(obs["points"]) if n]
    if rng.random() >= rate:
        return obs
    points = list(obs["points"])
    i = rng.choice(occupied)
    points[i] = -points[i]
    return {**obs, "points": points}


def everything(obs: dict, rng: random.Random, frame: int) -> dict:
    """All four at half the rates (the stacks and the point in half the frames)."""
    if rng.random() < 0.5:
        obs = short_stacks(obs, rng, frame)
    if rng.random() < 0.5:
        obs = one_point(obs, rng, frame)
    return flipped(wrong_die(obs, rng, frame, 0.15), rng, frame, 0.1)


def stream(fault) -> str:
    rng = random.Random(1)
    return "".join(json.dumps({**fault(o, rng, i), "t": round(i / 10, 1)}) + "\n"
                   for i, o in enumerate(FILM.observations()))


def recorded(tmp_path, fault, *events: dict):
    """`bgboard record --observations -` on the faulty film: (exit code, stdout, the turns
    in the journal, stderr)."""
    journal, out = tmp_path / "game.jsonl", tmp_path / "game.mat"
    buttons = tmp_path / "buttons.jsonl"
    presses = {**{f: b for f, b in FILM.buttons.items()},
               **{e["frame"]: e["button"] for e in events}}
    buttons.write_text("".join(json.dumps({"frame": f, "button": b}) + "\n"
                               for f, b in sorted(presses.items())))
    run = bgboard("record", "--observations", "-", "--out", str(out), "--journal",
                  str(journal), "--events", str(buttons), stdin=stream(fault))
    turns = [[r["color"], r["dice"], r["move"]] for r in read_journal(journal)
             if r["type"] == "turn"]
    return run.returncode, run.stdout, turns, run.stderr


@pytest.mark.parametrize("fault", [short_stacks, one_point, flipped, everything])
def test_systematic_faults_still_give_every_turn(tmp_path, fault):
    code, _, turns, _ = recorded(tmp_path, fault)
    assert code == 0
    assert [tuple(t) for t in turns] == TRUTH


def test_a_dance_whose_dice_stay_in_doubt_is_settled_when_the_game_moves_on(tmp_path):
    code, out, turns, err = recorded(tmp_path, wrong_die)
    assert code == 0
    assert [tuple(t) for t in turns] == TRUTH  # nobody confirmed: the game is followed on
    assert "unsure of the dice: 32: (no move) or 62: (no move)? press confirm for the " \
           "first, or touch up the stack\n" in out
    assert err.splitlines()[0] == "turn 20: recorded 32: (no move), likelier than 62: " \
                                  "(no move); check it"
    (tmp_path / "confirmed").mkdir()
    code, out, turns, err = recorded(tmp_path / "confirmed", wrong_die,
                                     {"frame": UNSURE_AT + 1, "button": "confirm"})
    assert [tuple(t) for t in turns] == TRUTH
    assert "turn 20" not in err


def test_learning_the_boards_quirks_is_what_keeps_the_short_stacks_game_sure(monkeypatch):
    def turns(bus: EventBus) -> list[tuple]:
        match = Match()
        follow(((o["t"], o) for o in map(json.loads, stream(short_stacks).splitlines())),
               Settings(white_right_high=False), match=match, bus=bus,
               buttons=dict(FILM.buttons))
        return [(a.color.key, list(a.dice), a.play.move if a.play else None)
                for a in match.games[0].record if a.kind == "move"]

    bus = EventBus()
    assert turns(bus) == TRUTH
    assert [e for e in bus.history if e.kind in ("unsure", "settled")] == []
    monkeypatch.setattr(evidence.Quirks, "learn", lambda self, board, frames: None)
    bus = EventBus()
    assert turns(bus) == TRUTH  # unsure in the bear-off, where stacks of six stand: settled
    assert [e.text for e in bus.history if e.kind == "unsure"][0] == (
        "unsure of 20, 22, 23: 41: 5/1 4/3 or 41: 4/off 2/1? press confirm for the first, "
        "or touch up the stack")
    assert [e.data for e in bus.history if e.kind == "settled"] == [
        {"turn": 51, "readings": ["21: 2/off 1/off", "21: 2/1 2/off"]},
        {"turn": 52, "readings": ["31: 3/off 1/off", "31: 3/off 2/1"]}]


# --- one turn, two readings: the unsure event, its LEDs and its web view ------------------

# White opens 31; the camera sees 24/21 half done and 8/5 half done: 8/5 6/5 or 24/21 6/5?
HALFWAY = board({24: -1, 21: 1, 8: -1, 6: -1, 5: 2})


def halfway_frames() -> list[dict]:
    """White (home right: White's half is x < 0.5) opens 31 (3 for White, 1 for Black) and
    leaves HALFWAY on the board; the dice are picked up."""
    shots = [(START_POINTS, ((3, 0.2), (1, 0.8)), 6), (HALFWAY, ((3, 0.2), (1, 0.3)), 6),
             (HALFWAY, (), 30)]
    hand = {**frame_of(START_POINTS), "hand": True}
    return [f for points, dice, n in shots for f in [hand, hand] + [frame_of(points, dice)] * n]


def halfway_session(*presses: tuple[int, str]):
    """The HALFWAY frames followed, with these presses (frame number, button)."""
    frames = halfway_frames()
    bus = EventBus()
    match = Match()
    follow(((i / 10, f) for i, f in enumerate(frames)), Settings(white_right_high=False),
           match=match, bus=bus, buttons=dict(presses))
    return match, bus


def test_two_readings_that_stay_close_are_said_and_recorded_only_when_the_recording_ends():
    match, bus = halfway_session()
    unsure = [e for e in bus.history if e.kind == "unsure"]
    assert [(e.text, e.data) for e in unsure] == [(
        "unsure of 5, 8, 21, 24: 31: 24/21 6/5 or 31: 8/5 6/5? press confirm for the "
        "first, or touch up the stack",
        {"points": [5, 8, 21, 24], "readings": ["31: 24/21 6/5", "31: 8/5 6/5"],
         "ratio": 1.0})]
    first, settled = bus.history.index(unsure[0]), [e for e in bus.history if e.kind == "settled"]
    assert [e.kind for e in bus.history[first:]] == ["unsure", "settled", "committed"]
    assert settled[0].text == "turn 1: recorded 31: 24/21 6/5, likelier than 31: 8/5 6/5; " \
                              "check it"
    assert [(a.dice, a.play.move) for a in match.games[0].record] == [((3, 1), "24/21 6/5")]


def test_a_settled_turn_the_next_turn_shows_wrong_is_recorded_again(tmp_path):
    """Nobody answers the HALFWAY doubt: when Black reaches for the board the likelier reading
    (24/21 6/5) is recorded; Black's turn then shows White's checkers where 8/5 6/5 left them,
    so that play is recorded instead, the take-back journalled."""
    played = board({8: -1, 6: -1, 5: 2})  # what White played: 8/5 6/5
    black = list(played)
    black[0], black[10] = black[0] + 1, black[10] - 1  # Black 64: 24/14 (White's 1 to 11)
    hand = {**frame_of(played), "hand": True}
    black_dice, white_dice = ((6, 0.7), (4, 0.8)), ((2, 0.2), (1, 0.3))
    frames = [*halfway_frames(), *[frame_of(HALFWAY, black_dice)] * 6, hand,
              *[frame_of(black, black_dice)] * 6, hand, *[frame_of(black)] * 6,
              *[frame_of(black, white_dice)] * 6, hand, *[frame_of(black, white_dice)] * 4]
    bus, match = EventBus(), Match()
    journal = Journal(tmp_path / "game.jsonl")
    journal.append({"type": "match", "length": 0, "players": ["A", "B"], "version": 1})
    follow(((i / 10, f) for i, f in enumerate(frames)), Settings(white_right_high=False),
           match=match, bus=bus, journal=journal)
    journal.close()
    moves = [(a.color.key, a.dice, a.play.move) for a in match.games[0].record]
    assert moves == [("white", (3, 1), "8/5 6/5"), ("black", (6, 4), "24/14")]
    assert [e.text for e in bus.history if e.kind == "settled"] == [
        "turn 1: recorded 31: 24/21 6/5, likelier than 31: 8/5 6/5; check it",
        "turn 1: the next turn shows 31: 8/5 6/5, not 31: 24/21 6/5; recorded again"]
    records = read_journal(tmp_path / "game.jsonl")
    assert [(r["type"], r.get("move")) for r in records[1:]] == [
        ("turn", "24/21 6/5"), ("undo", None), ("turn", "8/5 6/5"), ("turn", "24/14")]
    assert rebuild(records)[0].games[0].record == match.games[0].record


def test_confirm_records_the_first_reading():
    match, bus = halfway_session((35, "confirm"))
    assert [(a.dice, a.play.move) for a in match.games[0].record] == [((3, 1), "24/21 6/5")]


def test_confirm_in_play_teaches_the_reader_the_boards_look_beside_the_calibration(tmp_path):
    from bgboard.calibration.file import load
    from bgboard.calibration.rectify import FieldView
    from bgboard.controller.play import LiveGame, PlayOptions
    from bgboard.controller.turns.session import Session
    from bgboard.controller.turns.stabilizer import Stabilizer
    from bgboard.vision.columns import Columns
    from bgboard.vision.synthetic import Scene, random_scene, render

    shown = render(Scene(tuple(HALFWAY), look=random_scene(4).look), 4)
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(shown.calibration))
    play = LiveGame(PlayOptions(calibration=str(path), out=str(tmp_path / "games")))
    session = Session(play.match, play.bus)
    play._calibrate(play.calibration, session)
    session.settings = Settings(white_right_high=False)
    stabilizer = Stabilizer()
    for i, obs in enumerate(halfway_frames()):
        session.observe(obs)
        view = stabilizer.feed(obs, i / 10)
        if view is not None:
            session.view(view)
        session.tick(i / 10)
    assert session.unsure and load(path).board is None
    play.last_frame = shown.image
    play.buttons.put("confirm")
    play._drain(session)
    assert not session.unsure
    assert [(a.dice, a.play.move) for a in play.match.games[0].record] == [((3, 1), "24/21 6/5")]
    kept = load(path)
    assert (tmp_path / "cal.board.png").is_file() and play.reader.cal.board is not None
    cut = Columns(FieldView(kept)).cut(shown.image)
    recorded = board({24: -1, 21: 1, 6: -1, 5: 1})
    bare = [i for i, n in enumerate(recorded) if n == 0] + [24, 25]  # no die lies on them
    assert len(bare) == 16
    assert all(np.array_equal(kept.board_patches()[i], cut[i]) for i in bare)


def test_a_double_pressed_while_unsure_waits_for_the_turn():
    match, bus = halfway_session((30, "double"), (32, "take"), (35, "confirm"))
    assert [(a.color.key, a.kind) for a in match.games[0].record] == [
        ("white", "move"), ("black", "double"), ("white", "take")]


def test_the_leds_flash_the_points_in_doubt_pink_three_times():
    pink, off = (255, 40, 140), (0, 0, 0)
    frame = signals.unsure([5, 8, "bar white"])
    cycle = (pink, off, pink, off, pink, off, off, off)
    assert {i: c for i, c in enumerate(frame.lights) if c != (off,)} == {
        index(5): cycle, index(8): cycle, index("bar white"): cycle}


def test_the_web_view_shows_both_readings_until_the_turn_is_recorded():
    match = Match()
    match.new_game()
    live = LiveState(match)
    data = {"points": [5, 8], "readings": ["31: 24/21 6/5", "31: 8/5 6/5"], "ratio": 1.0}
    live.event(Event("unsure", "unsure ...", data))
    assert live.snapshot()["unsure"] == {"points": [5, 8],
                                         "readings": ["31: 24/21 6/5", "31: 8/5 6/5"]}
    live.event(Event("committed", "white 31: 24/21 6/5", {}))
    assert live.snapshot()["unsure"] is None
    page = TestClient(create_app(live)).get("/").text
    assert '<div id="unsure" class="unsure" hidden>' in page
    assert '<ol id="unsure-readings"></ol>' in page


# --- the evidence model ---------------------------------------------------------------------

def test_a_point_that_always_reads_one_short_costs_less_after_a_commit():
    quirks = evidence.Quirks()
    seen = frame_of(board({6: -1}))  # White's 6-point (5 checkers) read as 4
    true = evidence.board_places((START.points, 0, 0))
    before = evidence.frame_scores(true[None, :], [seen], quirks)[0]
    quirks.learn((START.points, 0, 0), [seen] * 5)
    after = evidence.frame_scores(true[None, :], [seen], quirks)[0]
    by_place, by_height = quirks.table()
    assert by_place[5].round(4).tolist() == [0.0013, 0.3467, 0.636, 0.0133, 0.0013, 0.0013]
    assert by_height[5].round(4).tolist() == [0.0007, 0.1733, 0.818, 0.0067, 0.0007, 0.0007]
    assert round(after - before, 4) == 0.5952  # a look at it costs e^0.6 less


def test_dice_are_a_likelihood_over_every_frame_not_a_vote():
    seen = [(5, 3)] * 6 + [(6, 3)] * 4  # a 5 most of the time, a 6 sometimes
    assert round(evidence.dice_score((5, 3), seen), 4) == -3.4668
    assert round(evidence.dice_score((6, 3), seen), 4) == -4.9894  # 4.5 times less likely
    assert round(evidence.dice_score((5, 3), [(5,)]), 4) == -0.0211


def test_the_runner_up_and_the_points_in_doubt():
    boards = np.array([evidence.board_places((tuple(HALFWAY), 0, 0)),
                       evidence.board_places((START.points, 0, 0))])
    ranking = evidence.rank(np.array([-1.0, -4.0]), boards)
    assert (ranking.best, ranking.runner_up, ranking.log_ratio, ranking.doubt) == (
        0, 1, 3.0, (5, 6, 8, 21, 24))


def test_a_stable_view_alone_is_evidence_too():
    """Sessions fed stable views only (no frames) weigh each view as one look."""
    from bgboard.controller.turns.session import Session
    from bgboard.controller.turns.stabilizer import StableView

    match = Match()
    session = Session(match, EventBus(), settings=Settings(white_right_high=False))
    session.view(StableView(START.points, 0, 0, (Die(3, 0.2, 0.5, False),
                                                Die(1, 0.8, 0.5, False)), (1.0,) * 26, 0.5))
    played = board({8: -1, 6: -1, 5: 2})
    session.view(StableView(tuple(played), 0, 0, (), (1.0,) * 26, 1.0))
    assert [(a.dice, a.play.move) for a in match.games[0].record] == [((3, 1), "8/5 6/5")]
