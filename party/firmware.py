"""`party firmware build|deploy`: the commands over hardware/firmware_build.py, the one
firmware builder (the virtual boards use it too)."""
from __future__ import annotations

import os
import subprocess
import sys

from hardware import qemu_image
from hardware.firmware_build import ARCH, EMULATED, IMAGE, BuildError, build, deploy

from . import provision


def _cmd_build(args) -> int:
    try:
        out = args.out or f"build/firmware-{args.board}"
        # the emulator's board loads its firmware as a ROMFS image only (hal/qemu.py)
        rows = build(out, args.board, romfs=args.romfs or args.board in EMULATED)
        image = qemu_image.micropython(args.micropython) if args.board == "qemu" else None
    except (ValueError, BuildError, qemu_image.BuildError) as e:
        print(f"firmware build: {e}", file=sys.stderr)
        return 2
    files = [r for r in rows if r["file"] != IMAGE]
    for row in files:
        print(f"{row['file']:32} {row['source_bytes']:7} -> {row['built_bytes']:7} bytes")
    print(f"{len(files)} files, {sum(r['source_bytes'] for r in files)} bytes of source "
          f"-> {sum(r['built_bytes'] for r in files)} bytes built for {args.board} ({ARCH[args.board]}) into {out}")
    for row in rows[len(files):]:
        print(f"ROMFS image of the compiled modules: {row['file']}, {row['built_bytes']} bytes")
    if image:
        print(f"MicroPython for the MPS2-AN385 board (Cortex-M3, heap {qemu_image.HEAP} bytes): "
              f"{image / qemu_image.ELF}\n  run: qemu-system-arm -machine mps2-an385 -display none "
              f"-semihosting -serial stdio -kernel {image / qemu_image.ELF} -device loader,"
              f"file={os.path.abspath(out)}/{IMAGE},addr={qemu_image.ROMFS_ADDRESS:#x},force-raw=on")
    return 0


def _cmd_deploy(args) -> int:
    try:
        if args.provisioned:
            account = provision.provisioned_account(args.provisioned, args.table)
        elif args.broker:
            host, _, port = args.broker.partition(":")
            account = {"host": host, "port": int(port or 1883), "user": args.broker_user,
                       "password": os.environ.get("PARTY_BROKER_PASSWORD", args.broker_password), "board": None}
        else:
            raise ValueError("say where the broker is: --broker HOST[:PORT], or --provisioned DIR")
        board = account.pop("board")
        command = deploy(args.port, args.table, args.board,
                         {"ssid": args.ssid, "key": os.environ.get("PARTY_WIFI_KEY", args.wifi_key)},
                         account, battery=args.battery, board=board, reset=not args.no_reset,
                         romfs=args.romfs)
    except (ValueError, BuildError) as e:
        print(f"firmware deploy: {e}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as e:
        hint = " Does its MicroPython image have a ROMFS partition (mpremote romfs query)? " \
               "Without one, deploy without --romfs." if args.romfs else ""
        print(f"firmware deploy: mpremote failed (exit {e.returncode}): is the board on {args.port}?{hint}",
              file=sys.stderr)
        return 1
    where = "ROMFS image written and main.py" if args.romfs else "firmware"
    print(f"table {args.table}: {where} and config.json copied to the board on {args.port} "
          f"({len(command)} mpremote arguments)")
    return 0


def add_commands(subparsers) -> None:
    """Registers `firmware build` and `firmware deploy` on the `party` CLI's subparsers.

    Each parsed command carries `func(args) -> exit code`.
    """
    firmware = subparsers.add_parser("firmware", help="build the table boards' firmware and put it on a board")
    commands = firmware.add_subparsers(dest="firmware_command", required=True)

    b = commands.add_parser("build", help="compile the firmware with mpy-cross")
    b.add_argument("--board", choices=sorted(ARCH), default="esp32",
                   help="the board kind (default esp32; qemu: the 32-bit board in the emulator, "
                        "its MicroPython built too)")
    b.add_argument("--out", help="where to write it (default build/firmware-BOARD)")
    b.add_argument("--romfs", action="store_true",
                   help="also build the ROMFS image of the compiled modules (firmware.romfs)")
    b.add_argument("--micropython", metavar="DIR",
                   help="--board qemu: the folder of MicroPython's source tarball (default ../shared/micropython)")
    b.set_defaults(func=_cmd_build)

    d = commands.add_parser("deploy", help="build, write config.json, and copy both to a board with mpremote")
    d.add_argument("--port", required=True, help="the board's serial port, e.g. /dev/ttyACM0 or /dev/ttyUSB0")
    d.add_argument("--table", required=True, type=int, help="the table this board sits on (1-999)")
    d.add_argument("--board", choices=sorted(set(ARCH) - EMULATED), default="esp32",
                   help="the board kind (default esp32)")
    d.add_argument("--ssid", required=True, help="the party's WiFi network")
    d.add_argument("--wifi-key", default="", help="its key (or set PARTY_WIFI_KEY, kept out of `ps`)")
    d.add_argument("--provisioned", metavar="DIR",
                   help="the directory of `party provision`: the table's broker account and board id")
    d.add_argument("--broker", help="the hub's MQTT broker, HOST[:PORT] (without --provisioned)")
    d.add_argument("--broker-user", help="the board's broker user name, if the broker asks")
    d.add_argument("--broker-password", help="its password (or set PARTY_BROKER_PASSWORD)")
    d.add_argument("--battery", action="store_true", help="a battery divider is wired to the ADC pin")
    d.add_argument("--no-reset", action="store_true", help="do not restart the board afterwards")
    d.add_argument("--romfs", action="store_true",
                   help="write the modules to the board's ROMFS partition (code runs from flash, "
                        "not the heap); needs a MicroPython image with one")
    d.set_defaults(func=_cmd_deploy)
