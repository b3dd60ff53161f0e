"""`party`: the command a host runs.

  party run     the hub for a real party: broker (embedded, or --broker), journal, web
  party demo    the same, plus virtual tables running the real firmware and playing
  party takeover  a standby's hub: the journal restored from the replica, then `run`
"""
from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
import time
from pathlib import Path

from hub.conductor import forms as party_forms


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host, int(port)


def _above_zero(kind):
    """An argparse type: a number above 0 (`--tables 0` or `--pace -1` refused where it is typed)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            whole = "whole " if kind is int else ""
            raise argparse.ArgumentTypeError(f"expected a {whole}number above 0, got {text!r}")
        return value
    return parse


# The party forms, one line each for `party demo --help` (hub/conductor/forms/: one module each)
PARTY_FORMS = {name: form.line for name, form in party_forms.FORMS.items()}


def _party_form(name: str) -> str:
    if name in PARTY_FORMS:
        return name
    from hub.scoring import FORMS
    if name in FORMS:
        players = " or ".join(map(str, FORMS[name].players))
        raise argparse.ArgumentTypeError(
            f"{name} is a game the scoring engine knows, not a party form (a game for {players}: a "
            f"party table seats four); a party is one of: {', '.join(PARTY_FORMS)}")
    raise argparse.ArgumentTypeError(f"no party form {name!r}; one of: {', '.join(PARTY_FORMS)}")


def _forms_help() -> str:
    from hub.scoring import FORMS
    width = max(map(len, FORMS)) + 2
    party = "\n".join(f"  {name:<{width}}{line}" for name, line in PARTY_FORMS.items())
    games = "\n".join(f"  {name:<{width}}{f.title}: {f.variants[f.default].about}"
                       for name, f in FORMS.items() if name not in PARTY_FORMS)
    return (f"party forms (--form):\n{party}\n\n"
            f"the other games the scoring engine knows (hub/scoring, docs/scoring.md; a party is "
            f"played in one of the party forms):\n{games}")


def _add_hub_options(p: argparse.ArgumentParser, journal_default: str | None) -> None:
    p.add_argument("--broker", type=_host_port, metavar="HOST:PORT",
                   help="an external MQTT broker (Mosquitto); default: the embedded broker")
    p.add_argument("--mqtt-port", type=int,
                   help="port of the embedded broker (default 1883; 0 picks a free one)")
    p.add_argument("--http", type=_host_port, metavar="HOST:PORT",
                   help="where the projected standings are served (default 127.0.0.1:8080; "
                        "0.0.0.0:8080 for every interface: the guests' phones)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address phones reach the hub at, for QR codes and printed links "
                        "(default: the LAN address when listening on 0.0.0.0)")
    p.add_argument("--journal", default=journal_default, required=journal_default is None,
                   help="the party's journal (SQLite file); created if missing")
    p.add_argument("--provisioned", metavar="DIR",
                   help="a directory written by `party provision`: the hub's broker account, "
                        "and the one board allowed to speak for each table")
    p.add_argument("--no-audit", action="store_true",
                   help="serve a journal holding events the conductor would not have written "
                        "(the hub refuses to by default; `party replay --audit` lists them)")
    p.add_argument("--replica", metavar="URL",
                   help="replicate the journal with Litestream to this replica: a directory (a USB "
                        "stick, a mounted share), sftp://USER@HOST/PATH or s3://BUCKET/PATH (docs/takeover.md)")
    p.add_argument("--replica-sync", type=float, default=1.0, metavar="SECONDS",
                   help="how often Litestream ships the journal's changes (default 1)")
    p.add_argument("--club", metavar="FILE",
                   help="the club's record (`party season`): its season on the projector (/season/) and the "
                        "console, tonight's guests linked to its roster (docs/season.md)")
    p.add_argument("-v", "--verbose", action="store_true", help="debug logging, and a line per web request")


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:   # Ctrl-C before the party is up (later it stops the party in order)
        say("stopped")
        return 130


def _main(argv: list[str] | None) -> int:
    parser = argparse.ArgumentParser(prog="party", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the hub for a party")
    _add_hub_options(run, journal_default=None)
    run.add_argument("--tables", type=_above_zero(int),
                     help="create the party with this many tables if the journal is new")
    run.add_argument("--form", default="draw", type=_party_form,
                     help=f"the party form of a party created with --tables: {', '.join(PARTY_FORMS)}")
    run.set_defaults(func=_run)

    demo = sub.add_parser("demo", help="a demo party: hub, broker, virtual tables playing, standings",
                          epilog=_forms_help(), formatter_class=argparse.RawDescriptionHelpFormatter)
    _add_hub_options(demo, journal_default="")
    demo.add_argument("--tables", type=_above_zero(int), default=4, help="virtual tables (default 4)")
    demo.add_argument("--form", default="draw", type=_party_form, help="the party form (default draw; below)")
    demo.add_argument("--seed", type=int, default=1, help="seed of the simulated play")
    demo.add_argument("--pace", type=_above_zero(float), default=4.0,
                      help="about the seconds a hand takes; the standings after a session and the "
                           "movement stay eight hands long (default 4: a Draw party of four "
                           "tables reaches its prizes in about five minutes)")
    demo.add_argument("--season", type=_above_zero(int), metavar="N",
                      help="a club's season instead: N short parties with an overlapping cast, then "
                           "the season's page (docs/season.md)")
    demo.add_argument("--sessions", type=_above_zero(int),
                      help="sessions the party plays (default: the form's, most three; a Mexican "
                           "Train session is a whole game of 13 rounds)")
    demo.add_argument("--duration", type=float, default=0,
                      help="stop after this many seconds (default: stay on the final screen until Ctrl-C)")
    demo.set_defaults(func=_demo)

    takeover = sub.add_parser("takeover", help="the hub's machine is lost: carry on from its replica here")
    _add_hub_options(takeover, journal_default=None)
    takeover.set_defaults(func=_takeover)

    from . import drills, firmware, provision, replay, season
    for module in (replay, firmware, provision, drills, season):
        module.add_commands(sub)

    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if getattr(args, "verbose", False) else logging.INFO,
                        format="%(asctime)s %(name)s %(levelname)s %(message)s", datefmt="%H:%M:%S")
    if not getattr(args, "verbose", False):
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per projector request
    return args.func(args) or 0


def say(text: str) -> None:
    print(f"party: {text}", flush=True)


def _choose_ports(args, movable: bool) -> None:
    """The embedded broker's port and the web's, checked before anything starts: one taken
    (a Mosquitto on 1883, another party on 8080) stops with what to do, or, for the demo's
    defaults (`movable`), becomes a free one, said."""
    from party.broker import port_taken

    def choose(host: str, port: int, given: bool, what: str, option: str, hint: str = "") -> int:
        if not port or not port_taken(host, port):
            return port
        if movable and not given:
            say(f"{host}:{port} is taken ({what} listens there): a free port instead")
            return 0
        raise SystemExit(f"party: {host}:{port} is taken: {what} listens there. Stop it, {hint}or "
                         f"choose another port with {option} (0 picks a free one).")

    if not args.broker:
        port = 1883 if args.mqtt_port is None else args.mqtt_port
        args.mqtt_port = choose("127.0.0.1", port, args.mqtt_port is not None, "an MQTT broker or another party",
                                "--mqtt-port PORT", f"use that broker with --broker 127.0.0.1:{port}, ")
    host, port = args.http or ("127.0.0.1", 8080)
    args.http = host, choose(host, port, args.http is not None, "a web server or another party",
                             f"--http {host}:PORT")


def _broker(args):
    """(the embedded broker, not started yet, or None; the broker's address)."""
    if args.broker:
        say(f"using the broker at {args.broker[0]}:{args.broker[1]}")
        return None, args.broker
    from party.broker import EmbeddedBroker
    broker = EmbeddedBroker(port=args.mqtt_port or None)
    return broker, (broker.host, broker.port)


def _start_broker(broker) -> None:
    try:
        broker.start()
    except RuntimeError as e:
        raise SystemExit(f"party: {e}") from None
    say(f"embedded MQTT broker listening on {broker.host}:{broker.port}")


def _start_hub(args, journal: Path, movable: bool = False):
    from web import create_app
    from web.server import WebServer, is_loopback, public_url

    from hub.journal import JournalDamaged
    from hub.service import Hub, JournalFailsAudit

    from .provision import hub_settings

    _resume(args, journal)
    _choose_ports(args, movable)
    # The embedded broker's thread started after Hub(): the start-up's children are forked from
    # this process's one thread (hub/child.py), the hub not yet connected to it.
    broker, (host, port) = _broker(args)
    try:
        hub = Hub(journal, host, port, audit=not args.no_audit, replica=args.replica,
                  replica_sync_s=args.replica_sync,
                  **(hub_settings(args.provisioned) if args.provisioned else {}))
    except (JournalFailsAudit, JournalDamaged) as e:
        said = f"the journal {journal} is damaged: {e}" if isinstance(e, JournalDamaged) else e
        raise SystemExit(f"party: {said}") from None
    if broker:
        try:
            _start_broker(broker)
        except SystemExit:
            hub.journal.close()
            raise
    hub.start()   # Hub() has kept the replayed party out of the cyclic collector's passes
    if hub.seq and hub.runs.previous is None:   # a journal from elsewhere (a copy, a takeover)
        say(f"resuming the party in {journal}: {hub.seq} event{'s' * (hub.seq != 1)}, no note of where a hub last ran on it")
    say(f"hub running; journal {journal} (seq {hub.seq})")
    _say_if_no_broker(hub, host, port)
    if hub.replica:
        say(f"replicating the journal to {hub.replica.url} with Litestream")
    app = create_app(hub, CLUB=args.club)
    web = WebServer(app, *args.http).start()
    url = app.config["PUBLIC_URL"] = public_url(web.host, web.port, args.public_url)
    say(f"projected standings at {url}")
    say(f"conductor's console at {url}console/ (the first visit sets the conductor's password)")
    if is_loopback(url):
        say("the table markers' QR codes would point to this machine itself: for the guests' phones "
            f"use --http 0.0.0.0:{web.port} (or --public-url)")
    return broker, hub, web


def _resume(args, journal: Path) -> None:
    """A journal a hub has run on before: said, and its embedded broker's port used again
    unless told otherwise (--broker, or --mqtt-port other than 0): the boards were given it."""
    from hub.runs import last

    before = last(journal)
    if before is None:
        return

    def clock(t: float) -> str:
        return time.strftime("%H:%M:%S", time.localtime(t))

    how = (f"stopped in order at {clock(before.stopped)}" if before.stopped is not None
           else f"stopped without a goodbye (a crash, a power cut or a kill) after {clock(before.alive)}")
    say(f"resuming the party in {journal}: the hub last ran on it from {clock(before.started)} and {how}, "
        f"at event {before.seq}")
    if not args.broker and not args.mqtt_port and before.broker:
        args.mqtt_port = before.broker[1]
        say(f"the broker on port {args.mqtt_port} again, as the last run: the boards were given it "
            f"(--mqtt-port PORT for another)")


def _say_if_no_broker(hub, host: str, port: int, wait_s: float = 10.0) -> None:
    """A hub that cannot reach its broker (Mosquitto not started, a wrong address or account)
    keeps trying without a word: the host is told once."""
    def watch() -> None:
        deadline = time.monotonic() + wait_s
        while not hub.mqtt.is_connected():
            if hub.stopping:   # stopped before it got in: nothing to tell
                return
            if time.monotonic() > deadline:
                say(f"no MQTT broker lets the hub in at {host}:{port} yet (is Mosquitto running there, "
                    f"and does it know the hub's account?): the hub keeps trying; the boards keep "
                    f"their entries meanwhile")
                return
            time.sleep(0.2)

    threading.Thread(target=watch, name="broker-watch", daemon=True).start()


def _wait_for_stop(duration: float) -> None:
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    stop.wait(duration or None)


def _shutdown(broker, hub, web, boards=()) -> None:
    say("stopping")
    for board in boards:
        board.stop()
    web.stop()
    hub.stop()
    if broker:
        broker.stop()


def _create_party(hub, tables: int, form: str, **setup) -> None:
    from .setup import create_party

    verdict = create_party(hub, tables=tables, form=form, **setup)
    if not verdict.ok:
        raise SystemExit(f"party: could not create the party: {verdict.why}")
    say(f"party created: {tables} tables playing {form}")


def _run(args) -> int:
    broker, hub, web = _start_hub(args, Path(args.journal))
    if args.tables and hub.seq == 0:
        _create_party(hub, args.tables, args.form)
    _wait_for_stop(0)
    _shutdown(broker, hub, web)
    return 0


def _takeover(args) -> int:
    """Restore the journal from the replica into a new file, mark where it was restored
    (the boards resend what they were told is after it), and run the hub on it — which
    audits it first (`party replay --audit`'s check) — replicating on to the same replica."""

    from hub.journal import Journal
    from hub.replica import ReplicaError, replica_url, restore

    if not args.replica:
        raise SystemExit("party takeover: --replica URL is required (where the lost hub replicated to)")
    journal = Path(args.journal)
    try:
        restore(replica_url(args.replica), journal)
    except ReplicaError as exc:
        raise SystemExit(f"party takeover: {exc}") from None
    restored = Journal(journal)
    seq = restored.mark_restored(time.time())
    restored.close()
    say(f"journal restored from {args.replica} into {journal}: {seq} events")
    broker, hub, web = _start_hub(args, journal)
    waiting = len(hub.staff_gap.waiting())
    say(f"taken over{'' if args.no_audit else ' (the journal passed the audit)'}; the boards resend what "
        f"the replica lacked" + (f"; {waiting} staff actions to redo or discard, on the console" if waiting else ""))
    _wait_for_stop(0)
    _shutdown(broker, hub, web)
    return 0


def _demo(args) -> int:
    import tempfile

    from .simulated_party import PartySimulator

    journal = Path(args.journal or Path(tempfile.mkdtemp(prefix="party-demo-")) / "journal.sqlite3")
    if args.season:
        return _season_demo(args, journal.parent)
    broker, hub, web = _start_hub(args, journal, movable=True)
    if hub.seq == 0:
        # a party run by the clock ("an hour and a half", BERGEN GAME) runs 1.5 minutes a
        # second of --pace in the demo, so its clock and its end are seen too; its points
        # keyed as they are made (the console's default), so the projector shows them live
        book = party_forms.FORMS[args.form]
        clock = ({"time_limit": 1.5 * args.pace} if book.time_limit else {}) | (
            {"in_play": "each"} if book.in_play else {}) | (
            {"sessions": args.sessions} if args.sessions else {})
        _create_party(hub, args.tables, args.form, **clock)
    sim = PartySimulator(hub, seed=args.seed, data_dir=journal.parent / "boards", say=say, pace=args.pace)
    sim.start()
    say(f"{args.tables} virtual tables playing; open http://{web.host}:{web.port}/ — Ctrl-C to stop")
    _wait_for_stop(args.duration)
    sim.stop()
    _shutdown(broker, hub, web)
    return 0


def _season_demo(args, folder: Path) -> int:
    from .season_demo import play_season

    args.club, journal = play_season(folder / "season", args.season, tables=args.tables, seed=args.seed, say=say)
    say(f"the club's record: {args.club} (party season --club {args.club} show demo)")
    broker, hub, web = _start_hub(args, journal, movable=True)
    say(f"the season's page: http://{web.host}:{web.port}/season/ — Ctrl-C to stop")
    _wait_for_stop(args.duration)
    _shutdown(broker, hub, web)
    return 0


if __name__ == "__main__":
    sys.exit(main())
