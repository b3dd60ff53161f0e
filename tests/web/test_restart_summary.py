"""What the console says after the hub started again on its journal (web/restart.py,
console/restart.html; hub/runs.py notes each run). Issue 23: "After any restart the
console shows, once, what happened: when the hub stopped and started again, that
nothing acknowledged was lost, which boards have not come back, and anything to redo."
"""
from __future__ import annotations

import json
import re
import time

import pytest

from hub.runs import Run
from hub.service import Hub
from web import create_app

from .conftest import csrf_of, make_party, sign_in

pytestmark = pytest.mark.broker


def a_run_before(journal, seq: int, boards: dict[str, str], in_order: bool) -> None:
    """A hub ran on `journal` before this one, as it left its note (hub/runs.py): `seq` events
    and these boards online when last alive, a minute ago; stopped then, or killed."""
    now = time.time()
    run = Run(now - 3600, now - 60, seq, ("127.0.0.1", 1883), boards, now - 60 if in_order else None)
    journal.with_name(journal.name + ".runs.json").write_text(json.dumps({"runs": [run.written()]}))


@pytest.fixture
def restarted(broker, tmp_path, room):
    """A party of two tables whose hub was killed: boards sim-1 at table 1 and sim-2 at table 2
    were online; table 1's board comes back."""
    journal = tmp_path / "journal.sqlite3"
    first = Hub(journal, broker.host, broker.port).start()
    assert first.listening.wait(10)
    make_party(first, 2)
    seq = first.seq
    first.stop()
    a_run_before(journal, seq, {"1": "sim-1", "2": "sim-2"}, in_order=False)
    hub = Hub(journal, broker.host, broker.port).start()
    assert hub.listening.wait(10)
    room(1)   # table 1's board, sim-1, back
    app = create_app(hub, TESTING=True, WEB_STORE=tmp_path / "web.json")
    yield hub, app.test_client()
    hub.stop()


def text(html: str, id_: str) -> str:
    found = re.search(rf'<li id="{id_}"[^>]*>(.*?)</li>', html, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split()) if found else ""


def test_after_a_kill_the_console_says_when_what_was_kept_and_which_board_is_not_back(restarted):
    hub, client = restarted
    sign_in(client)
    deadline = time.monotonic() + 10
    while hub.boards.get(1) is None or hub.boards[1].state != "online":
        assert time.monotonic() < deadline, "table 1's board never came back"
        time.sleep(0.05)
    html = client.get("/console/tables").get_data(as_text=True)
    assert "The hub started again at" in html
    assert "stopped without a goodbye (a crash, a power cut or a kill)" in text(html, "restart-stop")
    assert text(html, "restart-journal").startswith("Nothing acknowledged was lost")
    assert "Not back yet (1 of the 2 online before): Table 2 (board sim-2, not heard from since)." in \
        text(html, "restart-boards")
    assert text(html, "restart-redo").startswith("Nothing to redo")

    # a page open across the restart gets it from hub.json, with the run's start
    state = client.get("/console/hub.json").get_json()
    assert state["started"] == hub.runs.started and 'id="restart"' in state["restart"]

    # read: "Understood", and no page says it again in this browser
    r = client.post("/console/restart/seen", data={"csrf_token": csrf_of(html), "next": "/console/tables"})
    assert r.status_code == 302 and r.headers["Location"].endswith("/console/tables")
    assert 'id="restart"' not in client.get("/console/").get_data(as_text=True)
    assert client.get("/console/hub.json").get_json()["restart"] is None


def test_a_journal_older_than_what_the_hub_had_noted_is_said_in_red(broker, tmp_path):
    journal = tmp_path / "journal.sqlite3"
    a_run_before(journal, 40, {}, in_order=True)   # the hub had 40 events; this file has none
    hub = Hub(journal, broker.host, broker.port).start()
    try:
        client = sign_in(create_app(hub, TESTING=True, WEB_STORE=tmp_path / "web.json").test_client())
        html = client.get("/console/").get_data(as_text=True)
        assert '<section id="restart" class="flash restart older" role="alert"' in html
        assert "stopped in order at" in text(html, "restart-stop")
        assert "The journal holds 0 events, but the hub had noted 40 before it stopped" in text(html, "restart-journal")
        assert text(html, "restart-boards") == "No board was online before it stopped."
    finally:
        hub.stop()


def test_the_first_run_on_a_journal_says_nothing_of_a_restart(console):
    assert 'id="restart"' not in console.get("/console/").get_data(as_text=True)
    assert console.get("/console/hub.json").get_json()["restart"] is None
