"""bench/same_bytes.py --across: the declared changes of the bytes (bench/across.py) are looked
past, and nothing else is. Two small runs as this tree and 20672b9 write them, differing by
issue 24's declared changes only (-> same), then each with one undeclared difference too
(a refusal's words, an outcome, a seq, a key beside the seal, a refusal in the takeover's
minute: -> different, named)."""
import copy
import hashlib
import json

import pytest

from bench.across import NotAcross, normalise
from bench.same_bytes import differences

ON = ("party/table/1/ack", "party/table/3/ack", "party/table/2/ack")
SEAL = "5e" * 32


def payload(event_id: str, table: int, values: dict, **envelope) -> bytes:
    return json.dumps({"v": 1, "id": event_id, "table": table, "kind": "result",
                       "body": {"game": 1, "values": values}, **envelope}).encode()


OLD_PROTOCOL = payload("junk-3.8.0", 3, {"A": 1}, v=2)      # UPDATE FIRMWARE
NOT_A_NUMBER = payload("junk-3.7.0", 3, {"A": "one"})       # BAD MESSAGE
SAME_ID_WELL_FORMED = payload("junk-3.7.0", 3, {"A": 1})    # ID REUSED here, ALREADY SAVED at 20672b9
ITEMS = [(1, payload("bench-1.1.1", 1, {"A": 1})), (3, OLD_PROTOCOL), (3, NOT_A_NUMBER), (3, SAME_ID_WELL_FORMED),
         (2, payload("bench-2.1.9", 2, {"A": 1}))]


