"""Sub-commands of `bgboard`, one module each.

Each module defines `register(subparsers)`, which adds its parser (with one `example` as its
epilog) and sets `run=` (a function taking the parsed args and returning an exit code) with
`set_defaults`. Modules import heavy
libraries (OpenCV, serial) inside `run`, so that `bgboard moves` starts fast.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def all_modules() -> list[ModuleType]:
    """Every command module in this package, in name order."""
    names = sorted(info.name for info in pkgutil.iter_modules(__path__))
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def example(command: str) -> str:
    """A help epilog showing one command line as a user types it."""
    return f"example:\n  {command}"
