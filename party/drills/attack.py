"""The attack drills: a guest's laptop posting for another table, a client with no
or a wrong password, a board's password copied to a laptop, reading another
table's acks, and the conductor's console used without a login. All refused,
nothing of it journaled, while the real boards play on with their credentials."""
from __future__ import annotations

import http.cookiejar
import json
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from hub import protocol
from party.broker import best_available
from party.provision import hub_settings
from party.replay import read_journal

from .boards import start_boards, stop_boards
from .books import book_party
from .figures import ErrorCounter, Figures, fresh_dir
from .hubs import InProcessHub
from .links import provisioned_broker
from .lockstep import LockstepParty, set_up_party


class _Client:
    """A paho client (MQTT 5); records whether the broker let it in and what it received."""

    def __init__(self, broker, user=None, password=None):
        self.result: list = []
        self.messages: list[str] = []
        self._done = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if user:
            c.username_pw_set(user, password)
        c.on_connect = lambda cl, u, f, rc, p: (self.result.append(rc), self._done.set())
        c.on_message = lambda cl, u, m: self.messages.append(m.topic)
        c.connect(broker.host, broker.port)
        c.loop_start()
        self.client = c

    def accepted(self) -> bool:
        self._done.wait(5)
        return bool(self.result) and not self.result[0].is_failure

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(5)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def _event(table: int, board: str, seq: int) -> bytes:
    return json.dumps({"v": 1, "id": f"{board}.9.{seq}", "table": table, "kind": "call", "body": {}}).encode()


