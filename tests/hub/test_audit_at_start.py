"""The hub audits its journal at start-up (issue 12 item 11): a journal the hub wrote
passes `party replay --audit` and is served; one holding an event the conductor would
refuse is not served unless the host says so, and both say which event and why."""
import random

import pytest

from hub.conductor import events as k
from hub.conductor.cards import SEATS, number
from hub.conductor.leads import keys_lead
from party.hands import played_values
from hub.event import Event
from hub.journal import Journal
from hub.service import Hub, JournalFailsAudit
from party.cli import main
from party.setup import guest_names, seat_guests, start_session

pytestmark = pytest.mark.broker


def test_a_journal_the_hub_wrote_passes_and_a_forged_one_is_not_served(make_hub, table, broker,
                                                                     tmp_path, capsys):
    hub = make_hub(tables=3)
    assert seat_guests(hub, guest_names(12), seed=3).ok and start_session(hub, 1).ok
    t1 = table(1)
    seats = hub.state.session.tables[1].seats
    cards = {x: number(c) if c else 0 for x, c in zip(SEATS, seats)}
    assert t1.ack_for(t1.send("seat-check", {"cards": cards}))["ok"]
    for game in (1, 2):
        values = played_values(hub.state.setup, seats, random.Random(game),
                               lead=keys_lead(hub.state.setup.form, game))
        assert t1.ack_for(t1.send("result", {"game": game, "values": values}))["ok"]
    assert not t1.ack_for(t1.send("result", {"game": 9, "values": values}))["ok"]  # refused
    hub.stop()
    path = str(tmp_path / "journal.sqlite3")

    assert main(["replay", path, "--audit"]) == 0
    assert ", 0 of them the conductor would not have written" in capsys.readouterr().out
    served = Hub(path, broker.host, broker.port)      # audited and served
    seq = served.seq
    served.journal.close()

    forged = Journal(path)   # another writer: a third game keyed by table 2 for table 1
    forged.append([Event(seq + 1, "t2.1.1", 1e9, "table:2", k.RESULT,
                         {"game": 3, "values": values, "table": 1, "board": "t2"})])
    forged.close()
    assert main(["replay", path, "--audit"]) == 1
    assert f"seq {seq + 1} {k.RESULT} t2.1.1: WRONG TABLE" in capsys.readouterr().out
    with pytest.raises(JournalFailsAudit) as refused:
        Hub(path, broker.host, broker.port)
    message = str(refused.value)
    assert f"seq {seq + 1}" in message and "WRONG TABLE" in message and "--no-audit" in message
    anyway = Hub(path, broker.host, broker.port, audit=False)   # the host said so
    assert anyway.seq == seq + 1
    anyway.journal.close()

