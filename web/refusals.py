"""What the console says when it refuses: the host's language, in one place.

The conductor and the engine refuse with a short code made for a table's
16-character display ("TOO MANY GUESTS"); a host at the console reads a
sentence saying what is wrong and what to do. A form the console itself finds
wrong names the field as the page labels it ("Games a session: a whole number,
please"), never the input's internal name (`games_per_session`, `value.A_pieces`).
Every console form reports through `refused(title, ...)`, so the wording is the
same across the console.
"""
from __future__ import annotations

# The console's field names as the page labels them.
FIELDS = {
    "form": "Form of game", "tables": "Tables", "games_per_session": "Games a session",
    "sessions": "Sessions", "prizes": "Prizes", "time_limit": "Time limit (minutes)", "variant": "Variant",
    "guest": "Guest", "name": "Name", "new_name": "New name", "table": "Table", "seat": "Seat",
    "session": "Session", "meaning": "The bell means", "why": "Why", "bell": "Bell", "entry": "Result",
    "prize": "Prize", "login": "Login", "password": "Password", "password2": "Password again",
    "role": "Role", "title": "The party", "host": "Given by", "when": "When", "hour": "Hour",
    "address": "Where", "reply_days": "Reply within (days)", "replies": "Replies", "file": "The file",
    "action_id": "The page", "values": "Values", "card": "Card", "changes": "Changes",
    "booby": "A booby prize", "confirm": "The other side confirms", "missing_ok": "Results",
}

