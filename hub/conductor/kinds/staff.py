"""The party and its staff: the party created (its login the conductor), assistants and
conductors added and taken off, the set-up changed, tables added and taken away, the
projector's standings hidden or shown."""
from __future__ import annotations

from hub.refusal import Refusal

from .. import events as k
from ..frozen import FrozenMap
from ..ruling import LOGIN, Admit, Kind, mend_of, noted, say_why
from ..scoring import rules
from ..setup import CHANGEABLE_IN_PLAY, MOST_TABLES, changed, from_body
from ..state import TableSession, removable_table, replace


def check_party_created(state, p, login, now):
    if state.setup is not None:
        raise Refusal("PARTY EXISTS")
    setup = from_body(p.what.setup)
    rules(setup, 4)    # the engine knows the form, variant and tile set
    return Admit((p,), "PARTY CREATED")


def fold_party_created(state, ev):
    login = ev.source.partition(":")[2]
    return replace(state, setup=from_body(ev.what.setup), created=mend_of(ev),
                   staff=FrozenMap({login: "conductor"}))


def check_staff_added(state, p, login, now):
    if state.staff.get(login) != "conductor":
        raise Refusal("CONDUCTOR ONLY")
    new, role = p.what.login, p.what.role or "assistant"
    if not LOGIN.fullmatch(new) or role not in ("assistant", "conductor"):
        raise Refusal("BAD LOGIN")
    if new in state.staff:
        raise Refusal("ALREADY STAFF")
    return Admit((p,), "STAFF ADDED")


def fold_staff_added(state, ev):
    return replace(state, staff=state.staff.set(ev.what.login, ev.what.role or "assistant"))


def check_staff_removed(state, p, login, now):
    """A login taken off the staff by a conductor (never his own: another conductor may)."""
    if state.staff.get(login) != "conductor":
        raise Refusal("CONDUCTOR ONLY")
    say_why(p)
    gone = p.what.login
    if gone not in state.staff:
        raise Refusal("NO SUCH LOGIN")
    if gone == login:
        raise Refusal("NOT YOURSELF")
    return Admit((p,), "STAFF REMOVED")


def fold_staff_removed(state, ev):
    gone = ev.what.login
    state = noted(state, ev, f"{gone} taken off the staff")
    return replace(state, staff=FrozenMap((n, r) for n, r in state.staff.items() if n != gone))


def check_party_changed(state, p, login, now):
    """The set-up may change until play begins; after that, only the prizes (and tables
    added, by their own event). Once the seats are drawn the form and tables stay until
    the draw is undone."""
    say_why(p)
    changes = p.what.changes
    if not changes:
        raise Refusal("NO CHANGE")
    if state.final_count is not None:
        raise Refusal("COUNTED")
    s = state.session
    if s is not None and (s.started is not None or len(state.sessions) > 1) \
            and not set(changes) <= CHANGEABLE_IN_PLAY:
        raise Refusal("PLAY HAS BEGUN")
    if s is not None and {"form", "tables"} & set(changes):
        raise Refusal("SEATS DRAWN")
    setup = changed(state.setup, changes)
    if setup == state.setup:
        raise Refusal("NO CHANGE")
    rules(setup, 4)
    return Admit((p,), "PARTY CHANGED")


def fold_party_changed(state, ev):
    setup = changed(state.setup, ev.what.changes)
    was, now = state.setup.to_json(), setup.to_json()
    what = ", ".join(f"{key.replace('_', ' ')} {was[key]} → {now[key]}" for key in now if now[key] != was[key])
    return noted(replace(state, setup=setup), ev, f"set-up: {what}")


def check_table_added(state, p, login, now):
    say_why(p)
    if state.final_count is not None:
        raise Refusal("PARTY OVER")
    if state.setup.tables >= MOST_TABLES:
        raise Refusal("BAD TABLES")
    return Admit((p,), f"TABLE {state.setup.tables + 1} ADDED")


def fold_table_added(state, ev):
    """A new last table; in the session under way it is empty until late-comers sit there."""
    n = state.setup.tables + 1
    state = noted(replace(state, setup=replace(state.setup, tables=n)), ev, f"Table {n} added")
    s = state.session
    if s is None:
        return state
    return state.with_session(replace(s, tables=s.tables.set(n, TableSession((None,) * 4))))


def check_table_removed(state, p, login, now):
    """"Add a table" pressed once too often: the last table goes again while nobody has
    ever sat there; else it stays (empty, it is idle and the movement passes it by)."""
    say_why(p)
    if state.final_count is not None:
        raise Refusal("COUNTED")
    if state.setup.tables < 2:
        raise Refusal("ONE TABLE")
    n = removable_table(state)
    if n is None:
        raise Refusal("TABLE IN USE")
    return Admit((p,), f"TABLE {n} REMOVED")


def fold_table_removed(state, ev):
    """The last table taken away again: it never had a player, in any session."""
    n = state.setup.tables
    state = noted(replace(state, setup=replace(state.setup, tables=n - 1)), ev, f"Table {n} removed")
    sessions = tuple(replace(s, tables=FrozenMap((m, t) for m, t in s.tables.items() if m != n))
                     for s in state.sessions)
    return replace(state, sessions=sessions)


def check_display_changed(state, p, login, now):
    """The projector's standings hidden (or shown again): "the last session's suspense"."""
    standings = p.what.standings
    if standings not in ("hidden", "shown"):
        raise Refusal("BAD MESSAGE")
    if (state.standings_hidden is not None) == (standings == "hidden"):
        raise Refusal(f"ALREADY {standings.upper()}")
    return Admit((p,), f"STANDINGS {standings.upper()}")


def fold_display_changed(state, ev):
    return replace(state, standings_hidden=mend_of(ev) if ev.what.standings == "hidden" else None)


KINDS = (
    Kind(k.PARTY_CREATED, "staff", check_party_created, fold_party_created),
    Kind(k.STAFF_ADDED, "staff", check_staff_added, fold_staff_added),
    Kind(k.STAFF_REMOVED, "staff", check_staff_removed, fold_staff_removed),
    Kind(k.PARTY_CHANGED, "staff", check_party_changed, fold_party_changed),
    Kind(k.TABLE_ADDED, "staff", check_table_added, fold_table_added),
    Kind(k.TABLE_REMOVED, "staff", check_table_removed, fold_table_removed),
    Kind(k.DISPLAY_CHANGED, "staff", check_display_changed, fold_display_changed),
)
