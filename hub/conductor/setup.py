"""The party's set-up: form of game, tables, sessions, prizes and the named options.

Defaults follow the book (000_ff8a6ed40036e836.txt, "HOW TO GIVE MUSICAL DOMINO
PARTIES"): Block and Draw play four games a session and three sessions; All
Quarters three games, three sessions; Sebastopol three games and "There are four
sessions"; Bergen and Tiddle-a-wink end a session at ten points and the party
"lasts an hour and a half, and the sessions are not counted".

Named options where the book is ambiguous or silent:
- precedence: "table-1-first" (default) or "larger-number-first". The tie rule
  "the card with a higher table-number has the precedence" — the book calls the
  tables nearer Table 1 higher throughout ("the two luckiest of every table are
  promoted to the preceding table", "move to the next (higher) table", "players
  at the lower tables may get ahead of the players at the first table"), so by
  its own usage the higher table is the one nearer Table 1; the literal reading
  (the larger number) is kept as the other option.
- head_table: what Table 1's winners do where the book does not say (Sebastopol,
  Bergen, Tiddle-a-wink). "to-last" (default): they go to the last table, the
  one rule the book does state for Table 1 (Block: "promotes the two players who
  have gained the highest amounts ... to the lowest table"); "stay": they stay at
  Table 1 and Table 1's losers go to the last table, as in progressive games
  where the head table keeps its winners.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import ClassVar

from hub.refusal import Refusal
from hub.scoring import get_form
from hub.scoring.forms.trains import BLANKS
from hub.speed import derived_by_setattr as derived

from .forms import FORMS as PARTY_FORMS, PartyForm

# the party forms' names, in the order they are listed (hub/conductor/forms/: one module each)
FORMS = tuple(PARTY_FORMS)
PARTNERSHIP_FORMS = frozenset(n for n, f in PARTY_FORMS.items() if f.partnership)


@dataclass(frozen=True)
class Setup:
    form: str
    variant: str | None
    tile_set: str | None            # None: the engine's set for the variant (Grimm: musical)
    tables: int
    games_per_session: int | None   # None: the session ends at `session_points` (partnership forms)
    session_points: int | None
    sessions: int | None            # None: the party runs until `time_limit`
    time_limit: float | None        # minutes
    prizes: int | None              # None: the book's count by tables in play
    booby: bool
    confirm: bool                   # a result counts only once the other side confirms it
    seat_check: bool                # a table keys its seats before its first result of a session
    precedence: str
    head_table: str
    # "each": the partnership forms key each count as it is made (Bergen's headers, Tiddle-a-
    # wink's doubles), so ten points stop the session at once; "hand": in the hand's entry
    # (the other forms always: All Quarters' many small counts are fewer keys summed)
    in_play: str = "hand"
    # the named options of the forms that have them (the train games, forms/trains.py): the
    # movement among the form's own, minutes a session runs before the hub rings its bell (a
    # timed game), the bell's meaning where the form leaves it to the club ("finish" the round
    # in hand or "stop" it), what a late-comer's card starts with ("table-highest": the highest
    # total at the table he joins), the pieces dealt each where a club deals its own
    movement: str | None = None     # None: the form's
    session_limit: float | None = None
    bell: str | None = None         # None: the form's
    late_score: str | None = None   # None: a late-comer starts at 0
    hand: int | None = None         # None: the engine's deal for the players
    blanks: str | None = None       # the house rule for blanks left in hand (None: their spots)

    def __hash__(self) -> int:
        # Asked on every look-up of a cache keyed by the set-up (a result's door to the
        # engine, a screen's form), where hashing all fifteen fields would cost more than the
        # look-up (docs/performance.md). Equal set-ups have the same form, so this hash is
        # sound; a party has one set-up at a time, so set-ups that differ elsewhere rarely
        # meet in one cache.
        return hash(self.form)

    # The form's answers below are asked of the set-up for every result judged and every
    # screen made (a table in play, the partnership's rule): each is kept on the set-up the
    # first time (hub/speed.py's `derived_by_setattr`), a look-up after that rather than a
    # property's call each time. A set-up never changes once made: they stay true (a copy
    # with other fields, hub/speed.py's `replace`, drops them).
    _derived: ClassVar = ("party_form", "game", "partnership", "moving", "lowest_wins", "fewest",
                          "bell_meaning", "measure")

    @derived
    def party_form(self) -> PartyForm:
        return PARTY_FORMS[self.form]

    @derived
    def game(self) -> str:
        """The scoring engine's form its tables play."""
        return PARTY_FORMS[self.form].game

    @derived
    def partnership(self) -> bool:
        return PARTY_FORMS[self.form].partnership

    @derived
    def moving(self) -> str:
        """How the players move after a session: the set-up's choice, or the form's."""
        return self.movement or PARTY_FORMS[self.form].movement

    @derived
    def lowest_wins(self) -> bool:
        return PARTY_FORMS[self.form].lowest_wins

    @derived
    def fewest(self) -> int:
        """The fewest players a table of this form plays with (four in the partnership forms:
        "There must always be four players at each table", BERGEN GAME)."""
        return PARTY_FORMS[self.form].players

    @derived
    def bell_meaning(self) -> str:
        """What the conductor's bell means in this form (000_ff8a6ed40036e836.txt): Block,
        Draw, All-Quarters, Sebastopol — "he requests the other tables to finish the games
        they are playing" (finish); Bergen, Tiddle-a-wink — "whereupon the bell is rung, and
        all tables stop playing at once" (stop). Each form says its own (forms/)."""
        return self.bell or PARTY_FORMS[self.form].bell

    @derived
    def measure(self) -> str:
        return PARTY_FORMS[self.form].measure

    def to_json(self) -> dict:
        # its fields, not the answers derived from them and kept beside them (read as
        # attributes: its `__dict__` asked for would slow every read after: hub/speed.py)
        return {name: getattr(self, name) for name in _FIELDS}


