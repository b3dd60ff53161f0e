"""The bill of materials (hardware/bom.csv) lists every part a board is wired with, and the
build guide's cost table is the one `python -m hardware.bom` computes from it."""
import re
from pathlib import Path

import pytest

from hardware import bom

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "hardware.md"


def test_every_row_is_complete_and_priced():
    rows = bom.rows()
    assert rows
    for r in rows:
        assert r["side"] in ("table", "hub") and r["optional"] in ("yes", "no"), r
        assert r["item"] and r["part_number"], r
        assert float(r["qty"]) >= 0 and float(r["approx_unit_price_usd"]) >= 0, r


@pytest.mark.parametrize("board", bom.BOARDS)
def test_each_board_kind_has_every_part_the_wiring_diagram_shows(board):
    items = " ".join(r["item"] + " " + r["part_number"] for r in bom.rows()
                     if r["side"] == "table" and r["variant"] in (board, "both") and r["optional"] == "no")
    for part in ("SSD1306", "4x4", "button", "enclosure", "power bank", "USB cable", "jumper"):
        assert part.lower() in items.lower(), part
    assert ("ESP32-DevKitC" if board == "esp32" else "Pico W") in items


def test_the_guides_cost_table_matches_the_bom():
    guide = GUIDE.read_text()
    rows = bom.rows()

    def cited(label):
        found = re.search(rf"\| {re.escape(label)}[^|]*\| \$(\d+) \|", guide)
        assert found, label
        return int(found.group(1))

    assert cited("one ESP32 table board") == round(bom.cost(rows, "table", "esp32"))
    assert cited("one Pico W table board") == round(bom.cost(rows, "table", "pico_w"))
    hub = bom.cost(rows, "hub", "pi")
    assert cited("the hub side") == round(hub)
    assert cited("a party of 20 tables on Pico W boards") == round(20 * bom.cost(rows, "table", "pico_w") + hub)
