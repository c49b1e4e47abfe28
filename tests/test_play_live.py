"""bgboard play on filmed games: killed with SIGKILL and resumed, and with its camera stream
and its serial board unplugged mid-game. Nothing may be lost."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import pytest

from bgboard.controller.demo.film import film_match, render_frames, write_folder
from bgboard.engine.matfile import write_mat
from bgboard.firmware_bridge.simulator import Simulator
from film_media import write_calibration
from firmware_helpers import wait_for

SEED = 2  # a film today's vision reads whole (issue 3: not every film is)
FILM = film_match(SEED, games=1, cube=False)
PLAY = [sys.executable, "-m", "bgboard.controller.cli", "play", "--leds"]


def turns_in(journal: Path) -> int:
    if not journal.exists():
        return 0
    return sum(1 for line in journal.read_text().splitlines()
               if line.endswith("}") and json.loads(line)["type"] == "turn")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("film")
    return write_folder(FILM, root / "frames", SEED, workers=2), write_calibration(
        FILM, root / "cal.json", SEED)


def test_sigkill_at_a_random_turn_then_resume_gives_the_same_match(folder, tmp_path):
    frames, cal = folder
    expected = write_mat(FILM.match, ("White", "Black"))
    whole = tmp_path / "whole"
    subprocess.run([*PLAY, "sim", "--camera", str(frames), "--calibration", str(cal), "--out",
                    str(whole)], check=True, capture_output=True, timeout=600)
    assert (whole / "match.mat").read_text() == expected

    killed = tmp_path / "killed"
    turns = sum(1 for a in FILM.match.games[0].record if a.kind == "move")
    at = random.Random(1).randint(2, turns - 2)
    proc = subprocess.Popen([*PLAY, "sim", "--camera", str(frames), "--calibration", str(cal),
                             "--out", str(killed)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    assert wait_for(lambda: turns_in(killed / "journal.jsonl") >= at, 300)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 0 < turns_in(killed / "journal.jsonl") < turns
    subprocess.run([*PLAY, "sim", "--camera", str(frames), "--calibration", str(cal), "--out",
                    str(killed), "--resume"], check=True, capture_output=True, timeout=600)
    assert (killed / "match.mat").read_text() == expected


class Stream:
    """The film as a camera stream (MJPEG over HTTP on 127.0.0.1) that can be unplugged:
    the connection drops and new ones are refused until it is plugged in again, when the
    picture goes on where it stopped."""

    def __init__(self, pictures: list) -> None:
        self.pictures = pictures
        self.next = 0
        self.plugged = threading.Event()
        self.plugged.set()
        stream = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if not stream.plugged.is_set():
                    self.send_error(503)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=f")
                self.end_headers()
                while stream.plugged.is_set() and stream.next < len(stream.pictures):
                    jpeg = stream.pictures[stream.next]
                    self.wfile.write(b"--f\r\nContent-Type: image/jpeg\r\nContent-Length: "
                                     + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")
                    stream.next += 1
                    time.sleep(0.01)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/camera.mjpg"


def test_camera_and_board_unplugged_mid_game_lose_nothing(folder, tmp_path):
    _, cal = folder
    pictures = [cv2.imencode(".jpg", f, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
                for f in render_frames(FILM, SEED)]
    stream = Stream(pictures)
    state, port = tmp_path / "state.json", tmp_path / "ttyBGBOARD"
    board = Simulator(state, link=port)
    out = tmp_path / "out"
    proc = subprocess.Popen([*PLAY, f"serial:{port}", "--camera", stream.url,
                             "--calibration", str(cal), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: stream.next > len(pictures) // 3, 300)
        stream.plugged.clear()                      # the camera's cable comes out
        time.sleep(2)
        stream.plugged.set()
        assert wait_for(lambda: stream.next > len(pictures) * 2 // 3, 300)
        board.unplug()                              # and then the board's USB cable
        time.sleep(2)
        board = Simulator(state, link=port)
        assert wait_for(lambda: stream.next == len(pictures), 300)
        turns = sum(1 for a in FILM.match.games[0].record if a.kind == "move")
        assert wait_for(lambda: turns_in(out / "journal.jsonl") == turns, 60)
    finally:
        proc.send_signal(signal.SIGTERM)
        printed, errors = proc.communicate(timeout=30)
        board.stop()
        stream.server.shutdown()
    assert proc.returncode == 0, errors
    assert (out / "match.mat").read_text() == write_mat(FILM.match, ("White", "Black"))
    assert "camera: no frames" in printed and "camera: frames arrive" in printed
    assert "board link: disconnected" in printed and "board link: connected" in printed
    assert wait_for(lambda: json.loads(state.read_text())["leds"] == [[0, 0, 0]] * 30, 10)
