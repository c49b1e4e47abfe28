"""`bgboard play`: the program beside a real board, all evening, without losing a move.

One loop: camera frame -> Observation -> stable view -> session; buttons (hardware or web)
go to the session between frames. Every committed turn is journalled (fsync) before the LEDs
confirm it, and the match files in the output folder are rewritten after each one.
"""

from __future__ import annotations

import queue
import signal
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..engine.game import Match
from ..engine.matfile import write_mat
from ..engine.sgf import write_sgf
from .broker import relay_target
from .follow import Follower, settings_for
from .live import LiveState
from .turns.events import Event
from .turns.journal import Journal, read_journal, rebuild, write_atomic
from .turns.reconciler import board_of
from .turns.session import Session


@dataclass
class PlayOptions:
    """Everything `bgboard play` can be told, on the command line or in the config file."""

    camera: str = "0"
    calibration: str = "calibration.json"
    leds: str = "sim"
    mode: str = "play"
    match: int = 0
    players: tuple[str, str] = ("White", "Black")
    out: str = "bgboard-games"
    resume: bool = False
    web: str | None = None
    token: str | None = None
    fps: float | None = None
    hardware: str | None = None
    relay: str | None = None
    board: str | None = None
    session: dict = field(default_factory=dict)
    tutor: dict = field(default_factory=dict)


class Stop(Exception):
    """SIGTERM or SIGINT: finish cleanly."""


def _stop(signum, frame) -> None:
    raise Stop(signal.Signals(signum).name)


