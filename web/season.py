"""The club's season on the projector between parties and in the console (docs/season.md):
standings by the season's rule, ratings, each member's nights and a chart of his rating,
printable, and as CSV. Read-only but for the console's links of tonight's guests to the
roster. The season is the club's file (`party run --club FILE`, the app's CLUB; SEASON
names the season shown, else the club's last), folded from its journals by season/."""
from __future__ import annotations

import csv
import io
import threading
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for

from hub.journal import JournalDamaged
from season import club as c
from season import files
from season import roster as r
from season.ratings import rate, rated
from season.report import season_csv, season_json

from . import guest_list
from .console import page_globals as console_globals
from .season_chart import rating_chart
from .security import login_required

bp = Blueprint("season", __name__)
# The last report made, by what it was made from (the club's file as it reads, the season,
# each journal's last seq): the ratings of a long season take seconds (docs/performance.md,
# section 10), and a projector and consoles ask for the same season again and again.
_made: dict = {}
# the console's pages: under the console's header, with what its pages are given (the login,
# the hub's state line, the replica's lag)
console_bp = Blueprint("season_console", __name__, url_prefix="/console/season")
console_bp.context_processor(console_globals)
_writing = threading.Lock()   # the console's links: one write of the club's file at a time


def _club_file() -> Path | None:
    path = current_app.config.get("CLUB")
    return Path(path) if path else None


def _season_name(club: c.Club) -> str | None:
    name = request.args.get("season") or current_app.config.get("SEASON")
    return name or (club.seasons[-1].name if club.seasons else None)


def _report() -> tuple[dict | None, str | None]:
    """(the season's report, None) or (None, why there is none, in the host's words)."""
    path = _club_file()
    if path is None:
        return None, "No club's record here: start the hub with party run --club FILE (docs/season.md)."
    club = files.load(path)
    name = _season_name(club)
    if name is None:
        return None, f"The club's record {path} has no season yet: party season add NAME JOURNAL..."
    try:
        state = files.season_state(path, club, name)
        key = (path.read_bytes(), name, state)
        last = _made.get("last")
        if last is None or last[0] != key:   # one tuple: a thread reads a key with its report
            nights = files.season_nights(path, club, name)
            ratings = _ratings(club.roster, club.season(name).rules.ratings, nights, state)
            last = _made["last"] = (key, season_json(club, name, nights, ratings))
        return last[1], None
    except (FileNotFoundError, JournalDamaged, r.RosterError) as e:
        return None, str(e)


def _ratings(roster, model: str, nights: list, state: tuple):
    """The season's ratings, the nights before the last rated once and kept (by what they
    depend on: the model, the roster's merges, those nights' journals and links), so a party
    under way is rated on from them at each look rather than the whole season again."""
    before = (model, roster.merged, tuple((n.party, at, tuple(sorted(links.items())))
                                          for (n, links), at in zip(nights[:-1], state[:-1])))
    kept = _made.get("before")
    if kept is None or kept[0] != before:
        kept = _made["before"] = (before, rated(model, roster, nights[:-1]))
    return rate(model, roster, nights[-1:], start=kept[1])


def _chart(doc: dict, members: list[dict], *, ink: str, band: bool = False, width: int = 640, height: int = 300):
    parties = [p["name"] for p in doc["parties"]]
    return rating_chart(parties, [{"name": m["name"], "history": m["history"]} for m in members],
                        ink=ink, band=band, width=width, height=height)


def _top_rated(doc: dict, n: int = 8) -> list[dict]:
    by_number = {m["number"]: m for m in doc["standings"]}
    return [by_number[x["number"]] for x in doc["ratings"][:n] if x["number"] in by_number]


def _member(doc: dict, number: int) -> dict:
    m = next((m for m in doc["standings"] if m["number"] == number), None)
    if m is None:
        abort(404, description=f"Member {number} played no party of season {doc['season']}.")
    return m


# ----- the projector's pages (public, as the standings are) ---------------------------------
@bp.get("/season/")
def page():
    doc, why = _report()
    return render_template("season/page.html", doc=doc, why=why,
                           chart=doc and _chart(doc, _top_rated(doc), ink="#fff", width=760, height=380))


@bp.get("/season/member/<int:number>")
def member(number: int):
    return _member_page("season/member.html", number, ink="#fff", width=640)


def _member_page(template: str, number: int, *, ink: str, width: int):
    """A member's nights and his rating over the season (a 404 saying why where there is none)."""
    doc, why = _report()
    if doc is None:
        abort(404, description=why)
    m = _member(doc, number)
    return render_template(template, doc=doc, m=m, chart=_chart(doc, [m], ink=ink, band=True, width=width, height=340))


