"""A picture of every meaning of the LEDs, each on the board of a typical game situation."""

from __future__ import annotations

import numpy as np

from ..engine.board import BLACK, START_POINTS, WHITE, Position
from ..engine.moves import legal_plays
from ..engine.places import corrections
from . import signals as s
from .layout import right_half
from .led_pattern import OFF, LedPattern
from .render import led_image

PANEL = (480, 300)
CAPTION = 46


def situations() -> list[tuple[str, str, LedPattern, Position]]:
    """(title, how it looks, pattern, board) for each meaning."""
    start = Position()
    moved = Position((-2, 0, 0, 0, 1, 5, 0, 2, 0, 1, 0, -5, 4) + START_POINTS[13:])
    tutor = next(p for p in legal_plays(start, (3, 1)) if p.move == "8/5 6/5")
    return [
        ("Whose turn: White", "to-play LED, player's colour, steady", s.turn(WHITE), start),
        ("Dice accepted", "to-play LED green, double flash", s.dice_accepted(WHITE), start),
        ("Roll again (Black)", "to-play yellow fast flash; Black's right half glows",
         s.roll_again(BLACK, right_half(BLACK)), start),
        ("Illegal move 24/20 on a 3-1", "the points involved, red fast flash",
         s.illegal_move([24, 20]), start),
        ("Board does not match (13/10 8/5 moved)", "orange flash = from, then white = to, "
         "pair by pair", s.mismatch(corrections(moved.to_dict(), start.to_dict())), moved),
        ("Unsure: 13/7 or part of a play?", "the points in doubt, pink, three flashes "
         "and a pause", s.unsure([13, 7]), start),
        ("Legal sources for 6-5", "green, steady", s.legal_sources(start, (6, 5)), start),
        ("Lifted from 24 with 6-5", "destinations cyan blink; origin dim green",
         s.destinations(start, (6, 5), 24), start),
        ("Tutor: 8/5 6/5", "in order: source magenta, then destination violet",
         s.suggestion(tutor, WHITE), start),
        ("Game over: White wins a gammon", "gold blink; score 5-3, the 2 new points flash",
         s.game_over(WHITE, 2, {WHITE: 5, BLACK: 3}), Position(_gammon_board(), turn=BLACK)),
        ("Camera or board moved, field found again", "corner points cyan, double flash",
         s.field_moved(), start),
        ("Board moved and not found again", "corner points red blink (nothing read)",
         s.field_lost(), start),
        ("Cube: Black owns 2", "owner's tray purple, wink; servo turns the cube",
         s.turn(WHITE) | s.cube(2, BLACK), start),
    ]


def meanings_sheet(columns: int = 2) -> np.ndarray:
    """All situations as one BGR image, captioned, `columns` panels wide."""
    import cv2

    w, h = PANEL
    panels = []
    for title, look, pattern, position in situations():
        board = position.to_dict()
        img = led_image(glance(pattern), board["points"], board["bar"], board["off"],
                        pattern.cube, width=w, height=h)
        caption = np.full((CAPTION, w, 3), 255, np.uint8)
        for row, (text, scale) in enumerate(((title, 0.55), (look, 0.45))):
            cv2.putText(caption, text, (8, 18 + 20 * row), cv2.FONT_HERSHEY_SIMPLEX, scale,
                        (0, 0, 0), 1, cv2.LINE_AA)
        panels.append(np.vstack([img, caption]))
    panels += [np.full_like(panels[0], 255)] * (-len(panels) % columns)  # fill the last row
    rows = [np.hstack(panels[i : i + columns]) for i in range(0, len(panels), columns)]
    return np.vstack(rows)


def glance(pattern: LedPattern) -> list[tuple[int, int, int]]:
    """Each LED's first lit colour: a still picture of a blinking or sequenced pattern."""
    return [next((c for c in cycle if c != OFF), OFF) for cycle in pattern.lights]


def _gammon_board() -> tuple[int, ...]:
    """Black still has all 15 checkers home; White has borne everything off."""
    return (0,) * 18 + (-3, -3, -3, -2, -2, -2)
