"""The `bgboard` command line: one sub-command per module in controller/commands/.

Bad input (ValueError or OSError from any layer) becomes one line on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import commands


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def build_parser() -> ArgumentParser:
    """The full parser with every sub-command registered."""
    parser = ArgumentParser(prog="bgboard", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    sub.required = True
    for module in commands.all_modules():
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # our own one line says what failed
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
