"""The conductor's state: small frozen values, folded from the journal (fold.py).

Everything here is data plus the few questions every other module asks of it
(which session is on, what a table may still key, who sits where). Nothing is
stored that can be derived cheaply from what is stored.

Why so long: a table's answers (games entered, the pending entry, what counts) are carried
on through each change the fold makes (`with_entry`, `with_mended`, `noted`), beside the
answers they carry, so that one reading shows both agree.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from hub.speed import DRAFTED, changed, copied, derived, forgotten, made, replace  # noqa: F401 (replace: the party's values' own)

from .cards import SEATS
from .frozen import EMPTY, Draft, FrozenMap
from .setup import Setup


@dataclass(frozen=True)
class Mend:
    """Who did something to the record, why, and in which event."""
    by: str      # the event's source: 'staff:ann', 'table:3', 'hub'
    why: str
    seq: int
    id: str


@dataclass(frozen=True)
class Guest:
    name: str
    checked_in: bool = False
    card: str | None = None
    left: Mend | None = None
    vacated: tuple | None = None   # (session, table, seat) the guest left empty, while gone
    start: int = 0                 # what his card started with (a late-comer, setup late_score)


@dataclass(frozen=True)
class Entry:
    """One game's result as keyed at a table (or a play-off), with its mends."""
    id: str                        # the journal event id of the result
    seq: int
    session: int                   # 0 for a play-off
    table: int
    game: int
    seats: tuple                   # the card at A, B, C, D when keyed (None: empty)
    values: FrozenMap
    gains: tuple                   # the form's measure for A-D
    winners: tuple                 # (the engine's whole outcome is in the journaled event)
    needs_confirm: bool = False
    confirmed_by: str | None = None    # the seat that confirmed it
    annulled: Mend | None = None
    corrections: tuple = ()        # Mend, oldest first
    in_play: bool = False          # a count made during game `game` (Bergen's header), not a game

    @staticmethod
    def keyed(id: str, seq: int, session: int, table: int, game: int, seats: tuple, values: FrozenMap,
              gains: tuple, winners: tuple, needs_confirm: bool = False, in_play: bool = False) -> "Entry":
        """An entry as its table keyed it, nothing mended yet: made without `__init__`'s call
        per field (a frozen dataclass sets each through object.__setattr__), as
        hub.event.Event.journaled makes an event: the fold makes one per result."""
        return made(Entry, {"id": id, "seq": seq, "session": session, "table": table, "game": game,
                            "seats": seats, "values": values, "gains": gains, "winners": winners,
                            "needs_confirm": needs_confirm, "confirmed_by": None, "annulled": None,
                            "corrections": (), "in_play": in_play})

    @property
    def live(self) -> bool:
        return self.annulled is None

    @property
    def counts(self) -> bool:
        return self.annulled is None and (not self.needs_confirm or self.confirmed_by is not None)

    @property
    def pending(self) -> bool:
        return self.annulled is None and self.needs_confirm and self.confirmed_by is None

    def gain_of(self, card: str) -> int:
        return sum(g for c, g in zip(self.seats, self.gains) if c == card)


@dataclass(frozen=True)
class Bell:
    id: str
    meaning: str                   # 'finish' | 'stop'
    session: int
    rung: Mend                     # by whom (a staff login, or 'hub' with the cause as why)
    final: bool = False            # ends the last session of a party run by the clock
    undone: Mend | None = None


