"""Position analysis through engine adapters: ranked plays, cube advice, chances.

    from bgboard.engine.analysis import open_analyzer
    with open_analyzer() as engine:                 # the best installed engine
        best = engine.rank(position, (3, 1), ply=2)[0]
        advice = engine.cube(position)

Adapters, best first: `gnubg-nn` (GNU Backgammon's nets in-process, 0-2 ply), `gnubg` (the
GNU Backgammon program as one long-lived subprocess, 0-4 ply), `builtin` (no dependency,
weak). Equities: cubeless money equity at the ply asked for plays, Janowski/gnubg cubeful
money equity for cube decisions, from the view of the side to play, per unit of the cube.
"""

from __future__ import annotations

import importlib.util

from .base import Analyzer, Probabilities, RankedPlay
from .cube import CubeAdvice

ENGINES = ("gnubg-nn", "gnubg", "builtin")
INSTALL = {
    "gnubg-nn": "pip install gnubg-nn (x86_64 Linux, macOS, Windows wheels), or "
                "pip install 'bgboard[tutor]'",
    "gnubg": "apt-get install gnubg (Debian, Ubuntu, Raspberry Pi OS)",
    "builtin": "nothing: it is part of bgboard",
}

__all__ = ["ENGINES", "Analyzer", "CubeAdvice", "EngineMissing", "Probabilities",
           "RankedPlay", "installed", "open_analyzer"]


class EngineMissing(ValueError):
    """An engine that was asked for is not installed; the text says what to do."""


def installed() -> list[str]:
    """The engines this machine can run, best first (`builtin` always)."""
    from .gnubg_cli import find_gnubg

    found = {
        "gnubg-nn": importlib.util.find_spec("gnubg_nn") is not None,
        "gnubg": find_gnubg() is not None,
        "builtin": True,
    }
    return [name for name in ENGINES if found[name]]


def open_analyzer(name: str | None = None) -> Analyzer:
    """The engine `name`, or the best installed one when None. Close it when done."""
    have = installed()
    if name is None:
        name = have[0]
    if name not in ENGINES:
        raise EngineMissing(f"unknown engine {name!r}: choose one of {', '.join(ENGINES)}")
    if name not in have:
        raise EngineMissing(f"the {name} engine is not installed (installed: "
                            f"{', '.join(have)}); to install it: {INSTALL[name]}")
    if name == "gnubg-nn":
        from .nn import GnubgNN

        return GnubgNN()
    if name == "gnubg":
        from .gnubg_cli import GnubgCLI

        return GnubgCLI()
    from .builtin import Builtin

    return Builtin()
