"""Open a backend by name: "gpio", "sim" or "serial:PORT"."""

from __future__ import annotations

import sys

from .backend import Backend
from .config import Config


def open_backend(spec: str, config: Config, on_link=None, quiet: bool = False) -> Backend:
    """The backend `spec` names, wired as `config` says; ValueError for an unknown name.
    `on_link(event)` hears the serial link's status changes; `quiet` keeps the simulator
    from drawing in the terminal."""
    if spec == "gpio":
        try:
            from .gpio_backend import GpioBackend
        except ModuleNotFoundError as exc:
            need = f"the gpio backend needs {exc.name}: pip install 'bgboard[pi]'"
            raise ValueError(need) from None
        return GpioBackend(config)
    if spec == "sim":
        from .sim_backend import SimBackend

        return SimBackend(None if quiet else sys.stdout, config.servo)
    if spec.startswith("serial:") and spec != "serial:":
        try:
            from .serial_backend import SerialBackend
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.endswith("serial_backend"):
                raise ValueError("the serial backend is not installed") from None
            raise ValueError(f"the serial backend needs {exc.name}: pip install pyserial") from None
        return SerialBackend(spec.removeprefix("serial:"), on_event=on_link)
    raise ValueError(f"unknown backend {spec!r} (use gpio, sim or serial:PORT)")
