"""The `bgboard` command line: one sub-command per module in controller/commands/.

Bad input (ValueError or OSError from any layer) becomes one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import commands

DESCRIPTION = (
    "bgboard turns a real backgammon board into a smart one: a camera reads the checkers and "
    "the dice, the rules engine judges every move, LEDs and a servo-turned doubling cube answer "
    "the players, and every game is recorded as a match file that GNU Backgammon and eXtreme "
    "Gammon import. Without a board, `bgboard demo` shows the whole chain on a filmed sample "
    "game.")
EPILOG = ("examples:\n  bgboard demo\n"
          "  bgboard play --camera 0 --calibration cal.json --leds gpio --web 8000\n"
          "  bgboard moves start --dice 31\n"
          "Each COMMAND has its own help: bgboard COMMAND --help")


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, except that lines indented by two spaces (examples) stay as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line if line.startswith("  ")
                         else super(HelpFormatter, self)._fill_text(line, width, indent)
                         for line in text.splitlines())


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line and exit code 2."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> ArgumentParser:
    """The full parser with every sub-command registered."""
    parser = ArgumentParser(prog="bgboard", description=DESCRIPTION, epilog=EPILOG)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    sub.required = True
    for module in commands.all_modules():
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # our own one line says what failed
    os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")  # so does it for a camera not opened
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (ValueError, OSError) as exc:
        print(f"bgboard {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
