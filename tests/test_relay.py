"""The tournament relay through a real Mosquitto broker: boards (`bgboard record --relay`, fed
their Observation streams at a steady pace) publish every journalled action, `bgboard hall`
keeps each board's match; the broker killed (SIGKILL) and started again and the hall killed
and started again midway lose and repeat nothing. The ACL refuses a board that writes under
another's name; bad URLs are one line and exit 2, and the password is never shown."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from bgboard.controller.broker import parse_url
from bgboard.controller.demo.film import Film, film_calibration, film_match
from bgboard.controller.hall import Hall
from bgboard.controller.relay import attach
from bgboard.controller.turns.journal import Journal, read_journal, rebuild
from bgboard.engine.matfile import write_mat
from cli_helpers import BGBOARD, bgboard
from gnubg_cli import GNUBG, expected_gnubg_actions, gnubg_actions, gnubg_import
from mqtt_helpers import MOSQUITTO, OPENSSL, Mosquitto, free_port

pytestmark = pytest.mark.skipif(not Path(MOSQUITTO).exists(),
                                reason="Mosquitto is not installed (apt-get install mosquitto)")
PLAYERS = ("Alice", "Bob")
# (seed, games, match length): six boards; cube actions in all, two games in three
BOARDS = {f"table{n + 1}": film_match(seed, games=games, length=length)
          for n, (seed, games, length) in enumerate([(1, 1, 0), (2, 2, 5), (3, 1, 0),
                                                      (4, 2, 7), (5, 1, 0), (7, 2, 3)])}


@pytest.fixture
def broker(tmp_path):
    broker = Mosquitto(tmp_path)
    yield broker
    broker.stop()


def stream(film: Film) -> list[str]:
    return [json.dumps({**o, "t": round(i / 10, 1)}) + "\n"
            for i, o in enumerate(film.observations())]


def side(film: Film, path: Path) -> list[str]:
    """`--calibration` with the film's camera view (written to `path`): it tells the recorder
    the board's side."""
    path.write_text(json.dumps(film_calibration(film)))
    return ["--calibration", str(path)]


