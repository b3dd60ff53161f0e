"""The Guests page (console/guests.html, web/door.py): each guest's row, what the draw will do
with the guests present, where a late-comer or a returning guest will sit, said before it
is done, and a refusal at the door in the host's words."""
from __future__ import annotations

import math

from hub.conductor import cards as C
from hub.conductor import events
from hub.conductor import state as S
from hub.conductor.names import control_in, similar
from hub.conductor.on_board import clashes, on_board
from hub.conductor.seating import cards_taken, place_late_comer, place_returning

from ..actions import BadForm
from .words import FORM_NAMES, name_of, place_label


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


def draw_plan(state) -> dict | None:
    """What the draw will do with the guests present, in the host's words, before it is made:
    more guests than seats (add a table), the partnership forms' four at every table, or the
    short-table rule (LIST: "three or two players may be seated there")."""
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
