"""`bgboard demo`: a filmed sample game through vision, the controller, simulated LEDs and the
recorder, on any machine (no camera, no hardware)."""

from __future__ import annotations

import os
import sys

from . import example


def register(sub) -> None:
    p = sub.add_parser("demo", help="watch a sample game go from video to match file",
                       description="Film a sample game with the synthetic renderer, read every "
                                   "frame with the vision pipeline, follow the game with the "
                                   "controller, show the LEDs on the simulated board and "
                                   "write the match file.",
                       epilog=example("bgboard demo --out sample.mat --leds leds.png"))
    p.add_argument("--out", default="bgboard-demo.mat", help="match file to write "
                   "(default bgboard-demo.mat; .sgf also works)")
    p.add_argument("--leds", default="bgboard-demo-leds.png", metavar="FILE.png",
                   help="picture of the simulated board and LEDs at the end")
    p.add_argument("--seed", type=int, default=2, help="which sample game (default 2)")
    p.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1),
                   help="processes rendering the film ahead of the reader")
    p.set_defaults(run=run)


def run(args) -> int:
    import cv2

    from ...calibration.file import from_dict
    from ...hardware.config import load_config
    from ...hardware.display import Display
    from ...hardware.sim_backend import SimBackend
    from ...vision.read import Reader
    from ..console import Console, summary
    from ..demo.film import film_match, learned_calibration, render_frames
    from ..lights import Lights
    from ..recorder import record, write_match

    film = film_match(args.seed, games=1)
    turns = sum(1 for a in film.match.games[0].record if a.kind == "move")
    print(f"A sample game of {turns} turns, {film.frames} frames at 10 frames a second, "
          f"filmed with the synthetic renderer; every frame goes through the vision pipeline.",
          flush=True)
    calibration = learned_calibration(film, args.seed)
    console = Console(total=film.frames)
    backend = SimBackend()
    match = type(film.match)(length=film.match.length)
    with Display(backend, load_config().servo) as display:
        console.bus.subscribe(Lights(display, match))
        try:
            record(console.progress(render_frames(film, args.seed, args.workers)),
                   Reader(from_dict(calibration)).read, calibration=calibration,
                   buttons=film.buttons, match=match, bus=console.bus)
        finally:
            write_match(match, args.out, ("White", "Black"))
            console.close()
        board = match.games[-1].board.to_dict()
        cv2.imwrite(args.leds, backend.image(board["points"], board["bar"], board["off"]))
    expected = [a for a in film.match.games[0].record]
    got = list(match.games[0].record)
    right = sum(1 for a, b in zip(got, expected, strict=False) if a == b)
    print(f"wrote {args.out}: {summary(match)}; {right} of {len(expected)} actions match the "
          f"filmed game; LEDs at the end: {args.leds}", file=sys.stderr)
    return 0 if got == expected else 1
