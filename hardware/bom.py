"""Sums the bill of materials: the cost of one table board of each kind and of the hub.

    python -m hardware.bom [--tables N]

Prices in bom.csv are approximate (US dollars, single units, late 2026); optional
rows are left out of the sums.
"""
import argparse
import csv
import sys
from pathlib import Path

BOM = Path(__file__).resolve().parent / "bom.csv"
BOARDS = ("esp32", "pico_w")


def rows(path: Path = BOM) -> list:
    return list(csv.DictReader(path.open(newline="")))


def cost(items, side: str, variant: str) -> float:
    """Approximate cost of one `side` ("table" or "hub") built as `variant`, without optional parts."""
    return round(sum(float(r["qty"]) * float(r["approx_unit_price_usd"]) for r in items
                     if r["side"] == side and r["variant"] in (variant, "both") and r["optional"] == "no"), 2)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.bom", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="tables at the party (default 20)")
    args = parser.parse_args(argv)
    items = rows()
    hub = cost(items, "hub", "pi")
    for board in BOARDS:
        table = cost(items, "table", board)
        print(f"{board:7} table board ~${table:.2f}; {args.tables} tables + Raspberry Pi hub "
              f"~${table * args.tables + hub:.2f}")
    print(f"hub (Raspberry Pi, router) ~${hub:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