class LiveGame:
    """The live loop and the parts it drives; `run()` returns the exit code."""

    def __init__(self, options: PlayOptions) -> None:
        from ..calibration.file import load

        self.options = options
        self.out = Path(options.out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.journal_path = self.out / "journal.jsonl"
        self.calibration = load(options.calibration)
        self.broker = relay_target(options.relay, options.board)
        self.relay = None
        self.match, self.names, self.skip_until = self._match()
        from .console import Console

        self.console = Console()
        self.bus = self.console.bus
        self.live = LiveState(self.match, self.names)
        self.bus.subscribe(self.live.event)
        self.bus.subscribe(self._save)
        self.bus.subscribe(self._status)
        self.buttons: queue.Queue[str] = self.live.presses
        self.links: queue.Queue = queue.Queue()  # serial link events, from the link thread
        self.display = None
        self.lights = None
        self.server = None
        self.desk = None  # the web view's calibrate view
        self.reading = threading.Lock()  # the checker net is read by one thread at a time
        self.last_frame: np.ndarray | None = None  # the frame read last (what confirm confirms)
        self.coach = None
        self.journal: Journal | None = None

    # --- the match and its journal ---------------------------------------------------------
    def _match(self) -> tuple[Match, tuple[str, str], float]:
        """The match to play: rebuilt from the journal with --resume, else a new one, whose
        journal `_open_journal` starts."""
        path = self.journal_path
        if self.options.resume and path.exists():
            records = read_journal(path)
            match, names = rebuild(records)
            return match, names, max((r.get("t", -1.0) for r in records), default=-1.0)
        if path.exists():
            raise ValueError(f"{path} exists: continue it with --resume, or choose another --out")
        return Match(length=self.options.match), tuple(self.options.players), -1.0

    def _open_journal(self) -> Journal:
        """The journal, a new match's first record on disk. Opened by `run` once SIGTERM
        stops it cleanly, so that a journal on disk always has its match files beside it."""
        path = self.journal_path
        new = not path.exists()
        journal = Journal(path)
        if self.broker is not None:
            from .relay import attach

            self.relay = attach(journal, self.broker, self.options.board, self._note)
        if new:
            journal.append({"type": "match", "length": self.options.match,
                            "players": list(self.options.players), "version": 1})
        return journal

    def _status(self, event: Event) -> None:
        if event.kind == "status":
            part, detail = event.data["part"], event.data["detail"]
            shown = detail if part == "field" or not event.data["ok"] else "ok"
            self.live.status(**{part: shown})

    def _save(self, event: Event) -> None:
        if event.kind in ("committed", "game_over", "takeback", "double", "take", "drop",
                          "new_game"):
            self._write_match_files()

    def _write_match_files(self) -> None:
        write_atomic(self.out / "match.mat", write_mat(self.match, self.names))
        write_atomic(self.out / "match.sgf", write_sgf(self.match, self.names))

    # --- parts -------------------------------------------------------------------------------
    def _open_leds(self) -> None:
        from ..hardware.backends import open_backend
        from ..hardware.config import load_config
        from ..hardware.display import Display
        from .lights import Lights

        config = load_config(self.options.hardware)
        backend = open_backend(self.options.leds, config, on_link=self.links.put, quiet=True)
        backend.on_button(self.buttons.put)
        self.live.status(link="sim" if self.options.leds == "sim" else "connecting")
        self.display = Display(backend, config.servo, on_sent=self.live.leds)
        self.display.start()
        if self.options.mode != "record":
            self.lights = Lights(self.display, self.match)
            self.bus.subscribe(self.lights)

    def _open_tutor(self) -> None:
        """In tutor mode: hints, warnings and cube advice (setting `tutor.modes`)."""
        if self.options.mode != "tutor":
            return
        from .coach import Coach
        from .tutor import Tutor, TutorSettings

        settings = dict(self.options.tutor)
        modes = settings.pop("modes", {"white": "warn+cube", "black": "warn+cube"})
        coach = Coach(Tutor(TutorSettings(**settings), modes), self.match,
                      show=lambda pattern: self.display.show(self.lights.base() | pattern),
                      publish=self.live.tutor, log=self.journal.append)
        self.bus.subscribe(coach)
        self.coach = coach

    def _open_web(self) -> None:
        if not self.options.web:
            return
        try:
            from .web import serve
        except ImportError as exc:
            raise ValueError("the web view needs the web extra: pip install 'bgboard[web]'") \
                from exc
        from .calibrating import Desk

        host, _, port = self.options.web.rpartition(":")
        self.desk = Desk(self.live.image, Path(self.options.calibration), self.calibration,
                         live=True, lock=self.reading)
        self.server = serve(self.live, host or "127.0.0.1", int(port), self.options.token,
                            desk=self.desk)
        print(f"web view: {self.server.url}", flush=True)

    def _frames(self) -> Iterator[tuple[float, np.ndarray | None]]:
        """The camera's frames, the camera set as the calibration says (its `camera` key)."""
        from .frames import camera_frames

        yield from camera_frames(self.options.camera, self.options.fps, self._camera_status,
                                 self.calibration.camera(), self._note)

    @staticmethod
    def _note(text: str) -> None:
        print(f"bgboard play: note: {text}", file=sys.stderr, flush=True)

    def _camera_status(self, ok: bool, detail: str) -> None:
        self.bus.emit("status", f"camera: {detail}", part="camera", ok=ok, detail=detail)

    # --- the loop ------------------------------------------------------------------------------
    def run(self) -> int:
        old = {s: signal.signal(s, _stop) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            self.journal = self._open_journal()
            session = Session(self.match, self.bus, self.journal)
            self._calibrate(self.calibration, session)
            self._open_leds()
            self._open_tutor()
            self._open_web()
            follower = Follower(session)
            last_shown = 0.0
            for t, frame in self._frames():
                self._drain(session)
                if self.coach is not None:
                    self.coach.drain()
                if frame is None or t <= self.skip_until:
                    continue
                obs = self._read(frame)
                if obs is not None:
                    self.last_frame = frame
                    follower.frame(obs, t)
                if time.monotonic() - last_shown > 0.2:
                    self.live.frame(frame, obs)
                    last_shown = time.monotonic()
            self._drain(session)
        except Stop:
            pass
        finally:
            self._close()
            for s, handler in old.items():
                signal.signal(s, handler)
        return 0

    def _calibrate(self, calibration, session: Session) -> None:
        """Read through `calibration` from now on (the first, or one saved in the web view):
        the evidence gathered through another (the frames, the board's misreads) is dropped."""
        from ..vision.steady import SteadyReader
        from .turns.weighing import Scales

        self.calibration = calibration
        self.reader = SteadyReader(calibration, self._field_moved)
        session.settings = settings_for(calibration.to_dict(), **self.options.session)
        session.scales = Scales()

    def _field_moved(self, change) -> None:
        """The field moved (a vision.steady Change): said on the console, the LEDs and the
        web page; corners found again are kept in the calibration file, so that a restart
        reads through them (a file that cannot be written is a note, not a stop)."""
        from ..calibration.file import save
        from .follow import field_status

        field_status(self.bus, change)
        if change.calibration is None:
            return
        self.calibration = change.calibration
        path = Path(self.options.calibration)
        try:
            save(change.calibration, path)
        except OSError as exc:
            self._note(f"the corners found again are not kept in {path}: {exc.strerror}")

    def _read(self, frame: np.ndarray) -> dict | None:
        """The frame's Observation; None for a frame that cannot be read (its picture is still
        shown: the calibrate view needs it when the calibration is not the frame's size)."""
        try:
            with self.reading:
                return self.reader.read(frame)
        except ValueError:
            return None

    def _drain(self, session: Session) -> None:
        """Button presses, link events and calibrations saved in the web view, from other
        threads, handled in the loop's own."""
        while self.desk is not None and not self.desk.saved.empty():
            self._calibrate(self.desk.saved.get_nowait(), session)
        while not self.links.empty():
            event = self.links.get_nowait()
            ok = event.status == "connected"
            self.bus.emit("status", f"board link: {event.status} {event.detail}".strip(),
                          part="link", ok=ok, detail=f"{event.status} {event.detail}".strip())
        while not self.buttons.empty():
            name, unsure = self.buttons.get_nowait(), session.unsure
            session.press(name)
            if name == "confirm" and unsure and not session.unsure:
                self._learn_board(session)

    def _learn_board(self, session: Session) -> None:
        """The player confirmed a reading: the frame read last shows the board as recorded, so
        the checker reader takes its bare points as this board's look (vision.steady
        SteadyReader.learn), kept beside the calibration file for the next start (a file that
        cannot be written is a note, not a stop)."""
        from ..calibration.file import save

        if self.last_frame is None:
            return
        points, white, black = board_of(session.game.board)
        with self.reading:
            cal = self.reader.learn(self.last_frame, points, white + black)
        if cal is None:
            return
        self.calibration = cal
        path = Path(self.options.calibration)
        try:
            save(cal, path)
        except OSError as exc:
            self._note(f"the board's look is not kept beside {path}: {exc.strerror}")

    def _close(self) -> None:
        """LEDs off, web stopped, journal and match files on disk."""
        if self.coach is not None:
            self.coach.tutor.close()
        if self.display is not None:
            self.display.close()
        if self.server is not None:
            self.server.stop()
        if self.journal is not None:  # else nothing was played, nor recorded
            self.journal.close()
            self._write_match_files()
        if self.relay is not None:
            unsent = self.relay.close(wait=10)
            if unsent:
                self._note(f"relay: {unsent}")