def digest(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def ack(table: int, event_id: str, **fields) -> list:
    return [f"party/table/{table}/ack", json.dumps({"v": 1, "id": event_id, **fields}, separators=(",", ":")), False]


def run(here: bool, restored_at: float | None) -> dict:
    """One run as this tree (here) or 20672b9 writes it: the clock 1, 30, 70 s after the restoration."""
    seal = (lambda s: [s]) if here else (lambda s: [])
    ok = dict(ok=True, seq=2, msg="GAME 1 SAVED", **({"seal": SEAL} if here else {}))
    replies = [[ack(1, "bench-1.1.1", **ok), ["party/table/1/screen", '{"v":1,"seq":2}', True]],
               [ack(3, "junk-3.8.0", ok=False, why="UPDATE FIRMWARE"),
                ack(3, "junk-3.7.0", ok=False, why="BAD MESSAGE")],
               [ack(3, "junk-3.7.0", ok=False, why="ID REUSED" if here else "ALREADY SAVED"),
                ack(4, "junk-4.12.0", ok=False, why="NO SUCH BELL")]]
    refused = [["junk-4.12.0", "ef" * 32, "NO SUCH BELL", 70.0], ["junk-3.7.0", "ab" * 32, "ALREADY SAVED", 70.0]]
    if here:
        refused = [["junk-4.12.0", "ef" * 32, "NO SUCH BELL", 70.0],
                   ["junk-3.8.0", digest(OLD_PROTOCOL), "UPDATE FIRMWARE", 30.0],
                   ["junk-3.7.0", digest(NOT_A_NUMBER), "BAD MESSAGE", 30.0]]
    if restored_at is not None:   # refused in the minute after the takeover: 20672b9 held them
        replies[2].append(ack(2, "bench-2.1.8", ok=False, why="ALREADY SAVED"))   # sent again later
        refused.append(["bench-2.1.8", "aa" * 32, "ALREADY SAVED", 30.0 if here else 70.0])
        if here:
            replies[1] += [ack(2, "bench-2.1.9", ok=False, why="NO SUCH GAME"),
                           ack(2, "bench-2.1.8", ok=False, why="ALREADY SAVED")]
            refused.append(["bench-2.1.9", "cd" * 32, "NO SUCH GAME", 30.0])
    return {"journal": [[1, "staff-set-up-0", 0.0, "staff:bench", "conductor.party-created", "{}", "d1", *seal("s1")],
                        [2, "bench-1.1.1", 1.0, "table:1", "table.result", "{}", "d2", *seal("s2")]],
            "refused": refused, "replies": replies, "clocks": [1.0, 30.0, 70.0], "restored_at": restored_at}


def trees() -> tuple[dict, dict]:
    return ({"running": run(True, None), "takeover": run(True, 0.0)},
            {"running": run(False, None), "takeover": run(False, 0.0)})


def across(mine: dict, theirs: dict) -> list[str]:
    normalise(mine, theirs, "issue-24", ITEMS)
    return differences(mine, theirs)


def test_issue_24s_declared_changes_alone_are_all_same():
    mine, theirs = trees()
    assert differences(copy.deepcopy(mine), copy.deepcopy(theirs)) != []   # without --across: different
    touched = {rule.name: dict(n) for rule, n in normalise(mine, theirs, "issue-24", ITEMS)}
    assert differences(mine, theirs) == []
    assert touched == {"journal-seal": {"journal rows": 4}, "ack-seal": {"ok acks": 2},
                       "reused-after-envelope": {"refused rows": 2, "acks": 2},
                       "envelope-recorded": {"refused rows": 4},
                       "settling-gone": {"refused rows": 1, "refused rows' time": 1, "acks": 2}}


def _words(mine, theirs):   # a refusal's words: at the envelope, in the ack
    mine["running"]["replies"][1][0] = ack(3, "junk-3.8.0", ok=False, why="UPDATE THE FIRMWARE")
    return "UPDATE THE FIRMWARE"


def _refused_why(mine, theirs):   # a refusal's words, as recorded
    theirs["running"]["refused"][0][2] = "NO SUCH GAME"
    return "refused junk-4.12.0"


def _outcome(mine, theirs):   # an entry refused here that 20672b9 saved
    mine["takeover"]["replies"][0][0] = ack(1, "bench-1.1.1", ok=False, why="ALREADY SAVED")
    return "bench-1.1.1"


def _reused_was_saved(mine, theirs):   # ID REUSED here where 20672b9 saved the entry
    theirs["running"]["replies"][2][0] = ack(3, "junk-3.7.0", ok=True, seq=3, msg="GAME 1 SAVED")
    return "GAME 1 SAVED"


def _ack_seq(mine, theirs):   # a seq in an ok ack, the seal beside it
    mine["running"]["replies"][0][0] = ack(1, "bench-1.1.1", ok=True, seq=3, msg="GAME 1 SAVED", seal=SEAL)
    return '"seq":3'


def _journal_seq(mine, theirs):   # a seq in the journal, the seal column beside it
    mine["takeover"]["journal"][1][0] = 3
    return "journal row 1"


def _key_beside_the_seal(mine, theirs):   # the seal rule cuts the seal and nothing more
    mine["running"]["replies"][0][0] = ack(1, "bench-1.1.1", ok=True, seq=2, msg="GAME 1 SAVED", seal=SEAL, at=5)
    return SEAL


def _other_refusal_in_the_minute(mine, theirs):   # refused in the minute, later another why at 20672b9
    theirs["takeover"]["refused"].append(["bench-2.1.9", "cd" * 32, "ALREADY SAVED", 70.0])
    return "refused bench-2.1.9"


def _other_time_after_the_minute(mine, theirs):   # only a refusal judged in the minute has its time looked past
    theirs["running"]["refused"][0][3] = 71.0
    return "refused junk-4.12.0"


def _envelope_refusal_in_the_minute(mine, theirs):   # 20672b9 answered these in the minute too
    mine["takeover"]["replies"][1].append(ack(3, "junk-3.9.0", ok=False, why="WRONG TABLE"))
    return "WRONG TABLE"


@pytest.mark.parametrize("undeclared", [_words, _refused_why, _outcome, _reused_was_saved, _ack_seq, _journal_seq,
                                        _key_beside_the_seal, _other_refusal_in_the_minute, _other_time_after_the_minute,
                                        _envelope_refusal_in_the_minute])
def test_an_undeclared_difference_is_still_found_and_named(undeclared):
    mine, theirs = trees()
    named = undeclared(mine, theirs)
    found = across(mine, theirs)
    assert found, undeclared.__name__
    assert any(named in line for line in found), found


def test_across_refuses_a_commit_that_has_the_change_already():
    mine, _ = trees()
    with pytest.raises(NotAcross, match="journal-seal.*df04d08"):
        normalise(mine, copy.deepcopy(mine), "issue-24", ITEMS)
