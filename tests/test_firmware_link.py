"""The host link and the serial backend against the real firmware in simavr, over real ptys:
a faulty line, unplugging and replugging the board, version checks, buttons."""

import threading
import time

import pytest

from bgboard.firmware_bridge import link as link_module
from bgboard.firmware_bridge import protocol as p
from bgboard.firmware_bridge.discovery import USB_IDS
from bgboard.firmware_bridge.faulty_line import FaultyLine
from bgboard.firmware_bridge.link import Link, LinkEvent
from bgboard.firmware_bridge.simulator import Simulator
from bgboard.hardware.serial_backend import SerialBackend
from firmware_helpers import NEEDS_TOOLS, wait_for

pytestmark = NEEDS_TOOLS


def frame(i: int) -> list[tuple[int, int, int]]:
    return [((i + k) % 256, (3 * i + k) % 256, (7 * i + 5 * k) % 256) for k in range(30)]


def as_json(leds) -> list[list[int]]:
    return [list(rgb) for rgb in leds]


def test_backend_shows_turns_and_confirms(sim):
    with SerialBackend(sim.pty) as backend:
        for i in range(20):
            backend.show(frame(i))
        backend.turn_cube(120)
        assert backend.confirmed(5.0)
        assert sim.state() == {"leds": as_json(frame(19)), "servo_deg": 120.0}
        assert backend.link.hello.firmware == (1, 1)
        backend.turn_cube(60)
        assert backend.confirmed(5.0)
        assert sim.state()["servo_deg"] == 60.0


def test_backend_reports_button_presses_by_name(sim):
    pressed = []
    with SerialBackend(sim.pty) as backend:
        backend.on_button(pressed.append)
        assert backend.confirmed(2.0)
        for button in (0, 4, 3):
            sim.press(button)                   # queued: one after the other
        sim.press(4, held_ms=1100)
        sim.press(1)
        assert wait_for(lambda: len(pressed) == 5, 3.0)
    assert pressed == ["double", "confirm", "undo", "menu", "take"]


def test_another_protocol_version_is_reported_not_used(sim, monkeypatch):
    monkeypatch.setattr(link_module.p, "PROTOCOL_VERSION", 3)
    events: list[LinkEvent] = []
    link = Link(sim.pty, on_event=events.append)
    try:
        assert wait_for(lambda: link.status == "incompatible", 2.0)
        link.set_leds(frame(1))
        assert not link.wait_confirmed(0.3)
    finally:
        link.close()
    assert LinkEvent("incompatible", "board speaks protocol 2, this host speaks 3") in events
    assert sim.state()["leds"] == [[0, 0, 0]] * 30


def test_without_a_port_the_board_is_looked_for_by_usb_id():
    from serial.tools import list_ports

    if any((port.vid, port.pid) in USB_IDS for port in list_ports.comports()):
        pytest.skip("a board is attached to this machine")
    events: list[LinkEvent] = []
    link = Link(None, on_event=events.append)
    try:
        assert wait_for(lambda: len(events) >= 2, 2.0)
    finally:
        link.close()
    assert events[0] == LinkEvent("connecting", "USB")
    assert events[1].status == "disconnected"
    assert events[1].detail.startswith("no bgboard microcontroller on USB (looked for 2341:0043")


def test_missing_port_is_a_one_line_error():
    with pytest.raises(OSError, match="/dev/no-such-tty: no such serial port"):
        SerialBackend("/dev/no-such-tty")


def test_after_the_board_timed_the_host_out_the_link_restores_and_goes_on(sim):
    link = Link(sim.pty)
    link.heartbeat = 60.0                       # a host that falls silent
    try:
        link.set_servo(100)
        link.set_leds(frame(1))
        assert link.wait_confirmed(2.0)
        assert wait_for(lambda: sim.state()["leds"] == [[0, 0, 0]] * 30, 4.0)
        link.set_leds(frame(2))                 # answered NO_SESSION: HELLO, restore, resend
        assert link.wait_confirmed(2.0)
        state = link.query_state()
    finally:
        link.close()
    assert sim.state() == {"leds": as_json(frame(2)), "servo_deg": 100.0}
    # whether the pulse still runs depends on timing (it stops 0.5 s after arriving)
    assert (state.leds, state.servo_now, state.session) == (tuple(frame(2)), 100.0, True)
    assert link.stats.connects == 1 and link.stats.naks == 1


