"""Hands as a table keys them, for the demos, the simulator, the drills, the benches and the
tests: made up (the values of an entry form that give the wanted result, the way
party/setup.py makes up guests), each holding to the form's bounds (hub/scoring/bounds.py);
or played move by move by the scoring engine's players (`played_values`, `played_hand`).
Not the conductor's: it plays, the conductor only judges.
"""
from __future__ import annotations

from hub.conductor.cards import SEATS
from hub.conductor.scoring import SeatMap, rules, seats_taken
from hub.conductor.setup import Setup
from hub.scoring import MUSICAL, get_form
from hub.scoring.bounds import most_spots


def draw_game(table: int, game_no: int) -> dict:
    """A plausible Draw game as a table keys it: who led, who made domino, each seat's
    sixteenths and pieces left (the winner's are 0)."""
    out = 1 + (table + game_no) % 4
    values = {"lead": 1 + game_no % 4, "out": out}
    for i, seat in enumerate(SEATS, start=1):
        values[seat] = 0 if i == out else 4 * (1 + (table * 11 + game_no * 5 + i * 3) % 9)
        # as few pieces as show it: one piece shows at most 32 sixteenths (the Double Whole)
        values[f"{seat}_pieces"] = 0 if i == out else 1 + (values[seat] > 32)
    return values


def spots_game(seats_at_table: str, gains: dict[str, int], lead: str | None = None) -> dict:
    """Block/Draw (Grimm): the seat with a gain goes out ("Domino!") and takes the
    sixteenths the others hold (one other seat holds them, in as few pieces as can show
    them); `gains` names one seat. A gain of 0 is a block with two seats equal lowest in
    note-values and dominoes: "there is no count"."""
    (winner, gain), = gains.items()
    others = [s for s in seats_at_table if s != winner]
    if not gain:
        values = {"out": 0}
        for s in seats_at_table:   # 1|3 and 2|2 tie lowest; 2|6, 4|4 hold more
            values[s], values[f"{s}_pieces"] = (4 if s in (winner, others[0]) else 8), 1
    else:
        values = {"out": SEATS.index(winner) + 1}
        for s in seats_at_table:
            values[s], values[f"{s}_pieces"] = 0, 0
        values[others[0]] = gain
        values[f"{others[0]}_pieces"] = next(
            k for k in range(1, len(MUSICAL)) if most_spots(MUSICAL.tiles, k) >= gain)
    if lead:
        values["lead"] = SEATS.index(lead) + 1
    return values


def quarters_game(seats_at_table: str, quarters: dict[str, int], lead: str | None = None) -> dict:
    """All Quarters: each seat's quarters for the game as its score-card marks them (what it
    made in play, and for the winner the others' sixteenths over four); 0 where not given."""
    values = {f"{s}_quarters": quarters.get(s, 0) for s in seats_at_table}
    if lead:
        values["lead"] = SEATS.index(lead) + 1
    return values


def sebastopol_game(seats_at_table: str, winner: str) -> dict:
    """Sebastopol: `winner` makes "domino"; another seat is left holding a 1|2."""
    values = {"out": SEATS.index(winner) + 1, "draw": 0}
    for s in seats_at_table:
        values[s], values[f"{s}_pieces"] = 0, 0
    other = next(s for s in seats_at_table if s != winner)
    values[other], values[f"{other}_pieces"] = 3, 1
    return values


def bergen_hand(winner: str, doubles: int = 0) -> dict:
    """Bergen (party): `winner` makes "domino" (1 point) and `doubles` double-headers (2 each)."""
    return bergen_game("".join(SEATS), winner, doubles)


def bergen_game(seats_at_table: str, winner: str, doubles: int = 0) -> dict:
    """Bergen each for himself (a play-off): `winner` makes "domino" and `doubles` headers."""
    values = {"out": SEATS.index(winner) + 1}
    for s in seats_at_table:
        for key in ("_double", "_triple", "", "_doubles", "_low"):
            values[s + key] = 0
    values[f"{winner}_double"] = doubles
    values[next(s for s in seats_at_table if s != winner)] = 3   # a 1|2 left with another
    return values


def tiddle_hand(winner: str, doubles: int = 0) -> dict:
    """Tiddle-a-wink (party): `winner` calls "Tiddle-a-wink" (1 point) having played
    `doubles` doubles (1 point each)."""
    values = {"out": SEATS.index(winner) + 1}
    for s in SEATS:
        values[f"{s}_doubles"] = 0
    values[f"{winner}_doubles"] = doubles
    return values


# -- hands played by the scoring engine's players: the simulated tables' entries -----------

def played_values(setup: Setup, seats, rng, play_off: bool = False, lead: bool = False,
                  game: int = 1) -> dict:
    """What a table keys after a hand played move by move by the engine's players:
    the simulator's tables enter exactly what such a hand gives."""
    return played_hand(setup, seats, rng, play_off, lead, game)[0]


def played_hand(setup: Setup, seats, rng, play_off: bool = False, lead: bool = False,
                game: int = 1) -> tuple[dict, list[dict]]:
    """(what a table keys at the end of a hand the engine played, each count it keys during
    the hand: none unless the set-up keys counts as they are made). `game`: a train game's
    round, played on its engine double (the set's highest in round 1, one lower each round)."""
    m = SeatMap(seats_taken(seats))
    r = rules(setup, len(m.table), play_off)
    form = get_form(r.form)
    rounds = setup.party_form.rounds and not play_off
    played = form.play_hand(r, rng, round=min(game, form.rounds(r))) if rounds else form.play_hand(r, rng)
    counts = [{m.key_to_table(k): m.table_number(v) if k == "seat" else v for k, v in c.items()}
              for c in played.play_values]
    values = {}
    for f in form.entry_form(r).fields:
        v = played.values[f.k]
        if not f.asked(played.values):
            continue   # not asked, so not keyed (firmware/entry.py)
        if f.seat and v:
            v = m.table_number(v)
        values[m.key_to_table(f.k)] = v
    if lead:
        leader = played.moves[0].seat if played.moves else m.engine[0]
        values["lead"] = SEATS.index(m.to_table[leader]) + 1
    return values, counts
