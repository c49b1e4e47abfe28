"""The tournament relay under load: N simulated boards, each `bgboard record --relay` fed a
filmed game's Observation stream at a steady pace, through one Mosquitto broker into one
`bgboard hall --web`. Prints the actions per second through the broker, the delay from a
board's commit (journal fsync) to the hall's file and to its page (median and 95th
percentile), and the hall's peak memory.

    python benchmarks/relay.py --boards 8 32 64 [--fps 20]

The delay to the file is the .mat file's modification time less the action's commit time;
the delay to the page is when the page's event stream (/events) brings the board's new
sequence number. Needs Debian's mosquitto. Streams are cached in benchmarks/cache/relay/.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt

from bgboard.controller.demo.film import film_calibration, film_match

CACHE = Path(__file__).resolve().parent / "cache" / "relay"
BGBOARD = [sys.executable, "-m", "bgboard.controller.cli"]


def stream(seed: int) -> tuple[Path, Path]:
    """The cached Observation stream of film `seed` (one game), one JSON a line with "t",
    and its calibration (which gives the board's side)."""
    path, cal = CACHE / f"game{seed}.jsonl", CACHE / f"game{seed}.cal.json"
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        film = film_match(seed)
        cal.write_text(json.dumps(film_calibration(film)))
        path.write_text("".join(json.dumps({**o, "t": round(i / 10, 1)}) + "\n"
                                for i, o in enumerate(film.observations())))
    return path, cal


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_broker(folder: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    config = folder / "mosquitto.conf"
    config.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                      f"user {getpass.getuser()}\nmax_queued_messages 100000\n")
    broker = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c",
                               str(config)], stderr=subprocess.DEVNULL)
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return broker, port
        except OSError:
            time.sleep(0.05)


class Listener:
    """Every action message through the broker: its commit time by (board, seq), and when
    it came; and which boards said "online"."""

    def __init__(self, port: int) -> None:
        self.at: dict[tuple[str, int], float] = {}
        self.arrived: list[float] = []
        self.online: set[str] = set()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        self.client.on_connect = lambda c, *_: c.subscribe([("bench/+/action", 1),
                                                             ("bench/+/status", 1)])
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _message(self, client, userdata, message) -> None:
        board, kind = message.topic.split("/")[1:]
        if kind == "status":
            self.online.add(board)
            return
        action = json.loads(message.payload)
        self.at.setdefault((board, action["seq"]), action["at"])
        self.arrived.append(time.time())


def watch_page(url: str, at: dict, delays: list[float], stop: threading.Event) -> None:
    """Read the hall page's event stream: the delay of each board's new sequence number."""
    seen: dict[str, int] = {}
    with urllib.request.urlopen(url + "events") as answer:
        for line in answer:
            if stop.is_set():
                return
            if not line.startswith(b"data: "):
                continue
            view = json.loads(line[6:])
            board, seq = view["board"], view["seq"]
            if seq > seen.get(board, -1) and (board, seq) in at and seq > 0:
                delays.append(time.time() - at[(board, seq)])
            seen[board] = max(seq, seen.get(board, -1))


def watch_files(out: Path, at: dict, delays: list[float], stop: threading.Event) -> None:
    """Poll the hall's files: for each new .mat, its write time less the commit time of the
    newest record in the journal beside it (written just before it)."""
    seen: dict[str, int] = {}
    while not stop.is_set():
        for mat in out.glob("*.mat"):
            try:
                written = mat.stat().st_mtime
                journal = mat.with_suffix(".jsonl")
                if journal.stat().st_mtime > written:
                    continue  # the hall is writing this board's next action
                seq = journal.read_bytes().count(b"\n") - 1
            except OSError:
                continue
            board = mat.stem
            if seq > seen.get(board, 0) and (board, seq) in at:
                delays.append(written - at[(board, seq)])
                seen[board] = seq
        time.sleep(0.02)


def feed(process: subprocess.Popen, lines: list[str], fps: float, start: float) -> None:
    """Write the Observations at `fps` lines a second from `start`, in batches of 0.1 s."""
    batch = max(1, round(fps / 10))
    for i in range(0, len(lines), batch):
        time.sleep(max(0.0, start + i / fps - time.monotonic()))
        process.stdin.write("".join(lines[i:i + batch]))
        process.stdin.flush()
    process.stdin.close()


def peak_memory(pid: int) -> float:
    """The process's peak resident memory in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "-"
    cuts = statistics.quantiles(values, n=20)
    return f"{statistics.median(values) * 1000:6.0f} {cuts[18] * 1000:6.0f}"


def run(boards: int, fps: float) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker, port = start_broker(folder)
        url = f"mqtt://127.0.0.1:{port}/bench"
        web = free_port()
        hall = subprocess.Popen([*BGBOARD, "hall", "--broker", url, "--out",
                                 str(folder / "hall"), "--web", str(web)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        listener = Listener(port)
        films = [stream(seed) for seed in range(boards)]
        streams = [path.read_text().splitlines(keepends=True) for path, _ in films]
        processes = [subprocess.Popen(
            [*BGBOARD, "record", "--observations", "-", "--calibration", str(cal), "--out",
             str(folder / f"b{n}.mat"), "--journal", str(folder / f"b{n}.jsonl"), "--relay",
             url, "--board", f"b{n}"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            text=True) for n, (_, cal) in enumerate(films)]
        while len(listener.online) < boards:
            time.sleep(0.1)
        stop = threading.Event()
        page, files = [], []
        watchers = [threading.Thread(target=watch_page, daemon=True,
                                     args=(f"http://127.0.0.1:{web}/", listener.at, page,
                                           stop)),
                    threading.Thread(target=watch_files, daemon=True,
                                     args=(folder / "hall", listener.at, files, stop))]
        for w in watchers:
            w.start()
        start = time.monotonic() + 0.5
        feeders = [threading.Thread(target=feed, args=(p, lines, fps, start))
                   for p, lines in zip(processes, streams, strict=True)]
        for f in feeders:
            f.start()
        for f in feeders:
            f.join()
        failed = sum(p.wait() != 0 for p in processes)
        time.sleep(1.0)
        stop.set()
        memory = peak_memory(hall.pid)
        hall.terminate()
        hall.wait()
        listener.client.loop_stop()
        broker.terminate()
        broker.wait()
        arrived = listener.arrived
        rate = len(arrived) / (arrived[-1] - arrived[0])
        right = sum((folder / "hall" / f"b{n}.mat").read_text()
                    == (folder / f"b{n}.mat").read_text() for n in range(boards))
        print(f"{boards:>6} {len(arrived):>7} {rate:>9.1f} {percentiles(files):>13} "
              f"{percentiles(page):>13} {memory:>8.0f} {right:>4}/{boards}"
              + (f" ({failed} boards failed)" if failed else ""), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, nargs="+", default=[64],
                        help="numbers of boards, one run each (default 64)")
    parser.add_argument("--fps", type=float, default=20.0,
                        help="Observations a second per board (the films: 10 a second)")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    print(f"{args.fps:g} Observations a second per board; delays in ms")
    print(f"{'boards':>6} {'actions':>7} {'actions/s':>9} {'file med  p95':>13} "
          f"{'page med  p95':>13} {'hall MiB':>8} {'same':>9}")
    for boards in args.boards:
        run(boards, args.fps)


if __name__ == "__main__":
    main()