def spoofing(work: Path, *, attempts: int = 200, say=print) -> Figures:
    work = fresh_dir(work)
    fig = Figures("spoofing")
    broker, prov = provisioned_broker(3, work)
    if prov is None:
        broker.stop()
        fig.failures.append("mosquitto / mosquitto_passwd not installed: cannot drill access control")
        return fig
    creds = {n: json.loads((prov / "tables" / f"table-{n}" / "config.json").read_text()) for n in (1, 2, 3)}
    handle = InProcessHub(work / "journal.sqlite3", broker, **hub_settings(prov)).start()
    boards = start_boards(3, lambda n: (broker.host, broker.port), work / "boards", prov)
    party = LockstepParty(handle, boards, seed=5, sessions=1, say=say, games_per_session=2)
    tried = {"other table": 0, "forged board": 0, "anonymous": 0, "wrong password": 0, "read other table": 0}
    through = dict.fromkeys(tried, 0)
    clients = []
    started = time.monotonic()
    try:
        with ErrorCounter() as errors:
            party.set_up()
            laptop = _Client(broker, "table-2", creds[2]["password"])  # table 2's password, copied
            clients.append(laptop)
            if not laptop.accepted():
                fig.failures.append("table 2's own credentials were refused")
            laptop.client.subscribe([(protocol.table_topic(1, "#"), 1), (protocol.table_topic("+", "ack"), 1),
                                     (protocol.table_topic(3, "screen"), 1)])
            seq = handle.hub.seq
            for i in range(attempts):
                laptop.publish(protocol.table_topic(1, "event"), _event(1, "table-1", i))  # as table 1
                tried["other table"] += 1
                laptop.publish(protocol.table_topic(2, "event"), _event(2, "laptop", i))  # its own table, not its board
                tried["forged board"] += 1
            for i in range(max(1, attempts // 20)):
                for user, password, kind in ((None, None, "anonymous"), ("table-1", "guess", "wrong password")):
                    c = _Client(broker, user, password)
                    clients.append(c)
                    tried[kind] += 1
                    if c.accepted():
                        through[kind] += 1
                        c.publish(protocol.table_topic(1, "event"), _event(1, "table-1", 10_000 + i))
            party.play_session()  # the real boards, meanwhile, with their own accounts
            time.sleep(1.0)
            spoofed = [e for e in read_journal(handle.journal)
                       if e.seq > seq and e.source in ("table:1", "table:2") and e.what.board in ("table-1", "laptop")
                       and e.id.split(".")[1] == "9"]
            through["other table"] = sum(e.source == "table:1" for e in spoofed)
            through["forged board"] = sum(e.source == "table:2" for e in spoofed)
            tried["read other table"] = 1
            through["read other table"] = sum(not t.startswith(protocol.table_topic(2, "")) for t in laptop.messages)
        fig.seconds = time.monotonic() - started
        fig.crashes += errors.count
        book_party(fig, party, handle.journal, boards)
        fig.detail = {f"{k} refused": f"{tried[k] - through[k]}/{tried[k]}" for k in tried}
        fig.failures += [f"{k}: {through[k]} of {tried[k]} got through" for k in tried if through[k]]
    finally:
        for c in clients:
            c.close()
        stop_boards(boards)
        handle.stop()
        broker.stop()
    return fig


# ----- the console without a login ------------------------------------------------------------

PUBLIC = {"standings.page", "standings.snapshot", "standings.stream", "static",
          "console.login", "console.setup", "keypad.page", "keypad.stream", "keypad.event",
          "season.page", "season.member"}   # the season's projector pages, public as the standings are


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def console_without_login(work: Path, *, say=print) -> Figures:
    """Every console page and action, asked over HTTP by a browser that is not signed in;
    then that browser guessing the conductor's password."""
    from party.setup import HOST
    from web import create_app
    from web.server import WebServer

    work = fresh_dir(work)
    fig = Figures("console-login")
    broker = best_available().start()
    handle = InProcessHub(work / "journal.sqlite3", broker).start()
    app = create_app(handle.hub, WEB_STORE=work / "web.json")
    web = WebServer(app).start()
    tried = refused = 0
    started = time.monotonic()
    try:
        with ErrorCounter() as errors:
            set_up_party(handle, tables=2, seed=3, sessions=1)
            jar = http.cookiejar.CookieJar()
            follows = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
            browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirect)

            def ask(url: str, data: dict | None = None) -> int:
                body = urllib.parse.urlencode(data).encode() if data is not None else None
                try:
                    return browser.open(web.url.rstrip("/") + url, body, timeout=10).status
                except urllib.error.HTTPError as e:
                    return e.code

            def csrf_token(setting_up: bool = False) -> str:
                html = follows.open(web.url + "console/login", timeout=10).read().decode()
                if ("password2" in html) != setting_up:
                    raise RuntimeError("the console's conductor could not be set up")
                return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)

            # The conductor exists (set up through the real form), then this browser has no session.
            password = "dayton-street-61"
            # The party was created from the command line: its conductor is the host's login.
            ask("/console/setup", {"csrf_token": csrf_token(setting_up=True), "login": HOST,
                                   "password": password, "password2": password})
            jar.clear()
            token = csrf_token()  # a valid CSRF token of a session that is not signed in
            seq = handle.hub.seq
            with app.test_request_context():
                from flask import url_for
                # every argument 1: a number where the route wants one (a table, a member), a
                # name where it wants a name
                routes = [(rule.endpoint, method, url_for(rule.endpoint, **dict.fromkeys(rule.arguments, 1)))
                          for rule in app.url_map.iter_rules() if rule.endpoint not in PUBLIC
                          for method in ("GET", "POST") if method in rule.methods]
            for endpoint, method, url in routes:
                if method == "GET":
                    codes = [ask(url)]
                    ok = codes[0] in (302, 401, 403)
                else:
                    codes = [ask(url, {"meaning": "stop", "why": "drill"}),             # no CSRF token
                             ask(url, {"csrf_token": token, "meaning": "stop", "why": "drill",
                                       "action_id": "0" * 16, "guest": "Ann Lee", "session": "2"})]
                    ok = all(c in (400, 401, 403) for c in codes)
                tried += len(codes)
                refused += len(codes) if ok else sum(c in (302, 400, 401, 403) for c in codes)
                if not ok:
                    fig.failures.append(f"{method} {url} answered {codes} without a login")
            # A laptop guessing the conductor's password: after five wrong tries it is held off
            # (429) without a hash computed, and even the right password waits its turn.
            guesses = [ask("/console/login", {"csrf_token": token, "login": HOST, "password": f"guess-{i}"})
                       for i in range(50)]
            guesses.append(ask("/console/login", {"csrf_token": token, "login": HOST, "password": password}))
            checked, held = guesses.count(200), guesses.count(429)
            tried += len(guesses)
            refused += checked + held
            if checked != 5 or held != len(guesses) - 5:
                fig.failures.append(f"password guesses: {checked} checked, {held} held off, answers {set(guesses)}")
            if handle.hub.seq != seq:
                fig.failures.append(f"{handle.hub.seq - seq} events journaled by requests without a login")
        fig.seconds = time.monotonic() - started
        fig.crashes += errors.count
        fig.entries = tried
        fig.detail = {"requests refused": f"{refused}/{tried}", "journaled": handle.hub.seq - seq,
                      "password guesses": f"{len(guesses)} sent, {checked} checked, {held} held off"}
    finally:
        web.stop()
        handle.stop()
        broker.stop()
    return fig