@dataclass(frozen=True)
class TableSession:
    seats: tuple                                   # card or None at A, B, C, D
    entries: tuple = ()                            # Entry, in journal order
    seat_check: str | None = None                  # id of the accepted seat check
    acks: FrozenMap = EMPTY                        # bell id -> games entered when the board showed it
    annulled_in_hand: tuple = ()                   # Mend of games annulled before a result was keyed
    closed: Mend | None = None
    # Asked several times per input (the judge, the bell, the screen), the last three each a
    # walk over the session's entries: cached on the value, which never changes (replace
    # drops them; `with_entry`, which leaves the seats as they were, carries them on). A
    # replay's table is changed in place (`changed`: hub/speed.py) while its draft holds it:
    # a table `replace` makes is no draft's until one takes it (its mark dropped too).
    _derived: ClassVar = ("players", "entered", "pending", "counted", DRAFTED)

    @derived
    def players(self) -> int:
        return len(self.seats) - self.seats.count(None)

    @derived
    def entered(self) -> int:
        """Games with a live result (confirmed or not): the next game is this + 1."""
        return sum(e.annulled is None and not e.in_play for e in self.entries)   # `live`, less its call

    @derived
    def pending(self) -> Entry | None:
        return next((e for e in self.entries if e.pending), None)

    @derived
    def counted(self) -> "Counted":
        """What the entries that count add up to (the bell, the screen's points)."""
        c = _NOTHING_COUNTED
        for e in self.entries:
            c = c.plus(e)
        return c

    def gains_kept(self):
        """(card, gain) of each seat summed over the counted results, from `counted` where this
        table keeps it already (an audit's: the bell asks it at every result) and every result
        was keyed in today's seats; else None (the caller sums entry by entry: `counted` is not
        made for this, or the writer would keep it up at every result)."""
        counted, seats = self.__dict__.get("counted"), self.seats
        if counted is None:
            return None
        for e in self.entries:   # a loop: `any` over a generator here cost 0.2 % of an audit
            if e.seats != seats:
                return None
        return zip(seats, counted.points) if counted.last is not None else ()

    def with_entry(self, entry: Entry) -> "TableSession":
        """This table with one more entry, its answers above carried on from this one's
        rather than counted again over every entry (a result is folded in twice per game
        keyed, judged then replayed: docs/performance.md)."""
        answers = self.__dict__   # read, not written: the answers known of this one
        moved = {"entries": self.entries + (entry,)}
        if "entered" in answers:
            moved["entered"] = answers["entered"] + (entry.annulled is None and not entry.in_play)
        if "pending" in answers:
            moved["pending"] = answers["pending"] or (entry if entry.pending else None)
        if "counted" in answers:
            moved["counted"] = answers["counted"].plus(entry)
        return changed(self, moved)

    def with_mended(self, i: int, entry: Entry) -> "TableSession":
        """This table with its entry `i` now `entry` (confirmed, annulled, corrected), the
        answers above carried on where the change moves them simply (a confirmation: the
        table's last entry, pending, now counted) and dropped where not."""
        answers, entries = self.__dict__, self.entries
        was, last = entries[i], i == len(entries) - 1
        moved = {"entries": entries[:i] + (entry,) + entries[i + 1:]}
        forget = []
        if "entered" in answers:   # `live` spelled out, less its calls (once per result confirmed)
            moved["entered"] = answers["entered"] - (was.annulled is None and not was.in_play) \
                + (entry.annulled is None and not entry.in_play)
        if "pending" in answers:
            pending = answers["pending"]
            if pending is was and last:   # the first pending one, and none after it
                moved["pending"] = entry if entry.pending else None
            elif pending is was or was.pending != entry.pending:
                forget.append("pending")   # found anew, where it is asked for
        if "counted" in answers:   # `Entry.counts` spelled out, less its calls (an audit's confirmations)
            counted = was.annulled is None and (not was.needs_confirm or was.confirmed_by is not None)
            counts = entry.annulled is None and (not entry.needs_confirm or entry.confirmed_by is not None)
            if last and not counted and counts:   # the last entry, now counted: one more on the sum
                moved["counted"] = answers["counted"].plus(entry)
            elif counted or counts:
                forget.append("counted")   # counted anew, where it is asked for
        return changed(self, moved, forget)

    def noted(self, **changes) -> "TableSession":
        """This table with `changes` to what the answers above are not derived from (its seat
        check, the bells it has seen, its closing, the games annulled in hand): the answers
        carried on (a table is noted about once per game)."""
        if not changes.keys() <= _NOT_DERIVED_FROM:
            raise TypeError(f"the table's answers are derived from {sorted(changes.keys() - _NOT_DERIVED_FROM)}")
        return changed(self, changes)


_NOT_DERIVED_FROM = frozenset(("seat_check", "acks", "annulled_in_hand", "closed"))


class Counted(NamedTuple):
    """The entries of a table that count: games (a count made in play is none), the points
    of seats A-D (in the partnership forms A's are A+C's and B's B+D's: partners gain alike),
    and the last of them."""
    games: int = 0
    points: tuple = (0, 0, 0, 0)
    last: Entry | None = None

    def plus(self, e: Entry) -> "Counted":
        """With `e` if it counts: made without the named tuple's `__new__` (a Python function)
        and `Entry.counts` spelled out (an audit adds every result confirmed: together with
        `with_mended`'s, 1 % of its instructions)."""
        if e.annulled is not None or e.needs_confirm and e.confirmed_by is None:
            return self
        a, b, c, d = self.points
        ga, gb, gc, gd = e.gains
        return _tuple_new(Counted, (self.games + (not e.in_play), (a + ga, b + gb, c + gc, d + gd), e))


_NOTHING_COUNTED = Counted()
_tuple_new = tuple.__new__


