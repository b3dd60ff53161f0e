"""Every kind of event the book's party journals: the one place that lists them, read top
to bottom as the journal's vocabulary (docs/journal.md).
Why so long: one kind's body is a few lines, and a reader of the journal finds every one here.

Each kind is one frozen value, its body's fields in the domain's words, declared with
`kind` (hub/conductor/body.py: how a body is read once, at the journal's edge, refused
with a reason the table's display can show if malformed, and spelled back as JSON).
What the conductor does with each kind is its concern's, in hub/conductor/kinds/.

Table kinds are the protocol's event kinds prefixed `table.` (docs/protocol.md);
their body is the protocol body plus "table" and "board". Staff kinds come from
the console, with source 'staff:<login>', so every action is recorded under its
author's name. Hub kinds are decisions the hub takes on its own (source 'hub'),
each naming "by": the source of the request or result that brought it about.
A decision's outcome, and a result's score (`outcome`), are filled in by the judge
and recorded, never recomputed on replay (docs/journal.md).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .body import BAD, BODIES, Body, Outcome, read  # noqa: F401 (the kinds' vocabulary, with them)
from .body import Cards, Json, Seat, SeatNumbers, TablesSeats, Texts, Values, kind
from .frozen import frozen, thawed


# -- from the tables ---------------------------------------------------------
RESULT = "table.result"
CONFIRM = "table.confirm"
SEAT_CHECK = "table.seat-check"
TABLE_BELL = "table.bell"
BELL_ACK = "table.bell-ack"
CALL = "table.call"
NO_GAME = "table.no-game"
COUNT = "table.count"
COUNT_UNDONE = "table.count-undone"

TABLE_KINDS = frozenset({RESULT, CONFIRM, SEAT_CHECK, TABLE_BELL, BELL_ACK, CALL, NO_GAME, COUNT,
                         COUNT_UNDONE})


@dataclass(frozen=True, slots=True)
class Keyed(Body):
    """The values a table keyed for a game (`outcome` filled in by the judge)."""
    table: int
    game: int
    values: Values
    board: str | None = None   # the board that sent it (the MQTT edge adds it)
    outcome: Outcome | None = None


@kind(RESULT, table="WRONG TABLE")
class Result(Keyed):
    """A game's result as keyed (a play-off's too)."""


@kind(COUNT, table="WRONG TABLE")
class Count(Keyed):
    """A count made in play (set-up in_play "each"): an entry of the game in hand."""


@kind(COUNT_UNDONE, table="WRONG TABLE", count="NO SUCH COUNT")
class CountUndone(Body):
    """The table takes back its count `count` (the count's event id) of game `game`; the
    count stays on record, annulled by the table (`why` filled in by the judge)."""
    table: int
    game: int
    count: str
    board: str | None = None   # the board that sent it (the MQTT edge adds it)
    why: str | None = None


@kind(CONFIRM, table="WRONG TABLE")
class Confirm(Body):
    """A player of the other side confirms a result, by his seat."""
    table: int
    entry: str
    seat: Seat
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(SEAT_CHECK, table="WRONG TABLE")
class SeatCheck(Body):
    table: int
    cards: SeatNumbers
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(TABLE_BELL, table="WRONG TABLE")
class TableBell(Body):
    """A table claims the end of the session."""
    table: int
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(BELL_ACK, table="WRONG TABLE", bell="NO SUCH BELL")
class BellAck(Body):
    table: int
    bell: str
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(CALL, table="WRONG TABLE")
class Call(Body):
    """The table calls the conductor."""
    table: int
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


@kind(NO_GAME, table="WRONG TABLE")
class NoGame(Body):
    """After a finish bell: between games, no game in hand."""
    table: int
    board: str | None = None   # the board that sent it (the MQTT edge adds it)


# -- from the staff (the conductor and assistants) ----------------------------
# A decision the hub takes on a staff request (a draw, a movement) follows it as
# a `hub.` event: the request is journaled exactly as the console sent it, so a
# resent request is recognised, and the outcome is journaled, never recomputed.
PARTY_CREATED = "conductor.party-created"
STAFF_ADDED = "conductor.staff-added"
STAFF_REMOVED = "conductor.staff-removed"
GUEST_LISTED = "conductor.guest-listed"
CHECKED_IN = "conductor.guest-checked-in"
DRAW_SEATS = "conductor.draw-seats"
GUEST_SEATED = "conductor.guest-seated"
GUEST_LEFT = "conductor.guest-left"
GUEST_BACK = "conductor.guest-back"
SESSION_STARTED = "conductor.session-started"
BELL = "conductor.bell"
BELL_UNDONE = "conductor.bell-undone"
RESULT_CORRECTED = "conductor.result-corrected"
GAME_ANNULLED = "conductor.game-annulled"
TABLE_CLOSED = "conductor.table-closed"
CALL_ANSWERED = "conductor.call-answered"
RESEAT = "conductor.reseat"
FINAL_COUNT = "conductor.final-count"
PLAY_OFF = "conductor.play-off"
WALK_IN = "conductor.walk-in"
CHECK_IN_UNDONE = "conductor.check-in-undone"
ALL_CHECKED_IN = "conductor.all-checked-in"
GUEST_RENAMED = "conductor.guest-renamed"
GUEST_REMOVED = "conductor.guest-removed"
CARD_DRAWN = "conductor.card-drawn"
TABLE_ADDED = "conductor.table-added"
TABLE_REMOVED = "conductor.table-removed"
PARTY_CHANGED = "conductor.party-changed"
DRAW_UNDONE = "conductor.draw-undone"
DISPLAY_CHANGED = "conductor.display-changed"

STAFF_KINDS = frozenset({
    PARTY_CREATED, STAFF_ADDED, GUEST_LISTED, CHECKED_IN, DRAW_SEATS, GUEST_SEATED, GUEST_LEFT,
    SESSION_STARTED, BELL, BELL_UNDONE, RESULT_CORRECTED, GAME_ANNULLED, TABLE_CLOSED,
    CALL_ANSWERED, RESEAT, FINAL_COUNT, PLAY_OFF, WALK_IN, CHECK_IN_UNDONE, ALL_CHECKED_IN,
    GUEST_RENAMED, GUEST_REMOVED, CARD_DRAWN, TABLE_ADDED, PARTY_CHANGED, DISPLAY_CHANGED,
    DRAW_UNDONE, GUEST_BACK, TABLE_REMOVED, STAFF_REMOVED,
})

# A mend names why (a text; the judge refuses an empty one with SAY WHY); a name on the
# guest list is a text (BAD NAME).


@kind(PARTY_CREATED)
class PartyCreated(Body):
    """The set-up's keys as the console sent them (form, tables, variant, tile_set,
    games_per_session, sessions, time_limit, prizes, booby, confirm, seat_check,
    precedence, head_table, in_play): read by hub/conductor/setup.py, the one place that
    knows them and their defaults."""
    setup: Json

    @staticmethod
    def read(body: Mapping) -> "PartyCreated":
        return PartyCreated(frozen(body))

    def to_json(self) -> dict:
        return thawed(self.setup)


@kind(STAFF_ADDED, login="BAD LOGIN", role="BAD LOGIN")
class StaffAdded(Body):
    login: str
    role: str | None = None   # "assistant" (None) or "conductor"


@kind(STAFF_REMOVED, login="NO SUCH LOGIN", why="SAY WHY")
class StaffRemoved(Body):
    """A login added by mistake, or no longer trusted; what it did stays on record under its name."""
    login: str
    why: str


@kind(GUEST_LISTED, guest="BAD NAME")
class GuestListed(Body):
    guest: str
    similar_ok: bool | None = None   # the host says a near-duplicate name is another person


@kind(CHECKED_IN, guest="BAD NAME")
class CheckedIn(Body):
    """After the draw it is followed by hub.guest-placed."""
    guest: str


@kind(DRAW_SEATS)
class DrawSeats(Body):
    """The hub draws the cards (followed by hub.seats-drawn), or `by_hand`: the seats
    follow the printed cards drawn from the tray."""
    seed: int | None = None
    by_hand: bool | None = None


@kind(GUEST_SEATED, guest="BAD NAME", table="NO SUCH SEAT", seat="NO SUCH SEAT", why="SAY WHY")
class GuestSeated(Body):
    """The conductor moves a guest to a vacant seat (a mistake, an empty seat)."""
    guest: str
    table: int
    seat: Seat
    why: str


@kind(GUEST_LEFT, guest="BAD NAME", why="SAY WHY")
class GuestLeft(Body):
    guest: str
    why: str


@kind(GUEST_BACK, guest="BAD NAME", why="SAY WHY")
class GuestBack(Body):
    """A guest who left comes back (or the leaving was pressed on the wrong row); after the
    draw followed by hub.guest-placed: his own card, a seat."""
    guest: str
    why: str


@kind(SESSION_STARTED, session="WRONG SESSION")
class SessionStarted(Body):
    """The bell that starts play."""
    session: int


@kind(BELL, why="SAY WHY")
class ConductorBell(Body):
    meaning: str   # "finish" | "stop"
    final: bool | None = None
    why: str | None = None


@kind(BELL_UNDONE, bell="NO SUCH BELL", why="SAY WHY")
class BellUndone(Body):
    bell: str
    why: str


@kind(RESULT_CORRECTED, entry="NO SUCH GAME", why="SAY WHY")
class ResultCorrected(Body):
    entry: str
    values: Values
    why: str
    outcome: Outcome | None = None


@kind(GAME_ANNULLED, table="NOT IN SESSION", entry="NO SUCH GAME", why="SAY WHY")
class GameAnnulled(Body):
    """A result (`entry`), or the game in hand at `table`."""
    why: str
    table: int | None = None   # with `entry`, the entry's table, checked against it
    entry: str | None = None


@kind(TABLE_CLOSED, table="NOT IN SESSION", why="SAY WHY")
class TableClosed(Body):
    """No game in hand: the session is over at that table."""
    table: int
    why: str


@kind(CALL_ANSWERED, table="NO CALL")
class CallAnswered(Body):
    table: int


@kind(RESEAT)
class Reseat(Body):
    """Followed by hub.players-moved."""
    seed: int | None = None


@kind(FINAL_COUNT)
class FinalCount(Body):
    """Every card accounted for, every game counted; in a Bergen or Tiddle-a-wink party
    followed by hub.punched (its lots drawn with `seed`, if given)."""
    seed: int | None = None


@kind(PLAY_OFF, prize="NO TIE", table="UNKNOWN TABLE")
class PlayOff(Body):
    """Followed by hub.play-off-seated."""
    prize: str
    table: int


@kind(WALK_IN, guest="BAD NAME")
class WalkIn(Body):
    """Listed and checked in at once; after the draw followed by hub.guest-placed."""
    guest: str
    similar_ok: bool | None = None


@kind(CHECK_IN_UNDONE, guest="BAD NAME", why="SAY WHY")
class CheckInUndone(Body):
    """Before the guest has a card."""
    guest: str
    why: str


@kind(ALL_CHECKED_IN)
class AllCheckedIn(Body):
    """Every listed guest not yet in, before the draw."""


@kind(GUEST_RENAMED, guest="BAD NAME", name="BAD NAME", why="SAY WHY")
class GuestRenamed(Body):
    guest: str
    name: str
    why: str
    similar_ok: bool | None = None


@kind(GUEST_REMOVED, guest="BAD NAME", why="SAY WHY")
class GuestRemoved(Body):
    """A guest who never had a card."""
    guest: str
    why: str


@kind(CARD_DRAWN, guest="BAD NAME", card="NO SUCH CARD")
class CardDrawn(Body):
    """A printed card drawn from the tray, recorded by hand (None: the record undone)."""
    guest: str
    card: str | None


@kind(TABLE_ADDED, why="SAY WHY")
class TableAdded(Body):
    """A new last table, at any time before the count."""
    why: str


@kind(TABLE_REMOVED, why="SAY WHY")
class TableRemoved(Body):
    """The last table, nobody ever seated there (one added by mistake)."""
    why: str


@kind(PARTY_CHANGED, changes="NO CHANGE", why="SAY WHY")
class PartyChanged(Body):
    changes: Values   # {setup key: value}, read by hub/conductor/setup.py
    why: str


@kind(DRAW_UNDONE, why="SAY WHY")
class DrawUndone(Body):
    """Every card back in the tray, before play begins."""
    why: str


@kind(DISPLAY_CHANGED)
class DisplayChanged(Body):
    """The projector's standings hidden for the last session's suspense, or shown."""
    standings: str   # "hidden" | "shown"


# -- the hub's own decisions (source 'hub') -------------------------------------
HUB_BELL = "hub.bell-rung"
SEATS_DRAWN = "hub.seats-drawn"
GUEST_PLACED = "hub.guest-placed"
PLAYERS_MOVED = "hub.players-moved"
PLAY_OFF_SEATED = "hub.play-off-seated"
PUNCHED = "hub.punched"

HUB_KINDS = frozenset({HUB_BELL, SEATS_DRAWN, GUEST_PLACED, PLAYERS_MOVED, PLAY_OFF_SEATED,
                       PUNCHED})


@kind(HUB_BELL)
class HubBell(Body):
    """The bell the hub rings: a table's counted results ({table, game}) or the clock ("time")."""
    meaning: str
    cause: Json
    final: bool | None = None
    by: str | None = None


@kind(SEATS_DRAWN)
class SeatsDrawn(Body):
    seed: int | None   # None: by hand, the seats follow the cards drawn from the tray
    cards: Cards
    by_hand: bool | None = None
    by: str | None = None


@kind(GUEST_PLACED)
class GuestPlaced(Body):
    """A late-comer's card and seat; `start`: the amount his card starts with, where the
    club seats late-comers with the table's highest score (setup `late_score`)."""
    guest: str
    card: str
    table: int
    seat: Seat
    by: str | None = None
    start: int | None = None


@kind(PLAYERS_MOVED)
class PlayersMoved(Body):
    """The next session's seats, the lots drawn and the punch-holes earned."""
    session: int
    seed: int
    seats: TablesSeats
    lots: Json
    punches: Texts
    by: str | None = None


@kind(PLAY_OFF_SEATED)
class PlayOffSeated(Body):
    prize: str
    table: int
    cards: Texts
    by: str | None = None


@kind(PUNCHED)
class Punched(Body):
    """The last session's removes, at the final count of a Bergen or Tiddle-a-wink party."""
    session: int
    seed: int
    lots: Json
    punches: Texts
    by: str | None = None
