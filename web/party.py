"""What the console and the printed pages show, read from the conductor's state.

Plain dicts and lists for templates and JSON; no rule is decided here — the
conductor's state, its questions (hub/conductor/state.py) and its prizes are
asked, and their answers laid out. The plan (invitation and replies) is the one
thing computed here, because it comes before there is a party.
"""
# Why so long: the presenters of every console page in one module, until issue 21's web part
# gives each page its own.
from __future__ import annotations

import csv
import math
import re

from hub import conductor
from hub.conductor import cards as C
from hub.conductor import prizes as P
from hub.conductor import events
from hub.conductor import scoring as K
from hub.conductor import state as S
from hub.conductor.screens import screen as table_screen
from hub.conductor.setup import FORMS, PARTNERSHIP_FORMS, PARTY_FORMS, book_prizes

from hub.conductor.names import control_in, similar
from hub.conductor.on_board import clashes, on_board

from .actions import BadForm, number, text
from .bidi import neutral

LOGIN = re.compile(r"^[a-z0-9-]{1,24}$")
SEATS = C.SEATS

FORM_NAMES = {name: form.title for name, form in PARTY_FORMS.items()}
# what a score-card counts, in the book's words
MEASURE_WORDS = {"sixteenths": "note-values", "quarters": "quarters", "games": "games won",
                 "punch-holes": "punch-holes", "points": "points", "spots": "spots left"}


def table_numbers(state) -> list[int]:
    return sorted(conductor.tables(state))


def screen(state, table: int) -> dict:
    """What the table's board is told to show (its retained screen), for its phone keypad."""
    return table_screen(state, table) if table in conductor.tables(state) else {}


def name_of(state, card: str | None) -> str:
    return state.holders.get(card, "") if card else ""


def place_label(place) -> str:
    return f"Table {place[0]} {place[1]}" if place else ""


# ----- the party at a glance ---------------------------------------------------------------
# the conductor's session phase (hub.conductor.state.session_phase) -> what the console
# offers next; before the draw there is no session, only guests
PHASES = {None: "guests", "seated": "waiting", "playing": "playing", "finishing": "finishing",
          "stopped": "stopped", "ended": "between", "over": "over"}


def phase(state) -> str:
    """setup | guests | waiting | playing | finishing | stopped | between | over."""
    if state.setup is None:
        return "setup"
    s = state.session
    return PHASES[S.session_phase(state, s) if s else None]


def bell_dict(b) -> dict | None:
    if b is None:
        return None
    return {"id": b.id, "meaning": b.meaning, "session": b.session, "by": b.rung.by, "why": b.rung.why,
            "undone": bool(b.undone), "undone_by": b.undone.by if b.undone else "",
            "undone_why": b.undone.why if b.undone else ""}


def overview(hub) -> dict:
    _, standings = hub.standings()
    state = hub.state
    setup, s = state.setup, state.session
    if setup is None:
        return {"created": False, "phase": "setup", "forms": FORMS}
    ph = phase(state)
    return {
        "created": True, "phase": ph, "forms": FORMS,
        "form": setup.form, "form_name": FORM_NAMES.get(setup.form, setup.form),
        "measure": MEASURE_WORDS.get(setup.measure, setup.measure),
        "tables": setup.tables, "sessions": setup.sessions, "games": setup.games_per_session,
        "session": s.number if s else 0,
        "bell_meaning": setup.bell_meaning,
        "started": bool(s and s.started),
        "bell": bell_dict(s.bell) if s else None,
        "missing": (standings.get("session") or {}).get("missing", []),
        "calls": {n: c for n, c in state.calls.items() if c},
        "listed": len(state.guests),
        "checked_in": sum(g.checked_in and g.left is None for g in state.guests.values()),
        "seated": bool(s),

        "final_count": bool(state.final_count),
        "results_missing": results_missing(state) if ph == "over" else [],
        "play_begun": bool(s and (s.started or s.number > 1)),
        "removable_table": S.removable_table(state),
        "changes": [{"what": what, "by": m.by, "why": m.why} for what, m in reversed(state.changes)],
        "prizes": setup.prizes, "booby": setup.booby, "confirm": setup.confirm,
        "created_by": state.created.by if state.created else "",
        "staff": dict(state.staff),
    }


