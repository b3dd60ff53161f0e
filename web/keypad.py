"""A phone as a table's keypad: for a table whose board failed mid-party.

The phone speaks the table protocol (docs/protocol.md): its page builds exactly
the envelope a board would publish — an event id `<phone>.<boot>.<seq>` unique
per phone and kept across reloads, the table, the kind, the body — and keeps it
in an outbox until the hub's ack arrives, resending meanwhile. The POST is
parsed by the hub's own `protocol.parse_event` for the table of its URL and
submitted to the hub's single writer, so it meets the same validation, the same
idempotency by id and the same journal as a board's MQTT event; the reply is the
ack a board would receive. What to key next comes from the table's retained
screen, streamed over SSE.

A phone is bound to its table by the token in its URL (on the table marker's QR
code): a token for table 3 opens nothing at table 4, and an envelope naming
another table than the URL's is refused as `WRONG TABLE`, as on MQTT.
"""
from __future__ import annotations

import json
import time

from flask import Blueprint, Response, abort, current_app, render_template, request

from hub import protocol

from . import security
from .pages import console as console_page, keypad as keypad_page

bp = Blueprint("keypad", __name__, url_prefix="/keypad")


def _hub():
    return current_app.extensions["party.hub"]


def _table_or_404(table: int, token: str) -> None:
    if not security.keypad_table(table, token) or table not in console_page.table_numbers(_hub().state):
        abort(404, description="This keypad link is not for a table of this party.")


@bp.get("/<int:table>/<token>")
def page(table: int, token: str):
    _table_or_404(table, token)
    return render_template("keypad.html", table=table,
                           resend_ms=int(current_app.config["KEYPAD_RESEND_SECONDS"] * 1000))


@bp.get("/<int:table>/<token>/stream")
def stream(table: int, token: str):
    """The table's screen (what a board would read from its retained topic), id = journal seq."""
    _table_or_404(table, token)
    hub, ping = _hub(), current_app.config["SSE_PING_SECONDS"]

    def events():
        sent = None
        yield "retry: 1000\n\n"
        while True:
            seq = hub.seq
            screen = keypad_page.screen(hub.state, table)
            if screen != sent:
                sent = screen
                yield f"id: {seq}\nevent: screen\ndata: {json.dumps({'v': 1, 'seq': seq, 'table': table, **screen})}\n\n"
            wait_for_journal(hub, seq, ping)
            if hub.seq == seq:
                yield ": ping\n\n"

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.post("/<int:table>/<token>/event")
def event(table: int, token: str):
    _table_or_404(table, token)
    payload = request.get_data(cache=False)
    try:
        proposal = protocol.parse_event(table, payload)
    except protocol.Refusal as r:
        return _ack(r.event_id or "", why=r.why)
    verdict = _hub().submit(proposal)
    if not verdict.ok:
        return _ack(proposal.id, why=verdict.why)
    row = _hub().receipt(proposal.id)   # its receipt, as a board's ack carries it
    return _ack(proposal.id, seq=row and row[0], seal=row and row[1], msg=verdict.msg)


def _ack(event_id: str, **fields) -> Response:
    return Response(protocol.ack(event_id, **fields), mimetype="application/json")


def wait_for_journal(hub, seq: int, timeout: float) -> None:
    """Until the journal passes `seq` or `timeout` is over.

    The hub's wait returns at once while it is stopping; sleeping out the rest
    keeps a stream open at that moment from spinning.
    """
    start = time.monotonic()
    if hub.wait_for_change(seq, timeout) == seq:
        time.sleep(max(0.0, timeout - (time.monotonic() - start)))