@dataclass(frozen=True)
class Session:
    number: int
    tables: FrozenMap                              # table number -> TableSession
    seated: Mend                                   # the draw or the movement that seated it
    moves: tuple = ()                              # (card, (table, seat) before, (table, seat) now)
    lots: tuple = ()                               # the recorded lots (JSON-able dicts)
    started: Mend | None = None
    bells: tuple = ()                              # Bell
    began_at: float | None = None                  # when it started (a timed session's clock)
    # asked of every input (the judge, the bell due, each screen): kept on the value, dropped
    # by replace (a bell rung or undone), carried on by `with_table`; and its cards' gains,
    # summed by every movement and standings page (movement.session_gains), and the cards'
    # totals up to it (prizes.totals)
    _derived: ClassVar = ("bell", "gains", "won")

    @derived
    def bell(self) -> Bell | None:
        """The bell that stands: the last one not undone."""
        for b in reversed(self.bells):
            if b.undone is None:
                return b
        return None

    def with_table(self, n: int, t: TableSession) -> "Session":
        """This session with table `n` now `t` (`replace` spelled out, the bell known carried
        on: the fold puts a table back for every result). A replay's session, its tables a
        draft (fold.replay), is held by nobody else: changed in place and returned."""
        tables = self.tables
        if type(tables) is Draft:
            tables.set(n, t)
            if "gains" in self.__dict__:   # seldom asked during a replay: no call where none
                forgotten(self, "gains")
            return self
        return copied(self, {"tables": tables.set(n, t)}, ("gains",))

    def place_of(self, card: str) -> tuple[int, str] | None:
        for n, t in self.tables.items():
            if card in t.seats:
                return n, SEATS[t.seats.index(card)]
        return None


@dataclass(frozen=True)
class PlayOff:
    """A game among players tied for a prize ("they will have to play a game among themselves")."""
    prize: str
    table: int
    cards: tuple                                   # seated A, B, C ... in this order
    scheduled: Mend
    entries: tuple = ()


@dataclass(frozen=True)
class PartyState:
    setup: Setup | None = None
    created: Mend | None = None
    staff: FrozenMap = EMPTY                       # login -> 'conductor' | 'assistant'
    guests: FrozenMap = EMPTY                      # name -> Guest, in the list's order
    names: FrozenMap = EMPTY                       # names.normal(name) -> listed names: the door's
                                                   # near-duplicate check, one look-up a name
    holders: FrozenMap = EMPTY                     # card -> guest name
    sessions: tuple = ()                           # Session
    punches: tuple = ()                            # (session, card): a punch-hole for a remove
    calls: FrozenMap = EMPTY                       # table -> pending calls
    final_count: Mend | None = None
    play_offs: tuple = ()                          # PlayOff
    started_at: float | None = None                # when session I began (the clock's start)
    standings_hidden: Mend | None = None           # who hid the projector's standings, if hidden
    changes: tuple = ()                            # (what, Mend): the set-up and the list changed
    anomalies: tuple = ()                          # journaled events the fold could not apply
    seq: int = 0
    # nothing derived: a pass's own state (fold.drafting) keeps its mark through `replace`, and
    # its seq numbered in place is put back by `undo` (hub.speed.restored)
    _derived: ClassVar = ()

    @property
    def session(self) -> Session | None:
        return self.sessions[-1] if self.sessions else None

    def with_session(self, s: Session) -> "PartyState":
        """This state with `s` as its session (`replace` spelled out: one per result folded;
        nothing is derived on a party's state to drop)."""
        return copied(self, {"sessions": self.sessions[:-1] + (s,)})

    def table(self, n: int) -> TableSession:
        """Table `n` of the session on (the fold's steps: one look-up per event)."""
        return self.sessions[-1].tables[n]

    def with_table(self, n: int, t: TableSession) -> "PartyState":
        """This state with table `n` of its session now `t` (the fold puts a table back for
        most events: a result, a confirmation, a bell seen, a seat check). A replay's table,
        changed in place where its draft holds it (`changed`), is there already: only the
        session's gains are dropped (`Session.with_table`'s, without its call and the draft's)."""
        sessions = self.sessions
        s = sessions[-1]
        tables = s.tables
        if tables.get(n) is t and type(tables) is Draft:
            if "gains" in s.__dict__:
                forgotten(s, "gains")
            return self
        s = s.with_table(n, t)
        if s is sessions[-1]:   # a replay's session, changed in place: this state is the replay's
            return self
        return copied(self, {"sessions": sessions[:-1] + (s,)})


# -- the questions asked of a session --------------------------------------------------

def in_play(setup: Setup, t: TableSession) -> bool:
    """A table plays with two players or more; the partnership forms need all four
    ("There must always be four players at each table", BERGEN GAME)."""
    return t.players >= setup.fewest


