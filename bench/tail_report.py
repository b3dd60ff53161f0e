"""The worst entries of a bench, explained by the hub's own record of where its time went
(hub/tail.py): for each, the batch that journaled it step by step, the view that showed it,
and the process's pauses while it waited. One clock (`time.monotonic()`) for every process.

    sent -> taken     the table's publish to the writer taking it (broker, the writer's
                      previous turn, a pause)
    judge             the batch step (hub/batch.py)
    commit            the journal's append: SQLite's COMMIT, its fsyncs (hub/journal.py)
    acks              acks and bell to the broker
    ->table           from the acks sent to the ack's arrival at the table (the broker, and
                      this process's own turns)
    screens           the tables' retained screens made and sent
    -> view           from the screens sent to the projection's view made with this seq
    -> written        from that view to the last of the hub's SSE streams having written it
                      (its frame handed to the socket: the hub's side of the way to a screen)
    -> arrived        from then to the slowest screen's arrival of the whole frame (the
                      kernel, and the screens' reading: the bench's side)
    gc                the collector's passes while the entry waited: count, ms (oldest gen)
    late              the longest a watcher thread was woken late meanwhile (GIL or CPU),
                      in the hub's process and in this one (its tables and screens)
"""
from __future__ import annotations

import bisect

from bench.room import percentile

SLOW_COMMIT_S = 0.020   # a commit counted as slow: two fifths of issue 25's steady p99 of 50 ms, entry to screens


def report(entries: list[tuple[float, int]], acked: dict[int, float], screens, tail: dict, here,
           worst: int = 10) -> None:
    """`acked`: seq -> publish-to-ack seconds at the table; `here`: this process's own Tail."""
    batches = sorted((b for b in tail["batches"] if b.first <= b.last), key=lambda b: b.last)
    lasts = [b.last for b in batches]
    views = sorted(tail["views"])
    view_seqs = [v[0] for v in views]
    streams: dict[int, list] = {}   # stream -> its frames (seq, written), in the order written
    for seq, written, stream in tail.get("frames", ()):
        streams.setdefault(stream, []).append((seq, written))
    written_by = [([f[0] for f in fs], [f[1] for f in fs]) for fs in streams.values()]
    pauses, ours_all = sorted(tail["pauses"]), sorted(here.pauses.copy())   # `here` still watching
    rows = []
    for sent, seq in entries:
        arrived = max(s.first_at_or_after(seq) for s in screens)
        b = batches[bisect.bisect_left(lasts, seq)]
        i = bisect.bisect_left(view_seqs, seq)
        made = views[i][2] if i < len(views) else None   # the first view to show it
        during = [p for p in pauses if sent <= p.at <= arrived]
        ours = [p for p in ours_all if sent <= p.at <= arrived]
        firsts = [ts[i] for seqs, ts in written_by if (i := bisect.bisect_left(seqs, seq)) < len(seqs)]
        written = max(firsts) if firsts else None   # every stream's first frame to show it, written
        rows.append((arrived - sent, sent, seq, b, made, arrived, during, sent + acked[seq], ours, written))
    start = min(sent for sent, _ in entries)
    end = max(r[5] for r in rows)
    print(f"         the worst {worst} entries, where their time went (ms; bench/tail_report.py):")
    print(f"         {'at s':>6} {'total':>6} {'sent->taken':>11} {'judge':>6} {'commit':>6} {'acks':>5} "
          f"{'->table':>7} {'screens':>7} {'->view':>6} {'->written':>9} {'->arrived':>9} {'batch':>5}  "
          f"hub: gc; late  bench: gc; late")
    for total, sent, seq, b, made, arrived, during, at_table, ours, written in sorted(rows, key=lambda r: -r[0])[:worst]:
        ms = lambda a, z: f"{(z - a) * 1000:.1f}" if a is not None and z is not None else "-"  # noqa: E731
        print(f"         {sent - start:6.2f} {total * 1000:6.1f} {ms(sent, b.taken):>11} {ms(b.taken, b.judged):>6} "
              f"{ms(b.judged, b.committed):>6} {ms(b.committed, b.acked):>5} {ms(b.acked, at_table):>7} "
              f"{ms(b.acked, b.shown):>7} {ms(b.shown, made):>6} {ms(made, written):>9} {ms(written, arrived):>9} {b.inputs:5d}  "
              f"{_pauses(during)}  {_pauses(ours)}")
    phase = [b for b in batches if start <= b.taken <= end]
    if phase:
        print(f"         every batch of the phase (n={len(phase)}), p99 / max ms: " + ", ".join(
            f"{name} {_p99_max([(z - a) * 1000 for a, z in pairs])}" for name, pairs in (
                ("judge", [(b.taken, b.judged) for b in phase]),
                ("commit", [(b.judged, b.committed) for b in phase]),
                ("acks", [(b.committed, b.acked) for b in phase]),
                ("screens", [(b.acked, b.shown) for b in phase]))))
        _commits(phase, [c for c in tail.get("checkpoints", ()) if start <= c[0] <= end])
    legs = [(b.shown, made, written, arrived) for _, _, _, b, made, arrived, _, _, _, written in rows
            if made is not None and written is not None]
    if legs:
        print(f"         the way from the batch to the last screen, every entry (n={len(legs)}), p50 / p99 ms: "
              + ", ".join(f"{name} {_p50_p99([(z - a) * 1000 for a, z in pairs])}" for name, pairs in (
                  ("->view", [(s, m) for s, m, _, _ in legs]),
                  ("->written", [(m, w) for _, m, w, _ in legs]),
                  ("->arrived", [(w, a) for _, _, w, a in legs]))))
    made = [(z - a) * 1000 for seq, a, z in views if start <= a <= end]
    if made:
        print(f"         the projection's views (n={len(made)}), made in p99 / max ms: {_p99_max(made)}")
    for who, of in (("the hub", pauses), ("the bench", ours_all)):
        in_phase = [p for p in of if start <= p.at <= end]
        passes = "; ".join(_sum(f"gen {gen}", [p.seconds * 1000 for p in in_phase if p.what == gen]) for gen in (0, 1, 2))
        print(f"         {who}'s process: the collector's passes: {passes}; "
              f"{_sum('a watcher woken >10 ms late', [p.seconds * 1000 for p in in_phase if p.what < 0])}")


