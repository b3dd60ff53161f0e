"""The hub killed under an open console and projector, and started again (issue 23).

Done when: "A test kills the hub under an open console and projector: both say so
within 5 s, a click meanwhile is not lost, both recover after the restart, and the
console shows the restart's summary; `party run` restarted on the same journal with
`--mqtt-port 0` brings the same boards back."

The hub is `party run` itself, a child process killed with SIGKILL (a crash, a power
cut: no goodbye), then run again with the very same command line. The console is
served by that process, so the browser's pages lose their server with it. The boards
are protocol-speaking tables (hardware/sim/protocol_table.py) that reconnect to the
broker address they were given, as a board does: with `--mqtt-port 0` the first run
picks a free port, and only a restart that listens there again gets them back.
"""
from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from hardware.sim.protocol_table import ProtocolTable
from party.broker import free_port

from .conftest import PASSWORD

pytestmark = [pytest.mark.broker]

ROOT = Path(__file__).resolve().parents[2]
IMG = ROOT / "docs" / "img"
SAYS_WITHIN = 5.0    # the bound: the pages say the hub is gone within 5 s
BACK_WITHIN = 30.0   # a board's reconnection, and a page's recovery, after the restart


class PartyRun:
    """`party run` as a host starts it, its lines read as they come."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, "-m", "party.cli", "run", *args], cwd=ROOT,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def said(self, pattern: str, timeout: float = 60.0) -> re.Match:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                found = re.search(pattern, line)
                if found:
                    return found
            assert self.proc.poll() is None, f"party run ended: {self.lines[-10:]}"
            time.sleep(0.05)
        raise AssertionError(f"party run never said {pattern!r}: {self.lines[-10:]}")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)


def within(seconds: float, what: str, test) -> float:
    """How long `test()` took to hold; fails after `seconds`."""
    start = time.monotonic()
    while not test():
        assert time.monotonic() - start < seconds, f"{what}: not within {seconds} s"
        time.sleep(0.05)
    return time.monotonic() - start


@pytest.mark.timeout(240)
def test_the_hub_killed_under_an_open_console_and_projector(chromium, tmp_path):
    journal, http = tmp_path / "party.sqlite3", free_port()
    command = ("--journal", str(journal), "--tables", "2", "--mqtt-port", "0", "--http", f"127.0.0.1:{http}")
    first = PartyRun(*command)
    tables: list[ProtocolTable] = []
    runs = [first]
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        port = int(first.said(r"embedded MQTT broker listening on 127\.0\.0\.1:(\d+)").group(1))
        base = first.said(r"conductor's console at (http://\S+)/console/").group(1) + "/"
        first.said(r"party created: 2 tables")
        tables += [ProtocolTable("127.0.0.1", port, t) for t in (1, 2)]
        for t in tables:   # a board's own loop tries again every second or two
            t.client.reconnect_delay_set(1, 2)

        console, projector = context.new_page(), context.new_page()
        projector.goto(base)
        projector.wait_for_function("document.getElementById('conn').textContent === 'live'")
        console.goto(base + "console/")
        console.wait_for_url("**/console/setup")
        console.fill("input[name=password]", PASSWORD)     # the login is the party's conductor, "host"
        console.fill("input[name=password2]", PASSWORD)
        console.click("button[type=submit]")
        console.wait_for_url("**/console/")
        console.goto(base + "console/tables")
        console.wait_for_function("document.querySelectorAll('#tables tr.online').length === 2")
        console.goto(base + "console/")
        tables_page = context.new_page()   # a second console page, something typed on it
        tables_page.goto(base + "console/tables")
        tables_page.fill("form[data-action=close-table] input[name=why]", "its board fell off")

        # killed: no goodbye, the broker with it (the embedded one runs in the hub's process)
        first.kill()
        banner = console.locator("#hub-state")
        said_console = within(SAYS_WITHIN, "the console saying the hub is gone",
                              lambda: banner.is_visible() and "not answering" in banner.inner_text())
        said_projector = within(SAYS_WITHIN, "the projector saying the hub is gone",
                                lambda: "lost" in projector.locator("#conn").get_attribute("class"))
        within(SAYS_WITHIN, "the tables page saying the hub is gone",
               lambda: "not answering" in tables_page.locator("#hub-state").inner_text())
        projector.screenshot(path=str(IMG / "hub-gone-projector.png"))

        # a click meanwhile: typed, sent, kept (not the browser's error page)
        add = console.locator("form[data-action=add-table]").last
        add.locator("input[name=why]").fill("the Hendersons came after all")
        add.locator("button").click()
        assert "Not sent yet" in add.locator(".waiting").inner_text()
        assert console.url == base + "console/"
        assert add.locator("input[name=why]").input_value() == "the Hendersons came after all"
        console.screenshot(path=str(IMG / "hub-gone-kept.png"))

        second = PartyRun(*command)   # the very same command line: --mqtt-port 0 again
        runs.append(second)
        assert "resuming the party in" in second.said(r"resuming the party in .*").group(0)
        assert int(second.said(r"embedded MQTT broker listening on 127\.0\.0\.1:(\d+)").group(1)) == port

        # the kept click went when the hub was back, recorded once; the console shows the restart
        try:
            within(BACK_WITHIN, "the kept click recorded", lambda: console.locator(".flash.ok").count() > 0)
        except AssertionError as e:
            raise AssertionError(f"{e}; the console shows: {console.locator('main').inner_text()[:600]}") from None
        assert "Add a table: done" in console.locator(".flash.ok").first.inner_text()
        assert console.locator("#restart").count() == 1
        assert " · 3 tables" in console.locator("h1").first.inner_text()
        restart = console.locator("#restart").inner_text()
        assert "stopped without a goodbye" in restart
        assert "Nothing acknowledged was lost" in restart
        # the same boards back, on the port they were given
        def boards_back() -> bool:
            console.reload()
            return "Every board online before is back (2)" in console.locator("#restart-boards").inner_text()
        try:
            within(BACK_WITHIN, "both boards back", boards_back)
        except AssertionError as e:
            raise AssertionError(f"{e}; the console says: {console.locator('#restart-boards').inner_text()}") from None
        console.screenshot(path=str(IMG / "hub-restarted-console.png"), full_page=True)
        # the page with typing kept it, and was told of the restart in place
        tables_page.wait_for_selector("#restart")
        assert "The hub is back" in tables_page.locator("#hub-state").inner_text()
        assert tables_page.input_value("form[data-action=close-table] input[name=why]") == "its board fell off"
        within(BACK_WITHIN, "the projector live again",
               lambda: projector.locator("#conn").inner_text() == "live")
        print(f"said within: console {said_console:.2f} s, projector {said_projector:.2f} s")

        # read once: "Understood", and it is gone from the pages
        console.locator("#restart button").click()
        console.wait_for_load_state()
        assert console.locator("#restart").count() == 0
        console.goto(base + "console/guests")
        assert console.locator("#restart").count() == 0
    finally:
        context.close()
        for t in tables:
            t.close()
        for run in runs:
            run.kill()
