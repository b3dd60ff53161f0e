"""`party season`: a club's season from the command line (docs/season.md).

  party season add SEASON JOURNAL...   the parties into the club's record and the season
  party season show SEASON [--json]    standings by the season's rule, ratings, each member's nights
  party season export SEASON           the standings as CSV
  party season roster                  the members; add, rename, merge
  party season link PARTY GUEST N|new  the host's word on a guest the roster was not sure of

The club's record is one JSON file (--club, default club.json here): the roster, the
parties added and their guests' links, the seasons. The journals are only read.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from hub.journal import JournalDamaged
from season import club as c
from season import files
from season import roster as r
from season.report import season_csv, season_json
from season.rules import RATING_MODELS, RULES, Rules


def add_commands(sub) -> None:
    p = sub.add_parser("season", help="a club's season: standings by the club's rule and ratings across parties",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--club", default="club.json", help="the club's record (default club.json; made if missing)")
    cmd = p.add_subparsers(dest="season_command", required=True)

    add = cmd.add_parser("add", help="add parties (their journals) to a season, made if new; guests "
                                     "linked to members by name")
    add.add_argument("season")
    add.add_argument("journals", nargs="*", metavar="JOURNAL", help="none: only the rules given are changed")
    add.add_argument("--name", action="append", default=[],
                     help="the party's name in the season, once per journal (default: the journal's file name)")
    add.add_argument("--add-guests", action="store_true",
                     help="a guest the roster has no one near to becomes a member in the same step")
    add.add_argument("--rule", choices=list(RULES), help="the season's rule (default placings)")
    add.add_argument("--points", type=_points, help="placing points, 1st first: 10,8,6,5,4,3,2,1 (the default)")
    add.add_argument("--best", type=int, help="best-of: how many parties count (default 4)")
    add.add_argument("--attendance", type=int, help="attendance: points a party (default 1)")
    add.add_argument("--ratings", choices=RATING_MODELS, help="the rating model (default plackett-luce)")
    add.set_defaults(func=_add)

    show = cmd.add_parser("show", help="the season: standings, ratings, each member's nights")
    show.add_argument("season")
    show.add_argument("--json", action="store_true", help="as JSON (the same journals give the same bytes)")
    show.set_defaults(func=_show)

    export = cmd.add_parser("export", help="the season's standings as CSV")
    export.add_argument("season")
    export.add_argument("--out", help="the file to write (default: printed)")
    export.set_defaults(func=_export)

    roster = cmd.add_parser("roster", help="the club's members; add, rename or merge one")
    rc = roster.add_subparsers(dest="roster_command")
    x = rc.add_parser("add", help="a new member")
    x.add_argument("name")
    x.add_argument("--number", type=int, help="his member number (default: the next free)")
    x = rc.add_parser("rename", help="a member's new name (the old one is kept: journals with it still find him)")
    x.add_argument("number", type=int)
    x.add_argument("name")
    x = rc.add_parser("merge", help="two entries that are one person: GONE's parties count for KEEP")
    x.add_argument("keep", type=int)
    x.add_argument("gone", type=int)
    roster.set_defaults(func=_roster)

    link = cmd.add_parser("link", help="a guest of a party is this member (a number), or a new one (new)")
    link.add_argument("party")
    link.add_argument("guest")
    link.add_argument("member", help="the member number, or 'new'")
    link.set_defaults(func=_link)


def _points(text: str) -> tuple[int, ...]:
    try:
        points = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected whole numbers split by commas (10,8,6), got {text!r}") from None
    if any(p < 0 for p in points):
        raise argparse.ArgumentTypeError("points are 0 or more")
    return points


def _fail(text: str) -> SystemExit:
    return SystemExit(f"party season: {text}")


def _add(args) -> int:
    club = files.load(args.club)
    names = args.name or [Path(j).stem for j in args.journals]
    if len(names) != len(args.journals):
        raise _fail(f"{len(names)} --name for {len(args.journals)} journals: one each, or none")
    added = []
    try:
        for name, journal in zip(names, args.journals):
            if any(p.name == name for p in club.parties):
                if club.party(name).journal != files.named(args.club, journal):
                    raise _fail(f"the club already has a party named {name!r} (another journal): --name it")
            else:
                night = files.read_night(name, journal)
                club, open_ = c.add_party(club, name, files.named(args.club, journal), night, args.add_guests)
                linked = len(club.party(name).links)
                print(f"{name}: {len(night.played)} players, {linked} linked to members")
                for m in open_:
                    near = ", ".join(f"{n} {club.roster.member(n).name}" for n in m.near)
                    print(f"  {m.guest}: " + (f"near {near}: party season link {_q(name)} {_q(m.guest)} NUMBER|new"
                                              if near else f"not on the roster: party season link {_q(name)} "
                                                           f"{_q(m.guest)} new (or --add-guests)"))
            added.append(name)
        old = next((s for s in club.seasons if s.name == args.season), None)
        rules = _rules(old.rules.to_json() if old else {}, args)
        parties = (old.parties if old else ()) + tuple(n for n in added if not old or n not in old.parties)
        club = c.set_season(club, args.season, parties, rules)
    except (FileNotFoundError, JournalDamaged, r.RosterError, ValueError) as e:
        raise _fail(str(e)) from None
    files.save(args.club, club)
    print(f"season {args.season}: {len(parties)} parties, rule {rules.rule}; the club's record: {args.club}")
    return 0


def _q(text: str) -> str:
    return f'"{text}"' if " " in text else text


def _rules(base: dict, args) -> Rules:
    given = {"rule": args.rule, "placing_points": args.points, "best": args.best,
             "attendance_points": args.attendance, "ratings": args.ratings}
    return Rules.from_json({**base, **{k: v for k, v in given.items() if v is not None}})


def report(club_file: str, season: str) -> dict:
    club = files.load(club_file)
    try:
        return season_json(club, season, files.season_nights(club_file, club, season))
    except (FileNotFoundError, JournalDamaged, r.RosterError) as e:
        raise _fail(str(e)) from None


def _show(args) -> int:
    doc = report(args.club, args.season)
    if args.json:
        sys.stdout.write(json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    else:
        sys.stdout.write(text(doc))
    return 0


def text(doc: dict) -> str:
    rule = doc["rule"]
    out = [f"SEASON {doc['season']}: {len(doc['parties'])} parties; rule {rule['rule']}: {rule['about']}",
           "", "STANDINGS"]
    for m in doc["standings"]:
        nights = "  ".join(f"{n['party']} {n['place']}/{n['of']}" for n in m["nights"])
        out.append(f"  {m['place']:>3}. {m['name']:<24} #{m['number']:<4} {m['score']:>5}   {nights}")
    out += ["", "RATINGS (mu - 3 sigma; openskill " + rule["ratings"] + ")"]
    for x in doc["ratings"]:
        out.append(f"  {x['rank']:>3}. {x['name']:<24} {x['conservative']:>7.2f}   "
                   f"mu {x['mu']:.2f} ± {x['sigma']:.2f}, {x['games']} games")
    for u in doc["unlinked"]:
        out.append(f"\nnot linked at {u['party']} (not in the standings): {', '.join(u['guests'])}")
    return "\n".join(out) + "\n"


def _export(args) -> int:
    data = season_csv(report(args.club, args.season))
    if args.out:
        Path(args.out).write_text(data)
        print(f"season {args.season} written to {args.out}")
    else:
        sys.stdout.write(data)
    return 0


def _roster(args) -> int:
    club = files.load(args.club)
    try:
        if args.roster_command == "add":
            roster, m = r.add(club.roster, args.name, args.number)
            print(f"member {m.number}: {m.name}")
        elif args.roster_command == "rename":
            roster = r.rename(club.roster, args.number, args.name)
        elif args.roster_command == "merge":
            roster = r.merge(club.roster, args.keep, args.gone)
        else:
            roster = club.roster
    except r.RosterError as e:
        raise _fail(str(e)) from None
    if roster is not club.roster:
        files.save(args.club, c.with_roster(club, roster))
    for m in roster.members:
        was = f" (was {', '.join(m.was)})" if m.was else ""
        print(f"{m.number:>5}  {m.name}{was}")
    for gone, into in roster.merged:
        print(f"  #{gone} is #{into}")
    return 0


def _link(args) -> int:
    club = files.load(args.club)
    if args.member != "new" and not args.member.isdigit():
        raise _fail(f"a member number or 'new', not {args.member!r}")
    try:
        number = None if args.member == "new" else int(args.member)
        party = club.party(args.party)
        if args.guest not in files.read_night(party.name, files.journal_path(args.club, party.journal)).played:
            raise r.RosterError(f"no guest {args.guest!r} played at {args.party}")
        club = c.link(club, args.party, args.guest, number)
    except (r.RosterError, FileNotFoundError, JournalDamaged) as e:
        raise _fail(str(e)) from None
    files.save(args.club, club)
    n = club.party(args.party).linked[args.guest]
    print(f"{args.guest} at {args.party} is member {n}: {club.roster.member(n).name}")
    return 0
