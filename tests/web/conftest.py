"""Fixtures for the screens: a hub on the test's broker, the web app, a party, tables, a browser.

Model: Flask's tutorial (flaskr) — an `app` built by the factory for each test,
its `client`, and helpers that sign in through the real forms (CSRF included).
The party is set up through `hub.submit`, the console's own path to the single
writer; the console's forms are what the console tests exercise.
"""
from __future__ import annotations

import re
import shutil
import uuid

import pytest

from hub.conductor import events as ev
from hub.event import Proposal
from hardware.sim.board import VirtualBoard
from hub.service import Hub
from web import create_app
from web.server import WebServer

from hardware.sim.protocol_table import ProtocolTable

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
CONDUCTOR, PASSWORD = "florence", "dayton-street-61"
FIRST = ["Ann", "Bob", "Cora", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kay", "Lou", "Max", "Nan",
         "Otto", "Pia"]
LAST = ["Lee", "Ray", "Fox", "Poe", "Orr", "Ash", "Ide", "Nye"]


def guest_name(i: int) -> str:
    """128 different names, then numbered."""
    name = f"{FIRST[i % 16]} {LAST[(i // 16 + i) % 8]}"
    return name if i < 128 else f"{name} {i // 128 + 1}"


@pytest.fixture
def hub(broker, tmp_path):
    h = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
    # The tests' protocol tables never resend: an event sent before the hub subscribed is gone.
    assert h.listening.wait(10), "the hub did not subscribe to the tables within 10 s"
    yield h
    h.stop()


@pytest.fixture
def app(hub, tmp_path):
    return create_app(hub, TESTING=True, SSE_PING_SECONDS=0.5, BOARD_CHECK_SECONDS=0.2,
                      BOARD_SILENT_SECONDS=3.0, WEB_STORE=tmp_path / "web.json")


@pytest.fixture
def client(app):
    return app.test_client()


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def action_id_of(html: str, action: str) -> str:
    """The one-time id rendered into the form of `action`."""
    form = re.search(rf'data-action="{re.escape(action)}".*?</form>', html, re.S).group(0)
    return re.search(r'name="action_id" value="([0-9a-f]+)"', form).group(1)


def sign_in(client, login: str = CONDUCTOR, password: str = PASSWORD):
    """Through the real forms: the first visit sets up the conductor, later ones sign in."""
    page = client.get("/console/login", follow_redirects=True)
    html = page.get_data(as_text=True)
    if "password2" in html:
        r = client.post("/console/setup", data={"csrf_token": csrf_of(html), "login": login,
                                                "password": password, "password2": password})
    else:
        r = client.post("/console/login", data={"csrf_token": csrf_of(html), "login": login, "password": password})
    assert r.status_code == 302, r.get_data(as_text=True)
    return client


@pytest.fixture
def console(client):
    """A test client signed in as the conductor."""
    return sign_in(client)


def submit(hub, kind: str, body: dict, login: str = CONDUCTOR):
    verdict = hub.submit(Proposal(f"staff.{login}.{uuid.uuid4().hex[:16]}", f"staff:{login}", kind, body))
    assert verdict.ok, f"{kind} {body}: {verdict.why}"
    return verdict


def make_party(hub, tables: int, form: str = "draw", guests: int | None = None, start: bool = True,
               names: list[str] | None = None, **options):
    """A party under way: created, guests listed and checked in, seats drawn, session 1 started;
    the guests `names`, or as many as `guests` (default: four a table) of `guest_name`'s."""
    submit(hub, ev.PARTY_CREATED, {"form": form, "tables": tables, "seat_check": False, **options})
    names = names or [guest_name(i) for i in range(guests if guests is not None else tables * 4)]
    for name in names:
        submit(hub, ev.GUEST_LISTED, {"guest": name})
        submit(hub, ev.CHECKED_IN, {"guest": name})
    submit(hub, ev.DRAW_SEATS, {"seed": 1896})
    if start:
        submit(hub, ev.SESSION_STARTED, {"session": 1})
    return names


@pytest.fixture
def room(broker):
    """Connect protocol-speaking tables: room(3) -> [ProtocolTable for tables 1..3]; room(1, first=4)."""
    tables: list[ProtocolTable] = []

    def connect(n: int, first: int | None = None, **options) -> list[ProtocolTable]:
        first = first or len(tables) + 1
        new = [ProtocolTable(broker.host, broker.port, t, **options) for t in range(first, first + n)]
        tables.extend(new)
        return new

    yield connect
    for t in tables:
        t.close()


@pytest.fixture
def boards(broker, tmp_path):
    """Virtual tables: the real firmware on the MicroPython unix port (hardware/sim/board.py)."""
    started = []

    def start(*tables: int) -> list[VirtualBoard]:
        for n in tables:
            started.append(VirtualBoard(n, broker.host, broker.port, data_dir=tmp_path / f"board-{n}").start())
        return started[-len(tables):]

    yield start
    for b in started:
        b.stop()


@pytest.fixture
def server(app):
    s = WebServer(app).start()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def chromium():
    if not shutil.which(CHROMIUM):
        pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium): browser tests skipped")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1920, "height": 1080})
    p = context.new_page()
    yield p
    context.close()
