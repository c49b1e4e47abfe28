"""The calibrate view's routes: the page where the field's corners are dragged into place on
the frame, with the point grid and what is read through them drawn over it, and saved.

GET /calibrate (the page), /calibrate/state (JSON: image size, the corners to start from, the
file, whether the frame is live), /calibrate/frame.jpg; POST /calibrate/preview and
/calibrate/save with JSON {"corners_px": {"p1": [x, y], "p12": ..., "p13": ..., "p24": ...}}.
Bad corners get 400 with a one-line reason; no frame yet, 503.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from ..calibrating import Desk, size_of
from .pictures import grid_svg

NO_STORE = {"Cache-Control": "no-store"}
SEND = 'send JSON: {"corners_px": {"p1": [x, y], "p12": [x, y], "p13": [x, y], "p24": [x, y]}}'


def calibrate_routes(desk: Desk, page: Callable, game: bool) -> list[Route]:
    """The routes of the calibrate view of `desk`, its page served by `page`; `game`: whether
    the app also has the game's page (the calibrate page then links back to it)."""

    async def state(request: Request) -> Response:
        try:
            size = size_of(desk.raw())
        except LookupError as exc:
            return PlainTextResponse(str(exc), 503)
        return JSONResponse(dict(desk.state(size), game=game), headers=NO_STORE)

    async def frame(request: Request) -> Response:
        import cv2

        try:
            image = await anyio.to_thread.run_sync(lambda: desk.image(desk.raw()))
        except LookupError as exc:
            return PlainTextResponse(str(exc), 404)
        jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
        return Response(jpeg.tobytes(), media_type="image/jpeg", headers=NO_STORE)

    def preview(body) -> dict:
        seen = desk.preview(body)
        return dict(seen, svg=grid_svg(seen))

    def save(body) -> dict:
        return {"saved": str(desk.out), "message": desk.save(body)}

    return [
        Route("/calibrate", page),
        Route("/calibrate/state", state),
        Route("/calibrate/frame.jpg", frame),
        Route("/calibrate/preview", posted(preview), methods=["POST"]),
        Route("/calibrate/save", posted(save), methods=["POST"]),
    ]


def posted(work: Callable[[object], dict]) -> Callable:
    """An endpoint answering `work(the JSON body)` (run off the event loop) as JSON: 415 for
    a body that is not JSON, 400 with the reason for bad corners, 503 without a frame, 500
    when the file cannot be written."""

    async def endpoint(request: Request) -> Response:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return PlainTextResponse(SEND, 415)
        try:
            body = await request.json()
        except ValueError:
            return PlainTextResponse(SEND, 400)
        try:
            return JSONResponse(await anyio.to_thread.run_sync(work, body))
        except LookupError as exc:
            return PlainTextResponse(str(exc), 503)
        except ValueError as exc:
            return PlainTextResponse(str(exc), 400)
        except OSError as exc:
            return PlainTextResponse(f"not saved: {exc}", 500)

    return endpoint
