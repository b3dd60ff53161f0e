"""`party demo` as the README has it: every party form it lists runs to its prizes, and
nothing in its output is a traceback (issue 10: "the embedded broker prints
`RuntimeError: dictionary changed size during iteration` tracebacks (amqtt) in
most runs"; "`party demo --form muggins` fails with `UNKNOWN FORM`"; "a host must
never see one", tried on a machine whose 1883 or 8080 was taken). Issue 27: "The demo plays
each new party form"; the parties of Muggins and Texas 42 run here with the book's six, keyed
on the boards (the other games' parties: tests/conductor/test_engine_game_parties.py)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from hub.conductor.setup import FORMS
from party.cli import PARTY_FORMS

pytestmark = pytest.mark.slow


def test_the_demo_lists_every_party_form_and_the_scoring_engines_games_one_line_each():
    out = subprocess.run([sys.executable, "-m", "party.cli", "demo", "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert set(PARTY_FORMS) == set(FORMS)
    for name in ("block", "draw", "all-quarters", "sebastopol", "bergen", "tiddle-a-wink", "muggins", "matador",
                 "texas-42", "four-handed-match", "four-handed-skin", "bingo", "fourteen-piece"):
        assert sum(line.split()[:1] == [name] for line in out.splitlines()) == 1, name
    party_forms = out[out.index("party forms (--form):"):out.index("the other games")]
    assert {line.split()[0] for line in party_forms.splitlines()[1:] if line.strip()} == set(FORMS)
    refused = subprocess.run([sys.executable, "-m", "party.cli", "demo", "--form", "bingo"], capture_output=True,
                             text=True)
    assert refused.returncode == 2, refused.stderr
    assert "bingo is a game the scoring engine knows, not a party form (a game for 2" in refused.stderr


# a Mexican Train session is a whole game of thirteen rounds: two sessions (one movement) here
@pytest.mark.parametrize("form", [*list(PARTY_FORMS)[:6], "muggins", "texas-42", "mexican-train"])
def test_the_demo_plays_each_party_form_to_its_prizes_without_a_traceback(form, tmp_path):
    short = ["--sessions", "2"] if form == "mexican-train" else []
    proc = subprocess.Popen([sys.executable, "-m", "party.cli", "demo", "--form", form, "--tables", "2", *short,
                             "--pace", "0.02", "--mqtt-port", "0", "--http", "127.0.0.1:0",
                             "--journal", str(tmp_path / "journal.sqlite3")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: list[str] = []
    over = threading.Event()

    def read():
        for line in proc.stdout:
            lines.append(line)
            if "the party is over" in line:
                over.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        # two 13-round games take a Mexican Train party about 2 minutes at this pace
        assert over.wait(300 if short else 150), "".join(lines[-20:])
        time.sleep(2)   # the prizes' screen and any play-off under way: still no traceback
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
        reader.join(5)
    out = "".join(lines)
    assert proc.returncode == 0, out[-3000:]
    assert "Traceback" not in out and "Error" not in out, out[-3000:]


def _demo(*args: str, tmp_path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "party.cli", "demo", *args, "--tables", "2", "--duration", "2",
                           "--journal", str(tmp_path / "journal.sqlite3")],
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONUNBUFFERED": "1"})


def test_a_port_the_host_named_taken_stops_the_demo_with_what_to_do(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        for args, option in ((["--mqtt-port", str(port), "--http", "127.0.0.1:0"], "--mqtt-port PORT"),
                             (["--mqtt-port", "0", "--http", f"127.0.0.1:{port}"], "--http 127.0.0.1:PORT")):
            done = _demo(*args, tmp_path=tmp_path)
            assert done.returncode == 1, done.stdout + done.stderr
            assert f"127.0.0.1:{port} is taken" in done.stderr and option in done.stderr, done.stderr
            assert "Traceback" not in done.stdout + done.stderr


def test_a_port_taken_under_the_demos_defaults_moves_it_to_a_free_one_and_says_so(tmp_path):
    with socket.socket() as web:
        try:
            web.bind(("127.0.0.1", 8080))
            web.listen()
        except OSError:
            pass   # 8080 taken already, by another party on this machine: the same case
        done = _demo("--mqtt-port", "0", tmp_path=tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "127.0.0.1:8080 is taken (a web server or another party listens there): a free port instead" in out
    assert "projected standings at http://127.0.0.1:" in out and "http://127.0.0.1:8080/" not in out
    assert "Traceback" not in out
