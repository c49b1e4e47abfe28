"""Every protocol message, sent with pyserial to the real firmware running in simavr."""

import random
import struct
import time

import pytest

from bgboard.firmware_bridge import protocol as p
from firmware_helpers import NEEDS_TOOLS, RawPort, wait_for

pytestmark = NEEDS_TOOLS

FRAME = [(i, 2 * i, 255 - i) for i in range(30)]


@pytest.fixture
def port(sim):
    raw = RawPort(sim.pty)
    yield raw
    raw.close()


def nak_reason(packet: p.Packet) -> str:
    assert packet.type == p.NAK, packet
    return p.NAK_REASONS[packet.payload[0]]


def test_hello_reports_versions_board_and_sizes(port):
    assert port.hello() == p.Hello(protocol=2, firmware=(1, 1), board_id=1, led_count=30,
                                   button_events=6, silence_ms=3000, presses=bytes(6))


def test_commands_before_hello_or_with_another_version_get_no_session(port):
    assert nak_reason(port.ask(p.HEARTBEAT)) == "no session"
    reply = port.ask(p.HELLO, bytes([1]))
    assert reply.type == p.HELLO_REPLY and p.Hello.parse(reply.payload).protocol == 2
    assert nak_reason(port.ask(p.SET_LEDS, bytes(90))) == "no session"
    port.hello()
    assert port.ask(p.SET_LEDS, bytes(90)).type == p.ACK


def test_set_leds_lights_the_strip_in_rgb_and_state_returns_it(sim, port):
    port.hello()
    assert port.ask(p.SET_LEDS, p.leds_payload(FRAME)) == p.Packet(port.seq, p.ACK)
    assert sim.state()["leds"] == [list(rgb) for rgb in FRAME]
    state = p.DeviceState.parse(port.ask(p.GET_STATE).payload)
    assert state.leds == tuple(FRAME)
    assert (state.servo_target, state.servo_now, state.pulsing, state.session) == (
        None, None, False, True)


def test_a_short_frame_darkens_the_rest_of_the_strip(sim, port):
    port.hello()
    port.ask(p.SET_LEDS, p.leds_payload(FRAME))
    assert port.ask(p.SET_LEDS, p.leds_payload([(9, 8, 7)] * 3)).type == p.ACK
    assert sim.state()["leds"] == [[9, 8, 7]] * 3 + [[0, 0, 0]] * 27


def test_set_run_sets_leds_from_a_start_index_and_keeps_the_others(sim, port):
    port.hello()
    port.ask(p.SET_LEDS, p.leds_payload(FRAME))
    assert port.ask(p.SET_RUN, bytes([27, 1, 2, 3, 4, 5, 6])) == p.Packet(port.seq, p.ACK)
    want = [list(rgb) for rgb in FRAME[:27]] + [[1, 2, 3], [4, 5, 6], list(FRAME[29])]
    assert sim.state()["leds"] == want
    assert port.ask(p.SET_RUN, bytes([29, 9, 9, 9])).type == p.ACK
    assert port.ask(p.SET_RUN, bytes([0])).type == p.ACK          # no LEDs: shown again
    assert sim.state()["leds"] == want[:29] + [[9, 9, 9]]
    assert nak_reason(port.ask(p.SET_RUN, bytes([29, 1, 2, 3, 4, 5, 6]))) == "bad value"
    assert nak_reason(port.ask(p.SET_RUN, bytes([255, 1, 2, 3]))) == "bad value"
    assert nak_reason(port.ask(p.SET_RUN, bytes([0, 1, 2]))) == "bad length"
    assert nak_reason(port.ask(p.SET_RUN, b"")) == "bad length"
    assert sim.state()["leds"] == want[:29] + [[9, 9, 9]]
    state = p.DeviceState.parse(port.ask(p.GET_STATE).payload)
    assert state.leds == tuple(map(tuple, want[:29] + [[9, 9, 9]]))


def test_set_servo_turns_slowly_then_stops_the_pulse(sim, port):
    port.hello()
    assert port.ask(p.SET_SERVO, p.servo_payload(90)).type == p.ACK
    assert wait_for(lambda: sim.state()["servo_deg"] == 90.0, 1.0)
    start = time.monotonic()
    assert port.ask(p.SET_SERVO, p.servo_payload(30.5)).type == p.ACK
    seen = set()
    assert wait_for(lambda: seen.add(sim.state()["servo_deg"]) or 30.5 in seen, 2.0)
    assert time.monotonic() - start > 0.45     # 59.5 degrees at 120 degrees/s
    assert len(seen) > 10                      # it passed through the angles between
    state = p.DeviceState.parse(port.ask(p.GET_STATE).payload)
    assert (state.servo_target, state.servo_now, state.settled) == (30.5, 30.5, True)
    assert wait_for(lambda: not p.DeviceState.parse(port.ask(p.GET_STATE).payload).pulsing, 1.5)
    assert sim.state()["servo_deg"] == 30.5


