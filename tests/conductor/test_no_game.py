"""No game in hand (issue 11): after the finish bell a table between games says so itself,
and its session is over there, as when the conductor closes it.

Grimm 1896 (000_ff8a6ed40036e836.txt), BLOCK GAME party: "As soon as four games have been
finished at any table the conductor rings the bell ... but he does not permit a new game to
be started"; the movement waits for every table (RESULTS MISSING).
"""
from hub.conductor import events as k
from hub.conductor import standings, to_json

from .party import Party, win

GUESTS = [f"Guest {i:02d}" for i in range(8)]


def test_a_table_between_games_closes_itself_after_the_finish_bell():
    p = Party()
    p.create(form="block", tables=2, seat_check=False)
    p.guests(GUESTS)
    p.draw()
    p.start()
    p.must(win(p, 2, "A", 10))
    v = p.table(2, k.NO_GAME, {})
    assert (v.ok, v.why) == (False, "NO FINISH BELL")       # play goes on: nothing to say yet
    for gain in (30, 25, 20, 15):
        p.must(win(p, 1, "B", gain))                        # Table 1's fourth game: the bell
    assert p.state.session.bell.meaning == "finish"
    assert standings(p.state)["session"]["missing"] == [2]
    v = p.must(p.table(2, k.NO_GAME, {}))
    assert v.msg == "NO GAME IN HAND"
    assert standings(p.state)["session"]["missing"] == []
    assert standings(p.state)["session"]["state"] == "ended"
    v = p.table(2, k.NO_GAME, {})
    assert (v.ok, v.why) == (False, "TABLE DONE")
    v = win(p, 2, "C", 5)                                   # and no game after it
    assert not v.ok
    assert p.reseat().ok                                    # the movement, nobody closing tables
    assert p.replayed() == to_json(p.state)