@console_bp.get("/season.csv")
@login_required
def export():
    doc, why = _report()
    if doc is None:
        abort(404, description=why)
    name = "".join(ch if ch.isalnum() else "-" for ch in doc["season"])
    return Response(season_csv(doc), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="season-{name}.csv"'})


# ----- the console's pages ----------------------------------------------------------------
@console_bp.get("", endpoint="page")
@login_required
def console_page():
    doc, why = _report()
    return render_template("season/console.html", doc=doc, why=why, tonight=_tonight(),
                           chart=doc and _chart(doc, _top_rated(doc), ink="#111", width=900, height=340))


@console_bp.get("/member/<int:number>", endpoint="member")
@login_required
def console_member(number: int):
    return _member_page("season/console_member.html", number, ink="#111", width=900)


def _tonight() -> dict | None:
    """Tonight's guests against the roster: each one linked, sure, near (the members whose
    names are close) or new; None without a club's record."""
    path = _club_file()
    if path is None:
        return None
    club, hub = files.load(path), current_app.extensions["party.hub"]
    journal = files.named(path, hub.journal.path)
    party = next((p for p in club.parties if p.journal == journal), None)
    linked = party.linked if party else {}
    name = _season_name(club)
    season = next((s for s in club.seasons if s.name == name), None)
    rows = []
    for guest in hub.state.guests:
        m = r.match(club.roster, guest)
        number = linked.get(guest)
        rows.append({"guest": guest, "linked": number,
                     "linked_name": club.roster.member(number).name if number else None,
                     "sure": m.number and (m.number, club.roster.member(m.number).name), "near": [(n, club.roster.member(n).name) for n in m.near]})
    return {"party": party.name if party else Path(hub.journal.path).stem, "rows": rows,
            "in_season": bool(party and season and party.name in season.parties),
            "season": season.name if season else None}


def _tonights(club: c.Club, hub) -> tuple[c.Club, str]:
    """The club's record with tonight's party in it (entered at its first link), and its name."""
    journal = files.named(_club_file(), hub.journal.path)
    party = next((p for p in club.parties if p.journal == journal), None)
    if party is None:
        club = c.add_journal(club, Path(hub.journal.path).stem, journal)
        party = club.parties[-1]
    return club, party.name


def _in_season(club: c.Club, party: str) -> c.Club:
    """Tonight's party in the season shown, at its end, if not there yet."""
    name = _season_name(club)
    if name and any(s.name == name for s in club.seasons) and party not in club.season(name).parties:
        season = club.season(name)
        club = c.set_season(club, name, season.parties + (party,), season.rules)
    return club


@console_bp.post("/link")
@login_required
def link():
    """The host's word on tonight's guests: one linked to a member (a number), or added to
    the roster as a new member ('new'); or every sure match at once ('sure'). Tonight's party
    is entered in the club's record (and in the season shown) at its first link."""
    path = _club_file()
    if path is None:
        abort(404, description="No club's record here: start the hub with party run --club FILE.")
    hub = current_app.extensions["party.hub"]
    guest, what = request.form.get("guest", ""), request.form.get("member", "")
    with _writing:
        club = files.load(path)
        try:
            club, name = _tonights(club, hub)
            party = club.party(name)
            if what == "sure":
                done = 0
                for g in hub.state.guests:
                    m = r.match(club.roster, g)
                    if m.number is not None and g not in party.linked:
                        club, done = c.link(club, party.name, g, m.number), done + 1
                said = f"{done} guests linked to the members the roster is sure of"
            else:
                if guest not in hub.state.guests:
                    raise r.RosterError(f"no guest {guest!r} on tonight's list")
                if what != "new" and not what.isdigit():
                    raise r.RosterError(f"a member number or 'new', not {what!r}")
                club = c.link(club, party.name, guest, None if what == "new" else int(what))
                n = club.party(party.name).linked[guest]
                said = f"{guest} is member {n}, {club.roster.member(n).name}"
            club = _in_season(club, party.name)
        except r.RosterError as e:
            flash(f"Link: refused — {e}", "refused")
            return redirect(url_for("season_console.page"))
        files.save(path, club)
    flash(f"Link: done — {said}", "ok")
    return redirect(url_for("season_console.page"))


MEMBER_HEADERS = ("member", "member number", "member no", "member no.", "member #", "membership number",
                  "membership", "club number", "number", "no", "no.", "#")


def member_numbers(data: bytes) -> tuple[list[tuple[int, str, str]], str | None]:
    """A guest list file's (line, name, member number as written) where it has a column of
    member numbers (its header names one: MEMBER_HEADERS); else ([], why not)."""
    text, _ = guest_list.decode(data)
    rows = [r for r in csv.reader(io.StringIO(text), delimiter=guest_list.sniff(text))]
    numbered = [(i, r) for i, r in enumerate(rows, start=1) if any(c.strip() for c in r)]
    if not numbered:
        return [], "the file is empty"
    header = [" ".join(c.split()).casefold() for c in numbered[0][1]]
    names = guest_list.name_columns(numbered[0][1])
    number = next((i for i, c in enumerate(header) if c in MEMBER_HEADERS), None)
    if names is None or number is None:
        return [], "its first row names no name column and member-number column (Name, Member number)"
    return [(line, " ".join(" ".join(r[c] for c in names if c < len(r)).split()),
             r[number].strip() if number < len(r) else "") for line, r in numbered[1:]], None


@console_bp.post("/numbers")
@login_required
def numbers():
    """Tonight's guests linked by the member numbers their guest list file has: each row's
    guest (on tonight's list) to its member number (on the roster); a row that cannot be
    said in words where the host is, and nothing linked of it."""
    path = _club_file()
    if path is None:
        abort(404, description="No club's record here: start the hub with party run --club FILE.")
    upload = request.files.get("file")
    rows, why = member_numbers(upload.read() if upload else b"")
    if why:
        flash(f"Link by member numbers: refused — {why}", "refused")
        return redirect(url_for("season_console.page"))
    hub = current_app.extensions["party.hub"]
    done, said = 0, []
    with _writing:
        club = files.load(path)
        club, party = _tonights(club, hub)
        for line, guest, number in rows:
            if not number:
                continue
            if guest not in hub.state.guests:
                said.append(f"line {line}: {guest!r} is not on tonight's list")
            elif not number.isdigit() or int(number) not in club.roster.numbers():
                said.append(f"line {line}: no member number {number!r}")
            else:
                club, done = c.link(club, party, guest, int(number)), done + 1
        club = _in_season(club, party)
        files.save(path, club)
    flash(f"Link by member numbers: done — {done} guests linked", "ok")
    if said:
        flash("Not linked: " + "; ".join(said), "refused")
    return redirect(url_for("season_console.page"))