_FIELDS = tuple(f.name for f in fields(Setup))


MOST_TABLES = 999   # a party's tables at most (the console's table fields take no more)


def from_body(body: dict) -> Setup:
    form = body.get("form")
    if form not in FORMS:
        raise Refusal("UNKNOWN FORM")
    tables = body.get("tables")
    if not isinstance(tables, int) or isinstance(tables, bool) or not 1 <= tables <= MOST_TABLES:
        raise Refusal("BAD TABLES")
    if any(body.get(key) is not None and type(body[key]) is not str for key in ("variant", "tile_set")):
        raise Refusal("NO SUCH VARIANT")
    book = PARTY_FORMS[form]
    by_points = book.session_points is not None   # the session ends at `session_points`
    games = body.get("games_per_session", book.games)
    if book.rounds and games is None:
        games = _rounds(book.game, body.get("variant") or book.variant, body.get("tile_set"))
    sessions = body.get("sessions", book.sessions)
    time_limit = body.get("time_limit", book.time_limit if "sessions" not in body else None)
    precedence = body.get("precedence", "table-1-first")
    head_table = body.get("head_table", "to-last")
    if games is not None and (not isinstance(games, int) or games < 1):
        raise Refusal("BAD GAMES")
    if sessions is not None and (not isinstance(sessions, int) or sessions < 1):
        raise Refusal("BAD SESSIONS")
    if sessions is None and time_limit is None:
        raise Refusal("SESSIONS OR TIME")
    if time_limit is not None and (type(time_limit) not in (int, float) or not 0 < time_limit < 10_000):
        raise Refusal("BAD TIME LIMIT")
    points = body.get("session_points", book.session_points or 10)
    if type(points) is not int or points < 1:
        raise Refusal("BAD POINTS")
    if precedence not in ("table-1-first", "larger-number-first"):
        raise Refusal("BAD PRECEDENCE")
    if head_table not in ("to-last", "stay"):
        raise Refusal("BAD HEAD TABLE")
    in_play = body.get("in_play", "hand")
    if in_play not in ("hand", "each"):
        raise Refusal("BAD IN PLAY")
    prizes = body.get("prizes")
    if prizes is not None and (not isinstance(prizes, int) or prizes < 0):
        raise Refusal("BAD PRIZES")
    options = _club_options(book, body)
    return Setup(
        form=form, variant=body.get("variant"), tile_set=body.get("tile_set"),
        tables=tables, games_per_session=None if by_points else games,
        session_points=points if by_points else None,
        sessions=sessions, time_limit=time_limit, prizes=prizes,
        booby=bool(body.get("booby", False)), confirm=bool(body.get("confirm", False)),
        seat_check=bool(body.get("seat_check", True)),
        precedence=precedence, head_table=head_table,
        in_play=in_play if book.in_play else "hand",   # the other forms' counts stay in the hand
        **options,
    )


