"""The fault drills: the hub SIGKILLed, the broker restarted, a table cut off,
boards' power cut. Each plays a party through the real firmware on 127.0.0.1 and
checks the journal against what was keyed: nothing lost, nothing doubled."""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

from hub import conductor
from party.broker import best_available
from party.replay import read_journal

from .boards import start_boards, stop_boards
from .books import book_party, comparable, journaled_entries
from .figures import ErrorCounter, Figures, fresh_dir
from .hubs import ChildHub, InProcessHub, JournalView
from .links import Link, Traffic, provisioned_broker
from .lockstep import LockstepParty


def _play(fig: Figures, party: LockstepParty, handle, boards, faults: Sequence[threading.Thread] = (),
          wait_s: float = 0.0, play=None) -> None:
    """The shape of every drill: play the party (`play`, or the whole of it: its `on_round` starts
    the faults, threads it appends to `faults`), give each fault `wait_s` to finish, stop the hub
    and book what the boards keyed against its journal; the exceptions the hub logged and its
    crashes counted."""
    started = time.monotonic()
    with ErrorCounter() as errors:
        (play or party.play)()
        for t in faults:
            t.join(wait_s)
    fig.seconds = time.monotonic() - started
    handle.stop()
    fig.crashes += errors.count + handle.crashes()
    book_party(fig, party, handle.journal, boards)


@contextmanager
def _one_session(work: Path, tables: int, seed: int, say, cut: int | None = None):
    """A one-session party played in lock-step: a fresh directory, a broker, the hub in this
    process and `tables` boards (table `cut` reaching the broker through a Link that can be
    cut); all of it stopped after."""
    work = fresh_dir(work)
    broker = best_available().start()
    link = Link(broker.host, broker.port) if cut else None
    handle = InProcessHub(work / "journal.sqlite3", broker).start()
    boards = start_boards(tables, lambda n: (link.host, link.port) if n == cut else (broker.host, broker.port),
                          work / "boards")
    try:
        yield broker, link, handle, boards, LockstepParty(handle, boards, seed=seed, sessions=1, say=say)
    finally:
        stop_boards(boards)
        handle.stop()
        if link:
            link.close()
        broker.stop()


# ----- SIGKILL the hub ------------------------------------------------------------------------

def _party_with_child_hub(work: Path, *, tables: int, seed: int, sessions: int | None, games: int | None,
                          kills: int, say) -> tuple[Figures, dict]:
    """One party with the hub as a child process; `kills` SIGKILLs spread over its rounds."""
    work = fresh_dir(work)
    fig = Figures("hub-kill" if kills else "fault-free")
    broker, provisioned = provisioned_broker(tables, work)  # the production set-up: accounts and ACL
    handle = ChildHub(work / "journal.sqlite3", broker, work / "hub.log", provisioned)
    boards = start_boards(tables, lambda n: (broker.host, broker.port), work / "boards", provisioned)
    options = {"games_per_session": games} if games else {}
    party = LockstepParty(handle, boards, seed=seed, sessions=sessions, say=say, **options)
    rng = random.Random(f"{seed}:kills")
    rounds = (sessions or 3) * (1 + (games or 4))  # the seat check and the games of each session (Draw)
    plan: dict[int, list[float]] = {}
    for _ in range(kills):
        plan.setdefault(rng.randrange(rounds), []).append(rng.uniform(0.0, 3.0))
    timers: list[threading.Thread] = []
    counter = iter(range(10 ** 6))

    def on_round(session: int, rnd: int) -> None:
        for delay in plan.get(next(counter), ()):
            def kill(delay=delay, down=rng.uniform(0.1, 1.0)):
                time.sleep(delay)
                handle.kill(down_for=down)
            t = threading.Thread(target=kill, daemon=True)
            t.start()
            timers.append(t)

    party.on_round = on_round
    try:
        _play(fig, party, handle, boards, timers, 60)
        fig.detail = {"tables": tables, "kills": handle.kills,
                      "broker": "accounts + ACL" if provisioned else "anonymous"}
        if kills and handle.kills != kills:
            fig.failures.append(f"{handle.kills} kills made of {kills} planned")
        doc = comparable(conductor.to_json(JournalView(handle.journal).state()))
    finally:
        stop_boards(boards)
        handle.close()
        broker.stop()
    return fig, {"results": _results(party), "doc": doc}


