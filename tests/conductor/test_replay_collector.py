"""A replay pauses the cyclic collector (hub/conductor/fold.py, `collector_paused`) and leaves
the party it made where the collector's passes would have put it, the oldest generation, so
the first allocation after it does not pass over the whole party (a tenth of a 100,000-event
replay, docs/performance.md section 4, "Session 13"); and a party frozen for a hub before it
(`collector_spares_the_party`) stays frozen."""
import gc
from contextlib import contextmanager

from hub.conductor import replay

from .test_replay_drafts import long_party


@contextmanager
def passes_counted():
    """The generations of the collector's passes begun while inside, as a list."""
    passes = []

    def seen(phase, info):
        if phase == "start":
            passes.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        yield passes
    finally:
        gc.callbacks.remove(seen)


def generation_of(value) -> int | None:
    return next((g for g in range(3) if any(o is value for o in gc.get_objects(generation=g))), None)


def test_a_replayed_party_is_in_the_oldest_generation_and_no_pass_is_due():
    _, journal = long_party()
    # the tests' hubs before this one froze their parties; a replay lets go of nothing frozen
    gc.unfreeze()
    gc.collect()
    with passes_counted() as passes:
        state = replay(journal)
        made = [{} for _ in range(50)]   # containers made after it: a pass would be due here
    assert len(made) == 50 and passes == []
    assert generation_of(state) == 2 and generation_of(state.session.tables) == 2
    assert gc.get_count()[0] < gc.get_threshold()[0]   # no pass due
    assert gc.isenabled()


def test_a_replay_after_a_party_was_frozen_lets_none_of_it_go():
    _, journal = long_party()
    frozen = [{"party": n} for n in range(10)]
    gc.freeze()
    try:
        count = gc.get_freeze_count()
        state = replay(journal)
        assert gc.get_freeze_count() == count
        assert generation_of(frozen) is None and generation_of(frozen[0]) is None   # still frozen
        assert generation_of(state) in (0, 1)   # as before: collected by the passes that come
        assert gc.isenabled()
    finally:
        gc.unfreeze()