# The conductor's and the engine's codes (hub/conductor, hub/scoring, hub/protocol) as sentences.
SENTENCES = {
    "ALL IN": "every guest on the list is already checked in.",
    "ALREADY HIDDEN": "the standings are already hidden on the projector.",
    "ALREADY IN": "that guest is already checked in.",
    "ALREADY LEFT": "that guest has already left.",
    "ALREADY LISTED": "that name is already on the guest list: check that guest in from the list, or give a second guest of the name something to tell them apart (an initial).",
    "ALREADY SAVED": "that was already recorded.",
    "ALREADY SHOWN": "the standings are already shown on the projector.",
    "ALREADY SEATED": "that guest already has a seat.",
    "ALREADY STAFF": "that login is already on the staff.",
    "ALREADY STARTED": "this session has already begun.",
    "ALREADY UNDONE": "that bell was already undone.",
    "BAD CHANGE": "that cannot be changed.",
    "BAD GAMES": "Games a session: 1 or more, please.",
    "BAD HEAD TABLE": "choose what Table 1's winners do.",
    "BAD IN PLAY": "points made in play: choose keyed with the hand or each as it is made.",
    "BAD MOVEMENT": "choose one of this form's movements (the three lowest move, or the winner).",
    "BAD BELL": "the bell: choose finish the round in hand or stop at once (train games only).",
    "BAD LATE SCORE": "late-comers may start with the table's highest score in the train games only.",
    "BAD DEAL": "pieces dealt each: a whole number from 1 to 40 (train games only).",
    "BAD BLANKS": "blanks left in hand: choose one of the house rules (train games only).",
    "BAD LOGIN": "Login: lower-case letters, digits and - only.",
    "BAD MESSAGE": "the form was not understood; reload the page and try again.",
    "BAD NAME": "Name: letters, please, at most 80 characters.",
    "CONTROL IN NAME": "Name: it holds a control character (a NUL, a tab, a line break): type it again without it.",
    "BAD PRECEDENCE": "choose which card wins a tie.",
    "BAD PRIZES": "Prizes: 0 or more, please.",
    "BAD SESSIONS": "Sessions: 1 or more, please.",
    "BAD TABLES": "Tables: a number from 1 to 999, please.",
    "BAD TIME LIMIT": "Time limit: a number of minutes, please.",
    "BAD POINTS": "Points a session: a whole number from 1, please.",
    "BELL RUNG": "the bell has already rung for this session.",
    "BELL SEEN": "every table has seen this bell; it can no longer be undone.",
    "CARD TAKEN": "Card: another guest drew that card; check the card and the name.",
    "CARDS NOT DRAWN": "some guests present have not drawn a card yet (see the list).",
    "CARDS MISSING": "some tables have not keyed their cards yet.",
    "CONDUCTOR ONLY": "only the conductor may do this.",
    "CONFIRM FIRST": "the other side must confirm the last result first.",
    "CONFIRMED": "that result is already confirmed.",
    "COUNT FIRST": "make the final count first.",
    "COUNTED": "the final count is already made.",
    "DRAWN BY HAND": "cards drawn from the tray are recorded: seat by the cards drawn, or put them back first.",
    "FOUR AT A TABLE": "there must always be four players at each table, two of each colour.",
    "GAME ANNULLED": "that game was annulled.",
    "GAMES REMAIN": "some tables still have games to play.",
    "GUEST LEFT": "that guest has left the party: if the guest is back, open \u201ccame back?\u201d on the guest's row first.",
    "HAND CLOSED": "that hand's result is in: its counts can no longer be undone; correct the result instead.",
    "HAS A CARD": "that guest holds a score-card: undo the check-in first (while no game is played with the card), or else say the guest has left.",
    "HUB ERROR": "the hub could not record this; nothing was changed. Try again.",
    "ID REUSED": "this form was already used for something else; reload the page.",
    "LAST SESSION": "this is the last session: make the final count instead.",
    "MISSING LEAD": "say who led the game.",
    "NO CARD DRAWN": "that guest has no card to put back.",
    "NO CHANGE": "that is how the party is already set up.",
    "NO CALL": "that table is not calling.",
    "NO PARTY": "create the party first.",
    "NO SEAT": "there is no free seat for that guest.",
    "NO FINISH BELL": "no bell asking to finish the game in hand has rung.",
    "NO NEW GAME": "the bell has rung: finish the game in hand, start no new one.",
    "NO SUCH BELL": "there is no such bell.",
    "NO SUCH CARD": "Card: there is no such card at this party (mind White and Red).",
    "NO SUCH COUNT": "there is no such count made in play at that table, or it was undone already.",
    "NO SUCH GAME": "there is no such game.",
    "NO SUCH LOGIN": "Login: that login is not on the staff.",
    "NOT YOURSELF": "you cannot take yourself off the staff; another conductor can.",
    "NO SUCH VARIANT": "Variant: choose one of the form's variants.",
    "NO SUCH SEAT": "Seat: there is no such seat at that table.",
    "NO TABLES": "there are no tables to play at yet.",
    "NO TIE": "there is no tie for that prize.",
    "NOTHING IN PLAY": "this form of game has no points made in play to key.",
    "NOT BY THE CLOCK": "this party is not run by the clock.",
    "NOT CHECKED IN": "that guest is not checked in yet: check the guest in first.",
    "NOT HERE": "that guest is not at the party.",
    "NOT LEFT": "that guest has not left.",
    "NOT IN SESSION": "no session is being played now.",
    "NOT ON THE LIST": "Guest: that name is not on the guest list.",
    "NOT STAFF": "your login is not on the party's staff.",
    "OTHER SIDE ONLY": "only the other side may confirm a result.",
    "PARTY EXISTS": "the party is already created.",
    "PARTY FULL": "every seat is taken: add a table first.",
    "PARTY NOT OVER": "the party is not over yet.",
    "PARTY OVER": "the party is over.",
    "PLAY HAS BEGUN": "play has begun: only the prizes can change now (tables can be added).",
    "PLAY-OFF SET": "that play-off is already set.",
    "RESULTS MISSING": "some tables have not keyed all their results; see the tables page.",
    "SAY WHY": "Why: say why (it is recorded).",
    "SEAT CHECK FIRST": "the table must check its seats first.",
    "SEAT EMPTY": "that seat is empty.",
    "SEAT TAKEN": "Seat: that seat is taken; choose a vacant one (the Tables page shows who sits where), or seat its guest elsewhere first.",
    "SEATED TWICE": "a guest cannot sit in two seats.",
    "SEATS CHECKED": "the seats are already checked.",
    "SEATS DRAWN": "the seats are already drawn (until play begins the conductor may undo the draw on the Party page).",
    "SEATS NOT DRAWN": "draw the seats first.",
    "SESSIONS OR TIME": "give the number of sessions or a time limit.",
    "SIMILAR NAME": "Name: a guest of nearly the same name is listed; tick \u201canother person\u201d to add anyway.",
    "TABLE BUSY": "that table is still playing a game.",
    "TABLE IN USE": "guests have sat at the last table: it stays (an empty table is idle, the movement passes it by).",
    "ONE TABLE": "the party has one table: it stays.",
    "TABLE CLOSED": "that table is closed.",
    "TABLE DONE": "that table has played all its games.",
    "TABLE STOPPED": "that table was stopped by the bell.",
    "TOO FEW GUESTS": "too few guests are checked in to play: check in two at least (four in the partnership forms).",
    "WRONG CARDS": "the cards drawn must be the first cards in order (Table 1 A, B, C, D, Table 2 A ...), one for each guest present.",
    "TOO LONG": "that is too long.",
    "TOO MANY GUESTS": "more guests are checked in than the tables seat: add a table.",
    "TOO MANY TIED": "too many are tied for one play-off table.",
    "UNKNOWN FORM": "Form of game: choose one of the book's forms.",
    "UNKNOWN KIND": "the hub does not know this action.",
    "UNKNOWN TABLE": "Table: there is no such table.",
    "WRONG COLOUR": "Seat: a white card sits in A or B, a red one in C or D.",
    "WRONG SESSION": "Session: that is not the session to start now.",
    "WRONG TABLE": "Table: that is another table.",
}


def field(key: str) -> str:
    """The page's label for an input name; an entry's value field `value.A_pieces` as "A pieces"."""
    if key in FIELDS:
        return FIELDS[key]
    if key.startswith("value."):
        key = key[len("value."):]
    return key.replace("_", " ").capitalize()


def sentence(why: str) -> str:
    """A refusal code as the host reads it; a code without words here is shown as a plain phrase
    (the engine's own, e.g. "TOO MANY SPOTS"), never as a raw id."""
    if why in SENTENCES:
        return SENTENCES[why]
    return why.capitalize().replace("_", " ") + "."


def refused(title: str, reason) -> str:
    """The message at the top of the page: "<action>: refused — <what is wrong>"; `reason` is the
    conductor's code or the console's own `BadForm` (already a sentence naming the field)."""
    return f"{title}: refused — {reason if isinstance(reason, Exception) else sentence(reason)}"