def _rounds(game: str, variant: str | None, tile_set: str | None) -> int:
    """A whole game's rounds, a session of the train games: one per double of the set."""
    form = get_form(game)
    return form.rounds(form.rules(variant=variant, tile_set=tile_set))


def _club_options(book: PartyForm, body: dict) -> dict:
    """The named options of the forms that have them (forms/trains.py), checked."""
    movement, bell, late = body.get("movement"), body.get("bell"), body.get("late_score")
    limit, hand, blanks = body.get("session_limit"), body.get("hand"), body.get("blanks")
    if movement is not None and movement not in (book.movement,) + book.movements:
        raise Refusal("BAD MOVEMENT")
    if bell is not None and (bell not in ("finish", "stop") or not book.rounds):
        raise Refusal("BAD BELL")
    if late is not None and (late != "table-highest" or not book.late_scores):
        raise Refusal("BAD LATE SCORE")
    if limit is not None and (type(limit) not in (int, float) or not 0 < limit < 10_000):
        raise Refusal("BAD TIME LIMIT")
    if hand is not None and (type(hand) is not int or not 1 <= hand <= 40 or not book.rounds):
        raise Refusal("BAD DEAL")
    if blanks is not None and (blanks not in BLANKS or not book.rounds):
        raise Refusal("BAD BLANKS")
    return {"movement": movement, "bell": bell, "late_score": late, "session_limit": limit, "hand": hand,
            "blanks": blanks}


# what a party's set-up may still change, before play begins and after
CHANGEABLE = frozenset({"form", "variant", "tables", "games_per_session", "sessions", "time_limit",
                        "prizes", "booby", "confirm", "seat_check", "precedence", "head_table",
                        "in_play", "movement", "bell", "late_score", "session_limit", "hand",
                        "blanks"})
CHANGEABLE_IN_PLAY = frozenset({"prizes", "booby"})
# the keys a new form gives again from its own book (games, sessions, the clock) unless given
_OF_THE_FORM = ("variant", "tile_set", "games_per_session", "session_points", "sessions", "time_limit",
                "movement", "bell", "late_score", "hand", "blanks")


def changed(setup: Setup, changes: dict) -> Setup:
    """The set-up with `changes`, checked as a new party's would be. A value None gives the
    book's default back; a new form comes with its own defaults unless they are given."""
    if not isinstance(changes, Mapping) or any(key not in CHANGEABLE for key in changes):
        raise Refusal("BAD CHANGE")
    body = {key: v for key, v in setup.to_json().items() if v is not None}
    if changes.get("form", setup.form) != setup.form:
        for key in _OF_THE_FORM:
            body.pop(key, None)
    body.update(changes)
    return from_body({key: v for key, v in body.items() if v is not None})


def book_prizes(tables_in_play: int) -> int:
    """ "When you intend to have only three tables, one prize will be sufficient; for
    more than three tables, have two prizes; for more than six tables, have three
    prizes, and thus always in similar proportion." (PRIZES)"""
    return max(1, math.ceil(tables_in_play / 3))
