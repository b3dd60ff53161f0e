"""The door at a thousand guests, in Chromium: the Guests page's load and each check-in.

    python bench/door_bench.py [--guests 1000] [--check-ins 200] [--loads 5]

A hub and its web app run in a child process, as `party run` runs them. This process
drives Debian's Chromium (Playwright, /usr/bin/chromium) as a host does: sets up the
console, imports a guest list of `--guests` names through the console's own import (a CSV
looked over, then added), loads the Guests page `--loads` times, then checks in
`--check-ins` guests chosen at random, each found as a host finds it: "Find a guest"
filled with the name, the guest's row awaited, its "Check in" clicked.

Printed: the page's load time (navigation start to the load event) and its HTML's size;
the find (name typed to the guest's row shown) and the check-in (the click to the guest's
row showing ✔, timed in the page: the click's own timestamp to the mutation that changed
the row), median, p95 and max. Targets (issue 23): load < 0.5 s, check-in median < 0.2 s,
p95 < 0.5 s.
"""
from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
LOGIN, PASSWORD = "florence", "dayton-street-61"
FIRST = ["Ada", "Alma", "Amos", "Anna", "Bert", "Bess", "Carl", "Cora", "Dora", "Earl", "Edna", "Elsa", "Emil",
         "Ezra", "Fay", "Floyd", "Gus", "Hattie", "Hugo", "Ida", "Ira", "Iva", "Jake", "Jennie", "Karl", "Lena",
         "Lottie", "Mabel", "Milo", "Nell", "Otto", "Pearl", "Rex", "Rosa", "Silas", "Tess", "Vern", "Viola",
         "Walt", "Zelda"]
LAST = ["Abbott", "Baker", "Carver", "Dalton", "Eaton", "Fisher", "Grimm", "Hale", "Irving", "Jewett", "Keller",
        "Lowell", "Mercer", "Nash", "Osborn", "Pruitt", "Quimby", "Rhodes", "Sayer", "Thorne", "Upton", "Vance",
        "Weller", "Yates", "Ziegler", "Ambler", "Bristow", "Colby", "Drummond", "Ellery", "Fenwick", "Gilder",
        "Hollis", "Ingram", "Judd", "Kimball", "Lathrop", "Munroe", "Norwood", "Pell"]

# Set up in the page before a click: resolves with the milliseconds from the click (its own
# event timestamp) to the mutation that shows the guest's row checked in.
WATCH = """name => { window.__checked = new Promise(resolve => {
  let clicked = null;
  const rows = document.getElementById("guest-rows");
  const done = () => [...rows.rows].some(r => r.dataset.guest === name && !r.querySelector("form[data-action=check-in]"));
  document.addEventListener("click", e => { clicked = e.timeStamp; }, { capture: true, once: true });
  new MutationObserver((_, obs) => {
    if (clicked !== null && done()) { obs.disconnect(); resolve(performance.now() - clicked); }
  }).observe(rows.parentNode, { childList: true, subtree: true });
}); }"""


