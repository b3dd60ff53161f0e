"""The `party` command as a host runs it (README, "Run the demo" and "Running a real
party"): every command answers --help, and `party demo` brings up the broker, the
hub, the standings and virtual tables, stops by itself after --duration, and leaves
a journal that `party replay` prints."""
from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from party.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("command", [["run"], ["demo"], ["replay"], ["firmware", "build"], ["firmware", "deploy"],
                                     ["provision"], ["drill"]])
def test_every_command_answers_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: party {' '.join(command)}")


@pytest.mark.parametrize("typed, said", [
    (["demo", "--tables", "0"], "argument --tables: expected a whole number above 0"),
    (["run", "--journal", "j", "--tables", "-3"], "argument --tables: expected a whole number above 0"),
    (["demo", "--pace", "0"], "argument --pace: expected a number above 0")])
def test_no_tables_or_no_pace_is_refused_where_it_is_typed(typed, said, capsys):
    """Before: `--tables 0` started the hub and stopped with "BAD TABLES"; `--pace -1` played on."""
    with pytest.raises(SystemExit) as done:
        main(typed)
    assert done.value.code == 2 and said in capsys.readouterr().err


@pytest.mark.parametrize("audit", [[], ["--audit"]])
def test_replay_of_a_wrong_file_says_what_is_wrong_in_a_line(audit, tmp_path, capsys):
    """`party replay party.sqlite3` in the wrong folder, or the guest list given instead:
    one line saying so, never a traceback (issue 10's demo: "a host must never see one")."""
    (tmp_path / "guests.csv").write_text("name\nAnn Lee\n")
    missing, csv = tmp_path / "party.sqlite3", tmp_path / "guests.csv"
    for path, said in ((missing, f"party replay: no journal at {missing}"),
                       (csv, f"party replay: {csv} is not a party's journal (file is not a database)")):
        with pytest.raises(SystemExit) as done:
            main(["replay", *audit, str(path)])
        assert done.value.code == said


@pytest.mark.slow
def test_the_demo_serves_the_standings_and_leaves_a_journal_replay_prints(tmp_path, capsys):
    journal = tmp_path / "demo.sqlite3"
    demo = subprocess.Popen(
        [sys.executable, "-m", "party.cli", "demo", "--tables", "2", "--duration", "12", "--mqtt-port", "0",
         "--http", "127.0.0.1:0", "--journal", str(journal)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    said = []
    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = demo.stdout.readline()
            if not line:
                break
            said.append(line)
            found = re.search(r"party: projected standings at (http://\S+)", line)
            url = found and found.group(1)
        assert url, f"no standings address; the demo said {said[-10:]}"
        with urllib.request.urlopen(url, timeout=10) as page:
            assert page.status == 200
        said += demo.stdout.readlines()  # until it stops by itself, --duration after the start
        assert demo.wait(60) == 0, said[-10:]
    finally:
        demo.kill()
        demo.wait()
    out = "".join(said)
    assert "2 virtual tables playing" in out and "party: stopping" in out

    assert main(["replay", str(journal)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("DRAW PARTY, 2 tables")
    assert "Table 1: A " in printed and "Table 2: A " in printed   # the guests the host seated
