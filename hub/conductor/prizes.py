"""What each card has won, the prizes, and the play-offs that settle ties for them.

Book: 000_ff8a6ed40036e836.txt. PRIZES: "When you intend to have only three
tables, one prize will be sufficient; for more than three tables, have two
prizes; for more than six tables, have three prizes". BOOBY PRIZE: optional,
"for the player having had the least luck". Ties (THIRD SESSION): "If two or
more players have the same amount of points sufficient to win one of the
prizes, then they will have to play a game among themselves ... Suppose two
players each have the same amount necessary to win the second prize, then the
conductor awards the first and third prizes before he gives out the second
prize" — so the tied players compete for one prize and the next prize goes to
the next amount. Bergen (and Tiddle-a-wink, whose score-cards "are made up in
the same manner"): "Prizes are awarded to the luckiest player of each side, the
one who has gained the greatest number of punch-holes on his card."
"""
from __future__ import annotations

from dataclasses import dataclass

from hub.speed import kept

from .cards import colour
from .movement import session_gains, side_by_play, winners
from .setup import book_prizes
from .state import PartyState, PlayOff, in_play, present


def totals(state: PartyState) -> dict[str, int]:
    """Each card's amount by the form's measure: sixteenths or quarters won, games won
    (Sebastopol's punched games), or punch-holes (Bergen, Tiddle-a-wink)."""
    out = dict.fromkeys(state.holders, 0)
    if state.setup.partnership:
        for _, card in punch_holes(state):
            out[card] = out.get(card, 0) + 1
        return out
    sessions = state.sessions
    if sessions:
        # the sum before the session on put over the noughts as it is (copied in C, not a
        # card at a time: a thousand at each move), the session on added by itself: its
        # gains change at every result, the sum before it not
        out.update(_won(sessions[:-1]))
        for card, g in session_gains(sessions[-1]).items():
            out[card] = out.get(card, 0) + g
    for g in state.guests.values():
        if g.start and g.card in out:   # a late-comer seated with his table's highest score
            out[g.card] += g.start
    return out


def _won(sessions) -> dict[str, int]:
    """What each card won in `sessions`, in the order the cards first won: each session
    keeps the sum up to it, valid while its gains and the sum before it are the same values
    (a result of a session before mended: that session's gains anew, and every sum after it).
    Summed anew over every session at each move, it was 4 % of the audit of a 44-session
    party's journal (docs/performance.md, section 4)."""
    won = _NOTHING_WON
    for s in sessions:
        gains = session_gains(s)
        won = kept(s, "won", (won, gains), lambda: _plus(won, gains))
    return won


_NOTHING_WON: dict[str, int] = {}   # the sum before the first session: the same at each call


def _plus(won: dict, gains) -> dict[str, int]:
    out = dict(won)
    for card, g in gains.items():
        out[card] = out.get(card, 0) + g
    return out


def table_highest(state: PartyState, table: int) -> int:
    """The highest total of the players at `table` now (0 at a table nobody has scored at)."""
    amount = totals(state)
    return max((amount.get(c, 0) for c in state.session.tables[table].seats if c), default=0)


def punch_holes(state: PartyState) -> tuple:
    """(session, card) for every punch-hole (Bergen, Tiddle-a-wink): "The partners having
    won the greatest number of points at that moment get each a punch hole". They are
    journaled when the players move (the last session's at the final count); a result of
    that session corrected afterwards punches the partners its corrected points make the
    winners instead, while the seating stays as journaled (docs/conductor.md). A table
    whose winners only a lot can tell keeps the holes the lot gave. The session in play
    (not yet moved from, nor counted) shows the holes its points give at this moment, as
    they are made: the room sees them before the host moves the players; a table whose
    winners only a lot can tell has none until the lot is drawn."""
    journaled: dict[int, set] = {}
    for session, card in state.punches:
        journaled.setdefault(session, set()).add(card)
    live = state.sessions[-1] if state.sessions and state.final_count is None else None
    out = []
    for s in state.sessions:
        punched = journaled.get(s.number, set())
        for n in sorted(s.tables):
            t = s.tables[n]
            given = [c for c in t.seats if c in punched]
            if given or s is live:
                side = side_by_play(t)
                out += [(s.number, c) for c in (winners(t, side) if side else given)]
    return tuple(out)


@dataclass(frozen=True)
class Award:
    prize: str            # "1", "2", ... "booby", or "White" / "Red"
    cards: tuple          # the candidates: one, or those tied for it
    amount: int
    winner: str | None    # decided (a single candidate, or the play-off's winner)

    @property
    def needs_play_off(self) -> bool:
        return len(self.cards) > 1 and self.winner is None


def prize_count(state: PartyState) -> int:
    if state.setup.prizes is not None:
        return state.setup.prizes
    first = state.sessions[0] if state.sessions else None
    tables = sum(in_play(state.setup, t) for t in first.tables.values()) if first else 0
    return book_prizes(tables)


def awards(state: PartyState) -> list[Award]:
    """The prizes in the order the conductor gives them out (ties settled last)."""
    if not state.sessions:
        return []
    amount = totals(state)
    cards = present(state)
    out: list[Award] = []
    if state.setup.partnership:
        for side in ("White", "Red"):
            out += _by_groups(state, [c for c in cards if colour(c) == side], amount, [side])
    else:
        names = [str(i) for i in range(1, prize_count(state) + 1)]
        out += _by_groups(state, cards, amount, names)
    if state.setup.booby:
        taken = {c for a in out for c in a.cards}
        rest = [c for c in cards if c not in taken]
        if rest:
            low = (max if state.setup.lowest_wins else min)(amount[c] for c in rest)
            tied = tuple(c for c in rest if amount[c] == low)
            out.append(_award(state, "booby", tied, low))
    return out


def _by_groups(state, cards, amount, names) -> list[Award]:
    # the best amount first: the highest, or the lowest where the lowest wins (the train games)
    ranked = sorted({amount[c] for c in cards}, reverse=not state.setup.lowest_wins)
    out = []
    for name, value in zip(names, ranked):
        out.append(_award(state, name, tuple(c for c in cards if amount[c] == value), value))
    return out


def _award(state, prize, cards, value) -> Award:
    if len(cards) == 1:
        return Award(prize, cards, value, cards[0])
    play_off = next((p for p in state.play_offs if p.prize == prize), None)
    return Award(prize, cards, value, play_off_winner(play_off, state.setup.lowest_wins) if play_off else None)


def play_off_winner(p: PlayOff, lowest_wins: bool = False) -> str | None:
    """The play-off's decided card: the most in its last counted game (for the booby, the
    least; both the other way where the lowest wins); equal again: not decided, the tied play
    another game."""
    games = [e for e in p.entries if e.counts]
    if not games:
        return None
    last = games[-1]
    pick = min if (p.prize == "booby") != lowest_wins else max
    best = pick(g for c, g in zip(last.seats, last.gains) if c)
    tied = [c for c, g in zip(last.seats, last.gains) if c and g == best]
    return tied[0] if len(tied) == 1 else None


def open_play_off(state: PartyState, table: int) -> int | None:
    """The index of the undecided play-off at `table`, if any."""
    for i, p in enumerate(state.play_offs):
        if p.table == table and play_off_winner(p, state.setup.lowest_wins) is None:
            return i
    return None
