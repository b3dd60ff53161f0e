"""The party conductor: a pure fold over the journal (state = fold(events)) and the
judge that admits inputs to it. See docs/conductor.md.

    state = replay(events)                      # or apply(state, event), one by one
    state, findings = audit(events)             # the same, each input judged again (start-up)
    verdict, state, events = admit(state, proposal, seq, now)   # before journaling: refuse,
                                                # or admit, fold and number the events to journal
    screens(state), screen(state, n), current_bell(state), tables(state)   # for the boards
    standings(state), to_json(state)            # for the projected page and `party replay`
    standings_after(state, before)              # the same, taking `before`'s rows where their inputs are the same
    open_play_off(state, n)                     # the undecided play-off at table n, if any
"""
from .audit import Finding, audit
from .fold import apply, collector_paused, collector_spares_the_party, initial, replay
from .judge import admit, judge
from .kinds.sessions import tick
from .prizes import open_play_off
from .screens import current_bell, screen, screens, tables
from .standings import Standings, score_cards, standings, standings_after, to_json
from .state import PartyState

__all__ = ["PartyState", "initial", "apply", "replay", "collector_paused", "collector_spares_the_party", "audit", "Finding",
           "admit", "judge", "tick",
           "screen", "screens", "current_bell", "tables", "standings", "standings_after", "Standings", "to_json", "score_cards",
           "open_play_off"]
