"""The screens' wait on the writer (hub/changes.py): a view waits for a writer still busy, and
a writer caught up at once is given a quiet moment for inputs on their way, but a rush's last
commit is not held for it."""
from __future__ import annotations

import threading
import time

from hub.changes import Changes


def _writer(changes: Changes, seq: list, batches: int, each: float, caught: list) -> threading.Thread:
    """A writer committing `batches` batches `each` s apart, then caught up (noted in `caught`)."""
    def run():
        for _ in range(batches):
            time.sleep(each)
            seq[0] += 1
            changes.batch_done()
        changes.caught_up()
        caught.append(time.monotonic())
    return threading.Thread(target=run, daemon=True)


def test_a_view_waits_for_the_writer_busy_then_not_for_a_quiet_already_past():
    """A rush: the first batch committed while more inputs wait; the writer busy with them
    longer than the quiet. The view goes as soon as it caught up, not a quiet later (before
    session 17 the rush's last commit waited the quiet for inputs no longer on their way)."""
    seq, caught = [0], []
    changes = Changes(lambda: seq[0], threading.Event())
    changes.busy()
    seq[0] = 1
    _writer(changes, seq, batches=4, each=0.5, caught=caught).start()   # busy 2 s, past the quiet
    assert changes.wait(0, timeout=10, settle=10, quiet=1.5) == 5, "the view did not wait for the busy writer"
    assert time.monotonic() - caught[0] < 1.0, "the view waited a quiet after a writer busy past it"


def test_a_writer_caught_up_at_once_is_given_the_quiet_for_inputs_on_their_way():
    """A rush's first table alone: the writer caught up at once, the rest arriving within the
    quiet are waited for, and their batch, in one view."""
    seq, caught = [1], []
    changes = Changes(lambda: seq[0], threading.Event())

    def rest():
        time.sleep(0.2)   # the other tables' inputs, within the quiet
        changes.busy()
        _writer(changes, seq, batches=2, each=0.05, caught=caught).run()
    threading.Thread(target=rest, daemon=True).start()
    assert changes.wait(0, timeout=10, settle=10, quiet=5) == 3, "the view was made of the first table alone"
