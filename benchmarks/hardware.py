"""LED pattern update speed: compute a meaning's pattern and send it through the compositor.

Each update builds `turn | legal sources | cube owner` (or the tutor's play) from engine
types for a game situation and shows it, so the backend really gets a change every time:

    python benchmarks/hardware.py [--updates 2000]

gpio runs on gpiozero's MockFactory (the same code path as on a Pi, minus the pin driver);
sim keeps the state without drawing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bgboard.engine.board import BLACK, WHITE, Position
from bgboard.engine.moves import legal_plays
from bgboard.hardware import signals as s
from bgboard.hardware.config import load_config
from bgboard.hardware.display import Display
from bgboard.hardware.gpio_backend import GpioBackend
from bgboard.hardware.sim_backend import SimBackend


def situations(n: int, seed: int = 1):
    """(position, dice, legal plays) at the moves of seeded random games, both sides on roll."""
    rng = random.Random(seed)
    out, pos = [], Position()
    while len(out) < n:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(pos, dice)
        if plays:
            out.append((pos, dice, plays))
            pos = rng.choice(plays).position
        else:
            pos = replace(pos, turn=pos.turn.other)
        if pos.off(WHITE) == 15 or pos.off(BLACK) == 15:
            pos = Position()
    return out


def pattern_for(k: int, pos: Position, dice, plays) -> object:
    """Alternately the sources with the cube owner, and the tutor's (first) play."""
    if k % 2:
        return s.suggestion(plays[0], pos.turn)
    return s.turn(pos.turn) | s.legal_sources(pos, dice) | s.cube(2, pos.turn.other)


def bench(display: Display, cases) -> list[float]:
    times = []
    for k, case in enumerate(cases):
        t0 = time.perf_counter()
        display.show(pattern_for(k, *case))
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=2000)
    args = parser.parse_args()
    cases = situations(args.updates)
    config = load_config()
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    backends = {"gpio (MockFactory)": GpioBackend(config), "sim": SimBackend(None, config.servo)}
    print(f"{len(cases)} frame updates (compute + send), ms per update")
    print(f"{'backend':<20} {'median':>8} {'p90':>8} {'p99':>8}")
    for name, backend in backends.items():
        with Display(backend, config.servo) as display:
            bench(display, cases[:100])  # warm up
            times = sorted(bench(display, cases))
        p90, p99 = (times[int(q * len(times))] for q in (0.9, 0.99))
        print(f"{name:<20} {statistics.median(times):8.3f} {p90:8.3f} {p99:8.3f}")


if __name__ == "__main__":
    main()
