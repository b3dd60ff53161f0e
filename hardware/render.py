"""Draws the wiring diagram of each target from pins.yaml: hardware/wiring/<target>.svg.

    python -m hardware.render          # regenerate the SVGs (needs graphviz's `dot`)
                                       # and the pin tables in docs/hardware.md
    python -m hardware.render --check  # exit 1 if an SVG or the tables are not from pins.yaml

The DOT source is generated here (no diagram package needed, only Debian's
graphviz); each SVG carries the SHA-256 of the DOT it was drawn from, so a test
can tell a stale drawing without graphviz, whatever graphviz version drew it.
"""
import argparse
import hashlib
import re
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PINS_YAML = HERE / "pins.yaml"
WIRING = HERE / "wiring"
GUIDE = HERE.parent / "docs" / "hardware.md"
TABLES = re.compile(r"(<!-- pin tables: python -m hardware.render -->\n).*?(<!-- end of pin tables -->)", re.S)
DIGEST = re.compile(r"<!-- drawn from DOT sha256:([0-9a-f]{64}) -->")

# wire colours as a builder would use them
COLOURS = {"row": "#1f77b4", "col": "#2ca02c", "bell": "#d62728", "i2c": "#9467bd",
           "gnd": "#000000", "vcc": "#ff7f0e", "adc": "#8c564b", "led": "#e377c2"}


def load(path: Path = PINS_YAML) -> dict:
    return yaml.safe_load(path.read_text())["targets"]


def _pin_label(header: dict, pin) -> str:
    if isinstance(pin, str):
        return pin
    label = header["label"].format(pin)
    physical = header.get("physical", {}).get(pin)
    return f"{label} (pin {physical})" if physical else label


def _table(name: str, title: str, ports: list, colour: str = "#eeeeee") -> str:
    rows = "".join(f'<TR><TD PORT="{port}" ALIGN="LEFT">{text}</TD></TR>' for port, text in ports)
    return (f'  {name} [shape=plain, label=<<TABLE BORDER="1" CELLBORDER="1" CELLSPACING="0" '
            f'CELLPADDING="4"><TR><TD BGCOLOR="{colour}"><B>{title}</B></TD></TR>{rows}</TABLE>>];\n')


def dot(target: str, spec: dict) -> str:
    """The DOT source of one target's wiring diagram."""
    pins, header = spec["pins"], spec["header"]
    board_ports, wires = [], []

    def wire(port, pin, to, kind, purpose):
        board_ports.append((port, f"{_pin_label(header, pin)}: {purpose}"))
        wires.append((f"mcu:{port}:e", to, kind))

    for i, pin in enumerate(pins["keypad_rows"]):
        wire(f"r{i + 1}", pin, f"keypad:p{i + 1}:w", "row", f"keypad row {i + 1}")
    for i, pin in enumerate(pins["keypad_cols"]):
        wire(f"c{i + 1}", pin, f"keypad:p{i + 5}:w", "col", f"keypad column {i + 1}")
    wire("bell", pins["bell"], "bell:a:w", "bell", "bell button")
    wire("sda", pins["i2c"]["sda"], "oled:sda:w", "i2c", "display SDA")
    wire("scl", pins["i2c"]["scl"], "oled:scl:w", "i2c", "display SCL")
    wire("adc", pins["battery_adc"]["pin"], "battery:mid:w", "adc", "battery (optional)")
    if isinstance(pins["status_led"], str):
        board_ports.append(("led", f'{pins["status_led"]}: status LED (on the board)'))
    else:
        wire("led", pins["status_led"], "led:a:w", "led", "status LED")
    board_ports.append(("vcc", header["supply"]))
    board_ports.append(("gnd", header["ground"]))
    wires += [("mcu:vcc:e", "oled:vcc:w", "vcc"), ("mcu:gnd:e", "oled:gnd:w", "gnd"),
              ("mcu:gnd:e", "bell:b:w", "gnd"), ("mcu:gnd:e", "battery:gnd:w", "gnd")]
    if not isinstance(pins["status_led"], str):
        wires.append(("mcu:gnd:e", "led:k:w", "gnd"))

    out = [f'digraph "{target}" {{\n', "  rankdir=LR; splines=true; nodesep=0.3; ranksep=2.2;\n",
           '  node [fontname="Helvetica", fontsize=11]; edge [arrowhead=none, penwidth=2];\n',
           f'  labelloc=t; label=<<B>Table board: {spec["board"]}</B><BR/>'
           'drawn from hardware/pins.yaml by python -m hardware.render>;\n',
           _table("mcu", spec["board"], board_ports, "#cde3f7"),
           _table("keypad", "4x4 membrane keypad (ribbon, face up, left to right)",
                  [(f"p{i}", f"{i}: {'R' if i <= 4 else 'C'}{(i - 1) % 4 + 1}") for i in range(1, 9)]),
           _table("oled", "SSD1306 128x64 OLED, I2C 0x3C",
                  [("gnd", "GND"), ("vcc", "VCC"), ("scl", "SCL"), ("sda", "SDA")]),
           _table("bell", "bell push button (normally open)", [("a", "terminal 1"), ("b", "terminal 2")]),
           _table("battery", f'optional: cell + to 100k / 100k divider (1/{pins["battery_adc"]["divider"]})',
                  [("mid", "divider midpoint"), ("gnd", "divider bottom")])]
    if not isinstance(pins["status_led"], str):
        out.append(_table("led", "status LED + 330 ohm", [("a", "anode (via 330 ohm)"), ("k", "cathode")]))
    for src, dst, kind in wires:
        out.append(f'  {src} -> {dst} [color="{COLOURS[kind]}"];\n')
    out.append("}\n")
    return "".join(out)


