"""Every kind of event the journal holds: the one place that defines them.

Table kinds are the protocol's event kinds prefixed `table.` (docs/protocol.md);
their body is the protocol body plus "table" and "board". Staff kinds come from
the console, with source 'staff:<login>', so every action is recorded under its
author's name. Hub kinds are decisions the hub takes on its own (source 'hub').
Bodies below list the keys the judge fills in itself (marked *): a decision's
outcome, and a result's score, are recorded, never recomputed on replay
(docs/journal.md). A judged body's digest is that of the body as sent.
"""

# -- from the tables ---------------------------------------------------------
RESULT = "table.result"          # {game, values, outcome*: {points, winners, blocked, tally}}
CONFIRM = "table.confirm"        # {entry, seat}
SEAT_CHECK = "table.seat-check"  # {cards: {seat: card number}}
TABLE_BELL = "table.bell"        # {} a table claims the end of the session
BELL_ACK = "table.bell-ack"      # {bell}
CALL = "table.call"              # {} the table calls the conductor
NO_GAME = "table.no-game"        # {} after a finish bell: between games, no game in hand
COUNT = "table.count"            # {game, values, outcome*}: a count made in play (in_play "each")

TABLE_KINDS = frozenset({RESULT, CONFIRM, SEAT_CHECK, TABLE_BELL, BELL_ACK, CALL, NO_GAME, COUNT})

# -- from the staff (the conductor and assistants) ----------------------------
# A decision the hub takes on a staff request (a draw, a movement) follows it as
# a `hub.` event: the request is journaled exactly as the console sent it, so a
# resent request is recognised, and the outcome is journaled, never recomputed.
PARTY_CREATED = "conductor.party-created"   # {form, tables, variant?, tile_set?, games_per_session?,
                                            #  sessions?, time_limit?, prizes?, booby?, confirm?,
                                            #  seat_check?, precedence?, head_table?}
STAFF_ADDED = "conductor.staff-added"       # {login, role: "assistant"|"conductor"}
STAFF_REMOVED = "conductor.staff-removed"   # {login, why}: a login added by mistake, or no longer
                                            # trusted; what it did stays on record under its name
GUEST_LISTED = "conductor.guest-listed"     # {guest, similar_ok?}
CHECKED_IN = "conductor.guest-checked-in"   # {guest}; after the draw: + hub.guest-placed
DRAW_SEATS = "conductor.draw-seats"         # {seed?} | {by_hand: true}; + hub.seats-drawn
GUEST_SEATED = "conductor.guest-seated"     # {guest, table, seat, why}: the conductor moves a
                                            # guest to a vacant seat (a mistake, an empty seat)
GUEST_LEFT = "conductor.guest-left"         # {guest, why}
GUEST_BACK = "conductor.guest-back"         # {guest, why}: a guest who left comes back (or the
                                            # leaving was pressed on the wrong row); after the
                                            # draw + hub.guest-placed: his own card, a seat
SESSION_STARTED = "conductor.session-started"  # {session}: the bell that starts play
BELL = "conductor.bell"                     # {meaning: "finish"|"stop", final?, why?}
BELL_UNDONE = "conductor.bell-undone"       # {bell, why}
RESULT_CORRECTED = "conductor.result-corrected"  # {entry, values, why, outcome*}
GAME_ANNULLED = "conductor.game-annulled"   # {table, why, entry?}: a result, or the game in hand
TABLE_CLOSED = "conductor.table-closed"     # {table, why}: no game in hand, the session is over there
CALL_ANSWERED = "conductor.call-answered"   # {table}
RESEAT = "conductor.reseat"                 # {seed?}; + hub.players-moved
FINAL_COUNT = "conductor.final-count"       # {}: every card accounted for, every game counted
PLAY_OFF = "conductor.play-off"             # {prize, table}; + hub.play-off-seated
# the door and the party's changes (each judged, each on record under its author)
WALK_IN = "conductor.walk-in"               # {guest, similar_ok?}: listed and checked in at once;
                                            # after the draw + hub.guest-placed
CHECK_IN_UNDONE = "conductor.check-in-undone"  # {guest, why}: before the guest has a card
ALL_CHECKED_IN = "conductor.all-checked-in"  # {}: every listed guest not yet in, before the draw
GUEST_RENAMED = "conductor.guest-renamed"   # {guest, name, why, similar_ok?}
GUEST_REMOVED = "conductor.guest-removed"   # {guest, why}: a guest who never had a card
CARD_DRAWN = "conductor.card-drawn"         # {guest, card | null}: a printed card drawn from the
                                            # tray, recorded by hand (null: the record undone)
TABLE_ADDED = "conductor.table-added"       # {why}: a new last table, at any time before the count
TABLE_REMOVED = "conductor.table-removed"   # {why}: the last table, nobody ever seated there (one
                                            # added by mistake)
PARTY_CHANGED = "conductor.party-changed"   # {changes: {setup key: value}, why}
DRAW_UNDONE = "conductor.draw-undone"       # {why}: every card back in the tray, before play begins
DISPLAY_CHANGED = "conductor.display-changed"  # {standings: "hidden"|"shown"}: the projector's
                                            # standings hidden for the last session's suspense

STAFF_KINDS = frozenset({
    PARTY_CREATED, STAFF_ADDED, GUEST_LISTED, CHECKED_IN, DRAW_SEATS, GUEST_SEATED, GUEST_LEFT,
    SESSION_STARTED, BELL, BELL_UNDONE, RESULT_CORRECTED, GAME_ANNULLED, TABLE_CLOSED,
    CALL_ANSWERED, RESEAT, FINAL_COUNT, PLAY_OFF, WALK_IN, CHECK_IN_UNDONE, ALL_CHECKED_IN,
    GUEST_RENAMED, GUEST_REMOVED, CARD_DRAWN, TABLE_ADDED, PARTY_CHANGED, DISPLAY_CHANGED,
    DRAW_UNDONE, GUEST_BACK, TABLE_REMOVED, STAFF_REMOVED,
})

# -- the hub's own decisions (source 'hub') -------------------------------------
# Each body also names "by": the source of the request or result that brought it about.
HUB_BELL = "hub.bell-rung"          # {meaning, cause: {table, game} | "time", final?}
SEATS_DRAWN = "hub.seats-drawn"     # {seed, cards: {guest: card}, waiting: [guest]}
GUEST_PLACED = "hub.guest-placed"   # {guest, card, table, seat}: a late-comer's card and seat
PLAYERS_MOVED = "hub.players-moved"  # {session, seed, seats: {table: [card|null]*4}, lots, punches}
PLAY_OFF_SEATED = "hub.play-off-seated"  # {prize, table, cards}
PUNCHED = "hub.punched"             # {session, seed, lots, punches}: the last session's removes,
                                    # at the final count of a Bergen or Tiddle-a-wink party

HUB_KINDS = frozenset({HUB_BELL, SEATS_DRAWN, GUEST_PLACED, PLAYERS_MOVED, PLAY_OFF_SEATED,
                       PUNCHED})