# ----- guests ----------------------------------------------------------------------------------
def guests(state, names=None) -> list[dict]:
    """The guests listed (only those named in `names`, in that order, when given): a row each;
    a name a board would show as another's is flagged against every guest, shown or not."""
    s = state.session
    played = S.played_cards(state)
    at: dict[int, list[str]] = {}   # table -> its guests' names (0: everyone, before the draw)
    for g in state.guests.values():
        place = s.place_of(g.card) if s and g.card else None
        if place or (s is None and not g.left):
            at.setdefault(place[0] if place else 0, []).append(g.name)
    clash = {name: other for names_at in at.values() for name, other in clashes(names_at).items()}
    out = []
    for g in (state.guests.values() if names is None else (state.guests[n] for n in names)):
        place = s.place_of(g.card) if s and g.card else None
        board = on_board(g.name)
        out.append({"name": g.name, "checked_in": g.checked_in, "card": g.card or "",
                    "card_label": C.label(g.card) if g.card else "", "place": place_label(place),
                    "left": bool(g.left), "back": return_plan(state, g) if g.left else "",
                    "played": g.card in played, "board": board,
                    "board_flag": board_flag(board, clash.get(g.name), s is None)})
    return out


def board_flag(shown: str, clash: str | None, before_draw: bool) -> str:
    """Why a name would not serve at a table's board (hub/conductor/on_board.py), or ""."""
    if not shown:
        return "a board can show nothing of this name: give it in letters"
    if clash:
        where = "anyone it may be drawn to sit with" if before_draw else "at the same table"
        return f"a board shows it as {clash}'s ({where}): tell them apart"
    return ""


# ----- tables ------------------------------------------------------------------------------------
def table_status(state, boards: dict[str, dict]) -> list[dict]:
    """Every table: who sits there, games keyed, its sides' points (a partnership form's, as they
    are made), the bell acknowledged, results missing, its board."""
    setup, s = state.setup, state.session
    if setup is None:
        return []
    bell = s.bell if s else None
    missing = set(S.missing(setup, s)) if s else set()
    out = []
    for n in table_numbers(state):
        t = s.tables.get(n) if s else None
        row = {"table": n, "board": boards.get(str(n), {}), "calls": state.calls.get(n, 0),
               "players": [], "games": 0, "of": setup.games_per_session, "state": "idle",
               "bell_acked": None, "missing": n in missing, "pending": False}
        if t is not None:
            row.update(players=[{"seat": seat, "name": name_of(state, c)} for seat, c in zip(SEATS, t.seats)],
                       games=t.entered, state=S.table_state(setup, s, n), pending=t.pending is not None,
                       bell_acked=(bell.id in t.acks) if bell and S.in_play(setup, t) else None)
            if setup.partnership:
                row["points"] = dict(zip(("AC", "BD"), t.counted.points))
        out.append(row)
    return out


# ----- corrections -------------------------------------------------------------------------------
def entries(state, session: int | None = None) -> list[dict]:
    """A session's results (the current one by default), table by table, with their mends."""
    if not state.sessions:
        return []
    s = state.sessions[(session or len(state.sessions)) - 1]
    out = []
    for n in sorted(s.tables):
        for e in s.tables[n].entries:
            out.append({"id": e.id, "table": n, "game": e.game, "keyed": entry_words(state.setup, e),
                        "gains": {seat: (name_of(state, c), g) for seat, c, g in zip(SEATS, e.seats, e.gains) if c},
                        "annulled": bool(e.annulled), "why": e.annulled.why if e.annulled else "",
                        "corrections": [(m.by, m.why) for m in e.corrections], "pending": e.pending})
    return out


