"""bgboard play's parts that need no camera picture: options, refusals, stopping, the journal
when the disk refuses, and the deployment files."""

from __future__ import annotations

import re
import resource
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from bgboard.controller.cli import build_parser
from bgboard.controller.play import LiveGame, PlayOptions
from bgboard.controller.turns.journal import Journal, read_journal
from bgboard.firmware_bridge.discovery import USB_IDS
from camera_fakes import PI_CONTROLS, install_picamera2
from cli_helpers import CAL, bgboard

ROOT = Path(__file__).resolve().parents[1]



def test_the_journal_keeps_records_in_memory_while_the_disk_refuses(tmp_path):
    path = tmp_path / "journal.jsonl"
    journal = Journal(path)
    assert journal.append({"type": "match", "length": 0})
    size = path.stat().st_size
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + 10, hard))  # the disk is "full"
    try:
        assert not journal.append({"type": "turn", "color": "white", "dice": [3, 1],
                                   "move": "8/5 6/5", "opening": True})
        assert journal.error == "journal not written: File too large"
        assert len(journal.pending) == 1
        assert path.stat().st_size == size  # no half line left behind
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old)
    assert journal.append({"type": "double"})  # room again: everything is written
    assert journal.pending == [] and journal.error is None
    journal.close()
    assert [r["type"] for r in read_journal(path)] == ["match", "turn", "double"]


def test_an_existing_journal_is_never_overwritten(tmp_path, cal):
    out = tmp_path / "games"
    out.mkdir()
    (out / "journal.jsonl").write_text('{"type": "match", "length": 0}\n')
    result = bgboard("play", "--camera", str(tmp_path), "--calibration", str(cal),
                     "--out", str(out))
    assert result.returncode == 2
    assert result.stderr == (f"bgboard play: error: {out}/journal.jsonl exists: continue it "
                             f"with --resume, or choose another --out\n")


def test_a_config_file_with_an_unknown_setting_is_refused(tmp_path):
    config = tmp_path / "play.toml"
    config.write_text('camra = "0"\n')
    result = bgboard("play", "--config", str(config))
    assert (result.returncode, result.stderr) == (
        2, f"bgboard play: error: {config}: unknown setting 'camra'\n")


def test_a_missing_calibration_is_one_line_and_exit_2(tmp_path):
    result = bgboard("play", "--calibration", str(tmp_path / "none.json"),
                     "--out", str(tmp_path / "o"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "none.json" in result.stderr


def test_sigterm_stops_cleanly_while_the_camera_is_away(tmp_path, cal):
    out = tmp_path / "games"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bgboard.controller.cli", "play", "--camera",
         "http://127.0.0.1:9/no-camera", "--calibration", str(cal), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not (out / "journal.jsonl").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert (out / "match.mat").read_text() == " 0 point match\n\n Game 1\n" \
        " White : 0                      Black : 0\n\n"
    assert [r["type"] for r in read_journal(out / "journal.jsonl")] == ["match"]


def test_the_service_unit_runs_a_valid_play_command():
    unit = (ROOT / "deploy" / "bgboard.service").read_text()
    command = shlex.split(re.search(r"^ExecStart=(.*)$", unit, re.M)[1])
    assert command[0].endswith("/bgboard")
    args = build_parser().parse_args(command[1:])
    assert (args.command, args.config, args.resume) == ("play", "/etc/bgboard/play.toml", True)


def test_the_udev_rule_names_every_board_bgboard_looks_for():
    rules = (ROOT / "deploy" / "99-bgboard.rules").read_text()
    found = {(int(v, 16), int(p, 16)) for v, p in
             re.findall(r'idVendor}=="(\w+)", ATTRS{idProduct}=="(\w+)"', rules)}
    assert found == set(USB_IDS)


def test_the_sample_play_toml_is_valid(tmp_path):
    from bgboard.controller.commands.play import options_from

    args = build_parser().parse_args(["play", "--config", str(ROOT / "deploy" / "play.toml")])
    options = options_from(args)
    assert (options.leds, options.match, options.web) == ("serial:/dev/bgboard", 7,
                                                          "0.0.0.0:8000")


def test_play_opens_the_pi_camera_as_the_calibration_says_and_notes_refusals(
        tmp_path, monkeypatch, capsys):
    """The Pi camera is a stand-in (Picamera2 cannot run here), one without white balance."""
    import json

    camera = install_picamera2(monkeypatch, advertised=PI_CONTROLS[:3])
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(dict(CAL, camera={"kind": "picamera", "exposure": 12000,
                                                 "gain": 1.5, "colour_gains": [1.9, 1.6]})))
    play = LiveGame(PlayOptions(camera="picamera", calibration=str(path), out=str(tmp_path / "o")))
    _, image = next(play._frames())
    assert image.shape == (720, 1280, 3)
    main = {"size": (1280, 720), "format": "BGR888"}
    assert camera.opened[0].calls[:4] == [
        ("create_video_configuration", main), ("configure", {"main": main}),
        ("set_controls", {"AeEnable": False, "ExposureTime": 12000, "AnalogueGain": 1.5}),
        ("start",)]
    assert capsys.readouterr().err == (
        "bgboard play: note: camera picamera did not take AwbEnable=False, ColourGains=(1.9, "
        "1.6): left as the camera sets them\n")


def test_play_without_picamera2_or_with_a_bad_camera_key_is_one_line(tmp_path):
    import json

    path = tmp_path / "cal.json"
    path.write_text(json.dumps(CAL))
    result = bgboard("play", "--camera", "picamera", "--calibration", str(path),
                     "--out", str(tmp_path / "o"))
    assert (result.returncode, result.stderr) == (2, (
        "bgboard play: error: the picamera source needs Picamera2: sudo apt install "
        "python3-picamera2 (a virtual environment sees it only when made with "
        "--system-site-packages)\n"))
    path.write_text(json.dumps(dict(CAL, camera={"kind": "usb", "exposure": 156, "iso": 100})))
    result = bgboard("play", "--calibration", str(path), "--out", str(tmp_path / "p"))
    assert (result.returncode, result.stderr) == (
        2, f"bgboard play: error: {path}: camera has unknown key 'iso' (for a usb camera)\n")


class Shown:
    """Stands in for the Display: keeps the frames the Lights show."""

    def __init__(self) -> None:
        self.frames = []

    def show(self, frame) -> None:
        self.frames.append(frame)


def test_a_moved_or_lost_field_is_told_on_the_leds_and_the_console(capsys):
    from bgboard.calibration.file import from_dict
    from bgboard.controller.console import Console
    from bgboard.controller.follow import field_status
    from bgboard.controller.lights import Lights
    from bgboard.engine.game import Match
    from bgboard.hardware import signals
    from bgboard.vision.steady import Change

    console, shown, match = Console(), Shown(), Match()
    match.new_game()  # as the Session does before the LEDs are opened
    lights = Lights(shown, match)
    console.bus.subscribe(lights)
    cal = from_dict({"version": 1, "image_size": [1280, 720], "corners_px": {
        "p1": [1100, 650], "p12": [180, 650], "p13": [200, 80], "p24": [1080, 80]}})
    field_status(console.bus, Change(None, float("inf")))
    field_status(console.bus, Change(cal, 31.4))
    assert shown.frames == [lights.base() | signals.field_lost(),
                            lights.base() | signals.field_moved()]
    assert capsys.readouterr().out.splitlines() == [
        "board: not where it was and not found again: not read until it is",
        "board: moved 31 px: corners found again"]
