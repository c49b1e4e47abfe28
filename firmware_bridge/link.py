"""The host side of the link: a thread that keeps the board showing what the host wants.

It opens the port (or finds it by USB ID), says HELLO and checks the protocol version, and
then makes the board show the latest LED frame and servo angle asked for: these are state, not
a queue, so a new frame supersedes one not yet sent, and only the LEDs that differ from what
the board has acknowledged are sent. Each command is resent until acknowledged, but an LED
command that failed is planned anew from the latest frame, with half as many LEDs: small
packets get through a bad line, and every acknowledged one doubles the size again up to the
whole strip. Heartbeats go out when idle. When the board disappears the link reconnects with
back-off and, the board's state being unknown then, sends the whole wanted state again.
Callers never block: `set_leds` and `set_servo` only record the wish. Status changes arrive
as LinkEvents.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass

import serial

from . import protocol as p
from .discovery import find_port

log = logging.getLogger(__name__)

BACKOFF = (0.05, 0.5)       # first and longest wait between reconnection attempts, s
INCOMPATIBLE_WAIT = 5.0     # s between attempts on a board of another protocol version
POLL = 0.005                # longest a read blocks, s
REPLY = {p.HELLO: p.HELLO_REPLY, p.HEARTBEAT: p.BUTTONS, p.SET_LEDS: p.ACK,
         p.SET_RUN: p.ACK, p.SET_SERVO: p.ACK, p.GET_STATE: p.STATE}
TRANSIENT_NAKS = {1, 2, 7}   # crc, oversize, framing: the packet was damaged on the way
LED_COMMANDS = (p.SET_LEDS, p.SET_RUN)


class LinkLost(OSError):
    """The board stopped answering or went away."""


class Incompatible(OSError):
    """The board speaks another protocol version."""


class _SessionLost(Exception):
    """The board answered NO_SESSION: it rebooted or timed the host out."""


@dataclass(frozen=True)
class LinkEvent:
    """A change of link status: connecting, connected, disconnected or incompatible."""

    status: str
    detail: str = ""


@dataclass
class LinkStats:
    """Counters of what the link had to put up with."""

    sent: int = 0          # packets sent, resends included
    resends: int = 0
    naks: int = 0
    rejected: int = 0      # commands the board refused as invalid
    stale: int = 0         # replies that matched nothing outstanding
    superseded: int = 0    # frames and angles replaced before the board acknowledged them
    connects: int = 0
    garbage: int = 0       # frames dropped by the decoder


@dataclass
class _Part:
    """One part of the board's state (the LEDs, the servo): what the host wants it to be and
    what the board last acknowledged (None: unknown, as at the start of a session)."""

    want: bytes | p.Strip | None = None
    shown: bytes | p.Strip | None = None

    def settled(self) -> bool:
        return self.want is None or self.want == self.shown


@dataclass
class _Command:
    type: int
    payload: bytes = b""
    reply: Future | None = None
    seq: int = 0
    timeouts: int = 0
    deadline: float = 0.0


class Link:
    """A self-healing link to one board; `port=None` finds it by USB ID.

    `on_event(LinkEvent)` and `on_button(index)` are called from the link thread.
    """

    ack_timeout = 0.1       # s without a reply before a resend
    heartbeat = 0.5         # s of quiet before a HEARTBEAT
    max_timeouts = 5        # timeouts in a row that mean the board is gone

    def __init__(self, port: str | None = None, *, baudrate: int = 115200,
                 on_event: Callable[[LinkEvent], None] | None = None,
                 on_button: Callable[[int], None] | None = None) -> None:
        self.port, self.baudrate = port, baudrate
        self.on_event, self.on_button = on_event, on_button
        self.stats = LinkStats()
        self.status = "disconnected"
        self.hello: p.Hello | None = None
        self._lock = threading.Condition()
        self._queries: deque[_Command] = deque()
        self._leds, self._servo = _Part(shown=p.UNKNOWN), _Part()
        self._limit = p.LED_COUNT       # LEDs an LED command may carry
        self._outstanding: _Command | None = None
        self._seq = 0
        self._presses: bytes | None = None
        self._serial = None
        self._decoder = p.Decoder()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bgboard-link", daemon=True)
        self._thread.start()

    # -- the caller's side ------------------------------------------------------------------
    def set_leds(self, leds: Sequence[Sequence[int]]) -> None:
        """Show this LED frame (RGB triples, at most 30; the rest dark) instead of any before."""
        self._want(self._leds, p.leds_after(p.UNKNOWN, p.SET_LEDS, p.leds_payload(leds)))

    def set_servo(self, degrees: float) -> None:
        """Turn the servo to this angle, 0..180 degrees, instead of any before."""
        self._want(self._servo, p.servo_payload(degrees))

    def query_state(self, timeout: float = 2.0) -> p.DeviceState:
        """Ask the board for its LED buffer, servo angle and error counters."""
        reply: Future = Future()
        with self._lock:
            self._queries.append(_Command(p.GET_STATE, reply=reply))
        return p.DeviceState.parse(reply.result(timeout).payload)

    def wait_confirmed(self, timeout: float) -> bool:
        """True once the board has acknowledged exactly the latest frame and angle asked for."""
        with self._lock:
            return self._lock.wait_for(self._is_confirmed, timeout)

    def close(self) -> None:
        """Stop the thread and release the port. Safe to call twice."""
        self._closing.set()
        if self._thread is not threading.current_thread():
            self._thread.join()
        self._close_port()

    def _is_confirmed(self) -> bool:
        return self.status == "connected" and self._leds.settled() and self._servo.settled()

    def _want(self, part: _Part, payload: bytes) -> None:
        with self._lock:
            self.stats.superseded += not part.settled()
            part.want = payload

    # -- the link thread --------------------------------------------------------------------
    def _run(self) -> None:
        wait = BACKOFF[0]
        while not self._closing.is_set():
            try:
                self._connect()
                wait = BACKOFF[0]
                self._serve()
            except Incompatible as exc:
                self._drop("incompatible", str(exc))
                wait = INCOMPATIBLE_WAIT
            except (OSError, ValueError) as exc:
                self._drop("disconnected", str(exc))
            except Exception as exc:        # a bug must not silence the board for good
                log.exception("bgboard link failed")
                self._drop("disconnected", f"link error: {exc!r}")
            self._closing.wait(wait)
            wait = min(wait * 2, max(wait, BACKOFF[1]))
        self._set_status("disconnected", "closed")

    def _connect(self) -> None:
        self._set_status("connecting", self.port or "USB")
        self._serial = serial.Serial(self.port or find_port(), self.baudrate, timeout=POLL,
                                     write_timeout=1.0, exclusive=True)
        self._serial.reset_input_buffer()
        self._serial.write(b"\x00")             # ends any half frame the board holds
        self._handshake()
        self.stats.connects += 1
        self._set_status("connected", self._serial.port)

    def _handshake(self) -> None:
        """HELLO until answered (an Uno resets on open: allow its 2 s boot); until the board
        acknowledges commands of this session, what it shows is unknown."""
        self._requeue_outstanding()
        with self._lock:
            self._leds.shown, self._servo.shown = p.UNKNOWN, None
        hello = _Command(p.HELLO, bytes([p.PROTOCOL_VERSION]), reply=Future())
        self._send(hello, 0.25)
        deadline = time.monotonic() + 3.0
        while not hello.reply.done():
            now = time.monotonic()
            if now > deadline or self._closing.is_set():
                raise LinkLost("no HELLO reply from the board")
            if now >= hello.deadline:
                self._resend(0.25, timed_out=True)
            self._pump(0.25)
        self.hello = p.Hello.parse(hello.reply.result().payload)
        self._presses = self.hello.presses
        if self.hello.protocol != p.PROTOCOL_VERSION:
            raise Incompatible(f"board speaks protocol {self.hello.protocol}, "
                               f"this host speaks {p.PROTOCOL_VERSION}")

    def _serve(self) -> None:
        last_sent = time.monotonic()
        while not self._closing.is_set():
            now = time.monotonic()
            if self._outstanding is None:
                command = self._next(now - last_sent >= self.heartbeat)
                if command is not None:
                    self._send(command, self.ack_timeout)
                    last_sent = now
            elif now >= self._outstanding.deadline:
                if self._outstanding.timeouts >= self.max_timeouts:
                    raise LinkLost(f"no reply in {self.max_timeouts} tries")
                self._resend(self.ack_timeout, timed_out=True)
            try:
                self._pump(self.ack_timeout)
            except _SessionLost:
                self._handshake()

    def _next(self, idle: bool) -> _Command | None:
        """A query first, then the servo, then the LEDs where they differ, else a heartbeat."""
        with self._lock:
            if self._queries:
                return self._queries.popleft()
            if not self._servo.settled():
                return _Command(p.SET_SERVO, self._servo.want)
            if not self._leds.settled():
                return _Command(*p.led_update(self._leds.shown, self._leds.want, self._limit))
        return _Command(p.HEARTBEAT) if idle else None

    def _send(self, command: _Command, timeout: float) -> None:
        self._seq = (self._seq + 1) & 0xFF
        command.seq = self._seq
        self._outstanding = command
        self._transmit(timeout)

    def _resend(self, timeout: float, timed_out: bool = False) -> None:
        """Send the outstanding command again; an LED command is planned anew instead."""
        command = self._outstanding
        command.timeouts += timed_out
        self.stats.resends += 1
        if command.type in LED_COMMANDS:
            self._send(self._replan(command), timeout)
        else:
            self._transmit(timeout)

    def _replan(self, failed: _Command) -> _Command:
        """The next LED command after `failed`, with half as many LEDs; the LEDs that `failed`
        would have changed are unknown (its ACK may be what was lost)."""
        with self._lock:
            self._limit = max(1, self._limit // 2)
            leds = self._leds
            leds.shown = p.leds_unsure(leds.shown, failed.type, failed.payload)
            kind, payload = p.led_update(leds.shown, leds.want, self._limit)
        return _Command(kind, payload, timeouts=failed.timeouts)

    def _transmit(self, timeout: float) -> None:
        command = self._outstanding
        command.deadline = time.monotonic() + timeout
        self.stats.sent += 1
        self._serial.write(p.Packet(command.seq, command.type, command.payload).encode())

    def _pump(self, timeout: float) -> None:
        """Read what has arrived and act on every good packet in it. A damaged frame is most
        likely the reply to the outstanding command: that is resent at once, as on a NAK,
        unless a packet in the same read already had it resent."""
        data = self._serial.read(self._serial.in_waiting or 1)
        sent, garbage = self.stats.sent, self._decoder.garbage
        for packet in self._decoder.feed(data):
            self._handle(packet, timeout)
        self.stats.garbage = self._decoder.garbage
        if self.stats.garbage > garbage and self.stats.sent == sent and self._outstanding:
            self._resend(timeout)

    def _handle(self, packet: p.Packet, timeout: float) -> None:
        if packet.type in (p.BUTTONS, p.BUTTON_EVENT):
            self._buttons(packet.payload)
        command = self._outstanding
        if packet.type == p.BUTTON_EVENT:
            return
        if command is None:
            self.stats.stale += 1
        elif packet.type == p.NAK:
            self._nak(command, packet, timeout)
        elif packet.seq == command.seq and packet.type == REPLY[command.type]:
            self._complete(command, packet)
        else:
            self.stats.stale += 1

    def _nak(self, command: _Command, packet: p.Packet, timeout: float) -> None:
        self.stats.naks += 1
        reason = packet.payload[0] if packet.payload else 0
        if packet.seq != command.seq and reason not in TRANSIENT_NAKS:
            self.stats.stale += 1
        elif reason in TRANSIENT_NAKS:
            self._resend(timeout)
        elif reason == p.NAK_NO_SESSION:
            raise _SessionLost
        else:
            self.stats.rejected += 1
            self._complete(command, packet)

    def _complete(self, command: _Command, packet: p.Packet) -> None:
        self._outstanding = None
        if command.reply is not None:
            command.reply.set_result(packet)
        elif command.type in (p.SET_SERVO, *LED_COMMANDS):
            self._settle(command, packet.type == p.ACK)

    def _settle(self, command: _Command, acknowledged: bool) -> None:
        """An acknowledged frame or angle is what the board shows now; a refused one is given
        up (the host checks them before sending, so that is a bug, and it must not loop)."""
        part = self._servo if command.type == p.SET_SERVO else self._leds
        with self._lock:
            if not acknowledged:
                log.error("the board refused %s", command)
                part.want = None
            elif part is self._servo:
                part.shown = command.payload
            else:
                part.shown = p.leds_after(part.shown, command.type, command.payload)
                self._limit = min(2 * self._limit, p.LED_COUNT)
            self._lock.notify_all()

    def _buttons(self, counters: bytes) -> None:
        previous, self._presses = self._presses, counters
        if previous is None or self.on_button is None:
            return
        for index, (old, new) in enumerate(zip(previous, counters, strict=False)):
            for _ in range((new - old) & 0xFF):
                _call(self.on_button, index)

    def _drop(self, status: str, detail: str) -> None:
        self._close_port()
        self._requeue_outstanding()
        self._set_status(status, detail)

    def _requeue_outstanding(self) -> None:
        """An unanswered query goes first in line again; the rest is redone from the state."""
        command, self._outstanding = self._outstanding, None
        if command is not None and command.type == p.GET_STATE:
            command.timeouts = 0
            with self._lock:
                self._queries.appendleft(command)

    def _close_port(self) -> None:
        if self._serial is not None:
            self._serial.close()
            self._serial = None

    def _set_status(self, status: str, detail: str) -> None:
        with self._lock:
            changed = status != self.status
            self.status = status
            self._lock.notify_all()
        if changed and self.on_event is not None:
            _call(self.on_event, LinkEvent(status, detail))


def _call(callback: Callable, argument) -> None:
    """Run a caller's callback; its errors are logged, they never stop the link."""
    try:
        callback(argument)
    except Exception:
        log.exception("bgboard link callback %r failed", callback)
