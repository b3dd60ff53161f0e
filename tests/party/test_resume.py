"""`party run` on a journal a hub has run on (issue 23): it says it is resuming, and the
embedded broker listens on the port the last run used (the boards were given it) unless
told otherwise. The whole restart, boards and all: tests/web/test_hub_gone_browser.py."""
from __future__ import annotations

import argparse
import json
import time

import pytest

from hub.runs import Run
from party.cli import _resume


def ran_before(journal, port: int, in_order: bool) -> None:
    now = time.time()
    run = Run(now - 600, now - 30, 1834, ("127.0.0.1", port), {"1": "b1"}, now - 30 if in_order else None)
    journal.with_name(journal.name + ".runs.json").write_text(json.dumps({"runs": [run.written()]}))


def args(**given) -> argparse.Namespace:
    return argparse.Namespace(**{"broker": None, "mqtt_port": None, **given})


@pytest.mark.parametrize("mqtt_port", [None, 0])
def test_a_journal_run_before_is_resumed_on_the_broker_port_it_used(tmp_path, capsys, mqtt_port):
    journal = tmp_path / "party.sqlite3"
    ran_before(journal, 41234, in_order=False)
    a = args(mqtt_port=mqtt_port)
    _resume(a, journal)
    said = capsys.readouterr().out
    assert f"party: resuming the party in {journal}" in said
    assert "stopped without a goodbye (a crash, a power cut or a kill)" in said and "at event 1834" in said
    assert "the broker on port 41234 again" in said
    assert a.mqtt_port == 41234


@pytest.mark.parametrize("told", [{"mqtt_port": 1884}, {"broker": ("10.0.0.2", 1883)}])
def test_told_otherwise_it_still_says_it_resumes_but_keeps_what_it_was_told(tmp_path, capsys, told):
    journal = tmp_path / "party.sqlite3"
    ran_before(journal, 41234, in_order=True)
    a = args(**told)
    _resume(a, journal)
    said = capsys.readouterr().out
    assert "resuming the party" in said and "stopped in order at" in said and "41234" not in said
    assert (a.mqtt_port, a.broker) == (told.get("mqtt_port"), told.get("broker"))


def test_a_new_journal_is_not_resumed(tmp_path, capsys):
    a = args(mqtt_port=0)
    _resume(a, tmp_path / "new.sqlite3")
    assert capsys.readouterr().out == "" and a.mqtt_port == 0


@pytest.mark.broker
def test_a_journal_from_elsewhere_is_resumed_and_said_so(broker, tmp_path, capsys):
    """A copy of the journal, or one a takeover restored: no note of the runs beside it."""
    from hub.service import Hub
    from party.cli import _shutdown, _start_hub
    from party.setup import create_party

    journal = tmp_path / "copy.sqlite3"
    hub = Hub(journal, broker.host, broker.port).start()
    assert create_party(hub, tables=2, form="draw").ok
    hub.stop()
    journal.with_name(journal.name + ".runs.json").unlink()
    a = argparse.Namespace(broker=(broker.host, broker.port), mqtt_port=None, http=("127.0.0.1", 0), public_url=None,
                           no_audit=False, replica=None, replica_sync=1.0, provisioned=None, club=None)
    broker_, hub, web = _start_hub(a, journal)
    assert hub.listening.wait(10)
    _shutdown(broker_, hub, web)
    assert f"party: resuming the party in {journal}: 1 event, no note of where a hub last ran on it" in \
        capsys.readouterr().out
