"""`party provision`: per-table broker credentials, so a guest with a laptop
cannot post scores for another table.

It writes, into one directory:
- `passwd`: Mosquitto's password file (hashed by Debian's `mosquitto_passwd -U`);
- `acl`: a board may publish only its own table's event, status and heartbeat,
  and read only its own ack and screen and the broadcast topics; the hub reads
  every table's inputs and writes acks, screens, the bell and its own status;
- `hub.json`: the hub's account and the board provisioned for each table (the
  hub refuses a table's event from any other board: `Hub(boards=...)`);
- `tables/table-N/config.json`: each board's config.json (table, board,
  broker, port, user, password), as `party firmware deploy` puts on a board.

The files hold passwords: they are written readable by their owner only.
"""
from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from hub import gap, protocol

HUB_USER = "hub"
PASSWD_TOOL = "/usr/bin/mosquitto_passwd"


@dataclass(frozen=True)
class Account:
    user: str
    password: str


def board_id(table: int) -> str:
    """The provisioned board of a table: also its broker user name ([a-z0-9-], protocol.md)."""
    return f"table-{table}"


def table_acl(table: int) -> list[str]:
    """What the board of `table` may do (docs/protocol.md, Topics)."""
    t = protocol.table_topic
    return [f"user {board_id(table)}",
            *(f"topic write {t(table, leaf)}" for leaf in ("event", "status", "heartbeat")),
            *(f"topic read {t(table, leaf)}" for leaf in ("ack", "screen")),
            f"topic read {protocol.ALL_CMD}",
            f"topic read {protocol.HUB_STATUS}"]


def hub_acl() -> list[str]:
    return [f"user {HUB_USER}",
            *(f"topic read {topic}" for topic in protocol.TABLE_INPUTS),
            f"topic write {protocol.table_topic('+', 'ack')}",
            f"topic write {protocol.table_topic('+', 'screen')}",
            f"topic write {protocol.ALL_CMD}",
            f"topic readwrite {protocol.HUB_STATUS}",
            f"topic readwrite {gap.TOPIC}"]  # hub/gap.py: the staff's actions beyond the replica


def password_tool() -> str | None:
    return shutil.which("mosquitto_passwd") or (PASSWD_TOOL if Path(PASSWD_TOOL).exists() else None)


def _private(path: Path, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)


def provision(tables: int, out: str | os.PathLike, broker_host: str = "127.0.0.1",
              broker_port: int = 1883) -> dict:
    """Writes the credentials of a party of `tables` tables into `out`; returns hub.json's content.

    New random passwords every time: run it once per party, before the boards are deployed.
    """
    if not 1 <= tables <= 999:
        raise ValueError(f"tables must be 1 to 999, not {tables}")
    tool = password_tool()
    if tool is None:
        raise RuntimeError("mosquitto_passwd is not installed (apt-get install mosquitto)")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    accounts = [Account(HUB_USER, secrets.token_urlsafe(18))]
    accounts += [Account(board_id(n), secrets.token_urlsafe(18)) for n in range(1, tables + 1)]
    passwd = out / "passwd"
    _private(passwd, "".join(f"{a.user}:{a.password}\n" for a in accounts))
    done = subprocess.run([tool, "-U", str(passwd)], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        passwd.unlink()  # never leave the passwords in plain text
        raise RuntimeError(f"mosquitto_passwd failed: {done.stderr.strip()}")
    acl = ["# party provision: a board publishes and reads only its own table's topics", "",
           *hub_acl(), ""]
    for n in range(1, tables + 1):
        acl += [*table_acl(n), ""]
    (out / "acl").write_text("\n".join(acl))
    for n, account in enumerate(accounts[1:], start=1):
        folder = out / "tables" / f"table-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        config = {"table": n, "board": account.user, "broker": broker_host, "port": broker_port,
                  "user": account.user, "password": account.password}
        _private(folder / "config.json", json.dumps(config, indent=1) + "\n")
    hub = {"user": HUB_USER, "password": accounts[0].password, "broker": broker_host, "port": broker_port,
           "boards": {str(n): board_id(n) for n in range(1, tables + 1)}}
    _private(out / "hub.json", json.dumps(hub, indent=1) + "\n")
    return hub


def hub_settings(path: str | os.PathLike) -> dict:
    """The Hub's keyword arguments from a provisioned directory (or its hub.json):
    username, password and boards (table -> board id)."""
    path = Path(path)
    doc = json.loads((path / "hub.json" if path.is_dir() else path).read_text())
    return {"username": doc["user"], "password": doc["password"],
            "boards": {int(n): b for n, b in doc["boards"].items()}}


def provisioned_account(directory: str | os.PathLike, table: int) -> dict:
    """The broker account and board id that `party provision` wrote for a table."""
    path = Path(directory) / "tables" / f"table-{table}" / "config.json"
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise ValueError(f"no provisioned config for table {table} in {directory}: {e}") from None
    return {"host": doc["broker"], "port": doc["port"], "user": doc["user"], "password": doc["password"],
            "board": doc["board"]}


def mosquitto_lines(out: str | os.PathLike) -> str:
    """The two lines of a mosquitto.conf that use a provisioned directory."""
    out = Path(out).resolve()
    return f"allow_anonymous false\npassword_file {out / 'passwd'}\nacl_file {out / 'acl'}\n"


# -- the `party provision` command ----------------------------------------------------------


def _run(args) -> int:
    host, _, port = args.broker.rpartition(":")
    if not host or not port.isdigit():
        print(f"party provision: --broker must be HOST:PORT, not {args.broker!r}")
        return 2
    try:
        provision(args.tables, args.out, host, int(port))
    except (ValueError, RuntimeError) as e:
        print(f"party provision: {e}")
        return 2
    out = Path(args.out)
    print(f"{args.tables} tables provisioned in {out}:")
    print(f"  {out / 'passwd'}, {out / 'acl'}: for mosquitto.conf (see deploy/mosquitto.conf):")
    for line in mosquitto_lines(out).splitlines():
        print(f"      {line}")
    print(f"  {out / 'hub.json'}: the hub's account and each table's board")
    print(f"  {out / 'tables'}/table-N/config.json: each board's config.json")
    return 0


def add_commands(subparsers) -> None:
    p = subparsers.add_parser("provision", help="per-table broker credentials, password file and ACL")
    p.add_argument("--tables", type=int, required=True, help="tables at the party (1-999)")
    p.add_argument("--out", required=True, help="directory to write the files into")
    p.add_argument("--broker", default="127.0.0.1:1883", help="the broker the boards reach, HOST:PORT")
    p.set_defaults(func=_run)
