"""What the tables send: results, counts made in play, confirmations, seat checks, the
bell claimed and acknowledged, calls for the conductor (and the conductor's answer) and
"no game in hand". Each check gets the table's number (the source's, checked against the
body's by the judge)."""
from __future__ import annotations

from hub.event import Event, Proposal
from hub.refusal import Refusal

from .. import events as k
from ..cards import PARTNER, SEATS, number
from ..leads import keys_lead
from ..prizes import open_play_off
from ..ruling import Admit, Kind, NotYet, closable, mend_entry, mend_of, outcome
from ..scoring import score, score_count
from ..state import Entry, PartyState, find_entry, in_play, replace, session_over, table_done
from .sessions import bell_due


# -- results and counts made in play ------------------------------------------------------

def check_result(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    b, setup = p.what, state.setup
    game = b.game
    if state.final_count is not None:
        i = open_play_off(state, n)
        if i is None:
            raise Refusal("PARTY OVER")
        po = state.play_offs[i]
        if game != sum(e.live for e in po.entries) + 1:
            raise Refusal("NO SUCH GAME")
        scored = score(setup, po.cards + (None,) * (4 - len(po.cards)), b.values, play_off=True)
        return Admit((p.judged(outcome=scored),), "PLAY-OFF SAVED")
    s = state.sessions[-1] if state.sessions else None   # state.session, a call less a result
    if s is None or s.started is None:
        raise Refusal("NOT IN SESSION")
    t = s.tables[n]
    if not in_play(setup, t):
        raise Refusal("SEAT EMPTY")
    bell = s.bell
    if t.closed is not None:
        raise Refusal("TABLE CLOSED")
    if bell is not None and bell.meaning == "stop" and bell.id in t.acks:
        # the board had shown the bell: anything keyed after it was played after the stop
        raise Refusal("TABLE STOPPED")
    if game <= t.entered:
        raise Refusal("ALREADY SAVED")
    if setup.games_per_session and game > setup.games_per_session:
        raise Refusal("NO SUCH GAME")
    if t.pending is not None:
        raise NotYet("CONFIRM FIRST")
    if game != t.entered + 1:   # a later game: the one before it may still be on its way
        raise NotYet("NO SUCH GAME")
    if bell is not None and bell.meaning == "finish" and bell.id in t.acks \
            and t.entered >= t.acks[bell.id] + 1:
        raise Refusal("NO NEW GAME")
    if setup.seat_check and t.seat_check is None:
        raise NotYet("SEAT CHECK FIRST")
    scored = score(setup, t.seats, b.values, lead=keys_lead(setup.form, game))
    msg = f"CONFIRM GAME {game}" if setup.confirm else f"GAME {game} SAVED"
    return Admit((p.judged(outcome=scored),), msg, n)   # bell_at: the table


def entry_of_result(state: PartyState, ev: Event, session: int, seats) -> Entry:
    """The entry a result (or a play-off's, `session` 0) makes, in the table's seats."""
    b = ev.what
    scored = b.outcome   # as journaled; scored here only for an older journal's (outcome)
    if scored is None:
        scored = outcome(state, b, seats, b.values, play_off=session == 0,
                         lead=session > 0 and keys_lead(state.setup.form, b.game))
    return Entry.keyed(ev.id, ev.seq, session, b.table, b.game, tuple(seats),
                       b.values, scored.gains, scored.winners,
                       needs_confirm=state.setup.confirm and session > 0)


def fold_result(state: PartyState, ev: Event) -> PartyState:
    n = ev.what.table
    i = open_play_off(state, n) if state.final_count else None
    if i is not None:
        p = state.play_offs[i]
        entry = entry_of_result(state, ev, 0, p.cards + (None,) * (4 - len(p.cards)))
        p = replace(p, entries=p.entries + (entry,))
        return replace(state, play_offs=state.play_offs[:i] + (p,) + state.play_offs[i + 1:])
    s = state.sessions[-1]   # `state.table` and `state.session` spelled out: once per result
    t = s.tables[n]
    return state.with_table(n, t.with_entry(entry_of_result(state, ev, s.number, t.seats)))


def check_count(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    """A count made in play, keyed as it is made (set-up `in_play` "each"): Bergen's headers,
    Grimm's Tiddle-a-wink doubles. "Ten points made at any table ends a session, whereupon
    the bell is rung, and all tables stop playing at once" (BERGEN GAME party): the count
    that reaches ten rings the stop bell at once, mid-hand."""
    b, setup, s = p.what, state.setup, state.session
    game = b.game
    if state.final_count is not None or s is None or s.started is None:
        raise Refusal("NOT IN SESSION")
    t = s.tables[n]
    if not in_play(setup, t):
        raise Refusal("SEAT EMPTY")
    if t.closed is not None or table_done(setup, s, t):
        raise Refusal("TABLE DONE")
    if s.bell is not None and s.bell.meaning == "stop":
        raise Refusal("TABLE STOPPED")   # all tables stop at once: nothing made after the bell
    if game <= t.entered:
        raise Refusal("ALREADY SAVED")
    if t.pending is not None:
        raise NotYet("CONFIRM FIRST")
    if game != t.entered + 1:
        raise NotYet("NO SUCH GAME")
    if setup.seat_check and t.seat_check is None:
        raise NotYet("SEAT CHECK FIRST")
    scored = score_count(setup, t.seats, b.values)
    return Admit((p.judged(outcome=scored),), "COUNTED", n)   # bell_at: the table


def fold_count(state: PartyState, ev: Event) -> PartyState:
    """A count made in play: an entry of the game in hand that is not the game's result."""
    b = ev.what
    n = b.table
    t = state.table(n)
    scored = b.outcome if b.outcome is not None else score_count(state.setup, t.seats, b.values)
    entry = Entry.keyed(ev.id, ev.seq, state.session.number, n, b.game, tuple(t.seats),
                        b.values, scored.gains, scored.winners, in_play=True)
    return state.with_table(n, t.with_entry(entry))


def check_count_undone(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    """A table takes back the last count it keyed (a wrong seat, a double that was not one):
    counts are sent without a review page, so one key undoes one. Only while its hand is in
    play: once the hand's result is in, or the stop bell has rung, the count stands and only
    the conductor can annul it."""
    count, s = p.what.count, state.session
    if s is None or s.started is None:
        raise Refusal("NOT IN SESSION")
    t = s.tables[n]
    e = next((e for e in t.entries if e.id == count and e.in_play), None)
    if e is None:
        raise Refusal("NO SUCH COUNT")
    if e.annulled is not None:
        raise Refusal("ALREADY UNDONE")
    if e.game <= t.entered or t.closed is not None:
        raise Refusal("HAND CLOSED")
    if s.bell is not None and s.bell.meaning == "stop":
        raise Refusal("TABLE STOPPED")
    return Admit((p.judged(why="undone at the table"),), "COUNT UNDONE")


def fold_count_undone(state: PartyState, ev: Event) -> PartyState:
    """The table took back a count: it stays on record, annulled by the table."""
    return mend_entry(state, ev.what.count, lambda e: replace(e, annulled=mend_of(ev)),
                      ev.what.table)


def check_confirm(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    entry_id, seat = p.what.entry, p.what.seat
    where = find_entry(state, entry_id, n)
    if where is None or where[1] != n:
        raise Refusal("NO SUCH GAME")
    si, _, ei = where
    e = (state.play_offs[-1 - si] if si < 0 else state.sessions[si].tables[n]).entries[ei]
    if e.annulled is not None:
        raise Refusal("GAME ANNULLED")
    if not e.needs_confirm or e.confirmed_by is not None:
        raise Refusal("CONFIRMED")
    i = SEATS.index(seat)
    if e.seats[i] is None:
        raise Refusal("SEAT EMPTY")
    # "a player of the other side": not one who won the game (nor, with sides, his partner)
    if seat in e.winners or (state.setup.partnership and PARTNER[seat] in e.winners):
        raise Refusal("OTHER SIDE ONLY")
    # bell_at: the table, in the session on (positional: a keyword was 1 k instructions more)
    return Admit((p,), "CONFIRMED", n if si == len(state.sessions) - 1 else None)


def fold_confirm(state: PartyState, ev: Event) -> PartyState:
    w = ev.what   # an entry derives nothing: copied (mend_entry), not `replace`d (once per result confirmed)
    return mend_entry(state, w.entry, {"confirmed_by": w.seat}, w.table)


# -- seats, the bell, calls ----------------------------------------------------------------

def check_seat_check(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    setup, s = state.setup, state.sessions[-1] if state.sessions else None   # state.session, a call less
    keyed = p.what.cards   # card numbers by seat, each a whole number >= 0 (events.SeatCheck)
    if s is None or session_over(setup, s):
        raise Refusal("NOT IN SESSION")
    t = s.tables[n]
    if not in_play(setup, t):
        raise Refusal("SEAT EMPTY")
    if t.seat_check is not None:
        raise Refusal("SEATS CHECKED")
    numbers = [keyed.get(x, 0) for x in SEATS]
    given = [v for v in numbers if v]
    if len(given) != len(set(given)):
        raise Refusal("SEATED TWICE")
    for x, v, card in zip(SEATS, numbers, t.seats):
        if v != (number(card) if card else 0):
            raise Refusal(f"SEAT {x} WRONG")
    return Admit((p,), "SEATS OK")


def fold_seat_check(state: PartyState, ev: Event) -> PartyState:
    n = ev.what.table
    return state.with_table(n, state.table(n).noted(seat_check=ev.id))


def check_table_bell(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    s = state.session
    if s is None or s.started is None or session_over(state.setup, s):
        raise Refusal("NOT IN SESSION")
    if s.bell is not None:
        raise Refusal("BELL RUNG")
    due = bell_due(state, n, p)
    if not due:
        raise Refusal("GAMES REMAIN")
    return Admit((p, *due), "BELL RUNG")


def fold_table_bell(state: PartyState, ev: Event) -> PartyState:
    return state   # the claim is on record; the bell it rang follows as hub.bell-rung


def check_bell_ack(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    s = state.sessions[-1] if state.sessions else None   # state.session, a call less
    bell = p.what.bell
    for b in s.bells if s is not None else ():   # a loop: `any` over a generator was 3.6 k more
        if b.id == bell:
            break
    else:
        raise Refusal("NO SUCH BELL")
    if bell in s.tables[n].acks:
        raise Refusal("BELL SEEN")
    return Admit((p,), "BELL SEEN")


def fold_bell_ack(state: PartyState, ev: Event) -> PartyState:
    n = ev.what.table
    t = state.table(n)
    return state.with_table(n, t.noted(acks=t.acks.set(ev.what.bell, t.entered)))


def check_call(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    return Admit((p,), "CONDUCTOR CALLED")


def fold_call(state: PartyState, ev: Event) -> PartyState:
    n = ev.what.table
    return replace(state, calls=state.calls.set(n, state.calls.get(n, 0) + 1))


def check_call_answered(state: PartyState, p: Proposal, login: str, now: float) -> Admit:
    if not state.calls.get(p.what.table):
        raise Refusal("NO CALL")
    return Admit((p,), "ANSWERED")


def fold_call_answered(state: PartyState, ev: Event) -> PartyState:
    return replace(state, calls=state.calls.set(ev.what.table, 0))


def check_no_game(state: PartyState, p: Proposal, n: int, now: float) -> Admit:
    """After the finish bell ("he does not permit a new game to be started"), a table between
    games says it has no game in hand: its session is over, as the conductor's closing a
    table says (TABLE_CLOSED), without the conductor having to."""
    s = state.session
    if s is None or s.started is None or not in_play(state.setup, s.tables[n]):
        raise Refusal("NOT IN SESSION")
    if s.bell is None or s.bell.meaning != "finish":
        raise Refusal("NO FINISH BELL")
    closable(state, s, s.tables[n])
    return Admit((p,), "NO GAME IN HAND")


def fold_closed(state: PartyState, ev: Event) -> PartyState:
    """The table's session is over: "no game in hand", or closed by the conductor."""
    n = ev.what.table
    return state.with_table(n, state.table(n).noted(closed=mend_of(ev)))


KINDS = (
    Kind(k.RESULT, "table", check_result, fold_result),
    Kind(k.COUNT, "table", check_count, fold_count),
    Kind(k.COUNT_UNDONE, "table", check_count_undone, fold_count_undone),
    Kind(k.CONFIRM, "table", check_confirm, fold_confirm),
    Kind(k.SEAT_CHECK, "table", check_seat_check, fold_seat_check),
    Kind(k.TABLE_BELL, "table", check_table_bell, fold_table_bell),
    Kind(k.BELL_ACK, "table", check_bell_ack, fold_bell_ack),
    Kind(k.CALL, "table", check_call, fold_call),
    Kind(k.CALL_ANSWERED, "staff", check_call_answered, fold_call_answered),
    Kind(k.NO_GAME, "table", check_no_game, fold_closed),
)
