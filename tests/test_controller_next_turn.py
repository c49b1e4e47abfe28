"""What the next turn tells about a turn the camera could not read whole (issue 68): a roll
of which only one die is ever read is the opponent's roll all the same, and a turn settled
with a die misread in every frame is recorded again, with its real roll, when the next turn
shows where its checkers went."""

from __future__ import annotations

from bgboard.controller.recorder import follow
from bgboard.controller.turns.events import EventBus
from bgboard.controller.turns.journal import Journal, read_journal, rebuild
from bgboard.controller.turns.session import Settings
from bgboard.engine.board import START_POINTS
from bgboard.engine.game import Match
from controller_helpers import board, frame_of

# White's home on White's right (--home right): White's half is field x < 0.5.
WHITE_DICE, BLACK_DICE = (0.2, 0.3), (0.7, 0.8)


def shots(*parts) -> list[dict]:
    """Each part (points, dice, frames): two hand frames, then that many still frames."""
    out = []
    for points, dice, n in parts:
        out += [frame_of(points, hand=True)] * 2 + [frame_of(points, dice)] * n
    return out


def followed(frames, journal=None):
    bus, match = EventBus(), Match()
    follow(((i / 10, f) for i, f in enumerate(frames)), Settings(white_right_high=False),
           match=match, bus=bus, journal=journal)
    return [(a.color.key, a.dice, a.play.move if a.play else None)
            for a in match.games[0].record], bus, match


OPENED = board({8: -1, 6: -1, 5: 2})  # White opens 31: 8/5 6/5
BLACK_64 = board({1: 1, 11: -1}, OPENED)  # Black 64: 24/14 (White's 1 to 11)


def opening() -> list[dict]:
    return shots((START_POINTS, ((3, 0.2), (1, 0.8)), 6), (OPENED, ((3, 0.2), (1, 0.3)), 6),
                 (OPENED, (), 6))


def test_one_die_of_the_next_roll_read_is_the_next_roll():
    """Black's 6 and White's 1 are never read (a lamp washes them out): Black's 64 is
    recorded from the play when White's 2 lands on White's half, not lost."""
    frames = opening() + shots((OPENED, ((4, BLACK_DICE[1]),), 6),
                               (BLACK_64, ((4, BLACK_DICE[1]),), 6), (BLACK_64, (), 6),
                               (BLACK_64, ((2, WHITE_DICE[0]),), 8))
    moves, bus, _ = followed(frames)
    assert moves == [("white", (3, 1), "8/5 6/5"), ("black", (6, 4), "24/14")]
    assert "black rolled 64 (read from the play)" in [e.text for e in bus.history]


def test_one_die_on_the_opponents_half_before_anything_moved_is_no_roll():
    """A die left on the last roller's half while nothing moved records nothing."""
    frames = opening() + shots((OPENED, ((4, WHITE_DICE[0]),), 12))
    moves, bus, _ = followed(frames)
    assert moves == [("white", (3, 1), "8/5 6/5")]
    assert [e.kind for e in bus.history if e.kind in ("committed", "settled", "dice")] == [
        "dice", "committed"]


# Black rolls 52 and plays 24/22 13/8; the lamp is switched on and the 2 reads as a 1 from then
# on, and Black's checker on the 22-point (White's 3) shows as often on the 23 (White's 2).
BLACK_52 = board({1: 1, 3: -1, 12: 1, 17: -1}, OPENED)  # 52: 24/22 13/8
BLACK_51 = board({1: 1, 2: -1, 12: 1, 17: -1}, OPENED)  # 51: 24/23 13/8, what the lamp shows
WHITE_42 = board({8: -1, 6: -1, 4: 2}, BLACK_52)  # White 42: 8/4 6/4


def test_a_turn_settled_on_a_die_misread_in_every_frame_is_recorded_again_with_its_roll(
        tmp_path):
    lit = [frame_of(b, ((5, 0.7), (1, 0.8))) for b in (BLACK_51, BLACK_52)] * 4
    bare = [frame_of(b) for b in (BLACK_51, BLACK_52)] * 4
    frames = opening() + shots((OPENED, ((5, 0.7), (2, 0.8)), 6)) + \
        [frame_of(OPENED, hand=True)] * 2 + lit + [frame_of(BLACK_52, hand=True)] * 2 + bare + \
        shots((BLACK_52, ((4, 0.2), (2, 0.3)), 6), (WHITE_42, ((4, 0.2), (2, 0.3)), 6),
              (WHITE_42, (), 6))
    journal = Journal(tmp_path / "game.jsonl")
    journal.append({"type": "match", "length": 0, "players": ["A", "B"], "version": 1})
    moves, bus, match = followed(frames, journal)
    journal.close()
    assert moves == [("white", (3, 1), "8/5 6/5"), ("black", (5, 2), "24/22 13/8"),
                     ("white", (4, 2), "8/4 6/4")]
    assert [e.text for e in bus.history if e.kind in ("committed", "settled")] == [
        "white 31: 8/5 6/5", "black 51: 24/23 13/8",
        "turn 2: the next turn shows 52: 24/22 13/8, not 51: 24/23 13/8; recorded again",
        "white 42: 8/4 6/4"]
    records = read_journal(tmp_path / "game.jsonl")
    assert [(r["type"], r.get("dice"), r.get("move")) for r in records[1:]] == [
        ("turn", [3, 1], "8/5 6/5"), ("turn", [5, 1], "24/23 13/8"), ("undo", None, None),
        ("undo", None, None), ("turn", [5, 2], "24/22 13/8"), ("turn", [4, 2], "8/4 6/4")]
    assert rebuild(records)[0].games[0].record == match.games[0].record


def test_a_turn_recorded_far_likelier_than_its_runner_up_is_not_checked_again():
    """The same turn with the die read right in every frame: recorded at once, no doubt."""
    lit = [frame_of(BLACK_52, ((5, 0.7), (2, 0.8)))] * 8
    frames = opening() + shots((OPENED, ((5, 0.7), (2, 0.8)), 6)) + \
        [frame_of(OPENED, hand=True)] * 2 + lit + shots((BLACK_52, (), 6),
                                                    (BLACK_52, ((4, 0.2), (2, 0.3)), 6),
                                                    (WHITE_42, ((4, 0.2), (2, 0.3)), 6),
                                                    (WHITE_42, (), 6))
    moves, bus, _ = followed(frames)
    assert moves == [("white", (3, 1), "8/5 6/5"), ("black", (5, 2), "24/22 13/8"),
                     ("white", (4, 2), "8/4 6/4")]
    assert not [e for e in bus.history if e.kind in ("settled", "unsure")]
