"""Shared pieces of the firmware tests: raw packet I/O (the simulator fixture, `sim`, is in
conftest.py; the faulty line in bgboard.firmware_bridge.faulty_line)."""

from __future__ import annotations

import shutil
import time

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
