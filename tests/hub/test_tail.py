"""The hub's record of where its time went (hub/tail.py): what bench/rush_bench.py reads to
explain a slow entry. An entry's batch must be found by its seq, its steps in order, and a
pause of the process (a collection, a thread held up) must be noted with its moment."""
import gc
import time

from hub.tail import Tail
from tests.hub.test_service import party, seat_check  # noqa: F401 (a fixture)


def test_an_acked_entry_is_found_in_the_batch_that_journaled_it(party):
    hub, t3 = party
    before = time.monotonic()
    ack = t3.ack_for(t3.send("seat-check", {"cards": seat_check(hub, 3)}))
    assert ack["ok"]
    deadline = time.monotonic() + 5   # noted once its screens are sent, after the ack
    while not (found := [b for b in hub.tail.batches if b.first <= ack["seq"] <= b.last]):
        assert time.monotonic() < deadline, "no batch journaled it"
        time.sleep(0.01)
    batch, = found
    assert before <= batch.taken <= batch.judged <= batch.committed <= batch.acked <= batch.shown
    assert batch.inputs >= 1


def test_a_collection_and_a_held_up_process_are_noted_until_stopped():
    tail = Tail()
    tail.start()
    tail.watch(every=0.002, late=0.010)
    time.sleep(0.01)
    gc.collect()
    held = time.monotonic()
    sum(range(30_000_000))   # one C call: the interpreter held, no switch to the watcher
    held = time.monotonic() - held
    time.sleep(0.02)
    tail.stop()
    assert any(p.what == 2 for p in tail.pauses), "a full collection was not noted"
    assert any(p.what == -1 and p.seconds > 0.010 for p in tail.pauses), f"held {held:.3f} s, not noted"
    assert not any(cb.__self__ is tail for cb in gc.callbacks if hasattr(cb, "__self__"))
    n = len(tail.pauses)
    gc.collect()
    assert len(tail.pauses) == n, "noted after stop"
