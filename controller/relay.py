"""The tournament relay, a board's side: every journalled record goes to the MQTT broker.

The journal hands each record to `Relay.add` once it is on disk; its sequence number is its
index in the journal (0: the match record), so it stays the same through `--resume`. Each
record is published (QoS 1, in order) as PREFIX/NAME/action, then the board's whole journal
and its state as the retained PREFIX/NAME/match, from which a hall started at any time rebuilds
the match. paho-mqtt keeps what the broker has not acknowledged and sends it again, in order,
when the connection is back; after every (re)connect the retained match message is published
again (a restarted broker may have lost it). PREFIX/NAME/status is "online" while connected,
"offline" (the broker's last will) when the board vanished and "done" when it closed cleanly.
docs/tournaments.md documents the messages.
"""

from __future__ import annotations

import json
import sys
import threading
import time

from .broker import RELAY_WAIT, Broker, client
from .live import match_facts
from .turns.journal import Journal, read_journal, replay


def attach(journal: Journal, broker: Broker, board: str, note=None) -> Relay:
    """A started relay of `board` fed by `journal`, the records already in it sent first."""
    path = journal.path
    records = read_journal(path) if path.exists() and path.stat().st_size else []
    relay = Relay(broker, board, records, note)
    journal.on_written = relay.add
    return relay


class Relay:
    """Publishes one board's journal records to the broker; `close()` waits for the acks."""

    def __init__(self, broker: Broker, board: str, records: list[dict], note=None) -> None:
        self.broker = broker
        self.board = board
        self.records: list[dict] = []
        self.match = None
        self.names: tuple[str, str] = ("White", "Black")
        self.at = time.time()
        self.problem: str | None = None  # the connection's trouble while it lasts
        self.faults: list[str] = []  # what went wrong for good: a refused message, a record
        self._said: str | None = None
        self._note = note or (lambda text: print(f"relay: {text}", file=sys.stderr, flush=True))
        self._lock = threading.Lock()
        self._connected = False
        # The ids of the messages not yet acknowledged (an ack may come before publish()
        # returns the id: `_early`), under a lock never held while calling paho, which calls
        # back holding its own.
        self._acks = threading.Lock()
        self._unacked: set[int] = set()
        self._early: set[int] = set()
        self._match_seq = -1  # the sequence number of the latest match message published
        for record in records:
            self._keep(record)
        status = broker.topic(board, "status")
        self.client = client(broker, f"bgboard-{board}")
        self.client.will_set(status, "offline", qos=1, retain=True)
        self.client.on_connect = self._connected_now
        self.client.on_disconnect = self._disconnected
        self.client.on_publish = self._published
        self.client.on_connect_fail = self._unreachable
        self.client.connect_async(broker.host, broker.port, keepalive=10)
        self.client.loop_start()

    def _keep(self, record: dict) -> int:
        """Add the record to the board's match; its sequence number. A record that does not
        fit the match is still sent (the journal is the truth), and said."""
        from ..engine.game import Match

        self.records.append(record)
        if record.get("type") == "match":
            self.match = Match(length=record.get("length", 0))
            self.match.new_game()
            self.names = tuple(record.get("players", self.names))
        elif self.match is not None:
            try:
                replay(self.match, record)
            except ValueError as exc:
                self._fault(f"journal record {len(self.records)}: {exc}")
        return len(self.records) - 1

    def add(self, record: dict) -> None:
        """A record now on disk: publish it and the board's match."""
        with self._lock:
            seq = self._keep(record)
            self.at = time.time()
            action = {"board": self.board, "seq": seq, "at": self.at, "record": record}
            self._send(self.broker.topic(self.board, "action"), action, retain=False)
            if self._connected:
                self._send_match()

    def _send(self, topic: str, payload, retain: bool) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        mid = self.client.publish(topic, text, qos=1, retain=retain).mid
        with self._acks:
            if mid in self._early:
                self._early.discard(mid)
            else:
                self._unacked.add(mid)

    def _send_match(self) -> None:
        """The retained match message: the journal so far and the board's state."""
        self._match_seq = len(self.records) - 1
        self._send(self.broker.topic(self.board, "match"), {
            "board": self.board, "seq": len(self.records) - 1, "at": self.at,
            "records": self.records, "state": self.state()}, retain=True)

    def state(self) -> dict:
        """The board's latest state, for anyone following it (the hall rebuilds its own)."""
        if self.match is None:
            return {}
        facts = match_facts(self.match, self.names)
        del facts["moves"]
        game = self.match.games[-1]
        status = "match over" if self.match.winner() is not None else \
            "game over" if game.result is not None else "playing"
        return {**facts, "status": status}

    # --- paho's thread -------------------------------------------------------------------
    def _unreachable(self, client, userdata) -> None:
        self._trouble(f"the broker {self.broker.shown} cannot be reached")

    def _connected_now(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self._trouble(f"the broker {self.broker.shown} refused the connection: "
                          f"{reason_code}")
            return
        if self.problem:
            self._say(f"connected to {self.broker.shown} again")
        with self._lock:
            self._connected = True
            self.problem = None
            self._send(self.broker.topic(self.board, "status"), "online", retain=True)
            if self.records:
                self._send_match()

    def _disconnected(self, client, userdata, flags, reason_code, properties) -> None:
        self._connected = False  # no lock: paho may call this from inside publish()

    def _published(self, client, userdata, mid, reason_code, properties) -> None:
        with self._acks:
            if mid in self._unacked:
                self._unacked.discard(mid)
            else:
                self._early.add(mid)
        if reason_code.is_failure:
            self._fault(f"the broker refused board {self.board}'s message: {reason_code} "
                        f"(is the user allowed to write {self.broker.prefix}/{self.board}/?)")

    def _trouble(self, text: str) -> None:
        self.problem = text
        self._say(text)

    def _fault(self, text: str) -> None:
        if text not in self.faults:
            self.faults.append(text)
        self._say(text)

    def _say(self, text: str) -> None:
        """Say a trouble once, not again while it lasts."""
        if text != self._said:
            self._said = text
            self._note(text)

    # --- the end -------------------------------------------------------------------------
    def unacknowledged(self) -> int:
        """How many messages the broker has not acknowledged yet (the latest retained match
        message included until it is published)."""
        with self._lock, self._acks:
            return len(self._unacked) + (self._match_seq != len(self.records) - 1)

    def close(self, wait: float = RELAY_WAIT) -> str | None:
        """Wait up to `wait` seconds for the broker to acknowledge everything, say "done" and
        disconnect; None when all was acknowledged, else what was not."""
        deadline = time.monotonic() + wait
        while self.unacknowledged() and time.monotonic() < deadline:
            time.sleep(0.05)
        left = self.unacknowledged()
        if not left:
            self._send(self.broker.topic(self.board, "status"), "done", retain=True)
            while self.unacknowledged() and time.monotonic() < deadline + 2:
                time.sleep(0.05)
        self.client.disconnect()
        self.client.loop_stop()
        if self.faults:
            return self.faults[0]
        if left:
            return (f"{self.problem or self.broker.shown}: {left} messages not acknowledged "
                    f"after {wait:g} s (the journal keeps every action)")
        return None
