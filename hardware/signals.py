"""What the board tells the players: one LedPattern per meaning, with its own colours and cycles.

Patterns combine with `|` (the right one on top), e.g. `turn(WHITE) | cube(2, BLACK)`. Every
pattern differs from the others that share its LEDs, so single-colour LEDs (the gpio
backend) still tell the meanings apart. Points are in White's numbering; engine steps,
numbered from the mover's side, are converted here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..engine.places import Place, mover_place, mover_point, side
from .choices import Choices
from .led_pattern import (
    DARK,
    OFF,
    RGB,
    Cycle,
    LedPattern,
    blink,
    double_flash,
    flash,
    steady,
    wink,
)

PLAYER: dict[str, RGB] = {"white": (255, 255, 255), "black": (0, 80, 255)}
GREEN: RGB = (0, 255, 0)
DIM_GREEN: RGB = (0, 60, 0)
YELLOW: RGB = (255, 200, 0)
DIM_YELLOW: RGB = (64, 50, 0)
RED: RGB = (255, 0, 0)
ORANGE: RGB = (255, 80, 0)
CYAN: RGB = (0, 255, 255)
MAGENTA: RGB = (255, 0, 255)
VIOLET: RGB = (120, 0, 255)
PURPLE: RGB = (160, 0, 255)
GOLD: RGB = (255, 160, 0)
PINK: RGB = (255, 40, 140)
SLOT = 4
"""Ticks (half a second) per step of a sequence."""
SCORE_LEDS = 12


def turn(colour: object) -> LedPattern:
    """Whose turn: that player's to-play LED, steady, in the player's colour."""
    name = side(colour)
    return DARK.lit([f"play {name}"], steady(PLAYER[name]))


def dice_accepted(colour: object) -> LedPattern:
    """The roll was read: the roller's to-play LED double-flashes green."""
    return DARK.lit([f"play {side(colour)}"], double_flash(GREEN))


def roll_again(colour: object, into: Iterable[Place] = ()) -> LedPattern:
    """Cocked die or wrong half: the to-play LED flashes yellow; `into` (the right half) glows."""
    pattern = DARK.lit(into, steady(DIM_YELLOW))
    return pattern.lit([f"play {side(colour)}"], flash(YELLOW))


def illegal_move(places: Iterable[Place], colour: object | None = None) -> LedPattern:
    """An illegal move: the points involved flash red. With `colour`, `places` are that
    mover's points (25 = bar, 0 = off), as the engine's IllegalMove.points gives them."""
    if colour is not None:
        places = [mover_place(p, colour) for p in places]
    return DARK.lit(places, flash(RED))


def mismatch(moves: Sequence[tuple[Place, Place]]) -> LedPattern:
    """The board does not match: for each (from, to) in turn, `from` flashes orange, then `to`
    shows white, like correction mode on chess e-boards (see `corrections`)."""
    return _sequence(moves, (ORANGE, OFF) * (SLOT // 2), (PLAYER["white"],) * SLOT)


def unsure(places: Iterable[Place]) -> LedPattern:
    """The camera cannot tell two readings apart: the points in doubt flash pink three times,
    then pause (a question: confirm, or touch up the stack)."""
    return DARK.lit(places, (PINK, OFF) * 3 + (OFF,) * 2)


CORNER_POINTS = (1, 12, 13, 24)


def field_moved() -> LedPattern:
    """The camera or the board moved and the field was found again: the four corner points
    double-flash cyan (read on through the new corners)."""
    return DARK.lit(CORNER_POINTS, double_flash(CYAN))


def field_lost() -> LedPattern:
    """The board is not where it was and was not found again: the four corner points blink
    red until it is (nothing is read meanwhile)."""
    return DARK.lit(CORNER_POINTS, blink(RED))


def legal_sources(position: Any, dice: tuple[int, int], played: Iterable[Any] = ()) -> LedPattern:
    """The points (or the bar) the mover may lift a checker from now, steady green.

    `played`: the steps (mover's numbering) already made this turn."""
    mover = side(position.turn)
    sources = Choices(position, dice, played).sources()
    return DARK.lit([mover_place(p, mover) for p in sources], steady(GREEN))


def destinations(position: Any, dice: tuple[int, int], lifted: Place,
                 played: Iterable[Any] = ()) -> LedPattern:
    """Where the checker lifted from `lifted` may go (also on with more dice; the tray to bear
    off), slow cyan blink; the place it came from glows dim green."""
    mover = side(position.turn)
    ends = Choices(position, dice, played).destinations(mover_point(lifted, mover))
    pattern = DARK.lit([lifted], steady(DIM_GREEN))
    return pattern.lit([mover_place(e, mover) for e in ends], blink(CYAN))


def suggestion(play: Any, colour: object) -> LedPattern:
    """The tutor's play, step by step: each source in magenta, then its destination in violet."""
    moves = [(mover_place(s.start, colour), mover_place(s.end, colour)) for s in play.steps]
    return _sequence(moves, (MAGENTA,) * SLOT, (VIOLET,) * SLOT)


def game_over(winner: object, points: int, score: Mapping[Any, int] | None = None) -> LedPattern:
    """Game over: the winner's to-play and tray LEDs blink gold; each player's match score
    (or, for money play, the points just won) is a row of LEDs from their own 1-point, up to
    SCORE_LEDS; the points just won flash gold."""
    won = side(winner)
    totals = {won: points} | {side(k): v for k, v in (score or {}).items()}
    pattern = DARK.lit([f"play {won}", f"tray {won}"], blink(GOLD))
    for name, total in totals.items():
        pattern = pattern.lit(_row(name, 0, total), steady(PLAYER[name]))
    return pattern.lit(_row(won, totals[won] - points, totals[won]), flash(GOLD))


def cube(value: int, owner: object | None = None) -> LedPattern:
    """The cube turned to `value` (1 shows 64); its owner's tray LED glows purple."""
    pattern = LedPattern(cube=value)
    return pattern if owner is None else pattern.lit([f"tray {side(owner)}"], wink(PURPLE))


def _sequence(moves: Sequence[tuple[Place, Place]], first: Cycle, second: Cycle) -> LedPattern:
    """Each (a, b) in order: `a` shows `first` for one slot, then `b` shows `second`; then a
    dark slot before it all repeats."""
    length = (2 * len(moves) + 1) * SLOT
    cycles: dict[Place, list[RGB]] = {}
    for k, pair in enumerate(moves):
        for half, (place, shown) in enumerate(zip(pair, (first, second), strict=True)):
            cycle = cycles.setdefault(place, [OFF] * length)
            cycle[(2 * k + half) * SLOT : (2 * k + half + 1) * SLOT] = shown
    pattern = DARK
    for place, cycle in cycles.items():
        pattern = pattern.lit([place], tuple(cycle))
    return pattern


def _row(colour: str, first: int, last: int) -> list[Place]:
    """The score LEDs first+1..last of a player, counted from their own 1-point."""
    return [mover_place(n, colour) for n in range(max(first, 0) + 1, min(last, SCORE_LEDS) + 1)]