def hub_kill(work: Path, *, tables: int = 20, kills: int = 20, seed: int = 7, sessions: int | None = None,
             games: int | None = None, say=print) -> Figures:
    """SIGKILL the hub `kills` times at random points of a party; compare with a fault-free run."""
    say(f"hub-kill: a fault-free party of {tables} tables first (seed {seed})")
    ref, ref_out = _party_with_child_hub(work / "fault-free", tables=tables, seed=seed, sessions=sessions,
                                         games=games, kills=0, say=say)
    say(f"hub-kill: fault-free run {ref.seconds:.0f} s; now the same party with {kills} SIGKILLs")
    fig, out = _party_with_child_hub(work / "killed", tables=tables, seed=seed, sessions=sessions,
                                     games=games, kills=kills, say=say)
    fig.detail["fault-free s"] = round(ref.seconds, 1)
    return _compared(fig, out, ref, ref_out)


def _compared(fig: Figures, out: dict, ref: Figures, ref_out: dict) -> Figures:
    """A faulted run against the fault-free run of the same seed: the same entries, the
    same party (`comparable`); the fault-free run's own failures and counts added."""
    fig.failures += [f"fault-free run: {f}" for f in ref.failures]
    fig.lost, fig.doubled, fig.crashes = fig.lost + ref.lost, fig.doubled + ref.doubled, fig.crashes + ref.crashes
    if out["results"] != ref_out["results"]:
        differ = sorted(k for k in set(out["results"]) | set(ref_out["results"])
                        if out["results"].get(k) != ref_out["results"].get(k))
        fig.failures.append(f"entries differ from the fault-free run at {differ[:5]}")
    same = out["doc"] == ref_out["doc"]
    fig.detail["standings = fault-free"] = "yes" if same else "NO"
    if not same:
        parts = [key for key in out["doc"] if out["doc"].get(key) != ref_out["doc"].get(key)]
        fig.failures.append(f"replayed party differs from the fault-free run in {parts}")
    return fig


# ----- lose the hub's machine -------------------------------------------------------------------