def entry_words(setup, e, values=None) -> list[dict]:
    """An entry's values (`values`: as corrected) in the words of the table's entry form: each
    field's label as the board shows it ("DOMINO BY", "A PIECES"), a seat as its letter, in
    the form's order; `k` is the field's input name."""
    values = e.values if values is None else values
    fields = (K.count_form(setup, e.seats) if e.in_play else
              K.entry_form(setup, e.seats, play_off=e.session == 0, lead="lead" in values)) or []
    by_key = {f["k"]: f for f in fields}
    out = []
    for k in [k for k in by_key if k in values] + [k for k in values if k not in by_key]:
        f, v = by_key.get(k, {}), values[k]
        seat = bool(f.get("seat"))
        out.append({"k": k, "label": f.get("label", k), "seat": seat,
                    "shown": (SEATS[v - 1] if 1 <= v <= 4 else "none") if seat else v})
    return out


def correction_preview(before, after, entry_id: str) -> dict:
    """What a correction of a result of `session` changes, for the conductor to see before he
    confirms: every card whose total or place moves, the prizes, and the seating (docs/conductor.md:
    seating already announced stays as journaled; the next movement reads the corrected totals)."""
    si, table, ei = S.find_entry(before, entry_id)
    old = (before.play_offs[-1 - si] if si < 0 else before.sessions[si].tables[table]).entries[ei]
    new = (after.play_offs[-1 - si] if si < 0 else after.sessions[si].tables[table]).entries[ei]
    session = si + 1 if si >= 0 else 0          # 0: a play-off
    was = {w["k"]: w["shown"] for w in entry_words(before.setup, old)}
    keyed = [(w["label"], was.get(w["k"], ""), w["shown"]) for w in entry_words(after.setup, new)
             if old.values.get(w["k"]) != new.values.get(w["k"])]
    was = {r["card"]: r for r in ranking(before)}
    rows = [{"name": r["name"], "card_label": r["card_label"], "rank": (was[r["card"]]["rank"], r["rank"]),
             "total": (was[r["card"]]["total"], r["total"])}
            for r in ranking(after)
            if r["card"] in was and (was[r["card"]]["rank"], was[r["card"]]["total"]) != (r["rank"], r["total"])]
    winners = ({prize_label(a.prize): ", ".join(name_of(st, c) for c in a.cards) for a in P.awards(st)}
               for st in (before, after))
    prizes_before, prizes_after = winners
    s = after.session
    seated_since = list(range(session + 1, s.number + 1)) if session else []
    if S.party_over(after) or after.final_count:
        seeding = "No movement remains: the standings and the prizes change."
    elif S.last_session(after):
        seeding = f"Session {s.number} is the last: the standings and the prizes change."
    else:
        seeding = f"The movement after session {s.number} will seat session {s.number + 1} by the corrected totals."
    return {"rows": rows, "session": session, "table": table, "game": old.game, "keyed": keyed,
            "seated_since": seated_since, "seeding": seeding,
            "prizes": [(label, prizes_before.get(label, ""), who) for label, who in prizes_after.items()
                       if prizes_before.get(label, "") != who]}


def results_missing(state) -> list[str]:
    """The last session's tables in play that keyed no game at all, in the host's words
    ("Table 3: 0 of 4 games"): a stop bell seen at every table ends the party, and the
    final count would give the prizes without their results. (Tables "still playing finish
    theirs" after the bell, so fewer games than the others are no sign; and in the forms
    played to ten points a table that made none has nothing to key.)"""
    setup, s = state.setup, state.session
    of = setup.games_per_session if setup else None
    if not of or s is None or state.final_count:
        return []
    return [f"Table {n}: 0 of {of} games" for n, t in sorted(s.tables.items())
            if S.in_play(setup, t) and t.closed is None and not t.entered]


