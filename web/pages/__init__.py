"""The pages' presenters: one module a page, each laying out what the hub gives it.

A view (web/console.py, door.py, printables.py, keypad.py, standings.py) asks the hub for
the party (`hub.state`, the conductor's state as its journal made it; `hub.standings()`;
the read calls of hub/reading.py) and hands it to its page's presenter here, which turns it
into plain dicts and lists for the template or the JSON. No rule is decided here: the
conductor's state, its questions (hub/conductor/state.py), its seating and its prizes are
asked, and their answers laid out. The words every page shares (the phase, the forms'
names, a prize, a place) are in `words`; the projector's presenter is web/projection.py.

- console      the party at a glance, the tables (console/home.html, tables.html)
- door         the Guests page's rows, the draw and the late-comers said before they happen
- corrections  a session's results as keyed, a correction's preview
- results      the prizes, the ranking, the exports
- printables   the score-cards, the invitation
- plan         the invitation's plan and its replies
- keypad       a phone keypad's screen
"""
