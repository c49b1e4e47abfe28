"""Serving the web view from a background thread of the play loop (uvicorn)."""

from __future__ import annotations

import ipaddress
import socket
import threading
import time
from urllib.parse import quote

from ...calibration.file import Calibration
from ..calibrating import Desk
from ..live import LiveState
from .app import create_app


class Server:
    """A running web view: open `url` in a browser; `stop()` ends it (open pages are closed)."""

    def __init__(self, url: str, server, thread: threading.Thread,
                 closing: threading.Event) -> None:
        self.url = url
        self._server = server
        self._thread = thread
        self._closing = closing

    def stop(self) -> None:
        self._closing.set()
        self._server.should_exit = True
        self._thread.join(timeout=10)


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach `host`."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(live: LiveState | None, host: str = "127.0.0.1", port: int = 8000,
          token: str | None = None, calibration: Calibration | None = None,
          desk: Desk | None = None) -> Server:
    """Start the web view of `live` on host:port (port 0: any free port) in a background thread.
    Any address but the loopback needs a token; with a calibration the camera picture shows
    what was read drawn over it; with a desk, the calibrate view is served too (alone,
    without `live`: the server's url is then the calibrate page's)."""
    return start(create_app(live, token, calibration, desk), host, port, token,
                 "" if live is not None else "calibrate")


def start(app, host: str, port: int, token: str | None, page: str = "") -> Server:
    """Serve a Starlette `app` (whose state has a `closing` event) on host:port from a
    background thread; its url opens `page`."""
    import uvicorn

    if not token and not is_loopback(host):
        raise ValueError(f"the web view on {host} needs a token (--token SECRET): only "
                         f"127.0.0.1 is served without one")
    if not 0 <= port <= 65535:
        raise ValueError(f"the web view cannot listen on port {port}: a port is 0-65535")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = socket.create_server((host, port), family=family)
    except OSError as exc:
        raise OSError(f"the web view cannot listen on {host}:{port}: {exc.strerror or exc}") \
            from None
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off",
                                           timeout_graceful_shutdown=3))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="bgboard-web", daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            sock.close()
            raise OSError(f"the web view on {host}:{port} did not start")
        time.sleep(0.01)
    return Server(_url(host, sock.getsockname()[1], token, page), server, thread,
                  app.state.closing)


def _url(host: str, port: int, token: str | None, page: str = "") -> str:
    if host in ("0.0.0.0", "::", ""):
        host = socket.gethostname()
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/{page}" + (f"?token={quote(token)}" if token else "")
