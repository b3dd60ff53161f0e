"""Whatever a board or a console sends, the judge answers (never raises: a bad input is a
refusal, and any other exception a bug), a refusal's reason fits a table's display, and
whatever it admits the fold applies without an anomaly — at each stage of a party."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hub.conductor import events as k
from hub.conductor import apply, judge
from hub.event import Event, Proposal

from .party import Party

JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 40) | st.sampled_from(
    ["A", "B", "E", "1A", "s1-bell-1", "G1", "finish", "stop", "block"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["game", "values", "entry", "seat", "cards", "bell", "table", "guest",
                         "why", "meaning", "A", "B", "out", "lead", "prize", "login"]),
        inner, max_size=4), max_leaves=8)
KINDS = sorted(k.TABLE_KINDS | k.STAFF_KINDS) + ["table.nonsense", k.HUB_BELL]


def started_party() -> Party:
    p = Party()
    p.create(form="block", tables=2)
    p.guests([f"G{i}" for i in range(6)])
    p.draw()
    p.start()
    return p


def cards_in_hand() -> Party:
    """Before the draw, a guest holding a printed card drawn from the tray."""
    p = Party()
    p.create(form="bergen", tables=2)
    p.guests([f"G{i}" for i in range(4)])
    assert p.staff(k.CARD_DRAWN, {"guest": "G1", "card": "W1A"}).ok
    return p


PARTIES = (Party(), cards_in_hand(), started_party())


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(party=st.sampled_from(PARTIES), kind=st.sampled_from(KINDS), source=st.sampled_from(["table:1", "table:2", "table:7",
                                                            "staff:ann", "staff:eve", "hub", "x"]),
       body=st.dictionaries(st.sampled_from(["game", "values", "entry", "seat", "cards", "bell",
                                             "table", "guest", "why", "meaning", "prize"]),
                            JSON, max_size=5))
def test_the_judge_answers_anything(party, kind, source, body):
    if source.startswith("table:") and "table" not in body:
        body["table"] = int(source[6:])
    v = judge(party.state, Proposal("fuzz", source, kind, body), party.now)
    if not v.ok:
        assert 0 < len(v.why) <= 16
        return
    state = party.state
    for q in v.events:
        state = apply(state, Event(state.seq + 1, q.id, party.now, q.source, q.kind, q.body))
    assert not state.anomalies
