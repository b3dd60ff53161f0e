"""A hub on the test's own broker, and tables that speak the protocol with paho."""
import pytest

from hub import conductor
from hub.service import Hub
from party.setup import create_party
from hardware.sim.protocol_table import ProtocolTable


@pytest.fixture
def make_hub(broker, tmp_path):
    """Start a hub on the test's broker; the same journal file survives restarts."""
    hubs = []

    def start(tables: int = 4, form: str = "draw") -> Hub:
        hub = Hub(tmp_path / "journal.sqlite3", broker.host, broker.port).start()
        # The protocol tables here never resend: an event sent before the hub subscribed is gone.
        assert hub.listening.wait(10), "the hub did not subscribe to the tables within 10 s"
        if hub.seq == 0:
            assert create_party(hub, tables=tables, form=form).ok
        hubs.append(hub)
        return hub

    yield start
    for hub in hubs:
        hub.stop()


@pytest.fixture
def table(broker):
    tables = []

    def connect(n: int, board: str | None = None) -> ProtocolTable:
        # Bells are not acknowledged here: these tests count exactly what is journaled.
        t = ProtocolTable(broker.host, broker.port, n, board, ack_bells=False)
        tables.append(t)
        return t

    yield connect
    for t in tables:
        t.close()


@pytest.fixture
def admitted(monkeypatch):
    """The seqs a hub's start-up audit admits again (hub/startup.py)."""
    seen, audit = [], conductor.audit

    def counted(events, state=None):
        events = list(events)
        seen.extend(e.seq for e in events)
        return audit(events, state)
    monkeypatch.setattr(conductor, "audit", counted)
    return seen
