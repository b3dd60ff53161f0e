"""A night as the record stands: a game annulled ("annul the game") is no game of the night and
no game rated; a result corrected counts, and is rated, as corrected; a guest renamed at the
door is the night's guest under his new name."""
from __future__ import annotations

from hub.conductor import events as k
from party.hands import spots_game
from season.nights import night
from tests.conductor.party import Party, win


def test_a_night_is_its_record_with_its_mends():
    p = Party()
    p.create(form="draw", tables=1, sessions=1)
    p.guests(["Ann Lee", "Ben Gray", "Cora Fox", "Dan Poe"])
    p.draw(seed=5)
    p.start()
    seats = p.seating()[1]
    for seat, gain in (("A", 20), ("B", 12), ("C", 8)):
        p.must(win(p, 1, seat, gain))
    first, second, _ = (e.id for e in p.state.session.tables[1].entries)
    p.must(p.staff(k.GAME_ANNULLED, {"entry": first, "table": 1, "why": "keyed at the wrong table"}))
    p.must(p.staff(k.RESULT_CORRECTED, {"entry": second, "why": "miscounted",
                                        "values": spots_game("ABCD", {"B": 16})}))
    p.must(p.staff(k.GUEST_RENAMED, {"guest": seats["C"], "name": "Cora Foxe", "why": "spelt wrong"}))
    n = night("test", p.state)
    amounts = dict(zip(n.played, n.amounts))
    assert amounts == {seats["A"]: 0, seats["B"]: 16, "Cora Foxe": 8, seats["D"]: 0}
    # two games rated: the corrected (B 16, the others nothing) and C's; the annulled none
    assert [(g.teams, g.gains) for g in n.games] == [
        (((seats["A"],), (seats["B"],), ("Cora Foxe",), (seats["D"],)), (0, 16, 0, 0)),
        (((seats["A"],), (seats["B"],), ("Cora Foxe",), (seats["D"],)), (0, 0, 8, 0))]
