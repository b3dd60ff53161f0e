"""The sessions: begun by the bell, ended by the bell (the conductor's, the hub's when a
table's results or the clock say so), the players moved after each, and the final count
of the score-cards."""
from __future__ import annotations

import random

from hub.event import Event, Proposal, canonical
from hub.refusal import Refusal

from .. import events as k
from .. import movement
from ..frozen import FrozenMap, thawed
from ..prizes import totals
from ..ruling import Admit, Kind, all_tables, decision, mend_of, seed
from ..state import (Bell, Mend, PartyState, Session, in_play, last_session, party_over,
                     replace, seated_cards, session_over)


def bell_due(state: PartyState, table: int, p: Proposal) -> tuple[Proposal, ...]:
    """The bell a counted result brings about. Block, Draw: "As soon as four games have
    been finished at any table the conductor rings the bell ... but he does not permit a
    new game to be started"; All Quarters, Sebastopol: the third game (finish). Bergen:
    "Ten points made at any table ends a session, whereupon the bell is rung, and all
    tables stop playing at once"; Tiddle-a-wink: "Ten points made in partnership" (stop)."""
    setup, s = state.setup, state.sessions[-1] if state.sessions else None   # asked every result
    if s is None or s.bell is not None or s.started is None:
        return ()
    counted = s.tables[table].counted   # a count made in play is no game
    if setup.games_per_session is not None and counted.games >= setup.games_per_session:
        return (decision(p, 1, k.HubBell, meaning="finish",
                         cause=FrozenMap({"table": table, "game": counted.games})),)
    if setup.session_points is not None and max(counted.points) >= setup.session_points:
        # the game of the result or of the count made in play that reached ten (a side's
        # points, or a player's where each plays for himself), with the form's bell
        return (decision(p, 1, k.HubBell, meaning=setup.bell_meaning,
                         cause=FrozenMap({"table": table, "game": counted.last.game})),)
    return ()


def tick(state: PartyState, now: float) -> tuple[Proposal, ...]:
    """The hub's own decisions due at `now`: the bell that ends a party run by the clock
    ("The game lasts an hour and a half", BERGEN GAME). The hub journals what it gets.
    Its meaning is the form's own bell: stop at once in the partnership forms, finish
    the game in hand in the others."""
    setup, s = state.setup, state.session
    if setup is None or s is None or s.started is None or s.bell is not None:
        return ()
    if setup.time_limit is not None and state.started_at is not None \
            and now >= state.started_at + setup.time_limit * 60:
        return (Proposal.of(f"hub.time.s{s.number}", "hub",
                            k.HubBell(setup.bell_meaning, "time", final=True)),)
    # a timed game ("timed games of 60 minutes", forms/trains.py): the session's own clock
    if setup.session_limit is not None and s.began_at is not None \
            and now >= s.began_at + setup.session_limit * 60:
        return (Proposal.of(f"hub.session-time.s{s.number}", "hub",
                            k.HubBell(setup.bell_meaning, "session time")),)
    return ()


def check_session_started(state, p, login, now):
    s = state.session
    if s is None:
        raise Refusal("SEATS NOT DRAWN")
    if p.what.session != s.number:
        raise Refusal("WRONG SESSION")
    if s.started is not None:
        raise Refusal("ALREADY STARTED")
    if not any(in_play(state.setup, t) for t in s.tables.values()):
        raise Refusal("NO TABLES")
    return Admit((p,), f"SESSION {s.number}")


def fold_session_started(state, ev):
    s = state.session
    state = state.with_session(replace(s, started=mend_of(ev), began_at=ev.at))
    return replace(state, started_at=ev.at) if s.number == 1 else state


def check_bell(state, p, login, now):
    s = state.session
    meaning = p.what.meaning
    if meaning not in ("finish", "stop"):
        raise Refusal("BAD MESSAGE")
    if s is None or s.started is None or session_over(state.setup, s):
        raise Refusal("NOT IN SESSION")
    if s.bell is not None and (s.bell.meaning == "stop" or meaning == "finish"):
        raise Refusal("BELL RUNG")
    if p.what.final and state.setup.time_limit is None:
        raise Refusal("NOT BY THE CLOCK")
    return Admit((p,), "BELL RUNG")


