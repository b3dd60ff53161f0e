"""What each table's board should show: the retained `screen` of docs/protocol.md
(without "v" and "seq", which the hub adds), and the bell for the broadcast.

`form` is what the table keys next. Besides the protocol's `game`, `title` and
`fields` it says which event the keyed values make (`kind`): "result",
"seat-check" (fields are the card numbers at A-D, each preset ("v") to the card
drawn for the seat and labelled with its holder's name, sent as
`seat-check {"cards": {...}}`) or "confirm" (one seat field; sent as
`confirm {"entry": form.entry, "seat": "A".."D"}`).
"""
from __future__ import annotations

from functools import lru_cache

from hub.refusal import Refusal

from . import leads
from .cards import SEATS, copy_of, number
from .on_board import on_board, seat_line
from .prizes import open_play_off
from .scoring import count_form, engine_double, entry_fields, pieces_each, seats_taken
from .setup import Setup
from .state import PartyState, last_session, table_state


def tables(state: PartyState) -> frozenset[int]:
    return _numbered(state.setup.tables) if state.setup else frozenset()


@lru_cache(maxsize=8)
def _numbered(count: int) -> frozenset[int]:
    """Tables 1..count: asked for every input the hub takes (a set of 200 made each time)."""
    return frozenset(range(1, count + 1))


def current_bell(state: PartyState) -> dict | None:
    s = state.session
    bell = s.bell if s is not None else None
    return {"id": bell.id, "meaning": bell.meaning} if bell else None


def screens(state: PartyState, only: frozenset[int] | None = None) -> dict[int, dict]:
    """Every table's screen by table, or with `only` those of these tables at the party:
    the bell they all show made once."""
    bell = current_bell(state)
    return {n: _screen(state, n, bell) for n in sorted(tables(state) if only is None else only & tables(state))}


def screen(state: PartyState, n: int) -> dict:
    return _screen(state, n, current_bell(state))


def _screen(state: PartyState, n: int, bell: dict | None) -> dict:
    setup, s = state.setup, state.session
    out = {"table": n, "state": "waiting", "lines": [f"TABLE {n}"], "bell": None, "form": None}
    if s is None:
        out["lines"].append("WAIT FOR SEATS")
        return out
    if state.final_count is not None:
        return _after_count(state, n, out)
    t = s.tables[n]
    out["bell"] = bell
    ts = table_state(setup, s, n)
    if ts == "idle":
        out["lines"] += _moved(state, n) or ["NO GAME HERE" if not t.players else "WAIT FOR PLAYERS"]
        return out
    out["lines"].append(f"SESSION {s.number}")
    # after the movement, until this table's seat check: where its last players went (who
    # comes here is the seat check's page of names). Asked only then: each card's place is
    # a walk over the session's tables.
    moved = not t.entries and t.seat_check is None and (setup.seat_check or s.started is None) and _moved(state, n)
    if moved:
        out["state"] = ts
        out["lines"] += moved
        out["form"] = _form(state, t, t.entered + 1, ts)
        return out
    game = t.entered + 1
    if ts == "done":
        out["state"] = "over" if last_session(state) else "between"
        out["lines"].append("SESSION OVER")
        return out
    out["state"] = ts
    if setup.partnership:
        points = t.counted.points
        out["lines"].append(f"A+C {points[0]} B+D {points[1]}")
    else:   # the train games' session is a game of rounds
        word = "ROUND" if setup.party_form.rounds else "GAME"
        out["lines"].append(f"{word} {game} OF {setup.games_per_session}")
    if ts != "stopped":   # after a stop bell the board shows the bell, nothing to play
        out["lines"].append(_lead_or_pieces(state, t, game))
    form = out["form"] = _form(state, t, game, ts)
    if setup.in_play == "each" and form and form["kind"] == "result":
        count = _count_form_of(setup, seats_taken(t.seats), game)   # a count keyed as it is made, during the game
        if count:
            out["count"] = count
    return out


def _moved(state: PartyState, n: int) -> list[str]:
    """After a movement, each player of table `n` in the last session and the place their
    card has now: "ANN LEE -> T2 A", the name cut to fit (docs/firmware.md, "After the
    movement")."""
    if len(state.sessions) < 2:
        return []
    lines = []
    for card in state.sessions[-2].tables[n].seats if n in state.sessions[-2].tables else ():
        if card is None:
            continue
        place = state.session.place_of(card)
        where = f" -> T{place[0]} {place[1]}" if place else " -> OUT"
        name = on_board(state.holders.get(card, card))
        lines.append(name[:16 - len(where)] + where)
    return lines


