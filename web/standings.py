"""The projected standings: a page for the room's projector, live over SSE.

Every `standings` message carries the journal sequence as its SSE id. A screen
that loses its connection reconnects with Last-Event-ID and is sent the current
standings at once if the party has moved on meanwhile; a quiet party gets
keep-alive comments so proxies and browsers keep the stream open. The
conductor's switch hiding the standings is journaled like any change, so
flipping it sends the standings under a new id. One thread writes the stream
to every screen (web/standings_broadcast.py).

The boards' telemetry is not journaled, so it travels as `boards` messages
without an id (the browser's Last-Event-ID stays the journal seq): the stream
looks at `hub.boards` every `BOARD_CHECK_SECONDS` and sends the tables' board
states when one has changed, and once on every (re)connect.
"""
from __future__ import annotations

import json
import time
from functools import lru_cache

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from .pages.console import table_numbers
from .server import SOCKET
from .standings_broadcast import Broadcast
from .telemetry import boards_view, liveness

bp = Blueprint("standings", __name__)


def _hub():
    return current_app.extensions["party.hub"]


def board_states(hub, config) -> dict[str, str]:
    view = boards_view(hub.boards, table_numbers(hub.state), time.time(), config["BOARD_SILENT_SECONDS"])
    return liveness(view)


def _sse(kind: str, data: str, seq: int | None = None) -> str:
    head = f"id: {seq}\n" if seq is not None else ""
    return f"{head}event: {kind}\ndata: {data}\n\n"


@lru_cache(maxsize=4)
def _standings_message(encoded: str, seq: int) -> bytes:
    """The `standings` message of one view, as bytes: made once and written by every stream
    (twenty screens each copying and encoding the same 100 KB at every change, issue 25).
    Keyed by the projection's one string of the view: its hash is computed once."""
    return _sse("standings", encoded, seq).encode()


@bp.get("/")
def page():
    return render_template("standings.html")


@bp.get("/standings.json")
def snapshot():
    hub = _hub()
    seq, data, _ = current_app.extensions["party.projection"].current()
    return jsonify(seq=seq, standings=data, boards=board_states(hub, current_app.config))


@bp.get("/stream")
def stream():
    """The stream's head and first line through the web server; the rest by the hub's one
    writer to every screen (web/standings_broadcast.py), which needs the socket the web
    server (web/server.py) puts in the request."""
    sock = request.environ.get(SOCKET)
    if sock is None:
        return Response("The standings stream is served by the hub's own web server.", status=501)
    broadcast = current_app.extensions["party.broadcast"]
    last = request.headers.get("Last-Event-ID", type=int)

    def events():
        yield "retry: 1000\n\n"  # reconnect within a second after a drop
        broadcast.join(sock, last)

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


def broadcast(app, hub) -> Broadcast:
    """The writer of `app`'s stream: the projection's latest view, the boards once a check."""
    screen, config = app.extensions["party.projection"], app.config

    def standings() -> tuple[tuple, int, bytes]:
        seq, data, encoded = screen.latest()
        return (seq, data["hidden"]), seq, _standings_message(encoded, seq)

    def boards() -> bytes:
        return _sse("boards", json.dumps(board_states(hub, config), separators=(",", ":"))).encode()

    return Broadcast(hub, screen, standings, boards, config["SSE_PING_SECONDS"], config["BOARD_CHECK_SECONDS"])
