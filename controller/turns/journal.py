"""The crash-safe game journal: JSON lines, each appended and fsynced before it is announced.

Records: {"type": "match", "length", "players", "version"}, then per game {"type": "game"}
(the first game is implied), {"type": "turn", "color", "dice", "move"} (move null = no legal
move; "opening": true on a game's first roll), {"type": "double" | "take" | "drop"},
{"type": "undo"} (the last turn is taken back), {"type": "tutor", ...} (the tutor's verdict
on a play). `rebuild` replays them into a Match; `replay` adds one record to a Match.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from ...engine.board import WHITE
from ...engine.game import Match

VERSION = 1


class Journal:
    """An append-only journal file. `append` returns True once the record and every earlier
    one are on disk (fsync); when the disk refuses (full, unplugged), records wait in memory
    and each later append tries again, so nothing is lost while the program runs.
    `on_written` (e.g. the tournament relay) gets each record, as on disk, once it is there."""

    def __init__(self, path: str | os.PathLike,
                 on_written: Callable[[dict], None] | None = None) -> None:
        self.path = Path(path)
        self.pending: list[str] = []
        self.error: str | None = None
        self.on_written = on_written
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115

    def append(self, record: dict) -> bool:
        self.pending.append(json.dumps(record) + "\n")
        return self.flush()

    def flush(self) -> bool:
        """Write what is pending; True when nothing is left."""
        try:
            while self.pending:
                self._file.write(self.pending[0])
                self._file.flush()
                os.fsync(self._file.fileno())
                line = self.pending.pop(0)
                if self.on_written is not None:
                    self.on_written(json.loads(line))
        except OSError as exc:
            self.error = f"journal not written: {exc.strerror or exc}"
            try:
                self._reopen()
            except OSError:
                pass
            return False
        self.error = None
        return True

    def _reopen(self) -> None:
        """After a failed write the file may hold half a line: cut back to whole lines."""
        try:
            self._file.close()
        except OSError:
            pass
        data = self.path.read_bytes() if self.path.exists() else b""
        whole = data[: data.rfind(b"\n") + 1]
        if whole != data:
            with open(self.path, "wb") as cut:
                cut.write(whole)
        self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115

    def close(self) -> None:
        self.flush()
        self._file.close()


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` with `text` so that a crash leaves the old or the new file, whole."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def read_journal(path: str | os.PathLike) -> list[dict]:
    """The records of a journal; a torn last line (a crash mid-write) is left out."""
    records = []
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            if number == len(lines):
                break
            raise ValueError(f"{path}: line {number} is not JSON") from exc
    if not records or records[0].get("type") != "match":
        raise ValueError(f"{path}: not a bgboard journal (no match record first)")
    return records


def rebuild(records: list[dict]) -> tuple[Match, tuple[str, str]]:
    """The match and players' names a journal describes."""
    head = records[0]
    match = Match(length=head.get("length", 0))
    match.new_game()
    for number, record in enumerate(records[1:], 2):
        try:
            replay(match, record)
        except ValueError as exc:
            raise ValueError(f"journal record {number}: {exc}") from exc
    return match, tuple(head.get("players", ("White", "Black")))


def replay(match: Match, record: dict) -> None:
    """Add one journal record (not the match record) to `match`; ValueError if it does not
    fit."""
    game = match.games[-1]
    kind = record.get("type")
    if kind == "game":
        match.new_game()
    elif kind == "turn":
        d1, d2 = record["dice"]
        if game.dice is None and record.get("opening"):
            white_first = record["color"] == WHITE.key
            game.opening(*((d1, d2) if white_first else (d2, d1)))
        elif game.dice is None:
            game.roll(d1, d2)
        elif game.dice != (d1, d2):
            raise ValueError(f"dice {d1}{d2} after a take-back of {game.dice}")
        game.move(record["move"])
    elif kind in ("double", "take", "drop"):
        {"double": game.double, "take": game.take, "drop": game.drop}[kind]()
    elif kind == "undo":
        game.undo()
    elif kind == "tutor":
        return  # the tutor's verdict on a play: kept for review, nothing to replay
    else:
        raise ValueError(f"unknown record type {kind!r}")
