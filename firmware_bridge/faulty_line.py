"""A faulty serial line between the host and the simulated board: bytes dropped, duplicated,
corrupted or delayed at a rate, to measure and test the link's recovery (benchmarks/firmware.py,
the firmware tests)."""

from __future__ import annotations

import os
import random
import select
import termios
import threading
import time
import tty
from collections import Counter

import serial

from . import protocol as p


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