def table_done(setup: Setup, s: Session, t: TableSession) -> bool:
    """True when the table has nothing more to key this session."""
    if t.closed is not None:
        return True
    if t.pending is not None:
        return False
    bell = s.bell
    if setup.games_per_session is not None and t.entered >= setup.games_per_session:
        return True
    if setup.session_points is not None and bell is not None and bell.meaning == "finish" \
            and max(t.counted.points) >= setup.session_points:
        return True   # its game is won: the others finish the hand in hand (Muggins' party)
    if bell is None:
        return False
    seen = t.acks.get(bell.id)
    if seen is None:
        return False
    if bell.meaning == "stop":
        return True
    # finish: the game in hand when the board showed the bell, then no new one
    return t.entered >= seen + 1


def table_state(setup: Setup, s: Session, n: int) -> str:
    t = s.tables[n]
    if not in_play(setup, t):
        return "idle"
    if s.started is None:
        return "waiting"
    if table_done(setup, s, t):
        return "done"
    bell = s.bell
    if bell is None:
        return "playing"
    return "stopped" if bell.meaning == "stop" else "finishing"


def session_phase(state: "PartyState", s: Session) -> str:
    """Where session `s` stands, the one place that says it (the standings, the console):
    seated | playing | finishing | stopped (by the bell's meaning) | ended | over (the last)."""
    if s.started is None:
        return "seated"
    if session_over(state.setup, s):
        return "over" if last_session(state) else "ended"
    bell = s.bell
    if bell is None:
        return "playing"
    return "stopped" if bell.meaning == "stop" else "finishing"


def session_over(setup: Setup, s: Session) -> bool:
    return (s.started is not None and s.bell is not None and
            all(table_done(setup, s, t) for t in s.tables.values() if in_play(setup, t)))


def missing(setup: Setup, s: Session) -> list[int]:
    """Tables whose result (or bell acknowledgement) is still awaited. Only a bell makes a
    table late: before it every table in play is simply playing (a session ends only after one)."""
    if s.bell is None:
        return []
    return [n for n, t in sorted(s.tables.items())
            if in_play(setup, t) and not table_done(setup, s, t)]


def last_session(state: PartyState) -> bool:
    s, setup = state.session, state.setup
    if s is None:
        return False
    if setup.sessions is not None and s.number >= setup.sessions:
        return True
    bell = s.bell
    return bell is not None and bell.final


def party_over(state: PartyState) -> bool:
    """Every session played: what remains is the final count, prizes and play-offs."""
    s = state.session
    return s is not None and last_session(state) and session_over(state.setup, s)


def seated_cards(s: Session) -> dict[str, tuple[int, str]]:
    return {c: (n, SEATS[i]) for n, t in s.tables.items() for i, c in enumerate(t.seats)
            if c is not None}


def removable_table(state: PartyState) -> int | None:
    """The last table, if it may be taken away again (one added by mistake): more than one
    table, before the final count, and nobody seated there in any session (no player, no
    result, no guest who left a seat there)."""
    setup = state.setup
    if setup is None or setup.tables < 2 or state.final_count is not None:
        return None
    n = setup.tables
    tables = [s.tables[n] for s in state.sessions if n in s.tables]
    if any(t.players or t.entries for t in tables) or \
            any(g.vacated and g.vacated[1] == n for g in state.guests.values()):
        return None
    return n


def played_cards(state: PartyState) -> set:
    """The cards a game was played with: in a result's seats, or seated by a session before
    this one. A card never played with can go back to the tray (a check-in undone) without
    a score-card losing anything."""
    out = {c for s in state.sessions[:-1] for t in s.tables.values() for c in t.seats}
    s = state.session
    if s is not None:
        out.update(c for t in s.tables.values() for e in t.entries for c in e.seats)
    out.discard(None)
    return out


def present(state: PartyState) -> list[str]:
    """Cards of guests checked in and not gone, in the successive order of cards."""
    from .cards import number
    return sorted((g.card for g in state.guests.values() if g.card and g.left is None), key=number)


def find_entry(state: PartyState, entry_id: str, table: int | None = None
               ) -> tuple[int, int, int] | None:
    """(session index, table, entry index) of a result, or None; play-offs: session index -1.
    `table`, where known, is searched first (a confirmation comes from the entry's table)."""
    sessions = state.sessions
    t = sessions[-1].tables.get(table) if table is not None and sessions else None
    if t is not None:
        entries = t.entries
        for ei in range(len(entries) - 1, -1, -1):   # the last first: a confirmation's
            if entries[ei].id == entry_id:
                return len(sessions) - 1, table, ei
    for si in range(len(state.sessions) - 1, -1, -1):
        for n, t in state.sessions[si].tables.items():
            for ei, e in enumerate(t.entries):
                if e.id == entry_id:
                    return si, n, ei
    for pi, p in enumerate(state.play_offs):
        for ei, e in enumerate(p.entries):
            if e.id == entry_id:
                return -1 - pi, p.table, ei
    return None
