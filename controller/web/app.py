"""The live web view as a Starlette app: the page, its state as JSON and as a server-sent event
stream, the camera picture, the buttons and the match files.

Routes: GET / (the page), /state (JSON), /events (SSE: the state after each change),
/camera.jpg, /match.mat, /match.sgf; POST /press with JSON {"button": "double"}; with a
calibration desk, the calibrate view's routes under /calibrate (calibrate.py).
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...calibration.file import Calibration
from ..calibrating import Desk
from ..live import LiveState
from .calibrate import calibrate_routes
from .pictures import board_svg, camera_svg, read_svg

STATIC = Path(__file__).with_name("static")
COOKIE = "bgboard_token"
PAUSE = 0.2
"""Seconds between two updates on the event stream (changes in between are merged)."""
KEEPALIVE = 15.0


def page_state(live: LiveState, calibration: Calibration | None = None) -> dict:
    """The snapshot with the pictures the page shows (SVG text)."""
    state = live.snapshot()
    obs = state["observation"]
    state["board_svg"] = board_svg(state["position"], state["leds"], state["cube"])
    state["read_svg"] = read_svg(obs, state["position"]) if obs else None
    state["camera_svg"] = camera_svg(obs, state["position"], calibration) \
        if obs and calibration else None
    state["has_camera"] = live.jpeg() is not None
    return state


def create_app(live: LiveState | None, token: str | None = None,
               calibration: Calibration | None = None, desk: Desk | None = None) -> Starlette:
    """The app for one session (`live`) with its camera overlay drawn through `calibration`,
    and with a `desk`, the calibrate view (whose calibration then draws the overlay); with
    only a desk, the calibrate view alone. With a token every request must carry it (?token=,
    an `Authorization: Bearer` header, or the cookie the page sets)."""
    routes = []
    if live is not None:
        current = (lambda: desk.calibration) if desk else (lambda: calibration)
        routes += game_routes(live, html_page("index.html", token), current)
    if desk is not None:
        routes += calibrate_routes(desk, html_page("calibrate.html", token), live is not None)
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    middleware = [Middleware(TokenGate, token=token)] if token else []
    app = Starlette(routes=routes, middleware=middleware)
    app.state.closing = threading.Event()
    return app


def html_page(name: str, token: str | None) -> Callable:
    """The endpoint serving static/`name`, which sets the token's cookie for the page's own
    requests."""

    async def page(request: Request) -> Response:
        answer = HTMLResponse((STATIC / name).read_text(encoding="utf-8"),
                              headers={"Cache-Control": "no-store"})
        if token:
            answer.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        return answer

    return page


def game_routes(live: LiveState, index: Callable,
                calibration: Callable[[], Calibration | None]) -> list[Route]:
    """The game's page (served by `index`) and its routes; `calibration()` draws the
    overlay."""

    async def state(request: Request) -> Response:
        return JSONResponse(page_state(live, calibration()))

    async def events(request: Request) -> Response:
        closing: threading.Event = request.app.state.closing

        async def stream():
            version, quiet = -1, 0.0
            while not closing.is_set():
                new = await anyio.to_thread.run_sync(live.wait, version, 1.0)
                if new == version:
                    quiet += 1.0
                    if quiet >= KEEPALIVE:
                        quiet = 0.0
                        yield ": still here\n\n"
                    continue
                version, quiet = new, 0.0
                yield f"data: {json.dumps(page_state(live, calibration()))}\n\n"
                await anyio.sleep(PAUSE)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def camera(request: Request) -> Response:
        jpeg = live.jpeg()
        if jpeg is None:
            return PlainTextResponse("no camera picture yet", 404)
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def press(request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return PlainTextResponse('send JSON: {"button": NAME}', 415)
        try:
            button = (await request.json())["button"]
        except (ValueError, KeyError, TypeError):
            return PlainTextResponse('send JSON: {"button": NAME}', 400)
        try:
            live.press(button)
        except ValueError as exc:
            return PlainTextResponse(str(exc), 400)
        return JSONResponse({"pressed": button})

    def match_file(kind: str):
        async def download(request: Request) -> Response:
            return PlainTextResponse(live.match_file(kind), headers={
                "Content-Disposition": f'attachment; filename="bgboard-match.{kind}"'})
        return download

    return [
        Route("/", index),
        Route("/state", state),
        Route("/events", events),
        Route("/camera.jpg", camera),
        Route("/press", press, methods=["POST"]),
        Route("/match.mat", match_file("mat")),
        Route("/match.sgf", match_file("sgf")),
    ]


class TokenGate:
    """ASGI middleware: 401 for every request that does not carry the token."""

    def __init__(self, app, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and not self._carries_token(Request(scope)):
            answer = PlainTextResponse("this bgboard needs its token: open the address with "
                                       "?token=... as bgboard play printed it", 401)
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _carries_token(self, request: Request) -> bool:
        bearer = request.headers.get("authorization", "")
        given = [request.query_params.get("token"), request.cookies.get(COOKIE),
                 bearer[7:] if bearer.lower().startswith("bearer ") else None]
        return any(g is not None and secrets.compare_digest(g.encode(), self.token.encode())
                   for g in given)
