"""The bgboard wire protocol, version 2 (PROTOCOL.md): packets, framing and payloads.

A packet is seq, type, payload and a CRC-16/CCITT-FALSE (little-endian), COBS-encoded and
ended by a 0x00 byte. This module is pure: bytes in, values out, no I/O.
"""

from __future__ import annotations

import binascii
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from cobs import cobs

PROTOCOL_VERSION = 2
LED_COUNT = 30
BUTTON_EVENTS = 6           # double, take, pass, undo, confirm, menu (confirm held 1 s)
MAX_PAYLOAD = 102
MAX_PACKET = 2 + MAX_PAYLOAD + 2
MAX_ENCODED = MAX_PACKET + 1
SERVO_NONE = 0xFFFF
DARK = bytes(3)

Strip = tuple[bytes | None, ...]   # the 30 LEDs' RGB bytes in strip order; None: not known
UNKNOWN = (None,) * LED_COUNT

HELLO, HEARTBEAT, SET_LEDS, SET_SERVO, GET_STATE, SET_RUN = 0x01, 0x02, 0x03, 0x04, 0x05, 0x06
ACK, NAK, HELLO_REPLY, STATE, BUTTONS, BUTTON_EVENT = 0x80, 0x81, 0x82, 0x83, 0x84, 0x85
NAK_REASONS = {1: "crc", 2: "oversize", 3: "bad type", 4: "bad length", 5: "no session",
               6: "bad value", 7: "framing"}
NAK_NO_SESSION = 5


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), as avr-libc's _crc_xmodem_update."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True)
class Packet:
    """One protocol packet: sequence number, type and payload."""

    seq: int
    type: int
    payload: bytes = b""

    def encode(self) -> bytes:
        """The bytes on the wire: COBS(seq type payload crc) followed by 0x00."""
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes is over {MAX_PAYLOAD}")
        body = bytes((self.seq & 0xFF, self.type)) + self.payload
        return cobs.encode(body + struct.pack("<H", crc16(body))) + b"\x00"


@dataclass
class Decoder:
    """Splits a byte stream into good packets; drops and counts everything else."""

    garbage: int = 0            # frames dropped: bad COBS, short, bad CRC or over size
    _buffer: bytearray = field(default_factory=bytearray)
    _overflow: bool = False

    def feed(self, data: bytes) -> Iterator[Packet]:
        """Yield every complete, valid packet in `data` (partial frames wait for more)."""
        for byte in data:
            if byte:
                if len(self._buffer) < MAX_ENCODED:
                    self._buffer.append(byte)
                else:
                    self._overflow = True
                continue
            packet = self._finish()
            if packet is not None:
                yield packet

    def _finish(self) -> Packet | None:
        raw, overflow = bytes(self._buffer), self._overflow
        self._buffer.clear()
        self._overflow = False
        if not raw:
            return None
        if overflow:
            self.garbage += 1
            return None
        try:
            body = cobs.decode(raw)
        except cobs.DecodeError:
            self.garbage += 1
            return None
        if len(body) < 4 or crc16(body[:-2]) != struct.unpack("<H", body[-2:])[0]:
            self.garbage += 1
            return None
        return Packet(body[0], body[1], body[2:-2])


def leds_payload(leds: Sequence[Sequence[int]]) -> bytes:
    """SET_LEDS payload: up to 30 RGB triples, each channel 0..255."""
    if len(leds) > LED_COUNT:
        raise ValueError(f"{len(leds)} LEDs given, the firmware drives at most {LED_COUNT}")
    try:
        return bytes(channel for rgb in leds for channel in _rgb(rgb))
    except ValueError as exc:
        raise ValueError(f"bad LED colour: {exc}") from None


def led_update(shown: Strip, want: Strip, limit: int = LED_COUNT) -> tuple[int, bytes]:
    """The next command (type, payload) toward showing `want` where the strip shows `shown`.

    SET_LEDS sends the whole strip up to its last lit LED (the rest go dark); SET_RUN the LEDs
    from the first that differs to the last that differs, at most `limit` of them. SET_LEDS is
    taken when it is no longer and carries at most `limit` LEDs.
    """
    changed = [i for i, rgb in enumerate(want) if shown[i] != rgb]
    first, last = changed[0], changed[-1]
    lit = b"".join(want).rstrip(b"\0")
    whole = lit.ljust(len(lit) + -len(lit) % 3, b"\0")
    if len(whole) <= min(3 * limit, 3 * (last - first) + 4):
        return SET_LEDS, whole
    last = max(i for i in changed if i < first + limit)
    return SET_RUN, bytes([first]) + b"".join(want[first:last + 1])


def leds_after(shown: Strip, kind: int, payload: bytes) -> Strip:
    """The strip once the board has acknowledged this SET_LEDS or SET_RUN."""
    colours = tuple(payload[i:i + 3] for i in range(kind == SET_RUN, len(payload), 3))
    if kind == SET_LEDS:
        return colours + (DARK,) * (LED_COUNT - len(colours))
    return shown[:payload[0]] + colours + shown[payload[0] + len(colours):]


def leds_unsure(shown: Strip, kind: int, payload: bytes) -> Strip:
    """The strip after a SET_LEDS or SET_RUN that may or may not have arrived: the LEDs it
    would have changed are unknown (None)."""
    after = leds_after(shown, kind, payload)
    return tuple(old if old == new else None for old, new in zip(shown, after, strict=True))


def _rgb(rgb: Sequence[int]) -> Sequence[int]:
    if len(rgb) != 3:
        raise ValueError(f"{list(rgb)} is not [r, g, b]")
    return rgb


def servo_payload(degrees: float) -> bytes:
    """SET_SERVO payload: the angle in tenths of a degree, 0..1800."""
    if not 0 <= degrees <= 180:
        raise ValueError(f"servo angle {degrees} is outside 0..180 degrees")
    return struct.pack("<H", round(degrees * 10))


@dataclass(frozen=True)
class Hello:
    """The device's HELLO_REPLY: who it is and what it speaks."""

    protocol: int
    firmware: tuple[int, int]
    board_id: int
    led_count: int
    button_events: int
    silence_ms: int
    presses: bytes           # the wrapping counter of each button event

    @classmethod
    def parse(cls, payload: bytes) -> Hello:
        proto, major, minor, board, leds, buttons, silence = _unpack("<BBBHBBH", payload)
        return cls(proto, (major, minor), board, leds, buttons, silence, payload[9:])


@dataclass(frozen=True)
class DeviceState:
    """The device's STATE reply: LED buffer, servo and its garbage counters."""

    leds: tuple[tuple[int, int, int], ...]
    servo_target: float | None
    servo_now: float | None
    pulsing: bool
    session: bool
    settled: bool            # the servo stood at its target for a full pulse period
    crc_errors: int
    oversize: int
    bad_packets: int

    @classmethod
    def parse(cls, payload: bytes) -> DeviceState:
        target, now, flags, crc, over, bad, count = _unpack("<HHBHHHB", payload)
        raw = payload[12:12 + 3 * count]
        return cls(tuple(tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)),
                   _degrees(target), _degrees(now), bool(flags & 1), bool(flags & 2),
                   bool(flags & 4), crc, over, bad)


def _unpack(layout: str, payload: bytes) -> tuple:
    try:
        return struct.unpack_from(layout, payload)
    except struct.error:
        raise ValueError(f"a reply of {len(payload)} bytes is too short") from None


def _degrees(tenths: int) -> float | None:
    return None if tenths == SERVO_NONE else tenths / 10
