"""An All Quarters party with confirmation at the table: "Have only three games to a
session. Whenever any table has finished its third game, then that session is at an end.
Tables still playing finish their games. ... Otherwise the party rules are the same as in
Block" (ALL-QUARTERS, 000_ff8a6ed40036e836.txt). Results count once a player of the
other side confirms them; a correction re-derives everything after it."""
from hub.conductor import events as k
from hub.conductor import screens, standings, to_json
from hub.conductor.prizes import awards
from party.hands import quarters_game

from .party import Party, cards_seating, occupied


def aq(p: Party, n: int, quarters: dict) -> str:
    """Key a game at table `n` and have it confirmed by a player who did not win it."""
    t = p.state.session.tables[n]
    lead = "A" if t.entered == 0 else None
    v = p.must(p.result(n, quarters_game(occupied(p, n), quarters, lead=lead)))
    entry = v.events[0].id
    assert v.msg == f"CONFIRM GAME {t.entered + 1}"
    form = screens(p.state)[n]["form"]
    assert form["kind"] == "confirm" and form["entry"] == entry
    # the game's winners are the seats with the most quarters (none when all are level)
    winners = p.state.session.tables[n].pending.winners
    best = max(quarters.values(), default=0)
    assert winners == (tuple(s for s in "ABCD" if quarters.get(s, 0) == best)
                       if any(quarters.get(s, 0) != best for s in occupied(p, n)) else ())
    if winners:
        v = p.table(n, k.CONFIRM, {"entry": entry, "seat": winners[0]})
        assert (v.ok, v.why) == (False, "OTHER SIDE ONLY")
    p.must(p.table(n, k.CONFIRM, {"entry": entry, "seat": next(s for s in "DB" if s not in winners)}))
    return entry


def test_an_all_quarters_party_with_confirmation_and_a_correction():
    p = Party()
    p.create(form="all-quarters", tables=2, confirm=True)
    p.guests([f"Pupil {i}" for i in range(8)])
    p.draw()
    p.start()
    aq(p, 1, {"A": 10, "B": 4})
    aq(p, 2, {"A": 3, "B": 3})
    aq(p, 1, {"C": 6})
    # an unconfirmed game does not count, and the next waits for it
    v = p.must(p.result(2, quarters_game("ABCD", {"C": 8})))
    assert standings(p.state)["progress"][1]["counted"] == 1
    v2 = p.result(2, quarters_game("ABCD", {"D": 1}))
    assert (v2.ok, v2.why) == (False, "CONFIRM FIRST")
    p.must(p.table(2, k.CONFIRM, {"entry": v.events[0].id, "seat": "B"}))
    # the third game at Table 1 counts on its confirmation, and that rings the bell
    t = p.state.session.tables[1]
    v = p.must(p.result(1, quarters_game("ABCD", {"D": 2})))
    assert p.state.session.bell is None
    v = p.must(p.table(1, k.CONFIRM, {"entry": v.events[0].id, "seat": "B"}))
    assert [e.kind for e in v.events] == [k.CONFIRM, k.HUB_BELL]
    assert p.state.session.bell.meaning == "finish" and t.entered == 2
    p.ack_bell()
    miskeyed = aq(p, 2, {"D": 1})
    # the conductor corrects Table 2's third game before the players move: D made 5 quarters
    v = p.staff(k.RESULT_CORRECTED, {"entry": miskeyed, "values": quarters_game("ABCD", {"D": 5})})
    assert (v.ok, v.why) == (False, "SAY WHY")
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": miskeyed, "why": "miscounted",
                                        "values": quarters_game("ABCD", {"D": 5})}))
    # session I: T1 A 10, B 4, C 6, D 2; T2 A 3, B 3, C 8, D 5 (corrected from 1)
    p.reseat()
    assert cards_seating(p, 2) == {1: "2C 2D 1B 1D", 2: "1A 1C 2A 2B"}
    mends = to_json(p.state)["sessions"][0]["mends"]
    assert mends[0]["corrections"] == [{"by": "staff:ann", "why": "miscounted"}]

    p.start()
    first = aq(p, 1, {"A": 1})
    # a correction of a first game need not key who led again: the lead stays as keyed
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": first, "why": "recount",
                                        "values": quarters_game("ABCD", {"A": 1})}))
    assert p.state.session.tables[1].entries[0].values["lead"] == 1
    aq(p, 1, {"B": 1})
    aq(p, 1, {"C": 1})
    p.ack_bell()
    aq(p, 2, {})
    p.reseat()
    # totals 1A 10, 2C 9, 2D 6 (session II T1 B) before 1C 6 (T2 B), 1B 5, 2A 3, 2B 3, 1D 2
    assert cards_seating(p, 3) == {1: "1A 2C 2D 1C", 2: "1B 2A 2B 1D"}

    p.start()
    for _ in range(3):
        aq(p, 1, {})
    p.ack_bell()
    aq(p, 2, {})
    p.must(p.staff(k.FINAL_COUNT, {}))
    # two tables: one prize, the most quarters
    assert [(a.prize, a.winner) for a in awards(p.state)] == [("1", "1A")]
    card = next(c for c in to_json(p.state)["score_cards"] if c["card"] == "2D")
    # the folder's card: each game, and the "TOTAL AT END OF" each session
    assert [r["games"] for r in card["sessions"]] == [[0, 0, 5], [0, 1, 0], [0, 0, 0]]
    assert [r["running"] for r in card["sessions"]] == [5, 6, 6]
    assert p.replayed() == to_json(p.state)
