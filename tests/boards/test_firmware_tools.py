"""`party firmware build` and `deploy`: compiled with mpy-cross for real; deploy up to the
mpremote call (no board is attached to a test machine, so the command is read, not run)."""
import argparse
import json
import os
import subprocess
from pathlib import Path

import pytest

from hardware import firmware_build as ft
from party import firmware


def sources(board_kind):
    return {p.as_posix() for p in ft.shipped_files(ft.FIRMWARE, board_kind)}


@pytest.mark.parametrize("kind", sorted(ft.ARCH))
def test_build_compiles_every_firmware_file_smaller(tmp_path, kind):
    rows = ft.build(tmp_path / "out", kind)
    built = {r["file"] for r in rows}
    expected = {s if s in ft.SOURCE_ONLY else s[:-3] + ".mpy" for s in sources(kind)}
    assert built == expected
    assert f"hal/{kind}.mpy" in built
    others = (set(ft.ARCH) - {kind} | ft.HOST_ONLY) - ft.HAL_BASES.get(kind, set())
    assert not any(f"hal/{other}" in f for f in built for other in others)
    for r in rows:
        assert (tmp_path / "out" / r["file"]).stat().st_size == r["built_bytes"]
        if r["file"].endswith(".mpy"):
            assert (tmp_path / "out" / r["file"]).read_bytes()[:2] == b"M\x06"   # mpy version 6
            if r["source_bytes"] >= 200:   # an empty __init__ grows by its header
                assert r["built_bytes"] < r["source_bytes"], r
    assert sum(r["built_bytes"] for r in rows) < sum(r["source_bytes"] for r in rows)


