"""Key presses per hand at a table, for every party form, through the real firmware.

    python bench/keys_bench.py [--hands 20] [--seed 1] [--forms mexican-train ...]

For each party form (hub/conductor/forms/: the book's six, the other books' games, and the
train games, whose rounds count the engine double down) one virtual board (the firmware on the MicroPython unix port) is shown
the hub's entry form for a table of four, game after game (the first game of a
session asks who led); the scoring engine plays each hand move by move and the
simulated guest (hardware/sim/party.py, `key_in`) keys what the hand gave, knowing
each value by the label the board shows for it (party/keyed.py) and reading the
display before every key, from the first key on the idle screen (a digit or a
seat opens the entry as its first key; where the seat keys are a count's, `#`) to
the `#` that sends it from the review page. Every key pressed is counted. The hub's side is the
stand-in of hardware/sim/hub_double.py, which acknowledges every entry.

The phone keypad (web/static/keypad.js) speaks the same protocol from the same
form; its keys are counted from the same fields and values as it takes them:
digits then OK for each field asked (no OK where no further digit fits, a first 0
where 0 is allowed included, but on a count's last field), a seat as one key, then OK on its review (a count made in play
has none: it is sent as its last field is taken). A key on its idle page opens the entry as
a board's does: a digit, or a seat where the first field is one, but where a count made in
play owns the seat keys the entry opens with OK.

Prints, per form, the median and 90th percentile of keys per hand on the board and
on the phone. Figures and the command: docs/performance.md.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.sim.board import VirtualBoard  # noqa: E402
from hardware.sim.hub_double import HubDouble  # noqa: E402
from hardware.sim.party import key_count, key_in  # noqa: E402
from party.broker import best_available  # noqa: E402
from hub.conductor.cards import SEATS, card_at  # noqa: E402
from hub.conductor.leads import keys_lead  # noqa: E402
from hub.conductor.scoring import count_form, entry_form  # noqa: E402
from party.hands import played_hand  # noqa: E402
from hub.conductor.setup import FORMS, PARTNERSHIP_FORMS, from_body  # noqa: E402
from party.keyed import as_seen  # noqa: E402


IN_PLAY = ("bergen", "tiddle-a-wink")   # the parties whose ten points stop a session mid-hand


def phone_keys(fields: list[dict], values: dict, count: bool = False, counted: bool = False) -> int:
    """The phone's keys for one entry: each asked field's digits and OK (a seat: one key;
    a count's single-digit field: the digit; a number no further digit fits, but a count's
    last: the digits), and OK on the review (a count has none). `counted`: counts made in
    play own the idle page's seat keys, so a result whose first field is a seat opens with OK."""
    asked = [f for f in fields if f["k"] in values]
    n = 0 if count else 1
    if counted and not count and asked and asked[0].get("seat"):
        n += 1
    for i, f in enumerate(asked):
        v, most = values[f["k"]], f.get("max", 999)
        full = v * 10 > most or (v == 0 and not f.get("min"))   # (a first 0: no digit follows)
        takes_itself = (count and most < 10) or (full and (not count or i + 1 < len(asked)))
        n += 1 if f.get("seat") else len(str(v)) + (0 if takes_itself else 1)
    return n


def party_hands(form: str, hands: int, rng: random.Random):
    """A party form's hands at a table of four as the conductor forms them: per hand the game,
    the entry form's fields, what the table keys, the counts made in play and their form."""
    setup = from_body({"form": form, "tables": 1, "in_play": "each" if form in IN_PLAY else "hand"})
    seats = tuple(card_at(1, s, form in PARTNERSHIP_FORMS) for s in SEATS)
    games = setup.games_per_session or 4
    counting = count_form(setup, seats) if setup.in_play == "each" else None
    for hand in range(hands):
        game = hand % games + 1
        lead = keys_lead(form, game)
        values, counts = played_hand(setup, seats, rng, lead=lead, game=game)
        yield game, entry_form(setup, seats, lead=lead), values, counts, counting


def play(form: str, table: int, broker, hub: HubDouble, hands: int, seed: int, out: dict) -> None:
    rng = random.Random(f"{seed}:{form}")
    board = VirtualBoard(table, broker.host, broker.port,
                         data_dir=tempfile.mkdtemp(prefix=f"keys-{form}-")).start()
    pressed = []
    press = board.press
    # every key the guest presses (not the heap reports key_in asks for to keep in step)
    board.press = lambda keys: (pressed.append(0 if keys == "MEM" else len(keys)), press(keys))
    board_keys, phone = [], []
    try:
        for game, fields, values, counts, counting in party_hands(form, hands, rng):
            screen_form = {"kind": "result", "game": game, "title": f"GAME {game}", "fields": fields}
            count = {"kind": "count", "game": game, "title": "POINTS MADE", "fields": counting}
            hub.screen(table, form=screen_form, lines=[f"TABLE {table}", form.upper()[:16]],
                       **({"count": count} if counting else {}))
            board.wait_for(f"# ENTER GAME {game}", timeout=30)
            before = sum(pressed)
            for c in counts:   # during the hand, as each count is made
                key_count(board, as_seen(counting, c))
            key_in(board, game, as_seen(fields, values))
            board_keys.append(sum(pressed) - before)
            phone.append(phone_keys(fields, values, counted=counting is not None)
                         + sum(phone_keys(counting, c, True) for c in counts))
            board.wait_for(f"GAME {game} SAVED", timeout=30)
            sent = [e for e in hub.events("result") if e["table"] == table]
            if sent[-1]["body"]["values"] != values:
                raise AssertionError(f"{form}: keyed {sent[-1]['body']['values']}, meant {values}")
        out[form] = (board_keys, phone)
    finally:
        board.stop()


def p90(xs: list[int]) -> int:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * 0.9))]


def main() -> None:
    p = argparse.ArgumentParser(description="key presses per hand, per form, on the board and phone")
    p.add_argument("--hands", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--forms", nargs="+", choices=FORMS, default=FORMS,
                   metavar="FORM", help="only these forms (default: every one)")
    a = p.parse_args()
    broker = best_available()
    broker.start()
    hub = HubDouble(broker.host, broker.port)
    hub.verdict = lambda ev: {"ok": True, "msg": "COUNTED" if ev["kind"] == "count"
                              else f"GAME {ev['body'].get('game', '')} SAVED"}
    results: dict = {}
    try:
        threads = [threading.Thread(target=play, args=(form, n, broker, hub, a.hands, a.seed, results))
                   for n, form in enumerate(a.forms, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        print(f"keys per hand ({a.hands} hands each, seed {a.seed}; the entry's opening key and "
              f"the sending # included; {', '.join(IN_PLAY)}: each count keyed as it is made, "
              f"counted in its hand)")
        print(f"{'form':<14} {'board median':>12} {'p90':>5} {'phone median':>13} {'p90':>5}")
        for form in a.forms:
            if form not in results:
                print(f"{form:<14} failed")
                continue
            board_keys, phone = results[form]
            print(f"{form:<14} {statistics.median(board_keys):>12g} {p90(board_keys):>5} "
                  f"{statistics.median(phone):>13g} {p90(phone):>5}")
    finally:
        hub.stop()
        broker.stop()


if __name__ == "__main__":
    main()
