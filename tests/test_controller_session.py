"""The session on ground-truth observation streams: every turn right, every signal given."""

from __future__ import annotations

import functools

import pytest

from bgboard.controller.demo.film import Shot, film_match
from bgboard.controller.demo.film import film_calibration as calibration
from bgboard.controller.recorder import record
from bgboard.controller.turns.journal import Journal, read_journal, rebuild
from bgboard.engine.board import BLACK, START, WHITE
from bgboard.vision import synthetic as synth
from controller_helpers import noisy

FILMS = [film_match(seed, games=2, length=3) for seed in (1, 2, 3)]


@functools.cache
def recorded(index: int):
    film = FILMS[index]
    return record(film.observations(), lambda o: o, calibration=calibration(film),
                  buttons=film.buttons, match=type(film.match)(length=3))


def records(match):
    return [[(a.color, a.kind, a.dice, a.play.move if a.play else None) for a in g.record]
            for g in match.games]


@pytest.mark.parametrize("index", [0, 1, 2])
def test_every_turn_of_filmed_matches_is_recorded(index):
    film, result = FILMS[index], recorded(index)
    assert records(result.match) == records(film.match)
    assert [g.result for g in result.match.games] == [g.result for g in film.match.games]


def test_the_films_hold_ties_cocked_dice_hits_bar_bearoff_and_cube():
    kinds = [e.kind for index in range(3) for e in recorded(index).bus.history]
    actions = [a for film in FILMS for g in film.match.games for a in g.record]
    assert {"opening_tie", "roll_again", "double", "take", "game_over"} <= set(kinds)
    assert any(a.play and any(s.hit for s in a.play.steps) for a in actions)
    assert any(a.play and any(s.end == 0 for s in a.play.steps) for a in actions)


@pytest.mark.parametrize("seed", [11, 12])
def test_noise_does_not_change_the_record(seed):
    film = FILMS[seed % 3]
    result = record(noisy(film.observations(), seed), lambda o: o,
                    calibration=calibration(film), buttons=film.buttons,
                    match=type(film.match)(length=3))
    assert records(result.match) == records(film.match)


def manual(*shots: Shot) -> list[dict]:
    return [s.observation() for s in shots for _ in range(s.frames)]


LOOK = synth.Look()  # p1 at the bottom right: White's right half is field x < 0.5
CAL = {"version": 1, "image_size": [1280, 720],
       "corners_px": dict(zip(("p1", "p12", "p13", "p24"), map(list, LOOK.corners),
                              strict=True))}


def board(moves: dict[int, int], base=START.points) -> tuple[int, ...]:
    points = list(base)
    for index, change in moves.items():
        points[index - 1] += change
    return tuple(points)


def opening_31_by_white() -> list[Shot]:
    dice = (synth.Die(3, (0.2, 0.5)), synth.Die(1, (0.8, 0.5)))  # White's die on x < 0.5
    return [Shot(START.points, (0, 0), dice, frames=6)]


def test_an_illegal_play_is_named_then_corrected():
    wrong = board({8: -1, 2: 1, 6: -1, 5: 1})  # 8/2 6/5 with 31
    right = board({8: -1, 5: 2, 6: -1})
    stream = manual(*opening_31_by_white(),
                    Shot(wrong, (0, 0), opening_31_by_white()[0].dice, frames=25),
                    Shot(right, (0, 0), opening_31_by_white()[0].dice, frames=6),
                    Shot(right, (0, 0), (), frames=6))
    result = record(stream, lambda o: o, calibration=CAL)
    illegal = [e for e in result.bus.history if e.kind == "illegal"]
    assert [(e.data["reason"], e.data["points"]) for e in illegal] == [
        ("6/2 is 4 pips; the dice left are 1", [6, 2])]
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5")]]


