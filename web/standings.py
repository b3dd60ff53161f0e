"""The projected standings: a page for the room's projector, live over SSE.

Every message carries the journal sequence as its SSE id. A screen that loses
its connection reconnects with Last-Event-ID and is sent the current standings
at once if the party has moved on meanwhile; a quiet party gets keep-alive
comments so proxies and browsers keep the stream open.
"""
from __future__ import annotations

import json

from flask import Blueprint, Response, current_app, jsonify, render_template, request

bp = Blueprint("standings", __name__)


def _hub():
    return current_app.extensions["party.hub"]


@bp.get("/")
def page():
    return render_template("standings.html")


@bp.get("/standings.json")
def snapshot():
    seq, data = _hub().standings()
    return jsonify(seq=seq, standings=data)


@bp.get("/stream")
def stream():
    hub = _hub()
    ping = current_app.config["SSE_PING_SECONDS"]
    last = request.headers.get("Last-Event-ID", type=int)

    def events():
        seen = last
        yield "retry: 1000\n\n"  # reconnect within a second after a drop
        while True:
            seq, data = hub.standings()
            if seq != seen:
                seen = seq
                yield f"id: {seq}\nevent: standings\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"
            if hub.wait_for_change(seq, ping) == seq:
                yield ": ping\n\n"

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