def test_bad_servo_angle_and_lengths_are_refused(port):
    port.hello()
    assert nak_reason(port.ask(p.SET_SERVO, struct.pack("<H", 1801))) == "bad value"
    assert nak_reason(port.ask(p.SET_SERVO, b"\x01")) == "bad length"
    assert nak_reason(port.ask(p.SET_LEDS, bytes(91))) == "bad length"
    assert nak_reason(port.ask(p.SET_LEDS, bytes(4))) == "bad length"
    assert nak_reason(port.ask(p.HELLO, b"")) == "bad length"
    assert nak_reason(port.ask(0x42)) == "bad type"
    state = p.DeviceState.parse(port.ask(p.GET_STATE).payload)
    assert (state.crc_errors, state.oversize, state.bad_packets) == (0, 0, 1)


def test_garbage_is_dropped_counted_and_answered_with_nak(sim, port):
    port.hello()
    good = p.Packet(77, p.SET_LEDS, p.leds_payload([(1, 2, 3)] * 30)).encode()
    corrupt = bytearray(good)
    corrupt[10] ^= 0x55
    port.write(bytes(corrupt))
    assert nak_reason(port.receive()) == "crc"
    port.write(bytes(range(1, 256)) * 2 + b"\x00")       # noise: a frame over the size limit
    assert nak_reason(port.receive()) == "oversize"
    port.write(b"\x05\x01\x00")                           # malformed COBS
    assert nak_reason(port.receive()) == "framing"
    port.write(good[:40] + b"\x00")                       # half a frame
    assert nak_reason(port.receive()) == "framing"
    port.write(b"\x00\x00\x00")                           # empty frames are ignored
    port.write(good)
    assert port.receive() == p.Packet(77, p.ACK)
    assert sim.state()["leds"] == [[1, 2, 3]] * 30
    state = p.DeviceState.parse(port.ask(p.GET_STATE).payload)
    assert (state.crc_errors, state.oversize, state.bad_packets) == (1, 1, 2)


def test_random_noise_never_upsets_the_firmware(sim, port):
    port.hello()
    port.ask(p.SET_LEDS, p.leds_payload(FRAME))
    noise = random.Random(6).randbytes(4000)
    port.write(noise + b"\x00")
    seq = port.send(p.HELLO, bytes([p.PROTOCOL_VERSION]))
    replies = []
    assert wait_for(lambda: replies.extend(port.decoder.feed(port.serial.read(4096))) or any(
        (r.seq, r.type) == (seq, p.HELLO_REPLY) for r in replies), 3.0)
    assert {r.type for r in replies} == {p.NAK, p.HELLO_REPLY}
    assert port.ask(p.SET_LEDS, p.leds_payload(FRAME[::-1])).type == p.ACK
    assert sim.state()["leds"] == [list(rgb) for rgb in FRAME[::-1]]
    state = p.DeviceState.parse(port.ask(p.GET_STATE).payload)
    frames = noise.count(0)
    assert 0 < state.crc_errors + state.oversize + state.bad_packets <= frames + 1


def test_heartbeat_and_buttons_report_debounced_press_counters(sim, port):
    port.hello()
    assert port.ask(p.HEARTBEAT) == p.Packet(port.seq, p.BUTTONS, bytes(6))
    sim.press(3)
    event = port.receive()
    assert (event.type, event.payload) == (p.BUTTON_EVENT, bytes([0, 0, 0, 1, 0, 0]))
    assert port.receive(0.3) is None                      # the bounces counted once
    sim.press(0)
    assert port.receive().payload == bytes([1, 0, 0, 1, 0, 0])
    assert port.ask(p.HEARTBEAT).payload == bytes([1, 0, 0, 1, 0, 0])
    sim.press(4)                                          # confirm counts on release
    assert port.receive().payload == bytes([1, 0, 0, 1, 1, 0])
    sim.press(4, held_ms=1100)                            # held 1 s: menu, and no confirm
    event = port.receive(1.5)
    assert event.payload == bytes([1, 0, 0, 1, 1, 1])
    assert port.receive(0.3) is None


def test_silent_host_darkens_leds_rests_servo_and_ends_session(sim, port):
    port.hello()
    port.ask(p.SET_LEDS, p.leds_payload(FRAME))
    port.ask(p.SET_SERVO, p.servo_payload(45))
    time.sleep(2.0)
    assert sim.state()["leds"] == [list(rgb) for rgb in FRAME]
    assert wait_for(lambda: sim.state()["leds"] == [[0, 0, 0]] * 30, 2.0)
    assert nak_reason(port.ask(p.GET_STATE)) == "no session"
    port.hello()
    state = p.DeviceState.parse(port.ask(p.GET_STATE).payload)
    assert (state.leds, state.pulsing, state.servo_now) == (((0, 0, 0),) * 30, False, 45.0)
