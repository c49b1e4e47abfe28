"""`bgboard firmware sim|build` as DESIGN.md states them, and `bgboard leds play` on the serial
backend against the simulated board, each in a real process."""

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bgboard.firmware_bridge import build
from bgboard.firmware_bridge import protocol as p
from bgboard.firmware_bridge.faulty_line import FaultyLine
from firmware_helpers import NEEDS_TOOLS, RawPort, wait_for

pytestmark = NEEDS_TOOLS

BGBOARD = [sys.executable, "-m", "bgboard.controller.cli"]
DARK = {"leds": [[0, 0, 0]] * 30, "servo_deg": None}


def bgboard(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*BGBOARD, *args], capture_output=True, text=True, timeout=60,
                          **kwargs)


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_firmware_sim_prints_its_pty_writes_state_and_stops_cleanly(tmp_path, stop):
    state = tmp_path / "state.json"
    process = subprocess.Popen([*BGBOARD, "firmware", "sim", "--state", str(state)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = process.stdout.readline()
        assert first.startswith("pty: /dev/pts/"), first
        assert json.loads(state.read_text()) == DARK
        port = RawPort(first[5:].strip())
        assert port.hello().protocol == 2
        port.ask(p.SET_LEDS, p.leds_payload([(10, 20, 30)] * 30))
        assert json.loads(state.read_text())["leds"] == [[10, 20, 30]] * 30
        port.close()
        assert not list(tmp_path.glob("state.json.tmp*"))
    finally:
        process.send_signal(stop)
        assert process.wait(5) == 0
    assert process.stdout.read() == ""            # nothing after the first line
    assert "0 timing errors" in process.stderr.read()


def test_firmware_build_prints_the_built_files():
    run = bgboard("firmware", "build")
    assert run.returncode == 0, run.stderr
    paths = dict(line.split(": ", 1) for line in run.stdout.splitlines())
    assert sorted(paths) == ["elf", "hex", "sim"]
    assert all(Path(path).is_file() for path in paths.values())
    assert Path(paths["hex"]).read_text().startswith(":")


def test_a_build_finished_meanwhile_by_another_process_is_kept_not_replaced(tmp_path,
                                                                         monkeypatch):
    """Parallel test workers build at once: the one that finishes second must not delete the
    build the first is already running."""
    monkeypatch.setenv("BGBOARD_CACHE", str(tmp_path))

    def make_while_another_finishes(source, build_dir, tool, packages):
        for name in ("bgboard.elf", "bgboard.hex", "bgboard_sim"):
            (build_dir / name).write_text("ours")
        other = tmp_path / f"firmware-{build._digest()}"
        if not other.exists():
            other.mkdir()
            for name in ("bgboard.elf", "bgboard.hex", "bgboard_sim"):
                (other / name).write_text("theirs")

    monkeypatch.setattr(build, "_make", make_while_another_finishes)
    result = build.build()
    assert [result.elf.read_text(), result.harness.read_text()] == ["theirs", "theirs"]
    assert [path.name for path in tmp_path.iterdir()] == [result.elf.parent.name]


def test_leds_play_on_the_serial_backend_exits_0_with_the_last_frame_shown(sim, tmp_path):
    frames = [{"leds": [[i, 255 - i, (7 * i) % 256]] * 30} for i in range(40)]
    last = {"leds": [[k, 2 * k, 3 * k] for k in range(30)], "cube": 2}
    path = tmp_path / "frames.jsonl"
    path.write_text("".join(json.dumps(f) + "\n" for f in [*frames, last]))
    run = bgboard("leds", "play", str(path), "--backend", f"serial:{sim.pty}")
    assert (run.returncode, run.stderr) == (0, "")
    assert sim.state() == {"leds": last["leds"], "servo_deg": 36.0}
    # the board darkens by itself once the host has been silent for 3 s
    assert wait_for(lambda: sim.state()["leds"] == DARK["leds"], 4.0)


def test_leds_play_exits_0_with_the_last_frame_shown_through_a_line_with_3_percent_faults(
        sim, tmp_path):
    frames = [{"leds": [[i, (5 * k) % 256, 255 - i] for k in range(30)]} for i in range(150)]
    last = {"leds": [[k, 0, 9] for k in range(20)] + [[0, 0, 0]] * 10, "cube": 4}
    path = tmp_path / "frames.jsonl"
    path.write_text("".join(json.dumps(f) + "\n" for f in [*frames, last]))
    line = FaultyLine(sim.pty, rate=0.03, kinds=("drop", "duplicate", "corrupt"))
    try:
        run = bgboard("leds", "play", str(path), "--backend", f"serial:{line.port}",
                      "--timeout", "50")
    finally:
        line.close()
    assert (run.returncode, run.stderr) == (0, "")
    assert sim.state() == {"leds": last["leds"], "servo_deg": 72.0}
    assert sum(line.faults.values()) > 0


def test_leds_play_on_a_missing_serial_port_is_a_one_line_error(tmp_path):
    path = tmp_path / "frames.jsonl"
    path.write_text(json.dumps({"leds": [[1, 2, 3]] * 30}) + "\n")
    run = bgboard("leds", "play", str(path), "--backend", "serial:/dev/no-such-tty")
    assert run.returncode == 2
    assert run.stderr == "bgboard leds: error: /dev/no-such-tty: no such serial port\n"


def test_firmware_sim_with_a_state_file_in_a_missing_directory_is_a_one_line_error(tmp_path):
    run = bgboard("firmware", "sim", "--state", str(tmp_path / "no" / "state.json"))
    assert run.returncode == 2
    assert run.stderr == f"bgboard firmware: error: {tmp_path}/no/state.json: its directory " \
                         "does not exist\n"


def test_firmware_info_reports_what_the_board_says(sim):
    run = bgboard("firmware", "info", "--port", sim.pty)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {
        "port": sim.pty, "protocol": 2, "firmware": "1.1", "board_id": 1, "leds": 30,
        "button_events": 6, "silence_ms": 3000, "servo_deg": None,
        "errors": {"crc": 0, "oversize": 0, "bad": 0}}


def test_firmware_info_without_a_board_is_a_one_line_error():
    run = bgboard("firmware", "info", "--port", "/dev/no-such-tty", "--timeout", "0.5")
    assert run.returncode == 2
    assert run.stderr.startswith("bgboard firmware: error: no board answered on "
                                 "/dev/no-such-tty within 0.5 s: [Errno 2] could not open port")
    assert run.stderr.count("\n") == 1
