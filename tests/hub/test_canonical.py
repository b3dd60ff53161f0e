"""The journal's spelling of a body is json's (sorted keys, no spaces, UTF-8 as it is),
whichever encoder made it: digests and the journal's bytes depend on it, and journals
written before orjson spelled the bodies replay and audit against the same text
(docs/journal.md)."""
import json
import random

from hub.event import canonical

JSONS = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_every_character_is_spelled_as_json_spells_it():
    for start in range(0, 0x110000, 0x800):
        chars = "".join(chr(c) for c in range(start, start + 0x800) if not 0xD800 <= c <= 0xDFFF)
        body = {chars: chars, "k" + chars[:5]: [chars[::-1]]}
        assert canonical(body) == JSONS.encode(body)


def test_keys_in_json_order_and_numbers_floats_and_nulls_as_json_spells_them():
    rng = random.Random(13)
    odd = [1.5, 1e16, 1e-05, -0.0, float("nan"), float("inf"), -float("inf"), 2 ** 64, -2 ** 63 - 1,
           2 ** 64 - 1, -2 ** 63, None, True, False, 0, "1.5e3", "null", [], {}]
    for _ in range(2000):
        keys = ["".join(chr(rng.choice((rng.randrange(32, 127), rng.randrange(128, 0xD800),
                                       rng.randrange(0xE000, 0x110000)))) for _ in range(rng.randrange(4)))
                for _ in range(5)]
        body = {k: rng.choice(odd + [rng.randrange(-2 ** 70, 2 ** 70), {"x": rng.choice(odd)}]) for k in keys}
        assert canonical(body) == JSONS.encode(body), body


def test_a_keyed_result_and_its_outcome_are_spelled_as_before():
    sent = {"board": "t3-ab12", "game": 7, "table": 3, "values": {"out": 2, "A": 14, "C": 0, "D": 31}}
    judged = dict(sent, outcome={"points": {"B": 45}, "winners": ["B"], "blocked": False, "tally": {}})
    for body in (sent, judged):
        assert canonical(body) == JSONS.encode(body)


def test_what_json_cannot_spell_is_still_refused():
    for body in ({"k": {1, 2}}, {"k": b"x"}, {(1, 2): 3}):
        try:
            JSONS.encode(body)
        except TypeError:
            pass
        else:
            raise AssertionError(body)
        try:
            canonical(body)
        except TypeError:
            continue
        raise AssertionError(f"spelled {body!r}, which json refuses")
