"""Move notation: parsing every form players write, and formatting as gnubg does."""

from __future__ import annotations

import pytest

from bgboard.engine.moves import Step
from bgboard.engine.notation import format_move, format_plain, parse_move


@pytest.mark.parametrize(("text", "steps"), [
    ("24/18 13/11", [Step(24, 18), Step(13, 11)]),
    ("bar/22*", [Step(25, 22, True)]),
    ("6/off", [Step(6, 0)]),
    ("8/5(2)", [Step(8, 5), Step(8, 5)]),
    ("24/18/13", [Step(24, 18), Step(18, 13)]),
    ("b/20 13/8(2) 6/1*", [Step(25, 20), Step(13, 8), Step(13, 8), Step(6, 1, True)]),
    ("25/21 21/20, 2/0", [Step(25, 21), Step(21, 20), Step(2, 0)]),
    ("13/8*/3*(2)", [Step(13, 8, True), Step(8, 3, True)] * 2),
    ("BAR/22 6/OFF", [Step(25, 22), Step(6, 0)]),
])
def test_parse(text, steps):
    assert parse_move(text) == steps


@pytest.mark.parametrize(("text", "reason"), [
    ("24/18 13/x", "bad move token '13/x': 'x' is not a point"),
    ("24/26", "bad move token '24/26': '26' is not a point"),
    ("24", "bad move token '24': a move needs from/to"),
    ("6/bar", "bad move token '6/bar': nothing moves to the bar"),
    ("off/3", "bad move token 'off/3': nothing moves from off"),
    ("8/5(9)", "bad move token '8/5\\(9\\)'"),
    ("", "empty move"),
])
def test_parse_errors_name_the_bad_token(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse_move(text)


@pytest.mark.parametrize(("steps", "text"), [
    ([Step(8, 5), Step(6, 5)], "8/5 6/5"),
    ([Step(24, 23), Step(23, 20)], "24/20"),
    ([Step(23, 22, True), Step(22, 18)], "23/22*/18"),
    ([Step(25, 19, True), Step(19, 17)], "bar/19*/17"),
    ([Step(13, 11)] * 2, "13/11(2)"),
    ([Step(13, 8, True), Step(13, 8)], "13/8*(2)"),
    ([Step(2, 0)] * 2, "2/off(2)"),
    ([Step(13, 10), Step(10, 7), Step(10, 7)], "13/7 10/7"),
    ([Step(6, 1), Step(13, 8), Step(13, 8), Step(24, 18), Step(24, 18)], "24/18(2) 13/8(2) 6/1"),
])
def test_format_like_gnubg(steps, text):
    assert format_move(steps) == text


def test_plain_form_for_mat_files():
    steps = [Step(13, 8), Step(6, 1, True), Step(13, 8), Step(25, 20)]
    assert format_plain(steps) == "25/20 13/8 13/8 6/1*"
