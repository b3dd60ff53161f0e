"""Found by the fuzz drill: a payload of ~1000 nested brackets (it fits in the
protocol's 2048 bytes) made json raise RecursionError, not ValueError, so it
escaped the envelope check and failed the hub's whole batch — every other
table's event judged with it went unjournaled and unacknowledged."""
import pytest

from hub import protocol


@pytest.mark.parametrize("payload", [
    b"[" * 1020 + b"]" * 1020,
    b'{"v":1,"id":"sim-1.1.1","table":1,"kind":"call","body":' + b"[" * 990 + b"]" * 990 + b"}",
])
def test_a_deeply_nested_payload_is_refused_as_a_bad_message(payload):
    assert len(payload) <= protocol.MAX_PAYLOAD
    with pytest.raises(protocol.Refusal) as refused:
        protocol.parse_event(1, payload)
    assert refused.value.why == "BAD MESSAGE"
