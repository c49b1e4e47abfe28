"""`bgboard leds play|test` on the sim backend, bad frames files, and everything off on
Ctrl-C or SIGTERM in a real process."""

import json
import os
import signal
import subprocess
import sys

import pytest

from bgboard.controller.cli import main
from bgboard.hardware.render import led_text

OFF = [0, 0, 0]


def frame(lit: dict[int, list[int]]) -> list[list[int]]:
    return [lit.get(i, OFF) for i in range(30)]


def write_frames(path, frames):
    path.write_text("".join(json.dumps(f) + "\n" for f in frames))
    return path


def test_play_sends_every_frame_in_order_and_exits_0(tmp_path, capsys):
    frames = [{"leds": frame({0: [255, 0, 0]})}, {"leds": frame({29: [0, 0, 255]})},
              {"leds": frame({5: [1, 2, 3], 24: [9, 9, 9]}), "cube": 2}]
    path = write_frames(tmp_path / "frames.jsonl", frames)
    assert main(["leds", "play", str(path), "--backend", "sim"]) == 0
    boards = capsys.readouterr().out.split("\n\n")[:-1]
    tuples = [[tuple(c) for c in f["leds"]] for f in frames]
    assert boards == [
        led_text(tuples[0]),
        led_text(tuples[1]),
        led_text(tuples[2]),
        led_text(tuples[2], "2 (36\u00b0)"),
        led_text([(0, 0, 0)] * 30, "2 (36\u00b0)"),
    ]


BAD_FRAMES = [
    ('{"leds": [[0, 0, 0]]}\n', "line 1: a frame needs 30 LED colours, got 1"),
    ("{}\n", 'line 1: a frame is an object with "leds": [[r, g, b], ...]'),
    ('{"leds": ' + json.dumps(frame({3: [256, 0, 0]})) + "}\n",
     "line 1: not an RGB colour (three integers 0..255): [256, 0, 0]"),
    ('\n{"leds": ' + json.dumps(frame({})) + ', "cube": 3}\n', "line 2: no cube face 3"),
    ('{"leds": ' + json.dumps(frame({})) + ', "cube": "2"}\n',
     "line 1: cube '2' is not a cube value"),
    ("{not json\n", "line 1: Expecting property name"),
    ("\n", "no frames"),
]


@pytest.mark.parametrize(("text", "reason"), BAD_FRAMES)
def test_a_bad_frames_file_is_one_line_and_exit_2(tmp_path, capsys, text, reason):
    path = tmp_path / "frames.jsonl"
    path.write_text(text)
    assert main(["leds", "play", str(path), "--backend", "sim"]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # nothing was sent
    assert err.count("\n") == 1
    assert err.startswith(f"bgboard leds: error: {path}")
    assert reason in err


def test_a_missing_frames_file_and_an_unknown_backend(tmp_path, capsys):
    assert main(["leds", "play", str(tmp_path / "none.jsonl")]) == 2
    assert "none.jsonl" in capsys.readouterr().err
    path = write_frames(tmp_path / "f.jsonl", [{"leds": frame({})}])
    assert main(["leds", "play", str(path), "--backend", "usb"]) == 2
    assert capsys.readouterr().err == (
        "bgboard leds: error: unknown backend 'usb' (use gpio, sim or serial:PORT)\n")


def test_without_the_serial_backend_module(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "bgboard.hardware.serial_backend", None)
    path = write_frames(tmp_path / "f.jsonl", [{"leds": frame({})}])
    assert main(["leds", "play", str(path), "--backend", "serial:/dev/ttyUSB0"]) == 2
    assert capsys.readouterr().err == (
        "bgboard leds: error: the serial backend is not installed\n")


def test_leds_test_walks_every_led_then_every_cube_face(capsys):
    assert main(["leds", "test", "--backend", "sim", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    white = (255, 255, 255)
    sixth = [(0, 0, 0)] * 5 + [white] + [(0, 0, 0)] * 24
    assert f"LED 5: point 6\n{led_text(sixth)}\n\n" in out
    assert f"LED 29: play black\n{led_text([(0, 0, 0)] * 29 + [white])}\n\n" in out
    assert f"every LED blue\n{led_text([(0, 0, 255)] * 30)}\n\n" in out
    messages = [line for line in out.splitlines() if line.startswith(("LED", "every", "cube "))]
    assert len(messages) == 30 + 4 + 6
    assert messages[-6:] == ["cube 64: 0 degrees", "cube 2: 36 degrees", "cube 4: 72 degrees",
                             "cube 8: 108 degrees", "cube 16: 144 degrees",
                             "cube 32: 180 degrees"]
    assert out.endswith(led_text([(0, 0, 0)] * 30, "32 (180\u00b0)") + "\n\n")


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_everything_is_off_when_interrupted(sig, code):
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(
        [sys.executable, "-m", "bgboard.controller.cli", "leds", "test", "--backend", "sim",
         "--delay", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as from a terminal,
    first = [proc.stdout.readline() for _ in range(6)]  # even when pytest runs in the background
    assert first[0] == "LED 0: point 1\n"
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code
    assert err == ""
    assert out == led_text([(0, 0, 0)] * 30) + "\n\n"
