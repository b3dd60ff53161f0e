# Boot: read the config, pick the board's hardware layer, run the table app.
# On a board the config is /config.json (written at deploy); on the unix port
# its path is the first argument. Imported by main.py: compiled, and from a
# ROMFS image run in place, where main.py's own code would sit in the heap.
import asyncio
import json
import sys

from app import TableApp
from outbox import Outbox


def wire():
    """The app, wired to its board, outbox and link. The config is read here and
    let go of: only what the parts kept of it stays in the heap."""
    with open(sys.argv[1] if len(sys.argv) > 1 else "/config.json") as f:  # a board has no argv
        cfg = json.load(f)
    # The board's hardware layer (firmware/hal/, the interface in docs/firmware.md), by
    # sys.platform; each imports hardware the others lack. Chosen here, not in a hal
    # package module: one module fewer in the heap.
    if sys.platform == "esp32":
        from hal.esp32 import Board
    elif sys.platform == "rp2":
        from hal.pico_w import Board
    elif sys.platform == "qemu":  # the 32-bit board in the emulator (hardware/sim/qemu_board.py)
        from hal.qemu import Board
    else:
        from hal.host import Board
    board = Board(cfg)
    log = getattr(board, "log", print)
    outbox = Outbox(board.data_dir, board.board_id)  # boot counter persisted here, first
    log("boot %d, %d unacked" % (outbox.boot, len(outbox)))
    app = TableApp(board, outbox, cfg, log)
    wiring = dict(subs=app.subs(), on_message=app.on_message, on_connect=app.on_connect, log=log)
    if cfg.get("serial"):  # a board without WiFi: JSON lines over USB serial to the hub's bridge
        from seriallink import SerialLink
        app.client = SerialLink(cfg["serial"], (app.will()[0], app.status("online")), **wiring)  # status topic
    else:
        from mqtt import MQTTClient
        app.client = MQTTClient(
            board, board.board_id, cfg.get("broker", "127.0.0.1"), cfg.get("port", 1883),
            cfg.get("user"), cfg.get("password"), keepalive=cfg.get("keepalive", 20),
            will=app.will(), **wiring)
    return app


asyncio.run(wire().run())
