"""The compositor: cycles become timed plain-colour updates; only changes are sent."""

import time

from bgboard.engine.board import WHITE, Position
from bgboard.engine.moves import legal_plays
from bgboard.hardware import signals as s
from bgboard.hardware.config import load_config
from bgboard.hardware.display import Display
from bgboard.hardware.led_pattern import TICK, LedPattern
from bgboard.hardware.sim_backend import SimBackend

OFF = (0, 0, 0)


class Recorder(SimBackend):
    """The sim backend, also keeping every update it received."""

    def __init__(self, servo):
        super().__init__(None, servo)
        self.sent = []

    def show(self, leds):
        super().show(leds)
        self.sent.append(tuple(i for i, c in enumerate(leds) if c != OFF))

    def turn_cube(self, degrees):
        super().turn_cube(degrees)
        self.sent.append(("cube", degrees))


def test_the_tutors_play_is_sent_step_by_step_and_only_on_change():
    cfg = load_config()
    now = [0.0]
    backend = Recorder(cfg.servo)
    play = next(p for p in legal_plays(Position(), (6, 4)) if p.move == "24/14")
    assert [(x.start, x.end) for x in play.steps] in ([(24, 18), (18, 14)], [(24, 20), (20, 14)])
    via = play.steps[0].end
    with Display(backend, cfg.servo, clock=lambda: now[0]) as display:
        display.show(s.suggestion(play, WHITE) | s.cube(4))
        for tick in range(1, 2 * 20):  # two cycles of 5 slots of 4 ticks
            now[0] = tick * TICK
            display.update()
    one_cycle = [(23,), (via - 1,), (via - 1,), (13,), ()]  # 24, via, via, 14, pause
    assert backend.sent == [(23,), ("cube", 72)] + one_cycle[1:] + one_cycle
    assert backend.leds == [OFF] * 30 and backend.closed


def test_start_keeps_the_cycles_running_until_close():
    cfg = load_config()
    backend = Recorder(cfg.servo)
    with Display(backend, cfg.servo) as display:
        display.start()
        display.show(s.illegal_move([7]))
        deadline = time.monotonic() + 10
        while len(backend.sent) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert backend.sent[:4] == [(6,), (), (6,), ()]


def test_close_sends_the_dark_frame_before_the_backend_closes():
    cfg = load_config()
    backend = Recorder(cfg.servo)
    with Display(backend, cfg.servo) as display:
        display.show(LedPattern.plain([(255, 0, 0)] * 30))
    assert backend.sent == [tuple(range(30)), ()]
