"""Whatever a board or a console sends, the judge answers (never raises), a refusal's reason
fits a table's display, and whatever it admits the fold applies without an anomaly."""
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


PARTY = started_party()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), source=st.sampled_from(["table:1", "table:2", "table:7",
                                                            "staff:ann", "staff:eve", "hub", "x"]),
       body=st.dictionaries(st.sampled_from(["game", "values", "entry", "seat", "cards", "bell",
                                             "table", "guest", "why", "meaning", "prize"]),
                            JSON, max_size=5))
def test_the_judge_answers_anything(kind, source, body):
    if source.startswith("table:") and "table" not in body:
        body["table"] = int(source[6:])
    v = judge(PARTY.state, Proposal("fuzz", source, kind, body), PARTY.now)
    if not v.ok:
        assert 0 < len(v.why) <= 16
        return
    state = PARTY.state
    for q in v.events:
        state = apply(state, Event(state.seq + 1, q.id, PARTY.now, q.source, q.kind, q.body))
    assert not state.anomalies
