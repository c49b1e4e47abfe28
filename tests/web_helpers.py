"""A filmed game replayed into a LiveState by the real session, for the web view's tests.

Like the play loop: each frame's Observation (the film's ground truth) goes through the
stabiliser into the Session; the LEDs follow its events on the simulated board; the tutor
(through the coach) judges each play and advises on the cube; button presses from the page
are taken from `live.presses` between frames.
"""

from __future__ import annotations

import threading
import time

from bgboard.controller.coach import Coach
from bgboard.controller.demo.film import film_calibration, film_match
from bgboard.controller.follow import settings_for
from bgboard.controller.lights import Lights
from bgboard.controller.live import LiveState
from bgboard.controller.turns.events import EventBus
from bgboard.controller.turns.session import Session
from bgboard.controller.turns.stabilizer import Stabilizer
from bgboard.controller.tutor import Tutor, TutorSettings
from bgboard.engine.game import Match
from bgboard.hardware.config import load_config
from bgboard.hardware.display import Display
from bgboard.hardware.sim_backend import SimBackend
from bgboard.vision import synthetic as synth


class Replay:
    """Plays the film's first `turns` turns, one frame every `delay` seconds, with a camera
    picture at most every `pictures` seconds; then waits for presses until `stop()`."""

    def __init__(self, seed: int = 3, turns: int = 5, delay: float = 0.02,
                 pictures: float = 1.0) -> None:
        self.film = film_match(seed, games=1, cube=False)
        self.calibration = film_calibration(self.film)
        self.turns, self.delay, self.pictures = turns, delay, pictures
        self.match = Match()
        bus = EventBus()
        self.session = Session(self.match, bus, None, settings_for(self.calibration))
        self.live = LiveState(self.match, ("Alice", "Bob"))
        self.backend = SimBackend()
        self.display = Display(self.backend, load_config().servo)
        lights = Lights(self.display, self.match)
        tutor = Tutor(TutorSettings(engine="builtin", ply=0, budget=0.5),
                      {"white": "warn+cube", "black": "warn+cube"})
        self.coach = Coach(tutor, self.match,
                           show=lambda frame: self.display.show(lights.base() | frame),
                           publish=self.live.tutor)
        bus.subscribe(lights)
        bus.subscribe(self.coach)
        bus.subscribe(self.live.event)
        self.pressed: list[str] = []
        self._leds: list = []
        self.done = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.live.status(camera="ok (replay)", link="sim")
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self.coach.tutor.close()
        self.display.close()

    def _run(self) -> None:
        stabilizer = Stabilizer()
        last_picture, last = -self.pictures, None
        frames = (shot for shot in self.film.shots for _ in range(shot.frames))
        for index, shot in enumerate(frames):
            if self._stop.is_set() or self._finished():
                break
            self._take_presses()
            obs = shot.observation()
            view = stabilizer.feed(obs, index / 10)
            if view is not None:
                self.session.view(view)
            self.session.tick(index / 10)
            self.coach.drain()
            self._show_leds()
            last = shot, index, obs
            if time.monotonic() - last_picture >= self.pictures:
                last_picture = time.monotonic()
                self.live.frame(self._picture(shot, index), obs)
                last = None
            time.sleep(self.delay)
        if last is not None:
            self.live.frame(self._picture(*last[:2]), last[2])
        self.coach.drain(wait=10)
        self.done.set()
        while not self._stop.wait(0.02):
            self._take_presses()
            self.coach.drain()
            self._show_leds()

    def _show_leds(self) -> None:
        self.display.update()
        if self.backend.leds != self._leds:
            self._leds = list(self.backend.leds)
            self.live.leds(self._leds)

    def _finished(self) -> bool:
        game = self.session.game
        return len(game.record) >= self.turns and game.dice is None

    def _take_presses(self) -> None:
        while not self.live.presses.empty():
            name = self.live.presses.get_nowait()
            self.pressed.append(name)
            self.session.press(name)

    def _picture(self, shot, index: int):
        bar = {"white": shot.bar[0], "black": shot.bar[1]}
        scene = synth.Scene(shot.points, bar, shot.dice, shot.hand, self.film.look)
        return synth.render(scene, index).image