def machine_lost(work: Path, *, tables: int = 20, seed: int = 19, sessions: int | None = None,
                 games: int | None = None, sync_s: float = 5.0, losses: int = 2, say=print) -> Figures:
    """The hub's machine lost mid-session with entries in flight: the hub and its Litestream
    SIGKILLed, its journal's directory deleted; a standby runs `party takeover` from the
    replica on the same broker; then (`losses` 2) the standby's machine is lost the same way
    and a second standby takes over. The boards key on through each outage. Compared with a
    fault-free run of the same seed.

    Each machine is lost as soon as half the tables' entries it was sent are acknowledged,
    the others still being keyed or sent. Litestream ships every `sync_s` seconds (5: wider
    than `party run`'s default 1 s, so the replica most likely lacks entries the boards were
    told are saved: the gap the boards' kept entries must close). Checked: every entry a lost
    hub acknowledged is in the next standby's journal at the seq it was given (the standby
    rebuilt the lost hub's rows in its order, hub/rebuild.py), the seating announced before
    each loss is the one kept, no id heard two verdicts."""
    say(f"machine-lost: a fault-free party of {tables} tables first (seed {seed})")
    ref, ref_out = _party_with_child_hub(work / "fault-free", tables=tables, seed=seed, sessions=sessions,
                                         games=games, kills=0, say=say)
    say(f"machine-lost: fault-free run {ref.seconds:.0f} s; now the same party, {losses} machines lost")
    work = fresh_dir(work / "lost")
    fig = Figures("machine-lost")
    broker = best_available().start()
    replica = work / "replica"  # on the standby's side: a share, a USB stick, sftp to it
    handle = ChildHub(work / "hub-machine" / "journal.sqlite3", broker, work / "hub.log",
                      replica=replica, replica_sync_s=sync_s)
    traffic = Traffic(broker)
    boards = start_boards(tables, lambda n: (broker.host, broker.port), work / "boards")
    party = LockstepParty(handle, boards, seed=seed, sessions=sessions, say=say,
                          **({"games_per_session": games} if games else {}))
    # a game of session 1 that leaves a game for each later loss: a standby lost after the
    # last entry has nothing left to acknowledge
    at_round = random.Random(f"{seed}:machine").randrange(2, max(3, 2 + (games or 4) - losses))
    lost: list[dict] = []   # per loss: when, what the lost hub acknowledged, the seating it announced

    def lose_and_take_over(began: float) -> None:
        hub_since = 0.0
        for n in range(1, losses + 1):
            deadline = began + 60
            while len(traffic.acked_before(time.monotonic()) - traffic.acked_before(began)) < max(1, tables // 2):
                if time.monotonic() > deadline:
                    return
                time.sleep(0.01)
            if not handle.replica_written(work / f"replica-read-{n}.sqlite3", deadline):
                fig.failures.append(f"loss {n}: nothing in the replica {replica} to take over from")
                return
            state = handle.state()
            seating = {t: x.seats for t, x in state.session.tables.items()} if state.session else {}
            lost_at = time.monotonic()
            handle.lose_machine()
            # acks the dying hub sent until its SIGKILL landed are not the standby's
            dead = time.monotonic()
            handle.take_over(work / f"standby-{n}" / "journal.sqlite3")
            taken = time.monotonic()
            first = None
            while first is None and time.monotonic() < taken + 90:
                first = traffic.first_ack_after(dead)
                time.sleep(0.05)
            lost.append({"lost_at": lost_at, "acked": traffic.acked_seqs(hub_since, dead),
                         "session": state.session.number if state.session else None, "seating": seating,
                         "started_s": taken - lost_at, "takeover_s": first - lost_at if first else None})
            hub_since, began = dead, first or time.monotonic()
            if n < losses:   # the standby's own journal, before its machine goes in turn
                lost[-1]["journal"] = _journal_rows(handle.journal, until=90)

    threads: list[threading.Thread] = []

    def on_round(session: int, rnd: int) -> None:
        if session == 1 and rnd == at_round and not threads:
            t = threading.Thread(target=lose_and_take_over, args=(time.monotonic(),), daemon=True)
            t.start()
            threads.append(t)

    party.on_round = on_round
    try:
        _play(fig, party, handle, boards, threads, 240)
        if len(lost) < losses:
            fig.failures.append(f"{len(lost)} machines lost of {losses} (or a standby never started)")
        final = _journal_rows(handle.journal)
        for n, loss in enumerate(lost, 1):
            # the standby that took over from this loss: read before its own machine went, or the last
            rows = loss.get("journal", final)
            at = {i: seq for seq, i in rows.items()}
            moved = sorted(i for i, seq in loss["acked"].items() if at.get(i) != seq)
            if moved:
                fig.failures.append(f"loss {n}: acknowledged entries not at their seq in the standby's journal: "
                                    f"{moved[:5]}")
            kept = _seating(handle.journal, loss["session"])
            if loss["seating"] and kept != loss["seating"]:
                fig.failures.append(f"loss {n}: the seating of session {loss['session']} changed")
            if loss["takeover_s"] is None:
                fig.failures.append(f"loss {n}: the standby never acknowledged anything")
        two = sorted(i for i, said in traffic.verdicts().items() if len({ok for ok, _ in said}) > 1
                     or len({x for ok, x in said if ok}) > 1)
        if two:
            fig.failures.append(f"ids with two verdicts: {two[:5]}")
        fig.detail = {"tables": tables, "losses": len(lost), "lost in": f"session 1 from game {at_round}",
                      "standby up s": [round(x["started_s"], 1) for x in lost],
                      "first ack s": [round(x["takeover_s"], 1) if x["takeover_s"] else None for x in lost],
                      "acked by lost hubs": sum(len(x["acked"]) for x in lost),
                      "resent": sum(len(traffic.sent_after(x["lost_at"], set(x["acked"]))) for x in lost),
                      "two verdicts": len(two)}
        doc = comparable(conductor.to_json(JournalView(handle.journal).state()))
    finally:
        traffic.close()
        stop_boards(boards)
        handle.close()
        broker.stop()
    return _compared(fig, {"results": _results(party), "doc": doc}, ref, ref_out)


def _journal_rows(journal: Path, until: float = 0.0) -> dict[int, str]:
    """{seq: id} of a journal's events; with `until`, read once its rebuild is over (the
    hub's log says so) or after that many seconds."""
    deadline = time.monotonic() + until
    log = journal.parent.parent / "hub.log"
    while until and time.monotonic() < deadline and b"rebuild over" not in log.read_bytes()[-200_000:]:
        time.sleep(0.2)
    return {e.seq: e.id for e in read_journal(journal)}


def _seating(journal: Path, session: int | None) -> dict:
    state = conductor.replay(read_journal(journal))
    if session is None or len(state.sessions) < session:
        return {}
    return {t: x.seats for t, x in state.sessions[session - 1].tables.items()}


def _results(party: LockstepParty) -> dict:
    return {f"{e.table}/{e.session}/{e.kind}/{e.game}": e.values for e in party.keyed}


# ----- restart the broker -----------------------------------------------------------------------

def broker_restarts(work: Path, *, tables: int = 8, restarts: int = 5, seed: int = 11, say=print) -> Figures:
    """Kill and restart the broker `restarts` times in one session (a restart in each round)."""
    fig = Figures("broker-restart")
    with _one_session(work, tables, seed, say) as (broker, _, handle, boards, party):
        rng = random.Random(f"{seed}:broker")
        done = []

        def restart(delay: float, down: float) -> None:
            time.sleep(delay)
            broker.stop()
            time.sleep(down)
            broker.start()
            done.append(down)

        threads = []

        def on_round(session: int, rnd: int) -> None:
            if len(threads) < restarts:
                t = threading.Thread(target=restart, args=(rng.uniform(0.2, 2.0), rng.uniform(0.2, 2.0)),
                                     daemon=True)
                t.start()
                threads.append(t)

        party.on_round = on_round
        _play(fig, party, handle, boards, threads, 30)
        fig.detail = {"tables": tables, "restarts": len(done)}
        if len(done) != restarts:
            fig.failures.append(f"{len(done)} broker restarts made of {restarts}")
    return fig


# ----- cut a table off ----------------------------------------------------------------------------

def cut_table(work: Path, *, tables: int = 20, minutes: float = 5.0, seed: int = 13, say=print) -> Figures:
    """Cut the last table's link for `minutes` of play: it keys its whole session offline
    while the others play on and ring the bell; then heal it and count."""
    fig = Figures("cut-table")
    cut_n = tables
    with _one_session(work, tables, seed, say, cut=cut_n) as (_, link, handle, boards, party):
        party.ROUND_TIMEOUT = minutes * 60 + 120
        cut_s = minutes * 60
        seen: dict = {}

        def offline_table(session: int, form1: dict) -> None:
            began = time.monotonic()
            games = handle.state().setup.games_per_session
            for g in range(1, games + 1):
                time.sleep(max(0.0, began + cut_s * g / (games + 1) - time.monotonic()))
                form = {**form1, "game": g, "title": f"GAME {g}"}
                state = handle.state()
                party.key(state, cut_n, session, form, party.values(state, cut_n, session, form))
            time.sleep(max(0.0, began + cut_s - time.monotonic()))
            seen["pending"] = boards[cut_n].lines[-1]
            seen["journaled while cut"] = sum(1 for e in party.keyed if e.table == cut_n and e.kind == "result"
                                              and e.key in _journaled_keys(handle))
            healed = time.monotonic()
            link.heal()
            party.wait_until(lambda s: s.session.tables[cut_n].entered >= games, "the cut table's games",
                             timeout=120)
            seen["drained s"] = round(time.monotonic() - healed, 1)

        threads = []

        def on_round(session: int, rnd: int) -> None:
            if rnd == 1 and not threads:
                got = party.form_for(cut_n, session, 1)
                if got is None:
                    return
                boards[cut_n].wait_for("# ENTER GAME 1", timeout=30)  # the board has the hub's form
                link.cut()
                party.skip.add(cut_n)
                t = threading.Thread(target=offline_table, args=(session, got[1]), daemon=True)
                t.start()
                threads.append(t)

        party.on_round = on_round
        _play(fig, party, handle, boards, threads, cut_s + 180)
        fig.detail = {"tables": tables, "cut min": minutes, "board showed": seen.get("pending", "?").strip(),
                      "journaled while cut": seen.get("journaled while cut"), "drained s": seen.get("drained s")}
        if seen.get("journaled while cut"):
            fig.failures.append("the cut table's entries reached the hub while it was cut off")
    return fig


def _journaled_keys(handle) -> set:
    return set(journaled_entries(handle.journal))


# ----- cut the boards' power ----------------------------------------------------------------------

def power_cuts(work: Path, *, tables: int = 4, seed: int = 17, say=print) -> Figures:
    """Boards power-cut (SIGKILL) with entries in their outbox: first while the hub is down
    (every board holds its seat check, is cut and restarted), then during play, a random
    moment after each board took each entry."""
    fig = Figures("power-cut")
    with _one_session(work, tables, seed, say) as (_, _, handle, boards, party):
        rng = random.Random(f"{seed}:power")
        cuts = {"with hub down": 0, "during play": 0}

        def play() -> None:
            party.set_up()
            state = handle.state()
            forms = {n: conductor.screens(state)[n]["form"] for n in boards}
            for n in boards:
                boards[n].wait_for("# SEAT CHECK", timeout=30)
            handle.stop()  # the hub goes away: entries wait in the outboxes
            for n, board in boards.items():
                board.wait_for("HUB?", timeout=30)
                party.key(state, n, 1, forms[n], party.values(state, n, 1, forms[n]))
                board.wait_for("PEND 1", timeout=30)
                board.restart()  # the power cut (SIGKILL) and back on
                board.wait_for("PEND 1", timeout=30)  # the entry survived on flash
                cuts["with hub down"] += 1
            handle.start()
            party.wait_until(lambda s: all(s.session.tables[n].seat_check for n in boards), "the seat checks")

            def cut_after_key(n: int) -> None:
                time.sleep(rng.uniform(0.0, 0.3))
                boards[n].restart()
                cuts["during play"] += 1

            party.after_key = cut_after_key
            party.play_session(from_round=1)
            if not party.failures:
                party.between_sessions()

        _play(fig, party, handle, boards, play=play)
        fig.detail = {"tables": tables, **{f"cuts {k}": v for k, v in cuts.items()}}
    return fig