class Board:
    """`bgboard record --relay` of one film, its Observations written to its standard input
    over `seconds`."""

    def __init__(self, name: str, film: Film, url: str, folder: Path, seconds: float) -> None:
        self.name, self.film = name, film
        self.journal, self.mat = folder / f"{name}.jsonl", folder / f"{name}.mat"
        events = folder / f"{name}-events.jsonl"
        events.write_text("".join(json.dumps({"frame": f, "button": b}) + "\n"
                                  for f, b in film.buttons.items()))
        self.process = subprocess.Popen(
            [*BGBOARD, "record", "--observations", "-", *side(film, folder / f"{name}.cal"),
             "--out", str(self.mat), "--journal", str(self.journal), "--events", str(events),
             "--match", str(film.match.length),
             "--players", *PLAYERS, "--relay", url, "--board", name],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.feeder = threading.Thread(target=self._feed, args=(stream(film), seconds))
        self.feeder.start()

    def _feed(self, lines: list[str], seconds: float) -> None:
        steps = 40
        for i in range(steps):
            self.process.stdin.write("".join(lines[i * len(lines) // steps:
                                                   (i + 1) * len(lines) // steps]))
            self.process.stdin.flush()
            time.sleep(seconds / steps)
        self.process.stdin.close()

    def finish(self) -> str:
        self.feeder.join()
        assert self.process.wait(timeout=60) == 0, self.process.stderr.read()
        return self.process.stderr.read()


def start_hall(url: str, out: Path) -> subprocess.Popen:
    return subprocess.Popen([*BGBOARD, "hall", "--broker", url, "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_for(check, seconds: float = 15.0) -> bool:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def test_six_boards_into_one_hall_through_a_broker_and_a_hall_killed_midway(broker, tmp_path):
    out = tmp_path / "hall"
    hall = start_hall(broker.url(), out)
    boards = [Board(name, film, broker.url(), tmp_path, seconds=8.0)
              for name, film in BOARDS.items()]
    try:
        time.sleep(2.5)
        broker.kill()
        time.sleep(1.0)
        broker.start()
        time.sleep(1.0)
        hall.kill()
        hall.wait()
        time.sleep(1.0)
        hall = start_hall(broker.url(), out)
        for board in boards:
            board.finish()
    finally:
        for board in boards:
            board.process.kill()

    def same(board: Board) -> bool:
        files = out / f"{board.name}.jsonl", out / f"{board.name}.mat"
        return all(f.exists() for f in files) and \
            files[0].read_text() == board.journal.read_text() and \
            files[1].read_text() == board.mat.read_text()

    assert wait_for(lambda: all(same(b) for b in boards)), \
        [b.name for b in boards if not same(b)]
    hall.send_signal(signal.SIGTERM)
    assert hall.wait(timeout=10) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(
        f"{name}.{kind}" for name in BOARDS for kind in ("jsonl", "mat"))
    for board in boards:  # each the filmed match, every action once
        assert (out / f"{board.name}.mat").read_text() == write_mat(board.film.match, PLAYERS)
    kinds = {r["type"] for b in boards for r in read_journal(b.journal)}
    assert kinds == {"match", "game", "turn", "double", "take", "drop"}
    if GNUBG:  # GNU Backgammon reads in a hall's file the board's match
        found = gnubg_import([out / "table4.mat"], tmp_path)[0]
        match, names = rebuild(read_journal(boards[3].journal))
        assert gnubg_actions(found) == expected_gnubg_actions(match)


def test_a_restarted_board_sends_its_journal_and_a_late_hall_rebuilds_it(broker, tmp_path):
    film = BOARDS["table3"]
    board = tmp_path / "board"
    board.mkdir()
    run = bgboard("record", "--observations", "-", *side(film, tmp_path / "cal.json"), "--out",
                  str(board / "game.mat"), "--journal", str(board / "journal.jsonl"),
                  "--players", *PLAYERS, stdin="".join(stream(film)))  # no relay: none sent
    assert run.returncode == 0, run.stderr
    journal = Journal(board / "journal.jsonl")
    notes = []
    relay = attach(journal, parse_url(broker.url()), "late", note=notes.append)
    assert relay.close(wait=10) is None and notes == []
    journal.close()
    hall = Hall(parse_url(broker.url()), tmp_path / "hall", note=lambda text: None)
    hall.start()
    try:
        mat = tmp_path / "hall" / "late.mat"
        assert wait_for(lambda: mat.exists() and mat.read_text() == (board / "game.mat")
                        .read_text())
        assert (tmp_path / "hall" / "late.jsonl").read_text() == \
            (board / "journal.jsonl").read_text()
        (view,) = hall.changed(0)
        assert (view["board"], view["online"], view["seq"]) == ("late", "done",
                                                                len(read_journal(journal.path)) - 1)
    finally:
        hall.stop()


def test_record_says_what_a_broker_that_is_not_there_did_not_acknowledge(tmp_path):
    url = f"mqtt://u:s3cret@127.0.0.1:{free_port()}/club"
    run = bgboard("record", "--observations", "-", *side(BOARDS["table1"], tmp_path / "c.json"),
                  "--out", str(tmp_path / "x.mat"), "--journal", str(tmp_path / "x.jsonl"),
                  "--relay", url, "--board", "t1", "--relay-wait", "0.5",
                  stdin="".join(stream(BOARDS["table1"])))
    journalled = len(read_journal(tmp_path / "x.jsonl"))
    assert run.returncode == 2
    shown = url.replace(":s3cret", "")
    lines = run.stderr.splitlines()
    assert lines.count(f"relay: the broker {shown} cannot be reached") == 1  # said once
    assert lines[-1] == (f"bgboard record: error: relay: the broker {shown} cannot be "
                         f"reached: {journalled + 1} messages not acknowledged after 0.5 s "
                         "(the journal keeps every action)")
    assert (tmp_path / "x.mat").exists()


def test_play_resumed_with_the_relay_sends_its_journal_and_a_bad_url_writes_nothing(
        broker, tmp_path):
    out = tmp_path / "games"
    out.mkdir()
    cal = tmp_path / "cal.json"
    run = bgboard("record", "--observations", "-", *side(BOARDS["table1"], cal), "--out",
                  str(tmp_path / "game.mat"), "--journal", str(out / "journal.jsonl"),
                  stdin="".join(stream(BOARDS["table1"])))  # journalled a game, then stopped
    assert run.returncode == 0, run.stderr
    journalled = (out / "journal.jsonl").read_text()
    play = [*BGBOARD, "play", "--camera", "http://127.0.0.1:9/no-camera", "--calibration",
            str(cal), "--out", str(out)]
    bad = subprocess.run([*play, "--relay", "mqtt://t9:s3cret@host/", "--board", "t9"],
                         capture_output=True, text=True, timeout=60)
    assert (bad.returncode, bad.stderr) == (2, "bgboard play: error: the broker URL needs a "
                                               "topic PREFIX after the host (letters, digits, "
                                               "'_', '-', '.', levels split by '/'), e.g. "
                                               "mqtt://HOST/club\n")
    assert sorted(out.iterdir()) == [out / "journal.jsonl"]
    assert (out / "journal.jsonl").read_text() == journalled
    hall = Hall(parse_url(broker.url()), tmp_path / "hall", note=lambda text: None)
    hall.start()
    proc = subprocess.Popen([*play, "--resume", "--relay", broker.url(), "--board", "t9"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        mat = tmp_path / "hall" / "t9.mat"
        assert wait_for(lambda: mat.exists() and mat.read_text() == (tmp_path / "game.mat")
                        .read_text(), 60)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, proc.stderr.read()
        assert wait_for(lambda: hall.online.get("t9") == "done")
        assert (out / "journal.jsonl").read_text() == journalled  # the camera was away
    finally:
        proc.kill()
        hall.stop()


@pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed")
def test_a_board_and_the_hall_through_a_tls_broker_with_its_own_ca(tmp_path, monkeypatch):
    broker = Mosquitto(tmp_path, tls=True)
    monkeypatch.setenv("BGBOARD_RELAY_CA", str(broker.certificate))
    hall = Hall(parse_url(broker.url()), tmp_path / "hall", note=lambda text: None)
    hall.start()
    record = ["record", "--observations", "-", *side(BOARDS["table5"], tmp_path / "c.json"),
              "--out", str(tmp_path / "a.mat"), "--journal", str(tmp_path / "a.jsonl"),
              "--relay", broker.url(), "--board", "t1"]
    lines = "".join(stream(BOARDS["table5"]))
    try:
        run = bgboard(*record, "--relay-wait", "10", stdin=lines)
        assert run.returncode == 0, run.stderr
        mat = tmp_path / "hall" / "t1.mat"
        assert wait_for(lambda: mat.exists() and mat.read_text() == (tmp_path / "a.mat")
                        .read_text())
        (tmp_path / "a.jsonl").unlink()
        monkeypatch.delenv("BGBOARD_RELAY_CA")  # the broker's certificate is not trusted
        run = bgboard(*record, "--relay-wait", "0.5", stdin=lines)
        assert run.returncode == 2
        assert f"relay: the broker {broker.url()} cannot be reached" in run.stderr
    finally:
        hall.stop()
        broker.stop()


ACL = """user hall
topic read club/#

pattern write club/%u/#
"""


def test_the_acl_refuses_a_board_that_writes_under_another_name(tmp_path):
    users = {"table1": "pw-one", "table2": "pw-two", "hall": "pw-hall"}
    broker = Mosquitto(tmp_path, users, ACL)
    out = tmp_path / "hall"
    hall = Hall(parse_url(broker.url(auth="hall:pw-hall")), out, note=lambda text: None)
    hall.start()
    try:
        lines = "".join(stream(BOARDS["table1"]))
        args = ["record", "--observations", "-", *side(BOARDS["table1"], tmp_path / "c.json"),
                "--players", *PLAYERS, "--relay-wait", "10"]
        honest = bgboard(*args, "--out", str(tmp_path / "a.mat"), "--journal",
                         str(tmp_path / "a.jsonl"), "--relay", broker.url(),
                         "--board", "table1", stdin=lines,
                         env={**os.environ, "BGBOARD_RELAY_USER": "table1",
                              "BGBOARD_RELAY_PASSWORD": "pw-one"})
        assert honest.returncode == 0, honest.stderr
        posing = bgboard(*args, "--out", str(tmp_path / "b.mat"), "--journal",
                         str(tmp_path / "b.jsonl"), "--relay",
                         broker.url(auth="table2:pw-two"), "--board", "table1", stdin=lines)
        assert posing.returncode == 2
        assert posing.stderr.splitlines()[-1] == (
            "bgboard record: error: relay: the broker refused board table1's message: Not "
            "authorized (is the user allowed to write club/table1/?)")
        assert "pw-two" not in posing.stderr
        mat = out / "table1.mat"
        assert wait_for(lambda: mat.exists() and mat.read_text() == (tmp_path / "a.mat")
                        .read_text())
        time.sleep(0.5)  # what the posing board sent would have come by now
        assert sorted(p.name for p in out.iterdir()) == ["table1.jsonl", "table1.mat"]
        assert (out / "table1.jsonl").read_text() == (tmp_path / "a.jsonl").read_text()
    finally:
        hall.stop()
        broker.stop()


@pytest.mark.parametrize(("url", "reason"), [
    ("http://u:s3cret@host/club", "the broker URL must look like "
     "mqtt://[USER:PASSWORD@]HOST[:PORT]/PREFIX (or mqtts:// for TLS)"),
    ("mqtt://u:s3cret@host:99x/club", "the broker URL's port must be a number 1-65535"),
    ("mqtt://u:s3cret@/club", "the broker URL names no host: mqtt://HOST[:PORT]/PREFIX"),
    ("mqtt://u:s3cret@host", "the broker URL needs a topic PREFIX after the host (letters, "
     "digits, '_', '-', '.', levels split by '/'), e.g. mqtt://HOST/club"),
    ("mqtt://u:s3cret@host/club/+", "the broker URL needs a topic PREFIX after the host "
     "(letters, digits, '_', '-', '.', levels split by '/'), e.g. mqtt://HOST/club"),
    ("mqtt://u:s3cret@host/club/#", "the broker URL needs a topic PREFIX after the host "
     "(letters, digits, '_', '-', '.', levels split by '/'), e.g. mqtt://HOST/club"),
    ("mqtt://:s3cret@host/club", "the broker URL has a password but no user"),
])
def test_a_bad_url_is_one_line_exit_2_without_the_password(url, reason, tmp_path):
    for run in (bgboard("hall", "--broker", url, "--out", str(tmp_path), timeout=20),
                bgboard("record", "--observations", "-", "--out", str(tmp_path / "x.mat"),
                        "--journal", str(tmp_path / "x.jsonl"), "--relay", url, "--board",
                        "t1", stdin="", timeout=20)):
        command = run.args[3]
        assert (run.returncode, run.stderr) == (2, f"bgboard {command}: error: {reason}\n")
    assert not (tmp_path / "x.jsonl").exists()


JOURNAL = ["--journal", "x.jsonl"]


@pytest.mark.parametrize(("args", "reason"), [
    ([*JOURNAL, "--relay", "mqtt://h/club"],
     "--relay needs --board NAME (the board's name in the hall)"),
    ([*JOURNAL, "--board", "t1"], "--board names a board for --relay: give --relay URL too"),
    ([*JOURNAL, "--relay", "mqtt://h/club", "--board", "a/b"], "--board 'a/b': a board's name "
     "is letters, digits, '_', '-' and '.' (it names the board's topic and its file in the "
     "hall)"),
    (["--relay", "mqtt://h/club", "--board", "t1"],
     "--relay sends what is journalled: give --journal FILE.jsonl too"),
])
def test_relay_options_are_checked_before_anything_is_written(args, reason, tmp_path):
    run = bgboard("record", "--observations", "-", "--out", "x.mat", *args, stdin="",
                  cwd=tmp_path)
    assert (run.returncode, run.stderr) == (2, f"bgboard record: error: {reason}\n")
    assert list(tmp_path.iterdir()) == []


def test_the_user_and_password_come_from_the_url_or_the_environment():
    env = {"BGBOARD_RELAY_USER": "table1", "BGBOARD_RELAY_PASSWORD": "pw"}
    broker = parse_url("mqtts://[::1]/club/2026", env)
    assert (broker.host, broker.port, broker.prefix, broker.tls, broker.user,
            broker.password) == ("::1", 8883, "club/2026", True, "table1", "pw")
    broker = parse_url("mqtt://t%40x:p%3Aw@pi.local:1884/club", env)
    assert (broker.user, broker.password, broker.port) == ("t@x", "p:w", 1884)
    assert broker.shown == "mqtt://t%40x@pi.local:1884/club"
    assert "p:w" not in repr(broker)
    assert parse_url("mqtt://pi.local/club", {}).user is None
