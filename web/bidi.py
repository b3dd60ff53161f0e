"""Names in any script, shown each in its own direction.

A guest's name may be Arabic or Hebrew, or hold a right-to-left override
(U+202E) typed or pasted by mistake; left to itself its direction runs on into
the text after it, and the next guest's name reads backwards. On a page each
name is isolated (`<bdi>`, or `dir="auto"` on the element made by a script);
in the CSV the explicit direction controls are taken out, as a formula's first
character is neutralised there (web/pages/results.py `inert`): the name is shown, its
controls never run.
"""
from __future__ import annotations

import re

from markupsafe import Markup, escape

# embeddings, overrides and their pop (U+202A-202E), isolates and theirs (U+2066-2069)
CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def isolated(names) -> Markup:
    """A name, or a list of names joined by commas, each in a `<bdi>` (the template filter `bdi`)."""
    if isinstance(names, str):
        names = [names]
    return Markup(", ").join(Markup("<bdi>%s</bdi>") % escape(n) for n in names if n is not None)


def neutral(text: str) -> str:
    """`text` without the explicit direction controls."""
    return CONTROLS.sub("", text)