def draw_plan(state) -> dict | None:
    """What the draw will do with the guests present, in the host's words, before it is made:
    more guests than seats (add a table), the partnership forms' four at every table, or the
    short-table rule (LIST: "three or two players may be seated there")."""
    from hub.conductor.seating import cards_taken
    setup = state.setup
    if setup is None or state.sessions:
        return None
    present = sum(g.checked_in and g.left is None for g in state.guests.values())
    seats = setup.tables * 4
    in_hand = sum(g.card is not None for g in state.guests.values())   # printed cards recorded
    plan = {"present": present, "seats": seats, "ok": False, "add_tables": 0, "in_hand": in_hand}
    if present > seats:
        plan["add_tables"] = math.ceil((present - seats) / 4)
        plan["text"] = (f"{present} present and {setup.tables} tables seat {seats}: add "
                        f"{plan['add_tables']} table{'s' if plan['add_tables'] > 1 else ''} before the draw.")
    elif setup.partnership and present % 4:
        plan["text"] = (f"{present} present, and in {FORM_NAMES[setup.form]} there must always be four players "
                        f"at each table, two white and two red: add {4 - present % 4} guest"
                        f"{'s' if 4 - present % 4 > 1 else ''} or leave out {present % 4}.")
    elif present < (4 if setup.partnership else 2):
        plan["text"] = f"{present} present: too few to play."
    else:
        at = {}
        for c in cards_taken(setup, present):
            at[C.home(c)[0]] = at.get(C.home(c)[0], 0) + 1
        full = [n for n, k in sorted(at.items()) if k == 4]
        short = [f"Table {n} {['', 'one', 'two', 'three'][k]}" for n, k in sorted(at.items()) if k < 4]
        empty = [n for n in range(1, setup.tables + 1) if n not in at]
        words = f"{present} present: the draw takes {present} cards, {len(full)} table{'s' if len(full) != 1 else ''} of four"
        if short:
            words += f"; {' and '.join(short)} (the short-table rule: more pieces drawn each)"
        if empty:
            words += f"; Table{'s' if len(empty) > 1 else ''} {', '.join(map(str, empty))} empty (for late-comers)"
        plan.update(ok=True, text=words + ".")
    return plan


def late_comer_plan(state) -> str | None:
    """Where the next late-comer will sit, said before he is checked in ("Late-comers will have
    to be satisfied to receive vacant seats at the last tables", LIST)."""
    from hub.conductor.seating import place_late_comer
    if state.setup is None or not state.sessions or state.final_count:
        return None
    place = place_late_comer(state)
    if place is None:
        return (f"Every seat is taken: add a table and the next late-comer sits at Table "
                f"{state.setup.tables + 1} A.")
    _, table, seat = place
    if not state.session.tables[table].players:
        words = f"The next late-comer opens Table {table} at seat {seat}"
    else:
        words = f"The next late-comer takes the vacant seat Table {table} {seat}"
    return words + _waits(state, table) + "."


def _waits(state, table: int) -> str:
    """A table one more guest still leaves short of play says so (BERGEN GAME: "There must
    always be four players at each table")."""
    need = 4 if state.setup.partnership else 2
    if state.session.tables[table].players + 1 < need:
        return f"; the table plays once {need} are there"
    return ""


def batch_removable(state, batch: dict) -> list[str]:
    """The guests of the last list added at once still listed and not checked in since (those
    checked in are here: they stay)."""
    return [n for n in batch.get("names", []) if n in state.guests and not state.guests[n].checked_in]


