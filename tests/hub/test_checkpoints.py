"""The journal's checkpoints, off the writer's path (hub/checkpoints.py, docs/journal.md):
the writer's commits never write the database file, the WAL stays bounded however many
commits, a reader sees every committed row while checkpoints run, an orderly stop leaves
everything in the database file, and a kill in the middle loses nothing acknowledged."""
import gc
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from hub.event import Event
from hub.journal import Journal, open_reader

ROOT = Path(__file__).resolve().parents[2]


def ev(seq):
    return Event(seq, f"t3-b.1.{seq}", 1000.0 + seq, "table:3", "table.result", {"game": seq, "values": {"A": seq}})


def wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def rows_in_file_alone(path: Path, tmp: Path) -> int:
    """The rows the database file holds without its WAL (a copy of the file alone)."""
    alone = tmp / "alone.sqlite3"
    shutil.copyfile(path, alone)
    db = sqlite3.connect(alone)
    try:
        return db.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
    finally:
        db.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_writers_commits_leave_the_database_file_to_the_checkpointer_and_a_stop_checkpoints(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    j.checkpoints.quiet = j.checkpoints.every = 3600.0   # no checkpoint in the background during this test
    j.checkpoints.checkpoint()   # the tables made, in the file
    before = digest(path)
    for seq in range(1, 1501):   # past SQLite's automatic checkpoint at 1,000 pages many times
        j.append([ev(seq)])
    assert digest(path) == before, "a commit wrote the database file: a checkpoint on the writer's path"
    assert wal(path).stat().st_size > 1000 * 4096
    assert rows_in_file_alone(path, tmp_path) == 0
    reader = open_reader(path)   # a reader open beside it: the WAL is not removed at close
    j.close()
    assert rows_in_file_alone(path, tmp_path) == 1500   # checkpointed at the orderly stop
    assert reader.execute("SELECT COUNT(*), MAX(seq) FROM journal").fetchone() == (1500, 1500)
    reader.close()


def test_the_wal_stays_bounded_while_the_checkpointer_runs(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    checkpoints = []
    # every 0.05 s rather than 3: the bound reached within the test's 2,000 commits
    j.checkpoints.limit, j.checkpoints.every, j.checkpoints.noted = 500, 0.05, checkpoints.append
    sizes = []
    for seq in range(1, 2001):   # never a quiet moment; without checkpoints: a WAL of 19 MB
        j.append([ev(seq)])
        sizes.append(wal(path).stat().st_size)
    j.close()
    assert any(c.writer for c in checkpoints)   # the thread's alone could not copy it whole
    # the writer's turn comes at the thread's first checkpoint past `limit` frames: by then the
    # commits of the thread's wait for its turn more, which a loaded machine lengthens (494
    # frames seen at load 3, ~630 at load 11): bounded all the same, where unchecked it grows
    reader = open_reader(path)
    frame = 24 + reader.execute("PRAGMA page_size").fetchone()[0]
    reader.close()
    assert max(sizes) < 32 + 4 * 500 * frame, f"the WAL grew to {max(sizes):,} bytes"
    assert rows_in_file_alone(path, tmp_path) == 2000


def test_a_reader_sees_every_committed_row_while_checkpoints_run(tmp_path):
    path = tmp_path / "j.sqlite3"
    j = Journal(path)
    checkpoints = []
    j.checkpoints.quiet, j.checkpoints.noted = 0.0, checkpoints.append
    reader, seen = open_reader(path), []
    for seq in range(1, 801):
        j.append([ev(seq)])
        seen.append(reader.execute("SELECT COUNT(*), MAX(seq) FROM journal").fetchone())
    j.close()
    assert len(checkpoints) > 10
    assert seen == [(seq, seq) for seq in range(1, 801)]
    reader.close()


# A writer in a process of its own, checkpointing all the time, each commit said once it
# returned (what the hub acknowledges): killed in the middle.
KILLED = """
import sys
from hub.event import Event
from hub.journal import Journal
j = Journal(sys.argv[1])
j.checkpoints.quiet, j.checkpoints.limit = 0.0, 200
seq = 0
while True:
    seq += 1
    j.append([Event(seq, f"t3-b.1.{seq}", 1000.0 + seq, "table:3", "table.result", {"game": seq})])
    print(seq, flush=True)
"""


def test_a_kill_while_checkpointing_loses_no_committed_row(tmp_path):
    path = tmp_path / "j.sqlite3"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    writer = subprocess.Popen([sys.executable, "-c", KILLED, str(path)], stdout=subprocess.PIPE, env=env, text=True)
    said = 0
    timer = threading.Timer(60, writer.kill)   # bounded: a writer that never commits is killed too
    timer.start()
    try:
        for line in writer.stdout:
            said = int(line)
            if said >= 1500:   # past a checkpoint many times over
                break
    finally:
        writer.kill()
        writer.wait()
        timer.cancel()
    assert said >= 1500, "the writer did not commit 1500 batches within 60 s"
    j = Journal(path)   # its chain checked at open: every row as sealed
    assert j.last_seq() >= said
    assert [e.seq for e in j.events()] == list(range(1, j.last_seq() + 1))
    assert j._db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    j.close()


def test_a_journal_never_closed_lets_its_checkpointer_go(tmp_path):
    """A tool or a test that drops a journal without closing it: its thread and connection
    go with it, as the writer's connection always did (hundreds of them in one test run)."""
    def checkpointers():
        return sum(t.name == "journal-checkpoints" for t in threading.enumerate())

    before = checkpointers()
    for n in range(20):
        Journal(tmp_path / f"j{n}.sqlite3").append([ev(1)])
    gc.collect()
    deadline = time.monotonic() + 10
    while checkpointers() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert checkpointers() == before
