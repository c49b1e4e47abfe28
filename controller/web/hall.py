"""The hall's web page: every board of the tournament live, each a small diagram with its
score, who is on roll and the last move; a click opens one board large with its moves.

Routes: GET / (the page), /boards (JSON: every board), /events (SSE: every board once, then
each board again whenever it changes, one board an event), /board/NAME.mat (its match so far).
"""

from __future__ import annotations

import json
import threading

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...vision.diagram import diagram_svg
from ..hall import Hall
from .app import KEEPALIVE, PAUSE, STATIC, TokenGate, html_page
from .server import Server, start

WIDTH, HEIGHT = 480, 300
"""The boards' diagrams (scaled by the page: small in the grid, large when opened)."""


def board_view(view: dict) -> dict:
    """A board's view (Hall.changed) with its diagram as SVG text."""
    position = view["position"]
    svg = diagram_svg(position["points"], position["bar"], position["off"], width=WIDTH,
                      height=HEIGHT)
    return {**view, "svg": svg}


def create_hall_app(hall: Hall, token: str | None = None) -> Starlette:
    """The hall's page and routes; with a token every request must carry it."""

    async def boards(request: Request) -> Response:
        return JSONResponse([board_view(v) for v in hall.changed(0)])

    async def events(request: Request) -> Response:
        closing: threading.Event = request.app.state.closing

        async def stream():
            version, quiet = 0, 0.0
            while not closing.is_set():
                views = hall.changed(version)
                version = max([version, *(v["version"] for v in views)])
                for view in views:
                    yield f"data: {json.dumps(board_view(view))}\n\n"
                if views:
                    quiet = 0.0
                    await anyio.sleep(PAUSE)
                    continue
                if await anyio.to_thread.run_sync(hall.wait, version, 1.0) == version:
                    quiet += 1.0
                    if quiet >= KEEPALIVE:
                        quiet = 0.0
                        yield ": still here\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def match_file(request: Request) -> Response:
        name = request.path_params["name"]
        text = hall.mat(name)
        if text is None:
            return PlainTextResponse(f"no board {name}", 404)
        return PlainTextResponse(text, headers={
            "Content-Disposition": f'attachment; filename="{name}.mat"'})

    routes = [Route("/", html_page("hall.html", token)), Route("/boards", boards),
              Route("/events", events), Route("/board/{name}.mat", match_file),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    middleware = [Middleware(TokenGate, token=token)] if token else []
    app = Starlette(routes=routes, middleware=middleware)
    app.state.closing = threading.Event()
    return app


def serve_hall(hall: Hall, host: str = "127.0.0.1", port: int = 8080,
               token: str | None = None) -> Server:
    """Serve the hall's page on host:port (0: any free port) from a background thread; any
    address but the loopback needs a token."""
    return start(create_hall_app(hall, token), host, port, token)