def _lead_or_pieces(state: PartyState, t, game: int) -> str:
    """At a short table the pieces to draw matter more than the lead (LIST)."""
    if state.setup.party_form.rounds:   # the round's engine double, from the set's highest down
        top = engine_double(state.setup, t.players, game)
        return f"ENGINE {top}-{top}" if top is not None else "LAST ROUND DONE"
    if game == 1 and t.players < 4:
        return f"DRAW {pieces_each(state.setup, t.players)} EACH"
    return leads.line(state.setup.form, t.seats, t.entries, game)


def _form(state: PartyState, t, game: int, ts: str) -> dict | None:
    setup = state.setup
    if t.pending is not None:
        e = t.pending
        return {"kind": "confirm", "entry": e.id, "game": e.game, "title": f"CONFIRM GAME {e.game}",
                "fields": [{"k": "seat", "label": "YOUR SEAT", "min": 1, "max": 4, "seat": True}]}
    if ts == "stopped":
        return None
    if setup.seat_check and t.seat_check is None:
        return _seat_check_form(state, t)
    if ts == "waiting":
        return None
    return _result_form_of(setup, seats_taken(t.seats), game, False)


def _seat_check_form(state: PartyState, t) -> dict:
    """The names the hub expects at each seat, each field preset to the card drawn for it:
    the table confirms with one key and keys a card (as printed: table, letter and, on
    White and Red cards, 1 white / 2 red) only for a seat that is wrong (docs/firmware.md)."""
    kind = 2 if state.setup.partnership else 1
    # a late-comer's spare card for a seat is a copy of the seat's card (cards.spare): the
    # board keys the party's cards and, where spares are given, their copies
    copies = max((copy_of(c)[1] for c in state.holders if "/" in c), default=1)
    most = max([state.setup.tables * 4] + [number(copy_of(c)[0]) for c in t.seats if c])
    fields = []
    for x, card in zip(SEATS, t.seats):
        who = state.holders.get(card, card) if card else "EMPTY"
        field = {"k": x, "label": seat_line(x, who), "min": 0,
                 "max": most, "card": kind, "v": number(card) if card else 0}
        fields.append(dict(field, copies=copies) if copies > 1 else field)
    return {"kind": "seat-check", "game": 0, "title": "SEAT CHECK", "fields": fields}


# The forms below are one value for every table with the same seats `taken` at the same
# game (a screen is spelled and compared, never changed): made once, not for each result
# keyed, as a room's tables key the same game in turn. They read no card, only the seats
# taken (`_seated`).

@lru_cache(maxsize=512)
def _result_form_of(setup: Setup, taken: tuple[str, ...], game: int, play_off: bool) -> dict | None:
    lead = not play_off and leads.keys_lead(setup.form, game)   # keyed in a session's game, not a play-off's
    try:
        fields = list(entry_fields(setup, _seated(taken), play_off=play_off, lead=lead))
    except Refusal:
        return None
    return {"kind": "result", "game": game, "title": f"PLAY-OFF {game}" if play_off else f"GAME {game}",
            "fields": fields}


@lru_cache(maxsize=512)
def _count_form_of(setup: Setup, taken: tuple[str, ...], game: int) -> dict | None:
    fields = count_form(setup, _seated(taken))
    return {"kind": "count", "game": game, "title": "POINTS MADE", "fields": fields} if fields else None


def _seated(taken: tuple[str, ...]) -> tuple:
    return tuple(x if x in taken else None for x in SEATS)


def _after_count(state: PartyState, n: int, out: dict) -> dict:
    i = open_play_off(state, n)
    if i is None:
        out["state"] = "over"
        out["lines"].append("PARTY OVER")
        return out
    p = state.play_offs[i]
    game = sum(e.live for e in p.entries) + 1
    out["state"] = "playing"
    out["lines"] += ["PLAY-OFF", f"PRIZE {on_board(p.prize)}"[:16]]
    seats = p.cards + (None,) * (4 - len(p.cards))
    out["form"] = _result_form_of(state.setup, seats_taken(seats), game, True)
    return out


