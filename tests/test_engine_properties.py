"""Properties of every legal play, on random positions (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bgboard.engine.board import BLACK, WHITE, Position
from bgboard.engine.moves import OFF, apply_step, legal_plays, mover_board


@st.composite
def positions(draw) -> Position:
    """Any legal-looking position: each side's 15 checkers spread over its own points, the
    bar and off, never sharing a point with the other side."""
    order = draw(st.permutations(range(24)))
    split = draw(st.integers(1, 23))
    points = [0] * 24
    bars = []
    for sign, owned in ((1, order[:split]), (-1, order[split:])):
        slots = draw(st.lists(st.sampled_from([*owned, "bar", "off"]), min_size=15, max_size=15))
        for slot in slots:
            if slot not in ("bar", "off"):
                points[slot] += sign
        bars.append(slots.count("bar"))
    return Position(tuple(points), bars[0], bars[1], draw(st.sampled_from([WHITE, BLACK])))


DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))


@settings(max_examples=400, deadline=None)
@given(positions(), DICE)
def test_every_play_keeps_fifteen_checkers_a_side(pos, dice):
    for play in legal_plays(pos, dice):
        after = play.position
        for color in (WHITE, BLACK):
            assert after.on_board(color) + after.bar(color) + after.off(color) == 15
            assert 0 <= after.off(color)
        assert after.off(pos.turn.other) == pos.off(pos.turn.other)


@settings(max_examples=400, deadline=None)
@given(positions(), DICE)
def test_every_play_is_reversible_by_its_own_steps(pos, dice):
    start = mover_board(pos)
    for play in legal_plays(pos, dice):
        b = start
        for step in play.steps:
            b, hit = apply_step(b, step.start, step.end)
            assert hit == step.hit
        assert b == mover_board(play.position, pos.turn)
        for step in reversed(play.steps):
            b = b[:]
            b[step.end] -= 1
            b[step.start] += 1
            if step.hit:
                b[step.end] = -1
                b[26] -= 1
        assert b == start


@settings(max_examples=400, deadline=None)
@given(positions(), DICE)
def test_no_step_lands_on_a_point_held_by_two_or_more_opponents(pos, dice):
    dice_left = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    for play in legal_plays(pos, dice):
        b = mover_board(pos)
        for step in play.steps:
            assert step.end == OFF or b[step.end] >= -1
            assert step.start - step.end in dice_left or (
                step.end == OFF and step.start < max(dice_left))
            b, _ = apply_step(b, step.start, step.end)


@settings(max_examples=300, deadline=None)
@given(positions(), DICE)
def test_plays_use_as_many_dice_as_possible_and_are_distinct(pos, dice):
    plays = legal_plays(pos, dice)
    assert len({p.position for p in plays}) == len(plays)
    assert len({len(p.steps) for p in plays}) <= 1
