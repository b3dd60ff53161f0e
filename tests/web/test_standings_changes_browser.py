"""The projector drawn from `change` frames (session 15: a change sends the rows that changed,
not the whole view) shows exactly what a page loaded afresh shows, entry after entry, through
the bell and the prizes; and a page that missed a change starts again from a whole view
rather than drawing wrong standings."""
from __future__ import annotations

import pytest

from party.hands import draw_game as game

from hub.conductor import events as ev

from .conftest import make_party, submit

pytestmark = pytest.mark.broker

# The page's streams, and every standings and change frame it is sent, counted before the page's own listeners
# see it; `window.dropNext` makes the page miss the next change, as if it were lost.
FRAMES = """
window.frames_seen = {streams: 0, standings: 0, change: 0, dropped: null};
const RealEventSource = window.EventSource;
window.EventSource = class extends RealEventSource {
  constructor(...args) {
    super(...args);
    window.frames_seen.streams++;
    this.addEventListener("standings", () => { window.frames_seen.standings++; });
    this.addEventListener("change", (e) => {
      window.frames_seen.change++;
      if (window.dropNext) {
        window.dropNext = false;
        window.frames_seen.dropped = +e.lastEventId;
        e.stopImmediatePropagation();
      }
    });
  }
};
"""

# What the room reads: the header, the tiles, the leaders (or the movement), the prizes and
# the final ranking.
SHOWN = """() => ({
  head: ['title', 'session', 'state'].map((id) => document.getElementById(id).innerText),
  tiles: [...document.querySelectorAll('#tables .tile')].map((e) => e.innerText),
  left: [...document.querySelectorAll('#left-list li')].map((e) => e.innerText),
  prizes: [...document.querySelectorAll('#prizes li')].map((e) => e.innerText),
  ranking: [...document.querySelectorAll('#final-list li')].map((e) => e.innerText),
})"""


AT = 1_900_000_000   # s: any moment, the same for every page


def watched(context) -> None:
    """The context's pages with their frames counted and their timers stopped (the leaders'
    pages turn every 8 s: two pages opened apart would show different pages of one standings)."""
    context.add_init_script(FRAMES)
    context.clock.install(time=AT)
    context.clock.pause_at(AT)   # no time passes: no timer fires


def showing(page, seq: int) -> None:
    page.wait_for_function(f"+document.body.dataset.seq >= {seq}", timeout=10_000, polling=20)


def same_as_fresh(live, hub, url: str) -> dict:
    """The live page shows what a page loaded now shows; both at the journal's last seq."""
    showing(live, hub.seq)
    fresh = live.context.new_page()
    fresh.goto(url)
    showing(fresh, hub.seq)
    assert live.evaluate("document.body.dataset.seq") == fresh.evaluate("document.body.dataset.seq")
    drawn, expected = live.evaluate(SHOWN), fresh.evaluate(SHOWN)
    assert drawn == expected
    fresh.close()
    return drawn


def test_a_page_drawn_from_changes_shows_what_a_fresh_page_shows(hub, server, room, page):
    make_party(hub, 8, sessions=1)
    tables = room(8)
    watched(page.context)
    live = page
    live.goto(server.url)
    showing(live, hub.seq)

    def key(t, g: int) -> int:
        ack = t.ack_for(t.key_form(game(t.table, g), game=g))
        assert ack["ok"], ack
        return ack["seq"]

    for t in tables:   # one entry after another, each drawn before the next
        showing(live, key(t, 1))
    same_as_fresh(live, hub, server.url)
    frames = live.evaluate("window.frames_seen")
    assert frames["streams"] == frames["standings"] == 1 and frames["change"] >= len(tables) // 2, frames

    # a change lost on its way: the next one is not on the view the page holds
    live.evaluate("window.dropNext = true")
    lost = key(tables[0], 2)
    live.wait_for_function(f"window.frames_seen.dropped >= {lost}", timeout=10_000)
    assert int(live.evaluate("document.body.dataset.seq")) < lost
    showing(live, key(tables[1], 2))
    same_as_fresh(live, hub, server.url)
    frames = live.evaluate("window.frames_seen")
    assert frames["streams"] == frames["standings"] == 2, frames   # started again from a whole view

    for g in (2, 3, 4):   # the rest of the session: the fourth game at table 1 brings the bell
        for t in tables[2 if g == 2 else 0:]:
            key(t, g)
    drawn = same_as_fresh(live, hub, server.url)
    assert all(tile.split()[1].startswith("4/4") for tile in drawn["tiles"]), drawn["tiles"]
    submit(hub, ev.FINAL_COUNT, {})
    drawn = same_as_fresh(live, hub, server.url)
    assert drawn["prizes"] and drawn["prizes"][0].startswith("First prize") and drawn["ranking"]
    frames = live.evaluate("window.frames_seen")
    assert frames["change"] > len(tables) + 1 and frames["streams"] == 2, frames   # never started again
