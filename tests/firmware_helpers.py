"""Shared pieces of the firmware tests: raw packet I/O, a faulty line (the simulator fixture,
`sim`, is in conftest.py)."""

from __future__ import annotations

import os
import random
import select
import shutil
import termios
import threading
import time
import tty
from collections import Counter

import pytest
import serial

from bgboard.firmware_bridge import protocol as p

NEEDS_TOOLS = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("avr-gcc", "simavr", "make")),
    reason="the AVR toolchain or simavr is not installed (apt-get install make gcc-avr "
           "avr-libc simavr libsimavr-dev libelf-dev pkg-config)")


def wait_for(check, timeout: float = 5.0, step: float = 0.01):
    """Poll `check()` until it returns something true; that value, or None on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(step)


class RawPort:
    """The firmware's pty driven packet by packet, without the link thread."""

    def __init__(self, port: str) -> None:
        self.serial = serial.Serial(port, 115200, timeout=0.05)
        self.decoder = p.Decoder()
        self.seq = 0

    def send(self, kind: int, payload: bytes = b"") -> int:
        self.seq = (self.seq + 1) & 0xFF
        self.serial.write(p.Packet(self.seq, kind, payload).encode())
        return self.seq

    def write(self, data: bytes) -> None:
        self.serial.write(data)

    def receive(self, timeout: float = 1.0) -> p.Packet | None:
        """The next good packet from the board, or None."""
        deadline = time.monotonic() + timeout
        pending: list[p.Packet] = []
        while not pending and time.monotonic() < deadline:
            pending.extend(self.decoder.feed(self.serial.read(self.serial.in_waiting or 1)))
        if len(pending) > 1:
            raise AssertionError(f"more than one packet at once: {pending}")
        return pending[0] if pending else None

    def ask(self, kind: int, payload: bytes = b"") -> p.Packet:
        """Send one packet and return the reply to it."""
        seq = self.send(kind, payload)
        reply = self.receive()
        assert reply is not None, f"no reply to type {kind:#x}"
        assert reply.seq == seq
        return reply

    def hello(self) -> p.Hello:
        reply = self.ask(p.HELLO, bytes([p.PROTOCOL_VERSION]))
        assert reply.type == p.HELLO_REPLY
        return p.Hello.parse(reply.payload)

    def close(self) -> None:
        self.serial.close()


class FaultyLine:
    """A pty between host and board that drops, duplicates, corrupts or delays bytes.

    Each byte, in either direction, meets a fault with probability `rate`; the kind of fault
    is drawn evenly from `kinds` (`rate` may be changed on the way). `port` is the host's end;
    `commands` are the packets the host sent, as it sent them (before any fault).
    """

    KINDS = ("drop", "duplicate", "corrupt", "delay")

    def __init__(self, board_port: str, rate: float, seed: int = 6,
                 kinds: tuple[str, ...] = KINDS) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        attrs = termios.tcgetattr(self._slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(self._slave, termios.TCSANOW, attrs)
        self.port = os.ttyname(self._slave)
        self._board = serial.Serial(board_port, 115200, timeout=0)
        self.rate, self.kinds = rate, kinds
        self.commands: list[p.Packet] = []
        self._decoder = p.Decoder()
        self._random = random.Random(seed)
        self.faults: Counter[str] = Counter()
        self.bytes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _garble(self, data: bytes) -> bytes:
        out = bytearray()
        for byte in data:
            self.bytes += 1
            if self._random.random() >= self.rate:
                out.append(byte)
                continue
            kind = self._random.choice(self.kinds)
            self.faults[kind] += 1
            if kind == "duplicate":
                out += bytes((byte, byte))
            elif kind == "corrupt":
                out.append(byte ^ self._random.randrange(1, 256))
            elif kind == "delay":
                time.sleep(self._random.uniform(0.001, 0.02))
                out.append(byte)
        return bytes(out)

    def _run(self) -> None:
        board = self._board.fileno()
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master, board], [], [], 0.05)
            if self._master in ready:
                data = os.read(self._master, 4096)
                self.commands += self._decoder.feed(data)
                self._board.write(self._garble(data))
            if board in ready:
                os.write(self._master, self._garble(os.read(board, 4096)))

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self._board.close()
        os.close(self._master)
        os.close(self._slave)
