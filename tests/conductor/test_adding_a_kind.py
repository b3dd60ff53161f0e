"""docs/conductor.md, "Adding a kind of staff action": the file the doc shows, and only it,
added to a copy of the project's hub/ and web/, makes a kind that is registered, judged
(admitted from the staff, refused with the host's words), folded, replayed and audited the
same, and offered by the console's home page with a form that reads it."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

AS_THE_DOC_SAYS = r'''
import os
import re
import sys
import tempfile
from pathlib import Path

import hub
assert Path(hub.__file__).resolve().is_relative_to(Path.cwd().resolve()), hub.__file__   # the copy's
from hub import conductor
from hub.conductor import events as k
from hub.conductor import registry
from hub.event import Proposal
from hub.journal import Journal

NOTE = "conductor.note"
assert NOTE in registry.STAFF_KINDS and registry.KINDS[NOTE].fold is not None

journal, state = [], conductor.initial()


def admit(kind, body, login="florence"):
    global state
    v, state, events = conductor.admit(state, Proposal(f"p{len(journal)}.{kind}", f"staff:{login}", kind, body),
                                       state.seq, 1000.0 + len(journal))
    journal.extend(events)
    return v


assert admit(k.PARTY_CREATED, {"form": "block", "tables": 2}).ok
assert admit(NOTE, {"text": "  "}).why == "SAY WHY"
assert admit(NOTE, {}).why == "SAY WHY"                      # the field's reason, as declared
assert admit(NOTE, {"text": "x" * 201}).why == "TOO LONG"
assert admit(NOTE, {"text": "the lamp"}, login="eve").why == "NOT STAFF"
v = admit(NOTE, {"text": "Table 3's lamp went out at 9.40"})
assert v.ok and v.msg == "NOTED", v
what, mend = state.changes[-1]
assert what == "Table 3's lamp went out at 9.40" and mend.by == "staff:florence"
assert conductor.replay(journal) == state
replayed, findings = conductor.audit(journal)
assert replayed == state and not findings, findings

from web import actions
action = actions.kind_actions()["note"]
assert action.title == "A note for the record" and [f.name for f in action.fields] == ["text"]
p = actions.proposal(action, {"action_id": "0123456789abcdef", "text": "The lamp again"}, "florence")
assert (p.kind, p.source, p.body) == (NOTE, "staff:florence", {"text": "The lamp again"})

# the console's home page offers it, on a hub serving that journal (not connected: nothing sent)
from hub.service import Hub
from web import create_app
folder = Path(tempfile.mkdtemp())
j = Journal(folder / "journal.sqlite3")
j.append(journal)
j.close()
h = Hub(folder / "journal.sqlite3", "127.0.0.1", 9)
client = create_app(h, TESTING=True, WEB_STORE=folder / "web.json").test_client()
html = client.get("/console/login", follow_redirects=True).get_data(as_text=True)
csrf = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
r = client.post("/console/setup", data={"csrf_token": csrf, "login": "florence", "password": "dayton-street-61",
                                         "password2": "dayton-street-61"})
assert r.status_code == 302, r.get_data(as_text=True)
home = client.get("/console/").get_data(as_text=True)
form = re.search(r'<form[^>]*data-action="note".*?</form>', home, re.S)
assert form and 'name="text"' in form.group(0) and "A note for the record" in form.group(0), home
h.journal.close()
print("ADDED")
'''


def the_docs_file() -> str:
    section = (ROOT / "docs" / "conductor.md").read_text().split("## Adding a kind of staff action", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_docs_one_file_adds_a_kind_of_staff_action(tmp_path):
    copy = tmp_path / "project"
    for folder in ("hub", "web"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "hub" / "conductor" / "kinds" / "notes.py").write_text(the_docs_file())
    env = dict(os.environ, PYTHONPATH=str(copy))
    r = subprocess.run([sys.executable, "-c", AS_THE_DOC_SAYS], cwd=copy, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip().endswith("ADDED"), r.stdout + r.stderr


def test_without_the_file_there_is_no_such_kind():
    from hub.conductor import registry
    assert "conductor.note" not in registry.KINDS   # the test above changed only its copy
