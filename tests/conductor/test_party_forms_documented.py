"""Issue 27: "docs/scoring.md and docs/conductor.md list every party form with its source and
its movement rule": each form of hub/conductor/forms/ is a row of both lists, with its movement
(conductor.md: its movement rule in words, scoring.md: its movement's name)."""
from pathlib import Path

from hub.conductor.forms import FORMS

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _rows(doc: str) -> dict[str, str]:
    return {line.split("|")[1].strip().strip("`"): line for line in (DOCS / doc).read_text().splitlines()
            if line.startswith("| `")}


def test_both_docs_list_every_party_form_with_its_movement():
    conductor, scoring = _rows("conductor.md"), _rows("scoring.md")
    for name, form in FORMS.items():
        assert form.movement_rule in conductor[name], name
        assert f"| {form.movement} |" in scoring[name] and f"`{form.game}`" in scoring[name], name
