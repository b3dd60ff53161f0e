"""The projected standings: a page for the room's projector, live over SSE.

Every frame carries the journal sequence as its SSE id: a `standings` message the whole
view, a `change` message what changed since the view the stream sent last (its `base`
seq; web/frames.py), where that view is still kept and the change is the smaller. A
screen that loses its connection reconnects with Last-Event-ID and is sent at once what
changed since that seq (or the whole view where it is no longer kept) if the party has
moved on meanwhile; a quiet party gets
keep-alive comments so proxies and browsers keep the stream open. The
conductor's switch hiding the standings is journaled like any change
(`conductor.display-changed`), so flipping it sends the standings under a new id.

The boards' telemetry is not journaled, so it travels as `boards` messages
without an id (the browser's Last-Event-ID stays the journal seq): the stream
looks at `hub.boards` every `BOARD_CHECK_SECONDS` and sends the tables' board
states when one has changed, and once on every (re)connect.
"""
from __future__ import annotations

import itertools
import json
import threading
import time
from functools import lru_cache

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from .pages.console import table_numbers
from .telemetry import boards_view, liveness

bp = Blueprint("standings", __name__)
_streams = itertools.count()   # each stream's number in the hub's record of frames written (hub/tail.py)


def _hub():
    return current_app.extensions["party.hub"]


def board_states(hub, config) -> dict[str, str]:
    view = boards_view(hub.boards, table_numbers(hub.state), time.time(), config["BOARD_SILENT_SECONDS"])
    return liveness(view)


class BoardsLook:
    """The tables' board states, looked at once a check for every stream: twenty screens each
    looking at 200 tables' boards every second were a third of the streams' CPU at an
    ordinary pace (py-spy, session 15), and said the same."""

    def __init__(self):
        self._lock = threading.Lock()
        self._at, self._states = float("-inf"), {}

    def states(self, hub, config, fresh: bool = False) -> dict[str, str]:
        """As of at most a check ago; `fresh`: as of now (a screen that has none yet)."""
        with self._lock:
            if fresh or time.monotonic() - self._at >= config["BOARD_CHECK_SECONDS"]:
                self._at, self._states = time.monotonic(), board_states(hub, config)
            return self._states


def _sse(kind: str, data: str, seq: int | None = None) -> str:
    head = f"id: {seq}\n" if seq is not None else ""
    return f"{head}event: {kind}\ndata: {data}\n\n"


@lru_cache(maxsize=4)
def _standings_message(encoded: str, seq: int) -> bytes:
    """The `standings` message of one view, as bytes: made once and written by every stream
    (twenty screens each copying and encoding the same 100 KB at every change, issue 25).
    Keyed by the projection's one string of the view: its hash is computed once."""
    return _sse("standings", encoded, seq).encode()


@lru_cache(maxsize=16)
def _change_message(encoded: str, seq: int) -> bytes:
    """The `change` message taking a screen to the view of `seq`: made once, as the whole's."""
    return _sse("change", encoded, seq).encode()


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
    hub, screen = _hub(), current_app.extensions["party.projection"]
    config = current_app.config
    look = current_app.extensions.setdefault("party.boards-look", BoardsLook())
    ping, check = config["SSE_PING_SECONDS"], config["BOARD_CHECK_SECONDS"]
    last = request.headers.get("Last-Event-ID", type=int)

    def events():
        me = next(_streams)
        seen, seen_boards = None, None
        quiet_since, looked = time.monotonic(), float("-inf")
        yield "retry: 1000\n\n"  # reconnect within a second after a drop
        told = last is None   # the view a reconnecting screen holds is looked up once
        while True:
            seq, data, encoded = screen.latest()
            if not told:
                told, seen = True, screen.kept(last)   # caught up already where it is this view
            if (seq, data["hidden"]) != seen:
                change = screen.change(seen, (seq, data["hidden"])) if seen else None
                seen = (seq, data["hidden"])
                quiet_since = time.monotonic()
                yield _change_message(change, seq) if change else _standings_message(encoded, seq)
                hub.tail.framed(seq, time.monotonic(), me)   # resumed once the server has written it
            # once a check, not at each standings change: 20 screens looking at 200 tables'
            # boards at every change took more of the hub's CPU than its writer (issue 25)
            if time.monotonic() - looked >= check:
                looked = time.monotonic()
                boards = look.states(hub, config, fresh=seen_boards is None)
                if boards is not seen_boards and boards != seen_boards:
                    seen_boards = boards
                    yield _sse("boards", json.dumps(boards, separators=(",", ":")))
            if time.monotonic() - quiet_since >= ping:
                quiet_since = time.monotonic()
                yield ": ping\n\n"
            screen.wait_past((seq, data["hidden"]), check)

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
