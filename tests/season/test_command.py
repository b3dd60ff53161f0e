"""`party season` as a club's secretary runs it: the journals added (guests linked, the
unknown added, a near match asked and confirmed), the roster's rename and merge, the
season shown (--json: the same bytes twice) and exported as CSV."""
from __future__ import annotations

import csv
import io
import json

import pytest

from party.cli import main

from .club_nights import CAST, P, Q, V, play_night


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    d = tmp_path_factory.mktemp("nights")
    for n in (1, 4, 6):
        play_night(n, d / f"night-{n}.sqlite3")
    return d


def number_of(club: str, name: str) -> int:
    return next(m["number"] for m in json.load(open(club))["members"] if m["name"] == name)


def run(capsys, *argv) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_a_season_from_the_command_line(journals, tmp_path, capsys):
    club = str(tmp_path / "club.json")
    out = run(capsys, "season", "--club", club, "add", "spring", str(journals / "night-1.sqlite3"),
              "--add-guests", "--rule", "placings", "--points", "5,3,2,1")
    assert "night-1: 16 players, 16 linked to members" in out
    ann = number_of(club, CAST[P])
    out = run(capsys, "season", "--club", club, "roster", "rename", str(ann), "Ann Parker")
    assert f"{ann:>5}  Ann Parker (was Ann Lee)" in out
    out = run(capsys, "season", "--club", club, "add", "spring", str(journals / "night-4.sqlite3"),
              str(journals / "night-6.sqlite3"), "--name", "April", "--name", "June")
    # Bertha Howe and Grace Brwn (Grace Brown did not come on night 1): nobody near, not
    # added without --add-guests; Ann Parker found under her new name
    assert "Bertha Howe: not on the roster: party season link April \"Bertha Howe\" new" in out
    assert "Grace Brwn: not on the roster" in out and "Ann Parker" not in out
    with pytest.raises(SystemExit, match="no guest 'Bertha Hove' played at April"):
        main(["season", "--club", club, "link", "April", "Bertha Hove", "new"])
    out = run(capsys, "season", "--club", club, "link", "April", "Bertha Howe", "new")
    howe = int(out.split("is member ")[1].split(":")[0])
    grimm = number_of(club, CAST[Q])
    run(capsys, "season", "--club", club, "roster", "merge", str(grimm), str(howe))

    one = run(capsys, "season", "--club", club, "show", "spring", "--json")
    two = run(capsys, "season", "--club", club, "show", "spring", "--json")
    assert one == two
    doc = json.loads(one)
    assert [p["name"] for p in doc["parties"]] == ["night-1", "April", "June"]
    bertha = next(m for m in doc["standings"] if m["name"] == CAST[Q])
    assert [n["party"] for n in bertha["nights"]] == ["night-1", "April"]   # merged
    ann = next(m for m in doc["standings"] if m["name"] == "Ann Parker")
    assert ann["place"] == 1 and [n["place"] for n in ann["nights"]] == [1, 4, 2]
    # the guests of April and June nobody linked (no --add-guests): listed, in no standing
    unlinked = {u["party"]: u["guests"] for u in doc["unlinked"]}
    assert set(unlinked) == {"April", "June"} and "Grace Brwn" in unlinked["June"]
    assert not {g for gs in unlinked.values() for g in gs} & {m["name"] for m in doc["standings"]}

    text = run(capsys, "season", "--club", club, "show", "spring")
    assert text.startswith("SEASON spring: 3 parties; rule placings") and "RATINGS" in text
    rows = list(csv.reader(io.StringIO(run(capsys, "season", "--club", club, "export", "spring"))))
    assert rows[0][:5] == ["place", "member number", "name", "placings", "nights"]
    assert rows[1][2] == "Ann Parker" and rows[1][5:8] == ["1", "4", "2"]


@pytest.mark.parametrize("command", [[], ["add"], ["show"], ["export"], ["roster"], ["link"]])
def test_every_season_command_answers_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        main(["season", *command, "--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: party season{' ' * bool(command)}{' '.join(command)}")


def test_a_missing_journal_or_season_is_said_in_a_line(tmp_path):
    club = str(tmp_path / "club.json")
    with pytest.raises(SystemExit, match=f"party season: no journal at {tmp_path}/none.sqlite3"):
        main(["season", "--club", club, "add", "spring", str(tmp_path / "none.sqlite3")])
    with pytest.raises(SystemExit, match="no season 'autumn'; the club has: none yet"):
        main(["season", "--club", club, "show", "autumn"])
