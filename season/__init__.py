"""A club's season: its members across parties, standings by the club's rule and ratings,
a pure fold over the parties' journals (docs/season.md).

    roster.py   the members: add, rename, merge, who a guest is
    nights.py   a party's night, read off its folded journal
    rules.py    the named rules' standings
    ratings.py  openskill ratings from every game in journal order
    club.py     the club's record as a value (roster, parties and their links, seasons)
    report.py   the season as JSON and CSV
    files.py    the edge: the club's file and the journals

Imports: season -> hub; web and party may import season; hub imports none of it.
"""
