"""GNU Backgammon Position ID and Match ID, and eXtreme Gammon's XGID (FORMATS.md 1-3).

A Position ID is relative to the player on roll (its second block); the Match ID or the
XGID says which colour that is. White is gnubg's player 0 (O, top), Black player 1 (X).
"""

from __future__ import annotations

import base64
import binascii
import string
from dataclasses import dataclass

from .board import BLACK, CHECKERS, WHITE, Color, Position

_B64 = set(string.ascii_letters + string.digits + "+/")


# --- bit strings ----------------------------------------------------------------------------
def _pack(bits: list[int], nbytes: int) -> str:
    data = bytearray(nbytes)
    for k, bit in enumerate(bits):
        if bit:
            data[k // 8] |= 1 << (k % 8)
    return base64.b64encode(bytes(data)).decode().rstrip("=")


def _unpack(text: str, length: int, what: str) -> list[int]:
    if len(text) != length or not set(text) <= _B64:
        raise ValueError(f"{what} {text!r} is not {length} Base64 characters")
    try:
        data = base64.b64decode(text + "=" * (-len(text) % 4))
    except binascii.Error as exc:
        raise ValueError(f"{what} {text!r} is not valid Base64") from exc
    return [(byte >> k) & 1 for byte in data for k in range(8)]


def _fields(values: list[tuple[int, int]]) -> list[int]:
    """Little-endian bit fields: (value, width) pairs, in order."""
    return [(value >> k) & 1 for value, width in values for k in range(width)]


def _read(bits: list[int], start: int, width: int) -> int:
    return sum(bits[start + k] << k for k in range(width))


# --- Position ID ------------------------------------------------------------------------------
def position_id(pos: Position) -> str:
    """The 14-character gnubg Position ID (player not on roll first)."""
    bits: list[int] = []
    for side in pos.to_gnubg():
        for n in side:
            bits += [1] * n + [0]
    return _pack(bits + [0] * (80 - len(bits)), 10)


def board_from_position_id(pid: str) -> list[list[int]]:
    """gnubg's [not on roll, on roll] 2x25 board from a Position ID, validated as gnubg does."""
    bits = _unpack(pid, 14, "Position ID")
    board = [[0] * 25, [0] * 25]
    slot = 0
    for bit in bits:
        if slot == 50:
            break
        if bit:
            board[slot // 25][slot % 25] += 1
        else:
            slot += 1
    for side, who in zip(board, ("the player not on roll", "the player on roll"), strict=True):
        if sum(side) > CHECKERS:
            raise ValueError(f"Position ID {pid!r} gives {who} {sum(side)} checkers (at most 15)")
    for i in range(24):
        if board[1][i] and board[0][23 - i]:
            raise ValueError(f"Position ID {pid!r} puts both sides on point {i + 1}")
    return board


def position_from_id(pid: str, turn: Color = WHITE) -> Position:
    """The position of a Position ID, with `turn` (default White) the side on roll."""
    return Position.from_gnubg(board_from_position_id(pid), turn)


# --- Match ID ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything a Match ID holds, plus the XGID's beaver flag (money play).

    Players are gnubg's: White = 0, Black = 1.
    """

    cube: int = 1
    cube_owner: Color | None = None
    dice_owner: Color = WHITE
    crawford: bool = False
    game_state: int = 1
    turn: Color = WHITE
    double_offered: bool = False
    resign: int = 0
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False
    beavers: bool = False


_GAME_STATES = 5


def match_id(m: MatchState) -> str:
    """The 12-character gnubg Match ID (the larger die first, bit 66 set when no Jacoby)."""
    owner = 3 if m.cube_owner is None else int(m.cube_owner)
    d1, d2 = sorted(m.dice, reverse=True)
    bits = _fields([
        (m.cube.bit_length() - 1, 4), (owner, 2), (int(m.dice_owner), 1), (int(m.crawford), 1),
        (m.game_state, 3), (int(m.turn), 1), (int(m.double_offered), 1), (m.resign, 2),
        (d1, 3), (d2, 3), (m.length, 15), (m.score[0], 15), (m.score[1], 15),
        (int(not m.jacoby), 1), (0, 5),
    ])
    return _pack(bits, 9)


def match_from_id(mid: str) -> MatchState:
    """Decode a Match ID; a field out of range raises ValueError naming it."""
    bits = _unpack(mid, 12, "Match ID")
    owner = _read(bits, 4, 2)
    dice = (_read(bits, 15, 3), _read(bits, 18, 3))
    state = _read(bits, 8, 3)
    problems = [
        (owner == 2, "cube owner 2"),
        (_read(bits, 0, 4) > 15, "cube"),
        (state >= _GAME_STATES, f"game state {state}"),
        (any(d > 6 for d in dice) or (0 in dice and dice != (0, 0)), f"dice {dice}"),
    ]
    for bad, what in problems:
        if bad:
            raise ValueError(f"Match ID {mid!r} has an impossible {what}")
    return MatchState(
        cube=1 << _read(bits, 0, 4),
        cube_owner=None if owner == 3 else Color(owner),
        dice_owner=Color(bits[6]),
        crawford=bool(bits[7]),
        game_state=state,
        turn=Color(bits[11]),
        double_offered=bool(bits[12]),
        resign=_read(bits, 13, 2),
        dice=dice,
        length=_read(bits, 21, 15),
        score=(_read(bits, 36, 15), _read(bits, 51, 15)),
        jacoby=not bits[66],
    )


# --- XGID --------------------------------------------------------------------------------------
def xgid(pos: Position, m: MatchState, max_cube_log2: int = 10) -> str:
    """The XGID of a position and match state (bottom = Black = X, top = White = O)."""
    chars = [_xg_count(pos.bar_white, lower=True)]
    for i in range(1, 25):  # Black's point i = White's point 25 - i
        n = pos.points[24 - i]
        chars.append(_xg_count(-n, lower=False) if n < 0 else _xg_count(n, lower=True))
    chars.append(_xg_count(pos.bar_black, lower=False))
    owner = {None: 0, BLACK: 1, WHITE: -1}[pos.cube_owner]
    if m.double_offered:
        dice = "D"
    else:
        dice = "".join(str(d) for d in m.dice) if m.dice != (0, 0) else "00"
    roller = m.dice_owner if m.double_offered else pos.turn
    flags = int(m.crawford) if m.length else int(m.jacoby) | 2 * int(m.beavers)
    fields = ["".join(chars), pos.cube.bit_length() - 1, owner, 1 if roller is BLACK else -1,
              dice, m.score[1], m.score[0], flags, m.length, max_cube_log2]
    return "XGID=" + ":".join(str(f) for f in fields)


def _xg_count(n: int, lower: bool) -> str:
    if not n:
        return "-"
    return chr((ord("a") if lower else ord("A")) + n - 1)


def parse_xgid(text: str) -> tuple[Position, MatchState]:
    """Position and match state from an XGID (with or without the `XGID=` prefix)."""
    body = text[5:] if text.upper().startswith("XGID=") else text
    fields = body.split(":")
    if len(fields) < 9 or len(fields[0]) != 26:
        raise ValueError(f"XGID {text!r} needs a 26-character position and 9 or 10 fields")
    try:
        cube_log, owner, turn, *_ = (int(f) for f in fields[1:4])
        score_bottom, score_top, flags, length = (int(f) for f in fields[5:9])
    except ValueError as exc:
        raise ValueError(f"XGID {text!r} has a field that is not a number") from exc
    pos_text, dice_text = fields[0], fields[4]
    white, black = _xg_board(pos_text, text)
    if owner not in (-1, 0, 1) or turn not in (-1, 1) or not 0 <= cube_log <= 15:
        raise ValueError(f"XGID {text!r} has an impossible cube or turn field")
    roller = BLACK if turn == 1 else WHITE
    doubled = dice_text == "D"
    dice = (0, 0) if doubled or dice_text == "00" else _xg_dice(dice_text, text)
    cube_owner = {0: None, 1: BLACK, -1: WHITE}[owner]
    pos = Position.from_gnubg([white, black] if roller is BLACK else [black, white], roller,
                              cube=1 << cube_log, cube_owner=cube_owner)
    state = MatchState(
        cube=1 << cube_log, cube_owner=cube_owner, dice_owner=roller,
        crawford=bool(flags) if length else False,
        turn=roller.other if doubled else roller, double_offered=doubled, dice=dice,
        length=length, score=(score_top, score_bottom), jacoby=bool(flags & 1) and not length,
        beavers=bool(flags & 2) and not length,
    )
    return pos, state


def _xg_board(chars: str, text: str) -> tuple[list[int], list[int]]:
    """[White side, Black side] 25-slot boards from the 26 XGID position characters."""
    white, black = [0] * 25, [0] * 25
    for i, ch in enumerate(chars):
        if ch == "-":
            continue
        if not ("a" <= ch <= "p" or "A" <= ch <= "P"):
            raise ValueError(f"XGID {text!r} has a bad board character {ch!r}")
        n = ord(ch.lower()) - ord("a") + 1
        if ch.islower():
            slot = 24 if i == 0 else (24 - i if i < 25 else None)
            if slot is None:
                raise ValueError(f"XGID {text!r} puts White checkers on Black's bar")
            white[slot] += n
        else:
            if i == 0:
                raise ValueError(f"XGID {text!r} puts Black checkers on White's bar")
            black[24 if i == 25 else i - 1] += n
    return white, black


def _xg_dice(dice: str, text: str) -> tuple[int, int]:
    if len(dice) != 2 or not all(c in "123456" for c in dice):
        raise ValueError(f"XGID {text!r} has bad dice {dice!r}")
    return int(dice[0]), int(dice[1])


# --- any of them -------------------------------------------------------------------------------
def parse_position(text: str) -> tuple[Position, MatchState | None]:
    """`start`, a Position ID, `POSITIONID:MATCHID` (gnubg ID) or an XGID.

    A bare Position ID puts White on roll; the others say who is on roll.
    """
    text = text.strip()
    if text.lower() == "start":
        return Position(), None
    if text.upper().startswith("XGID=") or text.count(":") >= 8:
        return parse_xgid(text)
    if ":" in text:
        pid, _, mid = text.partition(":")
        state = match_from_id(mid)
        roller = state.dice_owner
        pos = position_from_id(pid, roller)
        return pos.with_cube(state.cube, state.cube_owner), state
    if len(text) != 14:
        raise ValueError(f"{text!r} is not a Position ID (14 characters), a gnubg ID or an XGID")
    return position_from_id(text), None