def return_plan(state, guest) -> str:
    """What "Came back" will do for a guest who left, said before it is done
    (hub/conductor/seating.place_returning; docs/conductor.md, "A guest who comes back")."""
    from hub.conductor.seating import place_late_comer, place_returning
    if not state.sessions:
        return "Present again, for the draw."
    if S.party_over(state):
        return "Back in the standings and the prizes; no session is left to play."
    if guest.card is None:   # left before the draw: a late-comer now
        place = place_late_comer(state)
        return late_comer_plan(state) if place is None else (
            f"Comes back as a late-comer: the vacant seat Table {place[1]} {place[2]}, with a new card.")
    card = f"the card {C.label(guest.card)} and its score"
    place = place_returning(state, guest)
    gone = guest.vacated and guest.vacated[0] == state.session.number and (guest.vacated[1], guest.vacated[2])
    taken = ""
    if gone and place != gone:
        who = name_of(state, state.session.tables[gone[0]].seats[C.seat_index(gone[1])])
        taken = f"The seat left, Table {gone[0]} {gone[1]}, is {who}'s now: "
    if place is None:
        return (taken + f"every seat is taken. Add a table first; then back at Table "
                        f"{state.setup.tables + 1} with {card}.")
    if place == gone:
        return f"Back to the seat left, Table {place[0]} {place[1]}, with {card}."
    return ((taken or "Like a late-comer: ") + f"the vacant seat Table {place[0]} {place[1]}, with {card}"
            + _waits(state, place[0]) + ".")


def explain(state, proposal, why: str):
    """A refusal whose sentence needs the party's figures or names: a BadForm naming the field,
    else the conductor's code as it is (web/refusals.py words it)."""
    if why in ("SIMILAR NAME", "CONTROL IN NAME"):   # a guest listed, walked in or renamed
        what = proposal.what   # (its body read by the judge)
        renamed = isinstance(what, events.GuestRenamed)
        field, name = ("new_name", what.name) if renamed else ("guest", what.guest)
        if why == "CONTROL IN NAME":   # which character, and where: it may not show on the page
            at, char = control_in(name)
            return BadForm(field, f"it holds a control character, U+{ord(char):04X}, at character {at + 1} "
                                  f"(after {name[:at]!r}): type the name again without it.")
        other = similar(state.names, name, what.guest if renamed else None)
        return BadForm(field, f"{other!r} is already on the list. If {name!r} is another person, tick "
                              "\u201canother person\u201d and send again.")
    if why in ("TOO MANY GUESTS", "FOUR AT A TABLE"):
        plan = draw_plan(state)
        if plan:
            return BadForm("guests", plan["text"])
    return why


def bells(state) -> list[dict]:
    s = state.session
    return [bell_dict(b) for b in s.bells] if s else []


# ----- prizes and results ------------------------------------------------------------------------
def prizes(state) -> list[dict]:
    if state.setup is None or not state.sessions:
        return []
    scheduled = {p.prize: p for p in state.play_offs}
    out = []
    for a in P.awards(state):
        p = scheduled.get(a.prize)
        out.append({"prize": a.prize, "label": prize_label(a.prize), "amount": a.amount,
                    "candidates": [name_of(state, c) for c in a.cards],
                    "winner": name_of(state, a.winner), "needs_play_off": a.needs_play_off,
                    "play_off_table": p.table if p else None})
    return out


_ORDINALS = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth", "Ninth", "Tenth",
             "Eleventh", "Twelfth")


def prize_label(prize: str) -> str:
    if prize.isdigit():
        n = int(prize)
        return f"{_ORDINALS[n - 1]} prize" if 1 <= n <= len(_ORDINALS) else f"Prize {prize}"
    return {"booby": "Booby prize"}.get(prize, f"{prize} side")


def ranking(state) -> list[dict]:
    """Every card by the form's measure, highest first (the conductor's standings), with
    what it won in each session (the conductor's score-cards)."""
    if state.setup is None or not state.sessions:
        return []
    won = {c["card"]: {r["session"]: r["total"] for r in c["sessions"]} for c in conductor.score_cards(state)}
    sessions = range(1, len(state.sessions) + 1)
    return [{"rank": p["rank"], "card": p["card"], "card_label": C.label(p["card"]), "name": p["guest"],
             "sessions": [won.get(p["card"], {}).get(n, 0) for n in sessions], "total": p["amount"],
             "place": p["place"] or "", "left": p["left"]}
            for p in conductor.standings(state)["leaders"]]


