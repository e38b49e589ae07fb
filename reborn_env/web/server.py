"""The web app: the page, its static files and one websocket per tab, each its own session.

Why these limits: the server runs on a person's machine while their browser visits other sites.
It serves only its own package's files, takes no path from a client, bounds every message
(:data:`MAX_MESSAGE`) and the number of sessions at once (:data:`MAX_SESSIONS`), refuses a
websocket opened by a page of another origin, and answers a bad message (not JSON, unknown kind,
illegal move, or anything that fails inside the game) with ``{"kind": "error"}`` and carries on.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from reborn_env.frontends.botd import parse_request

from .session import ClientError, Session

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 256 * 1024  # bytes: the game log of the longest game (about 3000 moves) fits
MAX_SESSIONS = 16
TRY_AGAIN_LATER = 1013  # websocket close code: the server is full
POLICY_VIOLATION = 1008  # websocket close code: another site's page, or a message too big
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:",
    "X-Content-Type-Options": "nosniff",
}
log = logging.getLogger(__name__)


def _same_origin(websocket: WebSocket) -> bool:
    """A browser sends Origin: it must name this server's host (a test client sends none)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def create_app(
    bot: str | None = None, env: str | None = None, max_sessions: int = MAX_SESSIONS
) -> Starlette:
    """The app; ``bot`` (a ``load_bot`` spec from the command line) is offered for ``env``."""
    live = {"sessions": 0}

    async def index(request: object) -> Response:
        return FileResponse(STATIC / "index.html", headers=SECURITY_HEADERS)

    async def play(websocket: WebSocket) -> None:
        if not _same_origin(websocket):
            await websocket.close(code=POLICY_VIOLATION)
            return
        await websocket.accept()
        if live["sessions"] >= max_sessions:
            message = f"the server holds {max_sessions} sessions already; try again later"
            await websocket.send_json({"kind": "error", "message": message})
            await websocket.close(code=TRY_AGAIN_LATER)
            return
        live["sessions"] += 1
        session = Session(server_bot=bot, server_env=env)
        try:
            await _serve(websocket, session)
        except WebSocketDisconnect:
            pass
        finally:
            live["sessions"] -= 1

    app = Starlette(
        routes=[
            Route("/", index),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
            WebSocketRoute("/ws", play),
        ]
    )
    app.state.live = live
    return app


async def _serve(websocket: WebSocket, session: Session) -> None:
    """Answer the tab's messages one at a time until it goes."""
    while True:
        raw = await websocket.receive()
        if raw["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(raw.get("code", 1000))
        text = raw.get("text")
        if text is None and raw.get("bytes") is not None:
            text = raw["bytes"].decode("utf-8", errors="replace")
        if text is None or len(text.encode()) > MAX_MESSAGE:
            await _error(websocket, f"a message must be JSON text of at most {MAX_MESSAGE} bytes")
            continue
        try:
            message = parse_request(text)  # the bot protocol's reader: depth and numbers bounded
        except ValueError as err:
            await _error(websocket, f"not JSON this server reads: {err}")
            continue
        try:
            replies = await anyio.to_thread.run_sync(session.handle, message)
        except ClientError as err:
            await _error(websocket, str(err))
            continue
        except Exception as err:  # a fault inside the game: the tab hears of it, the server lives
            log.exception("session failed on a %r message", type(message).__name__)
            await _error(websocket, f"the server could not do that ({type(err).__name__}: {err})")
            continue
        for reply in replies:
            await websocket.send_text(json.dumps(reply))


async def _error(websocket: WebSocket, message: str) -> None:
    await websocket.send_text(json.dumps({"kind": "error", "message": message}))