def test_superseded_frames_are_not_sent_and_a_delta_sends_only_the_changed_leds(sim, tmp_path):
    line = FaultyLine(sim.pty, rate=0.0)
    port = tmp_path / "ttyBGBOARD"
    link = Link(str(port))                      # no board there yet
    link.ack_timeout = 10.0                     # a busy machine must not cause resends
    try:
        for i in range(100):
            link.set_leds(frame(i))
        assert not link.wait_confirmed(0.1)
        port.symlink_to(line.port)              # the board appears
        assert link.wait_confirmed(10.0)
        nearly = frame(99)
        nearly[3:6] = [(1, 1, 1), (2, 2, 2), (3, 3, 3)]
        link.set_leds(nearly)
        assert link.wait_confirmed(10.0)
        link.set_leds([(0, 0, 0)] * 4 + [(5, 0, 0)])    # the rest dark: the whole frame is shorter
        assert link.wait_confirmed(10.0)
        state = link.query_state(10.0)
    finally:
        link.close()
        line.close()
    sent = [(packet.type, packet.payload) for packet in line.commands
            if packet.type in (p.SET_LEDS, p.SET_RUN)]
    assert sent == [(p.SET_LEDS, p.leds_payload(frame(99))),
                    (p.SET_RUN, bytes([3, 1, 1, 1, 2, 2, 2, 3, 3, 3])),
                    (p.SET_LEDS, bytes(12) + bytes([5, 0, 0]))]
    assert state.leds == ((0, 0, 0),) * 4 + ((5, 0, 0),) + ((0, 0, 0),) * 25
    assert link.stats.superseded == 99


def step(i: int) -> list[tuple[int, int, int]]:
    """An animation: every 10th step changes every LED, the others change one or two."""
    leds = frame(i // 10)
    leds[i % 30] = (i % 256, 255, 0)
    leds[(7 * i) % 30] = (0, 0, i % 256)
    return leds


def test_the_last_frame_arrives_exactly_through_a_line_with_3_percent_faults(sim):
    line = FaultyLine(sim.pty, rate=0.03, kinds=("drop", "duplicate", "corrupt"))
    link = Link(line.port)
    try:
        for i in range(200):
            link.set_leds(step(i))
            time.sleep(0.005)                   # the link works while the frames change
        assert link.wait_confirmed(120.0)
        pins = sim.state()["leds"]
        state = link.query_state(60.0)
    finally:
        link.close()
        line.close()
    assert pins == as_json(step(199))
    assert state.leds == tuple(step(199))
    assert min(line.faults[kind] for kind in line.kinds) > 0 and "delay" not in line.faults
    stats = link.stats
    assert stats.resends > 0 and stats.garbage > 0 and state.crc_errors > 0
    assert stats.superseded > 0


def test_unplug_and_replug_restores_leds_and_cube_within_2_s(tmp_path):
    state, port = tmp_path / "state.json", tmp_path / "ttyBGBOARD"
    events: list[LinkEvent] = []
    board = Simulator(state, link=port)
    backend = SerialBackend(str(port), on_event=events.append)
    stop = threading.Event()

    def stream():
        i = 0
        while not stop.is_set():
            backend.show(frame(i % 256))
            i += 1
            time.sleep(0.01)

    try:
        backend.turn_cube(150)
        assert backend.confirmed(3.0)
        streamer = threading.Thread(target=stream)
        streamer.start()
        time.sleep(0.5)
        board.unplug()
        assert wait_for(lambda: backend.link.status != "connected", 2.0)
        stop.set()
        streamer.join()
        last = frame(255)
        backend.show(last)                          # changed while the board is away
        state.unlink()
        board = Simulator(state, link=port)
        replugged = time.monotonic()
        restored = wait_for(lambda: state.exists() and board.state() == {
            "leds": as_json(last), "servo_deg": 150.0}, 5.0)
        took = time.monotonic() - replugged
        print(f"\nstate restored {took:.2f} s after the board came back")
        assert restored
        assert took < 2.0
        assert backend.confirmed(2.0)
    finally:
        stop.set()
        backend.close()
        board.stop()
    statuses = [event.status for event in events]
    assert statuses[:2] == ["connecting", "connected"]
    assert "disconnected" in statuses and statuses[-2:] == ["connected", "disconnected"]
    assert backend.link.stats.connects == 2
