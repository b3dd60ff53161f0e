"""The party forms, one module each: what a party of a form plays (the engine's game and its
reading at a party table), how a session ends, what the bell means, who leads, how the
players move and what the standings count. Every module of this folder lists its forms in
`FORMS`; gathered here, in the modules' `ORDER`, into the one list of party forms the
set-up, the console, the demo and the docs read (a new form is a new module here).

A form whose book gives no party rule takes Grimm's progression by gains, the Block
party's ("the two luckiest of every table are promoted", 000_ff8a6ed40036e836.txt, FIRST
SESSION), or for partners Grimm's Bergen party (the winning partners move and separate):
`GRIMM_BY_GAINS`, `GRIMM_PARTNERS` below, said so in its `party_source`."""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

# how the players move after a session (hub/conductor/movement.py)
MOVEMENTS = ("by-gains", "sebastopol", "partners", "three-lowest", "winner")

GRIMM_BY_GAINS = ("000_ff8a6ed40036e836.txt, FIRST SESSION (Grimm's Block party, the default "
                  "where the game's book gives no party rule): 'the two luckiest of every table "
                  "are promoted to the preceding table'; THIRD SESSION: the cards ranked by "
                  "their amounts, 'the highest winner at Table 1, Seat A'")
GRIMM_PARTNERS = ("000_ff8a6ed40036e836.txt, BERGEN GAME (Grimm's partnership party, the "
                  "default for partners where the game's book gives no party rule): 'The "
                  "partners having won the greatest number of points ... get each a punch hole "
                  "in their score-cards and move to the next (higher) table. Here they "
                  "separate and take a new partner'")


@dataclass(frozen=True)
class PartyForm:
    name: str                 # as the host names it: --form, the console's choice
    title: str                # as the printed cards and the projector name it
    line: str                 # one line for `party demo --help`
    game: str                 # the scoring engine's form (hub/scoring)
    game_source: str          # the book (file, section) of the game's rules
    party_source: str         # the book and passage of its party rules (movement, sessions, end)
    movement: str             # one of MOVEMENTS
    movement_rule: str        # the movement in a line, for the docs and the console
    measure: str              # what the standings count (a score-card's amount)
    partnership: bool = False          # White and Red cards, four at every table, sides A+C / B+D
    players: int = 2                   # the fewest at a table that plays (4: four at every table)
    games: int | None = None           # games a session (None: to `session_points`)
    session_points: int | None = None  # points by one side that end the session (partners)
    sessions: int | None = None        # None: by the clock, `time_limit`
    time_limit: float | None = None    # minutes, when the party runs by the clock
    bell: str = "finish"               # "finish" the game in hand, or "stop" at once
    variant: str | None = None         # the engine's variant at a party table (None: its default)
    play_off_variant: str | None = None
    play_off_game: str | None = None   # the engine's form a play-off is played in (None: `game`)
    first_lead: str = "HIGH DOUBLE LEAD"   # the board's line about game 1's lead
    rotating_lead: bool = False        # a keyed first lead, then to the left game by game
    in_play: bool = False              # the table may key each count as it is made
    lowest_wins: bool = False          # the lowest total wins (the train games: spots left)
    rounds: bool = False               # a session is a whole game: the game's rounds for its set
    movements: tuple = ()              # the other movements a set-up may choose (`movement`)
    late_scores: bool = False          # a set-up may seat late-comers with the table's highest

    def __post_init__(self):
        if self.movement not in MOVEMENTS or self.bell not in ("finish", "stop"):
            raise ImportError(f"party form {self.name}: movement {self.movement!r}, bell {self.bell!r}")
        if (self.movement == "partners") != self.partnership:
            raise ImportError(f"party form {self.name}: partners move only in a partnership form")
        if self.partnership and self.players != 4:
            raise ImportError(f"party form {self.name}: partners play four at a table")
        if self.games is None and self.session_points is None and not self.rounds:
            raise ImportError(f"party form {self.name}: a session ends by games or by points")


# the order the forms are listed in (the console's choice, `party demo --help`, the docs): the
# book's six in the book's order, then the other books' games, then any other module by name
ORDER = ("block", "draw", "all_quarters", "sebastopol", "bergen", "tiddle_a_wink",
         "muggins", "matador", "texas_42", "pell", "trains")


def _gathered() -> dict[str, PartyForm]:
    found: dict[str, PartyForm] = {}
    modules = sorted((m.name for m in pkgutil.iter_modules(__path__)),
                     key=lambda m: (ORDER.index(m) if m in ORDER else len(ORDER), m))
    for module in modules:
        for form in importlib.import_module(f"{__name__}.{module}").FORMS:
            if form.name in found:
                raise ImportError(f"party form {form.name} is defined twice (forms/{module}.py)")
            found[form.name] = form
    return found


FORMS: dict[str, PartyForm] = _gathered()


def party_form(name: str) -> PartyForm:
    return FORMS[name]