def results(hub) -> dict:
    state = hub.state
    return {"overview": overview(hub), "ranking": ranking(state), "prizes": prizes(state), "seq": hub.seq}


def export(hub) -> dict:
    """The results, and everything derived from the journal (the conductor's `to_json`)."""
    state = hub.state
    return {"seq": hub.seq, "ranking": ranking(state), "prizes": prizes(state), "party": conductor.to_json(state)}


def write_results_csv(hub, out) -> None:
    """The ranking for a spreadsheet: a byte-order mark (Excel then reads UTF-8, accents
    and all), each card's prize, and no cell a spreadsheet would run as a formula."""
    state = hub.state
    rows = ranking(state)
    won = {a.winner: prize_label(a.prize) for a in P.awards(state) if a.winner is not None}
    sessions = max((len(r["sessions"]) for r in rows), default=0)
    out.write("\ufeff")
    w = csv.writer(out)
    w.writerow(["rank", "name", "card", *[f"session {i}" for i in range(1, sessions + 1)], "total", "prize"])
    for r in rows:
        w.writerow([r["rank"], inert(r["name"]), r["card_label"], *r["sessions"], r["total"],
                    won.get(r["card"], "")])


def inert(text: str) -> str:
    """A text cell a spreadsheet would take for a formula (=, +, -, @, or a tab or CR first)
    gets a leading apostrophe, as OWASP's CSV-injection advice has it: shown, never run;
    and its explicit direction controls are taken out (web/bidi.py), so that none runs on."""
    text = neutral(text)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# ----- printed score-cards -----------------------------------------------------------------------
def score_cards(state) -> list[dict]:
    """The book's score-cards for every card in successive order: blank before the draw,
    then filled in from the conductor's score-cards as far as the party has gone."""
    setup = state.setup
    if setup is None:
        return []
    sessions = setup.sessions or max(len(state.sessions), 3)
    filled = {c["card"]: c for c in conductor.score_cards(state)}
    measure = MEASURE_WORDS.get(setup.measure, setup.measure)
    # what the card's amounts are: "NUMBER OF NOTE-VALUES WON" in the book's forms; the train
    # games score what is left in hand against its holder, round by round
    heading = (f"{measure.upper()} IN HAND, EACH ROUND — THE LOWEST TOTAL WINS:—" if setup.lowest_wins
               else f"NUMBER OF {measure.upper()} WON:—")
    unit = "Round" if setup.party_form.rounds else "Game"
    starts = {g.card: g.start for g in state.guests.values() if g.card and g.start}
    out = []
    # the spare cards given to late-comers follow ("TABLE 2 C/2": hub/conductor/cards.py)
    spares = sorted((c for c in state.holders if C.copy_of(c)[1] > 1), key=C.number)
    for card in C.successive(setup.tables, setup.partnership) + spares:
        known = filled.get(card, {})
        rows = {r["session"]: r for r in known.get("sessions", [])}
        out.append({"label": C.label(card), "colour": C.colour(card), "name": known.get("guest", ""),
                    "measure": measure, "heading": heading, "unit": unit, "start": starts.get(card),
                    "games": setup.games_per_session,
                    "punch_holes": known.get("punch_holes", []),
                    "sessions": [{"number": n,
                                  "place": f"{rows[n]['table']} {rows[n]['seat']}" if n in rows and n > 1 and rows[n]["table"] else "",
                                  "games": rows[n]["games"] if n in rows else [],
                                  "total": rows[n]["total"] if n in rows else None}
                                 for n in range(1, sessions + 1)],
                    "total": known.get("total")})
    return out


# ----- the plan: invitation and replies ----------------------------------------------------------
REPLY = re.compile(r"^\s*(?P<name>[^,;:]+?)\s*[,;:]\s*(?P<answer>yes|no|y|n|coming|not coming)\s*$", re.I)