def fold_bell(state, ev):
    """The conductor's bell, or the hub's (`cause`: the table's counted results, the clock)."""
    s, b = state.session, ev.what
    cause = getattr(b, "cause", None)   # the hub's bell says what rang it; the staff's, why
    why = b.why or (canonical(thawed(cause)) if cause is not None else "")
    # a bell rung once the party's time is up ends its last session
    limit = state.setup.time_limit
    late = limit is not None and state.started_at is not None and \
        ev.at >= state.started_at + limit * 60
    # the hub's bell is the hub's (its cause names the table); a staff bell is the staff's
    bell = Bell(f"s{s.number}-bell-{len(s.bells) + 1}", b.meaning, s.number,
                Mend(ev.source, why, ev.seq, ev.id), bool(b.final) or late)
    return state.with_session(replace(s, bells=s.bells + (bell,)))


# -- the movement and the final count --------------------------------------------------------

def check_reseat(state, p, login, now):
    s, setup = state.session, state.setup
    if s is None or s.started is None:
        raise Refusal("NOT IN SESSION")
    if not session_over(setup, s):
        raise Refusal("RESULTS MISSING")
    if last_session(state):
        raise Refusal("LAST SESSION")
    drawn = seed(p, now)
    m = movement.move(setup, s, totals(state), random.Random(drawn))
    moved = decision(p, 1, k.PlayersMoved, session=s.number + 1, seed=drawn, seats=m.seats,
                     lots=m.lots, punches=m.punches)
    return Admit((p, moved), f"SESSION {s.number + 1} SET")


def fold_players_moved(state, ev):
    b = ev.what
    before = state.session
    seats = b.seats
    after = Session(before.number + 1, all_tables(state, seats), mend_of(ev), lots=b.lots)
    was, now = seated_cards(before), seated_cards(after)
    # a list made first: no generator's step a card (a thousand at a big party's move)
    moves = tuple([(c, was.get(c), now[c]) for n in sorted(seats) for c in seats[n] if c])
    punches = tuple((before.number, c) for c in b.punches)
    return replace(state, sessions=state.sessions + (replace(after, moves=moves),),
                   punches=state.punches + punches)


def check_final_count(state, p, login, now):
    """"Before announcing the winners he counts all his score-cards, in order to be sure of
    having as many in his hands as there were players" (THIRD SESSION)."""
    if state.final_count is not None:
        raise Refusal("COUNTED")
    if not party_over(state):
        raise Refusal("PARTY NOT OVER")
    checked = [g for g in state.guests.values() if g.checked_in]
    # a guest who left before the draw never had a card; every other has his own
    if any(state.holders.get(g.card) != g.name for g in checked if g.card or g.left is None):
        raise Refusal("CARDS MISSING")
    if any(e.pending for s in state.sessions for t in s.tables.values() for e in t.entries):
        raise Refusal("RESULTS MISSING")
    msg = f"COUNTED {len(checked)}"
    if not state.setup.partnership:
        return Admit((p,), msg)
    # the last session's winners get their punch-holes too, though nobody moves any more
    drawn = seed(p, now)
    m = movement.move(state.setup, state.session, totals(state), random.Random(drawn))
    punched = decision(p, 1, k.Punched, session=state.session.number, seed=drawn, lots=m.lots,
                       punches=m.punches)
    return Admit((p, punched), msg)


def fold_final_count(state, ev):
    return replace(state, final_count=mend_of(ev))


def fold_punched(state, ev):
    b = ev.what
    s = state.session
    state = state.with_session(replace(s, lots=s.lots + b.lots))
    return replace(state, punches=state.punches + tuple((b.session, c) for c in b.punches))


KINDS = (
    Kind(k.SESSION_STARTED, "staff", check_session_started, fold_session_started),
    Kind(k.BELL, "staff", check_bell, fold_bell),
    Kind(k.HUB_BELL, "hub", None, fold_bell),
    Kind(k.RESEAT, "staff", check_reseat, None),   # folded as its decision
    Kind(k.PLAYERS_MOVED, "hub", None, fold_players_moved),
    Kind(k.FINAL_COUNT, "staff", check_final_count, fold_final_count),
    Kind(k.PUNCHED, "hub", None, fold_punched),
)
