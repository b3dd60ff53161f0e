"""Pell's four-handed Block games as parties (002_0ed9ffa4e00fde7b.txt): the Four Handed Match
(partners) and the Four Handed Skin (each for himself), each a game of 100 a session ("Game 100
or 1000 up, as the parties may agree", DRAW GAME, Rule 7th), four at every table. Pell gives no
party rule: the Match is Grimm's partnership party (Bergen's movement), the Skin Grimm's by
gains. Pell's two- and three-handed games (Fourteen Piece, Three Handed Nine Piece) are no
party forms: a party table seats four. Partners tied for a prize play off each for himself in
Parker's Block game (two to four players, the double-six set: Pell's own games each seat a
fixed number)."""
from . import GRIMM_BY_GAINS, GRIMM_PARTNERS, PartyForm

PELL = "002_0ed9ffa4e00fde7b.txt"
GAME = f"{PELL}, DRAW GAME, Rule 7th: 'Game 100 or 1000 up, as the parties may agree.'"

FORMS = (
    PartyForm(
        name="four-handed-match", title="Pell's Four Handed Match",
        line="Pell's Four Handed Match: partners by White and Red cards, a game of 100 a session, "
             "three sessions; the winning partners move up and separate (Grimm's Bergen movement)",
        game="four-handed-match",
        game_source=f"{PELL}, FOUR HANDED, OR PARTNER GAME; {GAME}",
        party_source=GRIMM_PARTNERS,
        movement="partners",
        movement_rule="Grimm's Bergen movement: the partners with the most points at each table get "
                      "a punch-hole each, move up one table and separate",
        measure="punch-holes", partnership=True, players=4, session_points=100, sessions=3,
        play_off_game="block", play_off_variant="parker", first_lead="6-6 SETS FIRST"),
    PartyForm(
        name="four-handed-skin", title="Pell's Four Handed Skin",
        line="Pell's Four Handed Skin: four at every table each for himself, a game of 100 a "
             "session, three sessions, the points won; Grimm's movement by gains",
        game="four-handed-skin",
        game_source=f"{PELL}, FOUR HANDED SKIN; {GAME}",
        party_source=GRIMM_BY_GAINS,
        movement="by-gains",
        movement_rule="Grimm's by gains: after session I the two who won the most points at each "
                      "table move up one table; after session II every card ranked by its points",
        measure="points", players=4, session_points=100, sessions=3, first_lead="6-6 SETS FIRST"),
)
