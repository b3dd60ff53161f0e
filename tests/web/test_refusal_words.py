"""Every refusal the conductor can give has the host's words on the console (issue 10:
"refusals speak the host's language ... never internal ids like `A_pieces`, `BAD SESSIONS`").
A new refusal code without a sentence in web/refusals.py fails here."""
import re
from pathlib import Path

from web.refusals import SENTENCES

CONDUCTOR = Path(__file__).resolve().parents[2] / "hub" / "conductor"


def test_every_refusal_of_the_conductor_has_the_hosts_words():
    codes = set()
    for source in CONDUCTOR.rglob("*.py"):
        codes |= set(re.findall(r'Refusal\("([A-Z0-9 -]+)"\)', source.read_text()))
    assert len(codes) > 60                   # the pattern still finds the conductor's refusals
    assert sorted(codes - set(SENTENCES)) == []