def names(n: int) -> list[str]:
    """`n` different guests' names, the same at every run."""
    every = [f"{f} {last}" for last in LAST for f in FIRST]
    if n > len(every):
        every += [f"{name} {k}" for k in range(2, n // len(every) + 2) for name in every]
    return random.Random(1896).sample(every, n)


def run_hub(broker_port: int, tables: int, ready, stop) -> None:
    """The child: hub + web app, a party created with no guests yet."""
    import logging
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    import uuid

    from hub.conductor import events as ev
    from hub.event import Proposal
    from hub.service import Hub
    from web import create_app
    from web.server import WebServer

    work = Path(tempfile.mkdtemp(prefix="door-bench-"))
    hub = Hub(work / "journal.sqlite3", "127.0.0.1", broker_port).start()
    verdict = hub.submit(Proposal(f"staff.{LOGIN}.{uuid.uuid4().hex[:16]}", f"staff:{LOGIN}", ev.PARTY_CREATED,
                                  {"form": "block", "tables": tables, "seat_check": False}))
    assert verdict.ok, verdict.why
    web = WebServer(create_app(hub, WEB_STORE=work / "web.json")).start()
    ready.send(web.port)
    stop.wait()
    web.stop()
    hub.stop()


def figures(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, round(0.95 * (len(xs) - 1)))]
    return f"median {statistics.median(xs):.3f} s, p95 {p95:.3f} s, max {xs[-1]:.3f} s (n={len(xs)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--guests", type=int, default=1000)
    ap.add_argument("--check-ins", type=int, default=200)
    ap.add_argument("--loads", type=int, default=5)
    args = ap.parse_args()

    from playwright.sync_api import sync_playwright

    from party.broker import best_available

    import os
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs")
    broker = best_available()
    broker.start()
    ready_r, ready_w = mp.Pipe(duplex=False)
    stop = mp.Event()
    child = mp.Process(target=run_hub, args=(broker.port, -(-args.guests // 4), ready_w, stop), daemon=True)
    child.start()
    port = ready_r.recv()
    base = f"http://127.0.0.1:{port}/console/"
    guests = names(args.guests)
    work = Path(tempfile.mkdtemp(prefix="door-bench-list-"))
    (work / "guests.csv").write_text("Name\n" + "\n".join(guests) + "\n")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            page.goto(base + "setup")
            page.fill("input[name=login]", LOGIN)
            page.fill("input[name=password]", PASSWORD)
            page.fill("input[name=password2]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url("**/console/")

            page.goto(base + "guests")
            page.set_input_files("form[data-action=import-guests] input[type=file]", str(work / "guests.csv"))
            page.click("form[data-action=import-guests] button")
            t = time.perf_counter()
            page.click("form[data-action=add-guests] button[type=submit]", timeout=300_000)
            page.wait_for_selector(".flash.ok", timeout=60_000)
            print(f"imported {args.guests} guests through the console in {time.perf_counter() - t:.1f} s: "
                  f"{page.locator('.flash.ok').first.inner_text()}")

            loads, served, ready, size = [], [], [], 0
            for _ in range(args.loads):
                page.goto(base + "guests")
                page.wait_for_load_state("load")
                timing = page.evaluate("""() => { const n = performance.getEntriesByType("navigation")[0];
                    return [n.loadEventEnd - n.startTime, n.responseEnd - n.startTime,
                            n.domContentLoadedEventEnd - n.startTime, n.decodedBodySize]; }""")
                loads.append(timing[0] / 1000)
                served.append(timing[1] / 1000)
                ready.append(timing[2] / 1000)
                size = timing[3]
            print(f"Guests page ({args.guests} listed, {size / 1024:.0f} KiB of HTML), navigation to:")
            print(f"  its HTML received: {figures(served)}")
            print(f"  DOMContentLoaded: {figures(ready)}")
            print(f"  load (styles and scripts too): {figures(loads)}")
            parts = page.evaluate("""() => performance.getEntriesByType("resource").map(
                r => `${r.name.split("/").pop()} ${Math.round(r.startTime)}-${Math.round(r.responseEnd)} ms`)""")
            print(f"  the last load's parts: {', '.join(parts)}")

            finds, checks = [], []
            for name in random.Random(23).sample(guests, args.check_ins):
                t = time.perf_counter()
                page.fill("#find", name)
                button = page.locator(f'#guests tr[data-guest="{name}"] form[data-action=check-in] button')
                button.wait_for()
                finds.append(time.perf_counter() - t)
                page.evaluate(WATCH, name)
                button.click()
                checks.append(page.evaluate("window.__checked") / 1000)
            print(f"find (name typed to its row shown): {figures(finds)}")
            print(f"check-in (click to the row checked in): {figures(checks)}")
            flash = page.locator("#answer .flash").first.inner_text()
            print(f"last answer: {flash!r}; the search kept: {page.input_value('#find')!r}")
            browser.close()
    finally:
        stop.set()
        child.join(20)
        broker.stop()


if __name__ == "__main__":
    main()