def _commits(phase: list, checkpoints: list) -> None:
    """The writer's commits of the phase (those with rows to journal), and the journal's
    checkpoints meanwhile (hub/checkpoints.py: on a thread of their own, beside the commits)."""
    commits = [(b.judged, b.committed) for b in phase if b.first <= b.last]
    ms = [(z - a) * 1000 for a, z in commits]
    if not ms:
        return
    slow = [(a, z) for a, z in commits if z - a > SLOW_COMMIT_S]
    beside = sum(any(at < z and a < at + s for at, s, *_ in checkpoints) for a, z in slow)
    print(f"         the writer's commits (n={len(ms)}), ms: p50 {percentile(ms, 50):.1f}, p99 {percentile(ms, 99):.1f}, "
          f"max {max(ms):.1f}; over {SLOW_COMMIT_S * 1000:.0f} ms: {len(slow)}, of which beside a checkpoint: {beside}")
    if checkpoints:
        took = [c[1] * 1000 for c in checkpoints]
        print(f"         the journal's checkpoints, apart (n={len(took)}), ms: p50 {percentile(took, 50):.1f}, "
              f"max {max(took):.1f}; WAL frames each, max {max(c[2] for c in checkpoints)}; "
              f"busy (another checkpointing) {sum(c[4] for c in checkpoints)}; "
              f"run by the writer itself (the WAL long): {sum(c[5] for c in checkpoints)}")


def _sum(what: str, ms: list[float]) -> str:
    return f"{what} {len(ms)}x, {sum(ms):.0f} ms, longest {max(ms, default=0.0):.1f}"


def _pauses(during) -> str:
    """The collector's passes (count, ms, oldest generation) and the longest late wake-up."""
    gcs = [p for p in during if p.what >= 0]
    late = max((p.seconds for p in during if p.what < 0), default=0.0)
    collected = f"{len(gcs)} {sum(p.seconds for p in gcs) * 1000:.0f} g{max(p.what for p in gcs)}" if gcs else "0"
    return f"{collected}; {late * 1000:.0f}"


def _p50_p99(ms: list[float]) -> str:
    return f"{percentile(ms, 50):.1f} / {percentile(ms, 99):.1f}"


def _p99_max(ms: list[float]) -> str:
    return f"{percentile(ms, 99):.1f} / {max(ms):.1f}"