def plan_from_form(form) -> dict:
    game = text(form, "form", limit=20)
    if game not in FORMS:
        raise BadForm("form", "choose one of the book's forms.")
    replies, unread = [], []
    for line in (form.get("replies") or "").splitlines():
        if not line.strip():
            continue
        m = REPLY.match(line)
        if not m:
            unread.append(line.strip())
            continue
        replies.append({"name": " ".join(m["name"].split()),
                        "coming": m["answer"].lower() in ("yes", "y", "coming")})
    if unread:
        raise BadForm("replies", f"cannot read {unread[0]!r}: write one a line, 'Name, yes' or 'Name, no'.")
    replies, twice = once_each(replies)
    plan = {"title": text(form, "title", required=False, limit=60) or "Musical Domino Party",
            "host": text(form, "host", limit=120), "when": text(form, "when", limit=120),
            "hour": text(form, "hour", required=False, limit=60) or "at eight o'clock",
            "address": text(form, "address", limit=300), "form": game,
            "reply_days": number(form, "reply_days", required=False, low=1, high=60) or 2,
            "replies": replies}
    plan.update(plan_tables(game, sum(r["coming"] for r in replies)), twice=twice)
    return plan


def once_each(replies: list[dict]) -> tuple[list[dict], list[str]]:
    """Each person's reply once (the same name, whatever its spaces), his last answer standing
    where he first replied; and the names that replied more than once. A name spelled
    otherwise ("ann lee" beside "Ann Lee") may be another person: the guest list asks."""
    kept: dict[str, dict] = {}
    twice = []
    for r in replies:
        key = r["name"]
        if key not in kept:
            kept[key] = r
            continue
        first = kept[key]["name"]
        twice += [first] if first not in twice else []
        kept[key] = dict(r, name=first)
    return list(kept.values()), twice


def plan_tables(game: str, coming: int) -> dict:
    """Tables and prizes for `coming` guests. "In a party four persons play at a table";
    "three or two players may be seated" at the last one (LIST) — but "There must always
    be four players at each table" in the partnership forms (BERGEN GAME)."""
    tables = math.ceil(coming / 4) if coming else 0
    last = coming - 4 * (tables - 1) if tables else 0
    warning = ""
    if game in PARTNERSHIP_FORMS and coming % 4:
        warning = f"{FORM_NAMES[game]} needs four at every table: {4 - coming % 4} more guest(s) wanted."
    elif tables and last == 1:
        warning = "One guest would sit alone at the last table: invite one more, or ask one to stay out."
    return {"coming": coming, "tables": tables, "prizes": book_prizes(tables) if tables else 0,
            "last_table": last, "warning": warning}


def invitation_text(plan: dict) -> dict:
    """The book's invitation, front and reverse (INVITATIONS), for the plan's party."""
    if not plan:
        return {}
    game = plan["form"]
    prizes = plan.get("prizes") or 1
    count = {1: "the lucky player", 2: "the two lucky players", 3: "the three lucky players"}.get(
        prizes, f"the {prizes} lucky players")
    lead = "A prize will be awarded to" if prizes == 1 else "Prizes will be awarded to"
    if game in PARTNERSHIP_FORMS:
        award = "Prizes will be awarded to the luckiest player of each side, the one who has gained the greatest number of punch-holes."
    elif game == "sebastopol":
        award = f"{lead} {count} winning the greatest number of games."
    else:
        measure = MEASURE_WORDS[PARTY_FORMS[game].measure]
        award = f"{lead} {count} gaining the highest amounts of {measure}."
    days = plan.get("reply_days", 2)
    return {"host": plan["host"], "when": plan["when"], "hour": plan["hour"],
            "address": plan["address"].splitlines(), "form_name": FORM_NAMES[game],
            "title": plan.get("title") or "Musical Domino Party",
            "award": award,
            "reply": f"Please send word within {days} day{'s' if days != 1 else ''} whether you can be present or not."}
