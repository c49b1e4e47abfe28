"""`bgboard play`: follow games on a real board, with LEDs, a journal and a web view."""

from __future__ import annotations

import tomllib
from dataclasses import fields

from ..broker import add_options
from . import example

OPTIONS = ("camera", "calibration", "leds", "mode", "match", "players", "out", "web", "token",
           "fps", "hardware", "relay", "board")


def register(sub) -> None:
    p = sub.add_parser("play", help="follow games on a real board (camera, LEDs, web view)",
                       description="Watch the board, judge every move, answer with the LEDs "
                                   "and the cube, and record the match crash-safe.",
                       epilog=example("bgboard play --camera 0 --calibration cal.json "
                                      "--leds serial --web 8000"))
    p.add_argument("--config", metavar="FILE.toml", help="settings file (command line wins)")
    p.add_argument("--camera", help="device number, stream URL, video file or image folder "
                                    "(default 0)")
    p.add_argument("--calibration", metavar="CAL", help="calibration file")
    p.add_argument("--leds", help="gpio, serial[:PORT] or sim (default sim)")
    p.add_argument("--mode", choices=("play", "record", "tutor"), help="default play")
    p.add_argument("--match", type=int, metavar="N", help="match length (default 0: money)")
    p.add_argument("--players", nargs=2, metavar=("A", "B"))
    p.add_argument("--out", metavar="DIR", help="journal and match files (default "
                                                 "bgboard-games)")
    p.add_argument("--resume", action="store_true",
                   help="continue the match journalled in --out (a new one if there is none)")
    p.add_argument("--web", metavar="[HOST:]PORT", help="serve the live web view")
    p.add_argument("--token", help="web access token (required off 127.0.0.1)")
    p.add_argument("--fps", type=float, help="frame rate of an image folder (default 10)")
    p.add_argument("--hardware", metavar="FILE.toml", help="wiring and servo table")
    add_options(p)
    p.set_defaults(run=run)


def options_from(args):
    """PlayOptions from the config file, then the command line on top."""
    from ..play import PlayOptions

    settings: dict = {}
    if args.config:
        try:
            with open(args.config, "rb") as f:
                settings = tomllib.load(f)
        except tomllib.TOMLDecodeError as exc:
            raise ValueError(f"{args.config}: {exc}") from exc
        known = {f.name for f in fields(PlayOptions)} - {"resume"}
        unknown = set(settings) - known
        if unknown:
            raise ValueError(f"{args.config}: unknown setting {sorted(unknown)[0]!r}")
    for name in OPTIONS:
        value = getattr(args, name)
        if value is not None:
            settings[name] = value
    if "players" in settings:
        settings["players"] = tuple(settings["players"])
    return PlayOptions(**settings, resume=args.resume)


def run(args) -> int:
    from ..play import LiveGame

    return LiveGame(options_from(args)).run()
