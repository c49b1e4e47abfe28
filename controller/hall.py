"""The tournament hall: follows every board under the broker's PREFIX and keeps, for each,
DIR/NAME.jsonl (the board's journal so far) and DIR/NAME.mat (its match so far).

A board's records are taken in sequence order only: an action whose number is already known
is a repeat and dropped; one that skips ahead waits for the board's retained match message,
which carries the whole journal and so fills any gap (a hall started late, restarted, or cut
off from the broker catches up from it). A match message whose records do not continue the
known ones is a new match under that name: the files of the one before move to
DIR/earlier/NAME-N.*. Files are replaced atomically.
Viewers (the hall's web page) read `view(name)` and wait for changes with `wait(version)`.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from ..engine.game import Match
from ..engine.matfile import write_mat
from .broker import LEVEL, Broker, client
from .live import match_facts
from .turns.journal import read_journal, rebuild, replay, write_atomic


@dataclass
class Board:
    """One board as the hall knows it."""

    name: str
    records: list[dict]
    match: Match
    names: tuple[str, str]
    at: float | None = None  # when the board journalled its newest record (its clock)
    version: int = 0  # the hall's version when this board last changed

    @classmethod
    def of(cls, name: str, records: list[dict]) -> Board:
        """The board whose journal is `records`; ValueError if they do not replay."""
        if not records or not isinstance(records[0], dict) or records[0].get("type") != "match":
            raise ValueError("the records do not start with a match record")
        match, names = rebuild(records)
        return cls(name, list(records), match, names)


class Hall:
    """The boards under one broker PREFIX, kept in `out`; `start()` follows the broker."""

    def __init__(self, broker: Broker, out: Path, note=None) -> None:
        self.broker = broker
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self._note = note or (lambda text: print(f"hall: {text}", file=sys.stderr, flush=True))
        self._lock = threading.Condition()
        self._version = 0
        self.boards: dict[str, Board] = {}
        self.online: dict[str, str] = {}  # each board's status message: online, offline, done
        for path in sorted(self.out.glob("*.jsonl")):
            try:
                board = self.boards[path.stem] = Board.of(path.stem, read_journal(path))
            except ValueError as exc:
                self._note(f"{path} left out: {exc}")
                continue
            with self._lock:
                self._changed(board)  # on the page from the start
        self.client = None
        self._said: str | None = None  # the latest note on the connection, said once

    # --- the broker ----------------------------------------------------------------------
    def start(self) -> None:
        self.client = client(self.broker, "bgboard-hall")
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.client.on_connect_fail = lambda client, userdata: self._say(
            f"the broker {self.broker.shown} cannot be reached; trying again")
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=10)
        self.client.loop_start()

    def stop(self) -> None:
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()

    def _connected(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self._say(f"the broker {self.broker.shown} refused the connection: {reason_code}")
            return
        self._say(f"following {self.broker.shown}")
        client.subscribe([(f"{self.broker.prefix}/+/{kind}", 1)
                          for kind in ("match", "action", "status")])

    def _say(self, text: str) -> None:
        if text != self._said:
            self._said = text
            self._note(text)

    def _message(self, client, userdata, message) -> None:
        name, kind = message.topic.split("/")[-2:]
        if not LEVEL.fullmatch(name) or name in (".", ".."):
            return
        try:
            if kind == "status":
                self.status(name, message.payload.decode())
            elif kind == "match":
                self.match(name, json.loads(message.payload))
            elif kind == "action":
                self.action(name, json.loads(message.payload))
        except (ValueError, KeyError, TypeError) as exc:
            self._note(f"board {name}: its {kind} message was left out: {exc}")

    # --- a board's messages --------------------------------------------------------------
    def match(self, name: str, message: dict) -> None:
        """A board's match message: its whole journal so far."""
        records = message["records"]
        with self._lock:
            board = self.boards.get(name)
            known = board.records if board else []
            if board and records[:len(known)] == known:
                if len(records) == len(known):
                    return
                self._extend(board, records[len(known):])
            elif board and known[:len(records)] == records:
                return  # older than what the hall has
            else:
                new = Board.of(name, records)
                if board:
                    self._keep_earlier(board)
                board = self.boards[name] = new
            board.at = message.get("at")
            self._save(board)

    def action(self, name: str, message: dict) -> None:
        """One action of a board: taken when it is the next one, else dropped."""
        seq, record = message["seq"], message["record"]
        with self._lock:
            board = self.boards.get(name)
            if board is None:
                if seq != 0:
                    return  # the match message brings the board
                board = self.boards[name] = Board.of(name, [record])
            elif seq != len(board.records):
                return  # a repeat, or a gap that the match message fills
            else:
                self._extend(board, [record])
            board.at = message.get("at")
            self._save(board)

    def status(self, name: str, text: str) -> None:
        with self._lock:
            self.online[name] = text
            if name in self.boards:
                self._changed(self.boards[name])

    def _extend(self, board: Board, records: list[dict]) -> None:
        """Replay new records into the board; on one that does not fit, the board is kept as
        it was (ValueError)."""
        try:
            for record in records:
                replay(board.match, record)
                board.records.append(record)
        except ValueError:
            board.match, board.names = rebuild(board.records)
            raise

    def _keep_earlier(self, board: Board) -> None:
        """Move the board's files to DIR/earlier/NAME-N.jsonl and .mat, N the next free
        number: the board started a new match."""
        earlier = self.out / "earlier"
        earlier.mkdir(exist_ok=True)
        number = 1
        while (earlier / f"{board.name}-{number}.jsonl").exists():
            number += 1
        for kind in ("jsonl", "mat"):
            os.replace(self.out / f"{board.name}.{kind}", earlier / f"{board.name}-{number}.{kind}")
        self._note(f"board {board.name} started a new match: the one before is kept as "
                   f"{earlier / board.name}-{number}.mat")

    def _save(self, board: Board) -> None:
        """The board's journal and match file, each replaced whole."""
        write_atomic(self.out / f"{board.name}.jsonl",
                     "".join(json.dumps(r) + "\n" for r in board.records))
        write_atomic(self.out / f"{board.name}.mat", write_mat(board.match, board.names))
        self._changed(board)

    def _changed(self, board: Board) -> None:
        self._version += 1
        board.version = self._version
        self._lock.notify_all()

    # --- viewers -------------------------------------------------------------------------
    def wait(self, version: int, timeout: float = 15.0) -> int:
        """Block until something is newer than `version` (or the timeout); the new version."""
        with self._lock:
            self._lock.wait_for(lambda: self._version != version, timeout)
            return self._version

    def changed(self, since: int) -> list[dict]:
        """The view of every board changed after version `since`, in name order."""
        with self._lock:
            return [self._view(b) for _, b in sorted(self.boards.items())
                    if b.version > since]

    def mat(self, name: str) -> str | None:
        with self._lock:
            board = self.boards.get(name)
            return write_mat(board.match, board.names) if board else None

    def _view(self, board: Board) -> dict:
        """A board as the page shows it: the match's facts, its status and its clock."""
        return {"board": board.name, "seq": len(board.records) - 1, "at": board.at,
                "online": self.online.get(board.name, "unknown"), "version": board.version,
                **match_facts(board.match, board.names)}
