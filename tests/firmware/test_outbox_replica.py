"""The board as the second copy of its own entries (issue 14): an entry the hub
acknowledged stays on the board until the hub's status says its replica holds it,
and goes back to the hub if a hub restored from the replica lacks it
(docs/protocol.md, `party/hub/status`: `safe`, `restored`).

The hub here is the protocol's stand-in (hardware/sim/hub_double.py): a
takeover is played as a hub that forgets what the lost one journaled after the
replica's position and says where its journal was restored from."""
import time

from tests.firmware.test_entry import key_result


def outbox_log(board) -> str:
    return (board.data_dir / "outbox.log").read_text()


def wait_for_log(board, ending: str, timeout: float = 10.0) -> None:
    """Until the board's outbox log (its flash) ends with this record."""
    deadline = time.monotonic() + timeout
    while not outbox_log(board).rstrip().endswith(ending):
        assert time.monotonic() < deadline, outbox_log(board)
        time.sleep(0.05)


def handled(board, hub, mark: str) -> None:
    """The board has read what the hub published before this (a screen after it, in
    order on one connection) and had time to send anything that made it send."""
    hub.screen(3, lines=["TABLE 3", mark])
    board.wait_for(mark)
    time.sleep(0.5)


def takeover(hub, restored: int, safe: int, **status) -> None:
    """The hub's machine is lost; a standby restored from the replica up to `restored`."""
    for eid, ev in list(hub.journal.items()):
        if hub.acked_seq.get(eid, 0) > restored:
            del hub.journal[eid], hub.acked_seq[eid]
    hub.received.clear()
    hub.set_status("online", safe=safe, restored=restored, **status)


def test_acknowledged_entry_kept_until_replicated_then_dropped(board, hub):
    hub.seq_base(100)
    hub.set_status("online", safe=100)
    key_result(board)
    board.wait_for("GAME 2 SAVED")
    ev = hub.events("result")[0]
    assert hub.acked_seq[ev["id"]] == 101
    board.wait_for(lambda lines: "PEND" not in lines[-1])  # nothing left to send
    assert f"=101 - {ev['id']}" in outbox_log(board)  # but kept on flash

    hub.set_status("online", safe=101)  # the replica has passed it
    wait_for_log(board, "S101")
    # A hub restored from that replica has it: the board resends nothing.
    takeover(hub, restored=101, safe=101)
    handled(board, hub, "TAKEN OVER")
    assert hub.received == []


def test_entry_missing_from_the_replica_is_resent_once_with_its_id_even_after_a_power_cut(board, hub):
    hub.seq_base(100)
    hub.set_status("online", safe=100)
    key_result(board)
    board.wait_for("GAME 2 SAVED")
    sent = hub.events("result")[0]

    board.kill()  # and the board loses power meanwhile: the kept entry is on flash
    board.restart()
    board.wait_for(lambda lines: "HUB?" not in lines[-1])
    assert not hub.events("result")[1:]  # acknowledged already: not resent to the same hub

    beats = len(hub.heartbeats)
    takeover(hub, restored=100, safe=100)  # the replica stopped before it
    hub.wait(lambda: hub.events("result"))
    # the event first sent, with the seq the lost hub journaled it at: the standby
    # rebuilds the lost hub's journal in that order (hub/rebuild.py)
    assert hub.events("result") == [{**sent, "seq": 101}]
    assert list(hub.journal) == [sent["id"]]
    board.wait_for(lambda lines: "PEND" not in lines[-1])
    # and at once a heartbeat behind it: the standby knows this board sent all it kept
    hub.wait(lambda: len(hub.heartbeats) > beats, timeout=5)

    # Acknowledged again by the new hub: kept again, but not sent a third time when
    # its status repeats (the replica advancing), and dropped once replicated.
    seq = hub.acked_seq[sent["id"]]
    hub.set_status("online", safe=100, restored=100)
    handled(board, hub, "STATUS AGAIN")
    assert hub.events("result") == [{**sent, "seq": 101}]
    hub.set_status("online", safe=seq, restored=100)
    wait_for_log(board, f"S{seq}")


def test_a_hub_without_replica_lets_the_board_forget_at_once(board, hub):
    key_result(board)  # the hub's status has no `safe`: it keeps no replica
    board.wait_for("GAME 2 SAVED")
    ev = hub.events("result")[0]
    assert f"-{ev['id']}" in outbox_log(board)
    takeover(hub, restored=0, safe=0)
    handled(board, hub, "TAKEN OVER")
    assert hub.received == []  # nothing kept, nothing resent



def test_a_second_standby_restored_at_the_same_seq_gets_back_what_the_first_acknowledged(board, hub):
    # The standby's machine lost seconds after its takeover, before its replica moved on:
    # the second standby is restored at the same seq. What the first acknowledged after it
    # goes back all the same: each takeover says which it is (`took`).
    hub.seq_base(100)
    takeover(hub, restored=100, safe=100, took=1)
    key_result(board)
    board.wait_for("GAME 2 SAVED")
    sent = hub.events("result")[0]
    assert f"=101 1 {sent['id']}" in outbox_log(board)
    handled(board, hub, "SAME STANDBY")
    assert hub.events("result") == [sent]   # its own takeover's: not sent back to it
    takeover(hub, restored=100, safe=100, took=2)
    hub.wait(lambda: hub.events("result"))
    assert hub.events("result") == [{**sent, "seq": 101}]