def digest(dot_source: str) -> str:
    return hashlib.sha256(dot_source.encode()).hexdigest()


def svg(dot_source: str) -> str:
    """Renders DOT to SVG with graphviz, stamped with the DOT's digest."""
    drawn = subprocess.run(["dot", "-Tsvg"], input=dot_source, capture_output=True, text=True,
                           check=True, timeout=60).stdout
    # graphviz stamps its own version in a comment: drop it so a re-render changes nothing
    drawn = re.sub(r"<!-- Generated by graphviz[^>]*-->\n", "", drawn)
    stamp = f"<!-- drawn from DOT sha256:{digest(dot_source)} -->\n"
    head, _, rest = drawn.partition("<svg")
    return head + stamp + "<svg" + rest


def pin_tables(targets: dict) -> str:
    """The build guide's pin tables, one per target, in Markdown."""
    out = []
    for target, spec in targets.items():
        pins, header = spec["pins"], spec["header"]
        rows = [*[(f"keypad row {i + 1} (ribbon pin {i + 1})", p) for i, p in enumerate(pins["keypad_rows"])],
                *[(f"keypad column {i + 1} (ribbon pin {i + 5})", p) for i, p in enumerate(pins["keypad_cols"])],
                ("bell button (other terminal to GND)", pins["bell"]),
                ("display SDA", pins["i2c"]["sda"]), ("display SCL", pins["i2c"]["scl"]),
                ("display VCC", header["supply"]), ("display GND", header["ground"]),
                (f"battery divider midpoint (optional, 1/{pins['battery_adc']['divider']})",
                 pins["battery_adc"]["pin"]),
                ("status LED (+ 330 ohm, cathode to GND)" if not isinstance(pins["status_led"], str)
                 else "status LED", pins["status_led"])]
        out.append(f"**{spec['board']}** (`{target}`)\n\n| connects to | board pin |\n| --- | --- |\n")
        out.extend(f"| {what} | {_pin_label(header, pin) if not isinstance(pin, str) else pin + ' (on the board)'} |\n"
                   for what, pin in rows)
        out.append("\n")
    return "".join(out)


def with_tables(guide: str, targets: dict) -> str:
    return TABLES.sub(lambda m: m.group(1) + pin_tables(targets) + m.group(2), guide)


def stale(targets: dict) -> list:
    """Targets whose SVG is missing or was drawn from another pins.yaml."""
    out = []
    for target, spec in targets.items():
        path = WIRING / f"{target}.svg"
        found = DIGEST.search(path.read_text()) if path.exists() else None
        if not found or found.group(1) != digest(dot(target, spec)):
            out.append(target)
    if GUIDE.exists():
        guide = GUIDE.read_text()
        if not TABLES.search(guide) or with_tables(guide, targets) != guide:
            out.append("docs/hardware.md")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.render", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the SVGs are current")
    args = parser.parse_args(argv)
    targets = load()
    if args.check:
        old = stale(targets)
        for name in old:
            where = name if name.endswith(".md") else f"hardware/wiring/{name}.svg"
            print(f"{where} is stale: run python -m hardware.render", file=sys.stderr)
        return 1 if old else 0
    WIRING.mkdir(exist_ok=True)
    for target, spec in targets.items():
        path = WIRING / f"{target}.svg"
        path.write_text(svg(dot(target, spec)))
        print(path.relative_to(HERE.parent))
    if GUIDE.exists():
        GUIDE.write_text(with_tables(GUIDE.read_text(), targets))
        print(GUIDE.relative_to(HERE.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main())
