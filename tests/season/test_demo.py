"""`party demo --season 6`: six short parties with an overlapping cast, played by the hub's
batch step into six journals, a club's record made of them, and the hub serving the season's
page; the record's season shows from the command line the same."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from party.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_season_demo_serves_the_season_page(tmp_path, capsys):
    demo = subprocess.Popen(
        [sys.executable, "-m", "party.cli", "demo", "--season", "6", "--duration", "5", "--mqtt-port", "0",
         "--http", "127.0.0.1:0", "--journal", str(tmp_path / "demo.sqlite3")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = []
    try:
        url, deadline = None, time.monotonic() + 90
        while url is None and time.monotonic() < deadline:
            line = demo.stdout.readline()
            if not line:
                break
            said.append(line)
            found = re.search(r"party: the season's page: (http://\S+)", line)
            url = found and found.group(1)
        assert url, f"no season page; the demo said {said[-10:]}"
        with urllib.request.urlopen(url, timeout=10) as page:
            html = page.read().decode()
        said += demo.stdout.readlines()
        assert demo.wait(60) == 0, said[-10:]
    finally:
        demo.kill()
        demo.wait()
    assert "<h1>Season demo</h1>" in html and html.count('<th class="n night">') == 6
    assert sum(f"party {i} played: 16 guests of a cast of 24" in "".join(said) for i in range(1, 7)) == 6

    club = tmp_path / "season" / "club.json"
    assert main(["season", "--club", str(club), "show", "demo", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in doc["parties"]] == [f"party {i}" for i in range(1, 7)]
    assert [p["players"] for p in doc["parties"]] == [16] * 6
    # 16 a night of a cast of 24: two nights share 8 guests at least; all 96 places are members'
    assert len(doc["standings"]) <= 24 and sum(len(m["nights"]) for m in doc["standings"]) == 96
    assert not doc["unlinked"]