def test_a_misplaced_checker_before_the_roll_is_a_mismatch_with_guidance():
    after = board({8: -1, 5: 2, 6: -1})
    bumped = board({13: -1, 12: 1}, after)  # a White checker slid from 13 onto Black's 12
    bumped = board({13: -1, 14: 1}, after)
    stream = manual(*opening_31_by_white(), Shot(after, (0, 0), (), frames=6),
                    Shot(bumped, (0, 0), (), frames=25))
    result = record(stream, lambda o: o, calibration=CAL)
    [event] = [e for e in result.bus.history if e.kind == "mismatch"]
    assert event.data["points"] == [13, 14]
    assert event.data["corrections"] == [[14, 13]]


def test_returning_to_the_position_before_the_last_turn_takes_it_back():
    after = board({8: -1, 5: 2, 6: -1})
    other = board({24: -1, 20: 1})
    dice = opening_31_by_white()[0].dice
    stream = manual(*opening_31_by_white(), Shot(after, (0, 0), dice, frames=6),
                    Shot(after, (0, 0), (), frames=6), Shot(START.points, (0, 0), (), frames=6),
                    Shot(other, (0, 0), (), frames=6))
    result = record(stream, lambda o: o, calibration=CAL)
    kinds = [e.kind for e in result.bus.history]
    assert kinds.count("takeback") == 1
    assert records(result.match) == [[(WHITE, "move", (3, 1), "24/20")]]


def test_undo_after_the_next_roll_is_refused_not_a_crash():
    after = board({8: -1, 5: 2, 6: -1})
    black_dice = (synth.Die(6, (0.7, 0.4)), synth.Die(4, (0.8, 0.6)))
    stream = manual(*opening_31_by_white(), Shot(after, (0, 0), (), frames=6),
                    Shot(after, (0, 0), black_dice, frames=12))
    result = record(stream, lambda o: o, calibration=CAL, buttons={len(stream) - 2: "undo"})
    [illegal] = [e for e in result.bus.history if e.kind == "illegal"]
    assert illegal.text == ("undo: black has rolled 6-4: a play can be taken back only before "
                            "the next roll")
    game = result.match.games[0]
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5")]]
    assert game.dice == (6, 4) and game.turn is BLACK


def test_dice_on_the_wrong_half_or_cocked_mean_roll_again():
    after = board({8: -1, 5: 2, 6: -1})
    wrong_half = (synth.Die(6, (0.2, 0.4)), synth.Die(4, (0.3, 0.6)))  # White's half
    cocked = (synth.Die(6, (0.7, 0.4)), synth.Die(4, (0.8, 0.6), cocked=True))
    good = (synth.Die(6, (0.7, 0.4)), synth.Die(4, (0.8, 0.6)))
    stream = manual(*opening_31_by_white(), Shot(after, (0, 0), (), frames=6),
                    Shot(after, (0, 0), wrong_half, frames=6), Shot(after, (0, 0), frames=6),
                    Shot(after, (0, 0), cocked, frames=6), Shot(after, (0, 0), frames=6),
                    Shot(after, (0, 0), good, frames=6))
    result = record(stream, lambda o: o, calibration=CAL)
    assert [e.data["reason"] for e in result.bus.history if e.kind == "roll_again"] == [
        "the dice must land on the roller's right half", "a die is cocked"]
    assert result.match.games[0].dice == (6, 4) and result.match.games[0].turn is BLACK


def test_a_roll_with_no_legal_play_is_recorded_as_a_pass():
    from engine_helpers import make

    closed = make({24: 2, 1: 13}, {18: 2, 12: 13})
    stream = manual(Shot(closed.points, (0, 0), frames=6),
                    Shot(closed.points, (0, 0), (synth.Die(6, (0.2, 0.4)),
                                                 synth.Die(6, (0.3, 0.6))), frames=6),
                    Shot(closed.points, (0, 0), (), frames=6))
    from bgboard.controller.turns.events import EventBus
    from bgboard.controller.turns.session import Session, Settings
    from bgboard.controller.turns.stabilizer import Stabilizer
    from bgboard.engine.game import Match

    match = Match()
    match.new_game(closed)
    bus = EventBus()
    session = Session(match, bus, settings=Settings(white_right_high=False))
    stab = Stabilizer()
    for i, obs in enumerate(stream):
        view = stab.feed(obs, i / 10)
        if view:
            session.view(view)
    assert [e.kind for e in bus.history] == ["dice", "no_move", "committed"]
    assert match.games[0].record[-1].play is None and match.games[0].turn is BLACK


