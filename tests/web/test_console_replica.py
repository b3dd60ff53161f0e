"""The console shows how far the journal's replica holds the party, and warns on every
console page when it cannot be trusted (issue 14; docs/takeover.md)."""
import re
import time
from pathlib import Path

import pytest

from hub.conductor import events as ev
from hub.gap import read_unreplicated
from hub.journal import Journal
from hub.replica import replica_url, restore
from hub.service import Hub
from hardware.sim.protocol_table import ProtocolTable
from web import create_app
from web.server import WebServer

from .conftest import csrf_of, make_party, sign_in, submit
from .test_console_browser import sign_in_page

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "img"

pytestmark = pytest.mark.broker


@pytest.fixture
def hub(broker, tmp_path):
    h = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port, replica=str(tmp_path / "usb-stick"),
            replica_sync_s=0.2)
    h.replica.probe_s = 0.3
    h.start()
    yield h
    h.stop()


def replica_line(console, page="/console/") -> str:
    html = console.get(page).get_data(as_text=True)
    return " ".join(re.search(r'<div id="replica".*?</div>', html, re.S).group(0).split())


def replicated(hub) -> None:
    """Until the replica holds the whole journal."""
    deadline = time.monotonic() + 20
    while hub.replica.position != hub.seq:
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_the_console_shows_the_replica_up_to_date_then_warns_when_it_stops(hub, tmp_path):
    app = create_app(hub, TESTING=True, WEB_STORE=tmp_path / "web.json")
    console = sign_in(app.test_client())
    make_party(hub, tables=2)
    replicated(hub)
    line = replica_line(console)
    assert f"holds the journal up to event {hub.seq}; up to date" in line and 'role="status"' in line

    hub.replica._proc.kill()  # Litestream gone: the journal is no longer copied anywhere
    hub.replica._proc.wait()
    for page in ("/console/", "/console/tables"):
        line = replica_line(console, page)
        assert 'role="alert"' in line and "litestream stopped" in line, line
    # The tables page, which refreshes itself, gets the same line every two seconds.
    assert "litestream stopped" in console.get("/console/tables.json").get_json()["replica"]


def test_the_tables_page_shows_the_replica_fall_behind_without_a_reload(hub, server, page, tmp_path):
    make_party(hub, tables=2)
    replicated(hub)
    sign_in_page(page, server.url)
    page.goto(server.url + "console/tables")
    assert "up to date" in page.locator("#replica").inner_text()
    hub.replica._proc.kill()  # the share hangs up: nothing more is copied
    hub.replica._proc.wait()
    page.wait_for_selector("#replica[role=alert]", timeout=10_000)  # the page's own refresh
    assert "litestream stopped" in page.locator("#replica").inner_text()


@pytest.fixture
def standby(hub, broker, tmp_path):
    """The hub's machine runs a party with its replica; Litestream stalls (the share hangs)
    and two guests are listed at the door; the machine is lost; a standby takes over
    (`party takeover`'s steps) on the same broker."""
    make_party(hub, tables=2, start=False)
    replicated(hub)
    hub.replica._proc.kill()
    hub.replica._proc.wait()
    # a table's entry acknowledged, its board lost with the hub: a seq nobody sends back,
    # so the staff actions after it are the conductor's to redo or discard (hub/rebuild.py)
    board = ProtocolTable(broker.host, broker.port, 1, ack_bells=False)
    assert board.ack_for(board.send("call", {}))["ok"] is True
    board.close()
    submit(hub, ev.GUEST_LISTED, {"guest": "Late Lottie"})
    submit(hub, ev.GUEST_LISTED, {"guest": "Wrong Walter"})
    hub.stop()  # the machine is gone (its retained list of staff actions stays on the broker)

    journal = tmp_path / "standby" / "journal.sqlite3"
    restored = restore(replica_url(str(tmp_path / "usb-stick")), journal)
    j = Journal(journal)
    j.mark_restored(time.time())
    j.close()
    h = Hub(journal, broker.host, broker.port, replica=str(tmp_path / "usb-stick"))
    h.REBUILD_S = 2.0   # the tables' boards say nothing: the rebuild ends by its time
    h.start()
    assert h.seq == restored and "Late Lottie" not in guests(h)
    deadline = time.monotonic() + 20
    while h.replication.rebuilding():
        assert time.monotonic() < deadline, "the rebuild never ended"
        time.sleep(0.1)
    assert h.replication.holes() == [(restored + 1, restored + 1)] and "Late Lottie" not in guests(h)
    yield h
    h.stop()


def test_staff_actions_the_replica_lacked_are_shown_after_a_takeover_to_redo_or_discard(standby, broker, tmp_path):
    console = sign_in(create_app(standby, TESTING=True, WEB_STORE=tmp_path / "web2.json").test_client())
    html = console.get("/console/guests").get_data(as_text=True)
    section = re.search(r'<section id="gap".*?</section>', html, re.S).group(0)
    assert "Not in the replica: redo or discard" in section and 'role="alert"' in section
    assert "Late Lottie" in section and "Wrong Walter" in section
    (first, _), = standby.replication.holes()   # and the seq nobody sent back, said by seq
    holes = re.search(r'<section id="holes".*?</section>', html, re.S).group(0)
    assert "Sent back by no board" in holes and f"the lost hub's event {first}." in holes

    lottie, walter = (a["id"] for a in standby.staff_gap.waiting())
    csrf = csrf_of(html)
    r = console.post(f"/console/gap/{lottie}/redo", data={"csrf_token": csrf, "next": "/console/guests"})
    assert r.status_code == 302
    console.post(f"/console/gap/{walter}/discard", data={"csrf_token": csrf, "next": "/console/guests"})
    html = console.get("/console/guests").get_data(as_text=True)
    assert '<section id="gap"' not in html
    assert "Late Lottie" in guests(standby) and "Wrong Walter" not in guests(standby)
    # Redone with its own id: one id for the action, before and after the loss.
    assert standby.journal.find(lottie) is not None
    # The discarded one leaves the broker's list (published as the console says so): a
    # standby after this one will not ask again.
    deadline = time.monotonic() + 10
    while walter in {a["id"] for a in read_unreplicated(broker.host, broker.port)}:
        assert time.monotonic() < deadline, "the discarded action is still on the broker"


def test_the_conductor_redoes_and_discards_in_the_browser(standby, page, tmp_path):
    server = WebServer(create_app(standby, WEB_STORE=tmp_path / "web3.json")).start()
    try:
        sign_in_page(page, server.url)
        gap = page.locator("#gap")
        assert "Not in the replica: redo or discard" in gap.inner_text()
        page.screenshot(path=str(SHOTS / "console-not-in-the-replica.png"), full_page=True)
        gap.locator("tr", has_text="Late Lottie").locator("button", has_text="Redo").click()
        page.wait_for_selector(".flash.ok")
        assert "done" in page.locator(".flash.ok").inner_text()
        page.locator("#gap tr", has_text="Wrong Walter").locator("button", has_text="Discard").click()
        page.wait_for_selector(".flash.ok")
        assert page.locator("#gap").count() == 0
        assert "Late Lottie" in guests(standby) and "Wrong Walter" not in guests(standby)
    finally:
        server.stop()


def guests(hub) -> set[str]:
    return set(hub.state.guests)
