"""Matador as a party: Parker's game to 100 a session, on the double-six set. Its books give
no party rule, so the party is Grimm's progression by gains."""
from dataclasses import replace

from .muggins import FORMS as MUGGINS

FORMS = (replace(
    MUGGINS[0], name="matador", title="Matador",
    line="Matador: a session is a game to 100 (the first to it rings the bell, the others finish "
         "the hand), three sessions, the points won; Grimm's movement by gains",
    game="matador",
    game_source="001_9f9bc89015baa380.txt, MATADOR; 003_611dc33fc9a3dd20.txt, MATADOR (the "
                "double-nine variant)"),)