def test_the_journal_rebuilds_the_match_even_after_a_torn_write(tmp_path):
    film = FILMS[0]
    path = tmp_path / "game.jsonl"
    journal = Journal(path)
    journal.append({"type": "match", "length": 3, "players": ["A", "B"], "version": 1})
    result = record(film.observations(), lambda o: o, calibration=calibration(film),
                    buttons=film.buttons, journal=journal, match=type(film.match)(length=3))
    journal.close()
    match, names = rebuild(read_journal(path))
    assert names == ("A", "B") and records(match) == records(result.match)
    with open(path, "a") as torn:
        torn.write('{"type": "turn", "col')
    assert records(rebuild(read_journal(path))[0]) == records(result.match)


def test_a_point_misread_for_good_no_longer_stalls_the_game():
    film = FILMS[0]
    obs = film.observations()
    truth = film.match.games[0].record
    tenth = sum(s.frames for s in film.shots[:_shot_after_moves(film, 10)])
    for o in obs[tenth:]:  # from the 10th turn's end on, one checker is misread for good
        o["points"] = list(o["points"])
        o["points"][11] += 1 if o["points"][11] >= 0 else -1
    result = record(obs, lambda o: o, calibration=calibration(film), buttons=film.buttons,
                    match=type(film.match)(length=3))
    assert result.match.games[0].record == truth


def _shot_after_moves(film, moves: int) -> int:
    """The index of the shot that shows the board after the first `moves` pick-ups."""
    done = 0
    for index, shot in enumerate(film.shots):
        if not shot.hand and not shot.dice and index and film.shots[index - 1].hand:
            done += 1
            if done == moves:
                return index
    raise AssertionError("the film is shorter")


BLACK_64 = (synth.Die(6, (0.7, 0.4)), synth.Die(4, (0.8, 0.6)))  # on Black's right half
WHITE_21 = (synth.Die(2, (0.2, 0.4)), synth.Die(1, (0.3, 0.6)))  # on White's right half


def black_turn_then_white_rolls(seen_dice, after) -> list[dict]:
    """White opens 31 (8/5 6/5); Black plays to `after` with `seen_dice` in view; White rolls."""
    played = board({8: -1, 5: 2, 6: -1})
    return manual(*opening_31_by_white(), Shot(played, (0, 0), frames=6),
                  Shot(played, (0, 0), seen_dice, frames=6),
                  Shot(after, (0, 0), seen_dice, frames=6), Shot(after, (0, 0), frames=6),
                  Shot(after, (0, 0), WHITE_21, frames=6))


@pytest.mark.parametrize("seen", [(), BLACK_64[:1], (synth.Die(5, (0.7, 0.4)), BLACK_64[1]),
                                  (BLACK_64[0], synth.Die(4, (0.8, 0.6), cocked=True))],
                         ids=["dice unseen", "one die seen", "a die misread", "cocked misread"])
def test_dice_not_read_are_read_from_a_play_only_one_roll_makes(seen, tmp_path):
    after = board({1: 1, 11: -1}, board({8: -1, 5: 2, 6: -1}))  # Black 24/14: only a 64
    journal = Journal(tmp_path / "j.jsonl")
    journal.append({"type": "match", "length": 0, "players": ["A", "B"], "version": 1})
    result = record(black_turn_then_white_rolls(seen, after), lambda o: o, calibration=CAL,
                    journal=journal)
    journal.close()
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5"),
                                      (BLACK, "move", (6, 4), "24/14")]]
    assert result.match.games[0].dice == (2, 1)
    turns = [r for r in read_journal(tmp_path / "j.jsonl") if r["type"] == "turn"]
    assert turns[-1]["inferred"] is True
    assert "black rolled 64 (read from the play)" in [e.text for e in result.bus.history]


