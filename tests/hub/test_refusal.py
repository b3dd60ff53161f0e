"""One refusal for the engine, the conductor and the protocol, and one rule for its
reason: what a table's 16-character display shows (docs/protocol.md)."""
import subprocess
import sys

import pytest

from hub import protocol, scoring
from hub.conductor import judge
from hub.conductor.state import PartyState
from hub.event import Proposal, Verdict
from hub.refusal import DISPLAY, Refusal


def test_the_engine_the_conductor_and_the_protocol_raise_the_one_refusal():
    assert scoring.Refusal is protocol.Refusal is Refusal and issubclass(Refusal, ValueError)
    form = scoring.get_form("block")
    with pytest.raises(Refusal):
        form.score(form.rules(players=4, variant="grimm"), {})
    with pytest.raises(Refusal):
        protocol.parse_event(1, b"{}")


def test_a_reason_longer_than_the_display_is_cut_where_it_is_made_and_logged_whole():
    r = Refusal("MISSING A PIECES LEFT")
    assert r.why == "MISSING A PIECES" and len(r.why) == DISPLAY
    assert "MISSING A PIECES LEFT" in str(r)
    assert Verdict.refuse("HUB ERROR WITH A LONG STORY").why == "HUB ERROR WITH A"
    assert Verdict.admit(msg="PLAY-OFF SAVED AT TABLE 12").msg == "PLAY-OFF SAVED A"   # the same rule


def test_the_rule_holds_under_python_dash_o_where_asserts_vanish():
    out = subprocess.run([sys.executable, "-O", "-c",
                          "from hub.event import Verdict; print(Verdict.refuse('X' * 40).why)"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "X" * DISPLAY


def test_a_refusal_without_a_reason_is_a_mistake_not_a_blank_display():
    with pytest.raises(TypeError):
        Refusal("  ")
    assert judge(PartyState(), Proposal("p1", "staff:ann", "conductor.bell", {}), 0).why == "NO PARTY"


def test_a_body_read_refuses_a_missing_or_wrong_field_by_its_name():
    from hub.conductor import events as k
    from hub.event import read_body
    with pytest.raises(Refusal, match=r"guest-checked-in: no 'guest'"):
        read_body(k.CHECKED_IN, {})
    with pytest.raises(Refusal, match=r"guest-checked-in: guest 5: not a text"):
        read_body(k.CHECKED_IN, {"guest": 5})
    assert read_body(k.CHECKED_IN, {"guest": "Ann Lee"}).guest == "Ann Lee"


def test_a_key_error_not_from_a_missing_field_is_raised_as_the_bug_it_is():
    # issue 21: a bug is not dressed as the sender's mistake (here the body's own look-up fails)
    from hub.conductor import events as k
    from hub.conductor.frozen import FrozenMap
    from hub.event import read_body

    class Broken(FrozenMap):
        def __getitem__(self, key):
            raise KeyError("a bug's key")

    with pytest.raises(KeyError, match="a bug's key"):
        read_body(k.CHECKED_IN, Broken({"guest": "Ann Lee"}))