def test_compiled_firmware_runs_on_micropython(tmp_path, micropython_bin):
    ft.build(tmp_path / "out", "pico_w")
    left = {p.name for p in (tmp_path / "out").rglob("*.py")}
    assert left <= ft.SOURCE_ONLY   # nothing else to fall back to: the import below loads .mpy
    done = subprocess.run([micropython_bin, "-c", "from drivers.text import layout; print(layout(['NOT A MULTIPLE OF 5'])[:2])"],
                          env=dict(os.environ, MICROPYPATH=str(tmp_path / "out")),
                          capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "['NOT A MULTIPLE', 'OF 5']", done.stderr


def test_romfs_image_holds_every_compiled_module_and_runs_in_place(tmp_path, micropython_bin):
    rows = ft.build(tmp_path / "out", "pico_w", romfs=True)
    image = tmp_path / "out" / ft.IMAGE
    assert rows[-1] == {"file": ft.IMAGE, "built_bytes": image.stat().st_size,
                        "source_bytes": sum(r["source_bytes"] for r in rows if r["file"].endswith(".mpy"))}
    # mounted as MicroPython's boot mounts a ROMFS partition: /rom, first on sys.path
    probe = ("import sys, vfs, os\n"
             "vfs.mount(vfs.VfsRom(open(sys.argv[1], 'rb').read()), '/rom')\n"
             "sys.path.insert(0, '/rom')\n"
             "print((sorted(os.listdir('/rom')), sorted(os.listdir('/rom/hal'))))\n"
             "from drivers.text import layout\n"
             "import drivers.text\n"
             "print(drivers.text.__file__, layout(['NOT A MULTIPLE OF 5'])[:2])\n")
    done = subprocess.run([micropython_bin, "-c", probe, str(image)], cwd=tmp_path,
                          env=dict(os.environ, MICROPYPATH=".frozen"), capture_output=True, text=True, timeout=30)
    listing, last = done.stdout.strip().split("\n")
    top, hal = eval(listing)
    assert top == sorted({r["file"].split("/")[0] for r in rows if r["file"].endswith(".mpy")})
    assert "main.py" not in top and hal == ["pico_w.mpy"]  # the board's own layer; start.py picks it
    assert last == "/rom/drivers/text.mpy ['NOT A MULTIPLE', 'OF 5']", done.stderr


def test_a_board_never_imports_the_protocol_module_its_values_are_compiled_in(tmp_path, micropython_bin):
    """firmware/protocol.py's values reach a board inside the modules that use them, as
    consts (docs/firmware.md, Figures: its names would cost heap for as long as the board
    runs); the built app, entry and outbox run on MicroPython without it."""
    ft.build(tmp_path / "out", "pico_w")
    probe = ("import sys, app, entry, outbox\n"
             "print('protocol' in sys.modules, entry.show_value({'seat': True}, 3), outbox.Outbox.add)\n")
    done = subprocess.run([micropython_bin, "-c", probe], cwd=tmp_path / "out",
                          env=dict(os.environ, MICROPYPATH=".frozen:."), capture_output=True, text=True, timeout=30)
    assert done.stdout.startswith("False C <function add"), done.stdout + done.stderr


def test_the_protocol_compiled_in_keeps_every_line_where_it_was():
    values = {"VERSION": 1, "SEATS": "ABCD"}
    text = ("import json\nimport protocol as P  # the protocol\n\ndef v():\n"
            "    return {'v': P.VERSION, 'seat': P.SEATS[0]}\n")
    inlined = ft.inline_protocol(text, values, "app.py")
    assert inlined.splitlines()[1] == "_P_VERSION = const(1); _P_SEATS = const('ABCD')"
    assert inlined.splitlines()[4] == "    return {'v': _P_VERSION, 'seat': _P_SEATS[0]}"
    assert len(inlined.splitlines()) == len(text.splitlines())
    text = "from protocol import SEATS\nSEATS_SHOWN = SEATS + ' ' + 'SEATS'\n"
    assert ft.inline_protocol(text, values, "entry.py") == "_SEATS = const('ABCD')\nSEATS_SHOWN = _SEATS + ' ' + 'SEATS'\n"
    with pytest.raises(ft.BuildError, match="app.py, line 2: protocol used other than as P.NAME"):
        ft.inline_protocol("import protocol as P\nhandlers = [P]\n", values, "app.py")


def test_main_and_boot_stay_source_and_a_broken_file_is_named(tmp_path):
    src = tmp_path / "fw"
    (src / "hal").mkdir(parents=True)
    (src / "main.py").write_text("import app\n")
    (src / "boot.py").write_text("# boot\n")
    (src / "app.py").write_text("def run():\n    return 1\n")
    (src / "hal" / "esp32.py").write_text("PINS = {}\n")
    (src / "hal" / "host.py").write_text("PINS = {}\n")
    rows = ft.build(tmp_path / "out", "esp32", source=src)
    assert {r["file"] for r in rows} == {"main.py", "boot.py", "app.mpy", "hal/esp32.mpy"}
    assert (tmp_path / "out" / "main.py").read_text() == "import app\n"
    (src / "app.py").write_text("def run(:\n")
    with pytest.raises(ft.BuildError, match="app.py"):
        ft.build(tmp_path / "out", "esp32", source=src)


def test_build_will_not_empty_a_folder_it_did_not_make(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not a firmware build"):
        ft.build(tmp_path, "esp32")
    assert (tmp_path / "notes.txt").read_text() == "mine"


class Recorder:
    """Stands where subprocess.run would: keeps the command and the config.json it would copy."""

    def __call__(self, command, check, timeout):
        self.command = command
        config = next(a for a in command if a.endswith("config.json"))
        self.config = json.loads(Path(config).read_text())
        self.copied = {a for a in command if a.startswith(":")}


def test_deploy_writes_the_config_and_copies_everything_with_one_mpremote_call(tmp_path):
    run = Recorder()
    command = ft.deploy("/dev/ttyACM0", 7, "pico_w", {"ssid": "party", "key": "s3cret"},
                        {"host": "192.0.2.10", "port": 1884, "user": "table-7", "password": "pw"},
                        battery=True, build_dir=tmp_path / "b", run=run)
    assert run.command == command
    assert run.config == {"table": 7, "wifi": {"ssid": "party", "key": "s3cret"}, "broker": "192.0.2.10",
                          "port": 1884, "user": "table-7", "password": "pw", "battery": True, "board": None}
    assert Path(command[0]).name == "mpremote"
    assert command[1:4] == ["connect", "/dev/ttyACM0", "exec"]
    prepare = command[4]
    assert "os.mkdir(d)" in prepare and "'hal'" in prepare and "'hal/pico_w.py'" in prepare
    built = {":" + p.relative_to(tmp_path / "b").as_posix() for p in (tmp_path / "b").rglob("*")
             if p.is_file() and not p.name.startswith(".")}
    assert run.copied == built and ":config.json" in built and ":hal/pico_w.mpy" in built
    # each copy is "+ fs cp LOCAL :REMOTE" with the same relative path
    for i, arg in enumerate(command):
        if arg == "cp":
            assert command[i - 2:i] == ["+", "fs"]
            local, remote = command[i + 1], command[i + 2]
            assert Path(local).relative_to(tmp_path / "b").as_posix() == remote[1:]
    assert command[-2:] == ["+", "reset"]


def test_romfs_deploy_writes_the_image_first_then_only_what_is_not_in_it(tmp_path):
    run = Recorder()
    command = ft.deploy("/dev/ttyACM0", 7, "esp32", {"ssid": "party"}, {"host": "192.0.2.10"},
                        build_dir=tmp_path / "b", romfs=True, run=run)
    # the partition first: on an image without one mpremote stops before the filesystem changes
    assert command[1:7] == ["connect", "/dev/ttyACM0", "romfs", "deploy", str(tmp_path / "b" / ft.IMAGE), "+"]
    assert command[7] == "exec"
    assert run.copied == {":main.py", ":config.json"}
    # copies of an earlier .mpy deploy would otherwise be left behind on the filesystem
    assert "'app.mpy'" in command[8] and "'hal/esp32.mpy'" in command[8] and "'app.py'" in command[8]
    assert command[-2:] == ["+", "reset"]


def test_deploy_from_a_provisioned_directory_gives_the_board_its_tables_account(tmp_path):
    from party import provision
    provision.provision(3, tmp_path / "secrets", broker_host="192.0.2.10")
    account = provision.provisioned_account(tmp_path / "secrets", 2)
    assert (account["host"], account["user"], account["board"]) == ("192.0.2.10", "table-2", "table-2")
    run = Recorder()
    board = account.pop("board")
    ft.deploy("/dev/ttyACM0", 2, "esp32", {"ssid": "party"}, account, board=board,
              build_dir=tmp_path / "b", run=run)
    assert run.config["board"] == "table-2" and run.config["password"] == account["password"]
    with pytest.raises(ValueError, match="no provisioned config for table 9"):
        provision.provisioned_account(tmp_path / "secrets", 9)


def test_deploy_keeps_the_boards_data_files():
    command = ft.deploy_command("/dev/ttyUSB0", ft.FIRMWARE, reset=False)
    prepare = command[4]
    # only compiled modules' stale sources are removed, never data such as the outbox
    assert "os.remove(p)" in prepare and ".json" not in prepare and "outbox" not in prepare
    assert "reset" not in command


@pytest.mark.parametrize("table, kind, wifi, broker, why", [
    (0, "esp32", {"ssid": "p"}, {"host": "h"}, "table must be a number from 1 to 999"),
    (1000, "esp32", {"ssid": "p"}, {"host": "h"}, "table must be"),
    (7, "arduino", {"ssid": "p"}, {"host": "h"}, "unknown board kind"),
    (7, "esp32", {"ssid": ""}, {"host": "h"}, "ssid"),
    (7, "esp32", {"ssid": "p"}, {"host": ""}, "broker"),
])
def test_deploy_refuses_a_config_that_cannot_work_before_touching_the_board(table, kind, wifi, broker, why):
    def no_board(*a, **k):
        raise AssertionError("mpremote must not run")
    with pytest.raises(ValueError, match=why):
        ft.deploy("/dev/ttyACM0", table, kind, wifi, broker, run=no_board)


def test_the_party_cli_commands_parse(tmp_path, capsys, monkeypatch):
    parser = argparse.ArgumentParser(prog="party")
    firmware.add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["firmware", "build", "--board", "esp32", "--out", str(tmp_path / "o")])
    assert args.func(args) == 0
    assert "built for esp32 (xtensawin)" in capsys.readouterr().out
    args = parser.parse_args(["firmware", "build", "--romfs", "--out", str(tmp_path / "o")])
    assert args.func(args) == 0
    assert f"ROMFS image of the compiled modules: {ft.IMAGE}" in capsys.readouterr().out
    args = parser.parse_args(["firmware", "deploy", "--port", "/dev/ttyACM0", "--table", "7",
                              "--ssid", "party", "--broker", "hub.local:1884"])
    assert (args.port, args.table, args.board, args.broker) == ("/dev/ttyACM0", 7, "esp32", "hub.local:1884")
    seen = {}
    monkeypatch.setenv("PARTY_WIFI_KEY", "from-env")
    monkeypatch.setattr(firmware, "deploy", lambda *a, **k: seen.update(args=a, kw=k) or ["mpremote"])
    assert args.func(args) == 0
    assert seen["args"][3] == {"ssid": "party", "key": "from-env"}
    assert seen["args"][4]["host"] == "hub.local" and seen["args"][4]["port"] == 1884
    with pytest.raises(SystemExit):
        parser.parse_args(["firmware", "deploy", "--table", "7"])   # no --port