def test_a_double_pressed_before_a_turn_whose_dice_were_not_read_waits_for_that_turn():
    after = board({1: 1, 11: -1}, board({8: -1, 5: 2, 6: -1}))  # Black 24/14: only a 64
    frames = black_turn_then_white_rolls((), after)  # Black's dice never seen
    frames[19] = {**frames[19], "hand": True}  # Black's hand moving the checker
    result = record(frames, lambda o: o, calibration=CAL, buttons={26: "double", 28: "take"})
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5"),
                                      (BLACK, "move", (6, 4), "24/14"),
                                      (WHITE, "double", None, None),
                                      (BLACK, "take", None, None)]]


def test_a_die_misread_as_cocked_in_every_frame_does_not_stop_the_game():
    """Black's 4 is read as cocked for the whole turn (roll again is said), but Black plays
    on and White's dice land with no frame between clear of dice and hands: Black's turn is
    read from the play and White's roll followed (a film of a held-out look lost 36 of 49
    actions so)."""
    played = board({8: -1, 5: 2, 6: -1})
    after = board({1: 1, 11: -1}, played)  # Black 24/14: only a 64
    cocked = (BLACK_64[0], synth.Die(4, (0.8, 0.6), cocked=True))
    hand = {**Shot(played, (0, 0)).observation(), "hand": True}
    frames = [*manual(*opening_31_by_white(), Shot(played, (0, 0), frames=6)), hand, hand,
              *manual(Shot(played, (0, 0), cocked, frames=6)), hand, hand,
              *manual(Shot(after, (0, 0), cocked, frames=6)), hand, hand, hand,
              *manual(Shot(after, (0, 0), WHITE_21, frames=6)), hand,
              *manual(Shot(after, (0, 0), WHITE_21, frames=4))]
    result = record(frames, lambda o: o, calibration=CAL)
    assert [e.data["reason"] for e in result.bus.history if e.kind == "roll_again"] == [
        "a die is cocked"]
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5"),
                                      (BLACK, "move", (6, 4), "24/14")]]
    assert result.match.games[0].dice == (2, 1)


def test_a_recording_that_ends_with_the_dice_still_down_keeps_the_play_on_the_board():
    """The game's last turn: the dice are never picked up before the camera stops. The
    complete play the evidence decides is recorded and said; a roll with nothing moved yet
    is not."""
    played = board({8: -1, 5: 2, 6: -1})
    dice = opening_31_by_white()[0].dice
    result = record(manual(*opening_31_by_white(), Shot(played, (0, 0), dice, frames=6)),
                    lambda o: o, calibration=CAL)
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5")]]
    assert [e.data for e in result.bus.history if e.kind == "settled"] == [
        {"turn": 1, "readings": ["31: 8/5 6/5", "part of a play"]}]
    unmoved = record(manual(*opening_31_by_white()), lambda o: o, calibration=CAL)
    assert records(unmoved.match) == [[]] and unmoved.match.games[0].dice == (3, 1)


def test_a_play_several_rolls_make_is_unsure_and_settled_only_when_the_recording_ends():
    after = board({1: 1, 9: -1}, board({8: -1, 5: 2, 6: -1}))  # Black 24/16: a 62 or a 53
    result = record(black_turn_then_white_rolls((), after), lambda o: o, calibration=CAL)
    said = [(e.kind, e.data["readings"]) for e in result.bus.history
            if e.kind in ("unsure", "settled")][1:]
    assert said == [("unsure", ["62: 24/16", "53: 24/16"]),
                    ("settled", ["62: 24/16", "53: 24/16"])]
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5"),
                                      (BLACK, "move", (6, 2), "24/16")]]
    assert result.match.games[0].dice == (2, 1)  # and White's roll is followed


