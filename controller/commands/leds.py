"""`bgboard leds play|test|picture`: drive the LEDs and the cube directly.

`play FRAMES.jsonl` sends LED frames (`{"leds": [[r, g, b], ...], "cube": 2}`) in order as fast
as the link allows and exits 0 once the device confirmed the last one; `test` walks through
every LED and cube face for assembly checks; `picture` draws the meanings of the LEDs.
"""

from __future__ import annotations

import json
import signal
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from . import example


def register(subparsers) -> None:
    p = subparsers.add_parser("leds", help="drive the LEDs and the cube: play frames, test",
                              epilog=example("bgboard leds test --backend sim"))
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    play = actions.add_parser("play", help="send LED frames from a JSONL file",
                               epilog=example("bgboard leds play frames.jsonl --backend "
                                              "serial:/dev/ttyUSB0"))
    play.add_argument("frames", metavar="FRAMES.jsonl", type=Path)
    play.add_argument("--timeout", type=float, default=10.0,
                      help="seconds to wait for the device to confirm the last frame")
    play.set_defaults(run=run_play)
    test = actions.add_parser("test", help="light every LED and turn the cube to every face",
                               epilog=example("bgboard leds test --backend gpio --delay 1"))
    test.add_argument("--delay", type=float, default=0.5, help="seconds per step")
    test.set_defaults(run=run_test)
    for action in (play, test):
        action.add_argument("--backend", default="sim", help="gpio, sim or serial:PORT")
        action.add_argument("--config", type=Path, help="hardware config (TOML)")
    picture = actions.add_parser("picture", help="draw every meaning of the LEDs as a PNG",
                                  epilog=example("bgboard leds picture meanings.png"))
    picture.add_argument("out", metavar="OUT.png", type=Path)
    picture.set_defaults(run=run_picture)


def read_frames(path: Path, servo) -> list[tuple[tuple, float | None]]:
    """Every frame of a JSONL file as (colours, cube angle or None), all checked first."""
    from ...hardware.led_pattern import LedPattern

    frames = []
    with path.open() as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                if not isinstance(item, dict) or not isinstance(item.get("leds"), list):
                    raise ValueError('a frame is an object with "leds": [[r, g, b], ...]')
                cube = item.get("cube")
                if cube is not None and type(cube) is not int:
                    raise ValueError(f"cube {cube!r} is not a cube value")
                angle = None if cube is None else servo.angle(cube)
                frames.append((LedPattern.plain(item["leds"]).at(0), angle))
            except ValueError as exc:
                raise ValueError(f"{path} line {number}: {exc}") from None
    if not frames:
        raise ValueError(f"{path}: no frames")
    return frames


def run_play(args) -> int:
    from ...hardware.backends import open_backend
    from ...hardware.config import load_config

    config = load_config(args.config)
    frames = read_frames(args.frames, config.servo)
    with _stop_on_sigterm(), open_backend(args.backend, config) as backend:
        for leds, angle in frames:
            backend.show(leds)
            if angle is not None:
                backend.turn_cube(angle)
        if not backend.confirmed(args.timeout):
            print(f"bgboard leds: error: the device did not confirm the last frame within "
                  f"{args.timeout:g} s", file=sys.stderr)
            return 1
    return 0


def run_test(args) -> int:
    from ...hardware.backends import open_backend
    from ...hardware.config import FACES, load_config
    from ...hardware.layout import COUNT, NAMES
    from ...hardware.led_pattern import OFF

    config = load_config(args.config)
    with _stop_on_sigterm(), open_backend(args.backend, config) as backend:
        backend.on_button(lambda name: print(f"button {name}", flush=True))
        steps = [(f"LED {i}: {name}", [OFF] * i + [(255, 255, 255)] + [OFF] * (COUNT - i - 1))
                 for i, name in enumerate(NAMES)]
        steps += [(f"every LED {name}", [colour] * COUNT) for name, colour in
                  (("red", (255, 0, 0)), ("green", (0, 255, 0)), ("blue", (0, 0, 255)))]
        for text, leds in steps + [("every LED off", [OFF] * COUNT)]:
            print(text, flush=True)
            backend.show(leds)
            time.sleep(args.delay)
        for face in FACES:
            angle = config.servo.faces[face]
            print(f"cube {face}: {angle:g} degrees", flush=True)
            backend.turn_cube(angle)
            backend.confirmed(10.0)
            time.sleep(args.delay)
    return 0


def run_picture(args) -> int:
    import cv2

    from ...hardware.sheet import meanings_sheet

    if args.out.suffix.lower() != ".png":
        raise ValueError(f"{args.out}: the file name must end in .png")
    if not cv2.imwrite(str(args.out), meanings_sheet()):
        raise OSError(f"cannot write {args.out}")
    return 0


@contextmanager
def _stop_on_sigterm():
    """SIGTERM unwinds like Ctrl-C, so the backend turns everything off on the way out."""

    def stop(signum, frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