@pytest.mark.parametrize("seen", [BLACK_64[:1], (BLACK_64[0], synth.Die(2, (0.8, 0.6),
                                                                          cocked=True))],
                         ids=["one die seen", "refused as cocked"])
def test_the_dice_seen_decide_between_rolls_the_play_fits(seen):
    after = board({1: 1, 9: -1}, board({8: -1, 5: 2, 6: -1}))  # Black 24/16: a 62 or a 53
    result = record(black_turn_then_white_rolls(seen, after), lambda o: o, calibration=CAL)
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5"),
                                      (BLACK, "move", (6, 2), "24/16")]]


def test_reading_dice_from_the_play_can_be_turned_off():
    from bgboard.controller.turns.events import EventBus
    from bgboard.controller.turns.session import Session, Settings
    from bgboard.controller.turns.stabilizer import Stabilizer
    from bgboard.engine.game import Match

    after = board({1: 1, 11: -1}, board({8: -1, 5: 2, 6: -1}))
    match = Match()
    session = Session(match, EventBus(), settings=Settings(white_right_high=False,
                                                           infer_dice=False))
    stab = Stabilizer()
    for i, obs in enumerate(black_turn_then_white_rolls((), after)):
        view = stab.feed(obs, i / 10)
        if view:
            session.view(view)
    assert len(match.games[0].record) == 1


def test_a_pass_is_recorded_only_with_a_die_of_its_roll_seen():
    from engine_helpers import make

    closed = make({24: 2, 1: 13}, {18: 2, 12: 13})  # White on the bar: 66 cannot enter
    sixes = (synth.Die(6, (0.2, 0.4)), synth.Die(6, (0.3, 0.6), cocked=True))
    blacks = (synth.Die(5, (0.7, 0.4)), synth.Die(4, (0.8, 0.6)))
    from bgboard.controller.turns.events import EventBus
    from bgboard.controller.turns.session import Session, Settings
    from bgboard.controller.turns.stabilizer import Stabilizer
    from bgboard.engine.game import Match

    for seen, passes in (((), 0), (sixes, 1), (sixes[:1], 1)):
        stream = manual(Shot(closed.points, (0, 0), frames=6),
                        Shot(closed.points, (0, 0), seen, frames=6),
                        Shot(closed.points, (0, 0), frames=6),
                        Shot(closed.points, (0, 0), blacks, frames=6))
        match = Match()
        match.new_game(closed)
        session = Session(match, EventBus(), settings=Settings(white_right_high=False))
        stab = Stabilizer()
        for i, obs in enumerate(stream):
            view = stab.feed(obs, i / 10)
            if view:
                session.view(view)
        assert [(a.dice, a.play) for a in match.games[0].record] == [((6, 6), None)] * passes


def test_an_opening_roll_not_read_is_read_from_the_play(tmp_path):
    played = board({8: -1, 5: 2, 6: -1})  # White 8/5 6/5: only a 31
    cocked = (synth.Die(3, (0.2, 0.5), cocked=True), synth.Die(1, (0.8, 0.5)))
    stream = manual(Shot(START.points, (0, 0), cocked, frames=6),
                    Shot(played, (0, 0), cocked, frames=6), Shot(played, (0, 0), frames=6),
                    Shot(played, (0, 0), BLACK_64, frames=6))
    path = tmp_path / "j.jsonl"
    journal = Journal(path)
    journal.append({"type": "match", "length": 0, "players": ["A", "B"], "version": 1})
    result = record(stream, lambda o: o, calibration=CAL, journal=journal)
    journal.close()
    assert records(result.match) == [[(WHITE, "move", (3, 1), "8/5 6/5")]]
    assert result.match.games[0].dice == (6, 4) and result.match.games[0].turn is BLACK
    assert records(rebuild(read_journal(path))[0]) == records(result.match)
