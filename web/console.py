"""The conductor's console: every action a form, every form a Proposal under the author's login.

Views are thin: read the form (actions.py), submit to the hub, show the
conductor's verdict — an admitted action as a short confirmation, a refusal in
red with the conductor's own words — then redirect back (so a reload never
repeats an action). Every view here requires a signed-in staff login, except
signing in and the very first set-up of a party that has no staff yet.
"""
# Why so long: every console route is here, one blueprint; what each page shows is its
# presenter's (web/pages/), what is allowed the conductor's.
from __future__ import annotations

import csv
import io
import json
import math
import time

from flask import (Blueprint, Response, abort, current_app, flash, g, jsonify, redirect, render_template,
                   request, session, url_for)

from hub import seal
from hub.conductor.ruling import LOGIN

from . import actions, door, guest_list, refusals, restart, security
from .pages import console as console_page, corrections as corrections_page, door as door_page
from .pages import plan as plan_page, results as results_page
from .actions import BadForm
from .typed import keep, kept_form
from .security import ConductorOnly, conductor_only, login_required
from .telemetry import boards_view

bp = Blueprint("console", __name__, url_prefix="/console")


def _hub():
    return current_app.extensions["party.hub"]


def _back(default: str = "console.home"):
    if door.in_place():   # sent from the Guests page's list by static/door.js: answered there
        return door.answer()
    target = request.form.get("next") or ""
    # only our own console pages: never an open redirect
    if not target.startswith("/console/") and target != "/console":
        target = url_for(default)
    return redirect(target)


def _refuse(title: str, reason, form_name: str | None = None) -> None:
    """Say what is wrong in the host's words; keep what was typed into the form `form_name`."""
    flash(refusals.refused(title, reason), "refused")
    if form_name:
        keep(form_name, request.form, getattr(reason, "key", None))


def _submit(proposal, title: str, form_name: str | None = None):
    verdict = _hub().submit(proposal)
    if verdict.ok:
        row = _hub().receipt(proposal.id)   # its receipt, as a board shows one
        receipt = f" · receipt {row[0]} {seal.receipt(row[1])}" if row and row[1] else ""
        first = _hub().first_recorded(proposal.id) if verdict.msg == "SAVED" else None
        if first:   # the same form sent again (the back button, a second click): recorded once
            at, source = first
            flash(f"{title}: done already — recorded at {time.strftime('%H:%M:%S', time.localtime(at))} by "
                  f"{source.removeprefix('staff:')}; this was the same form sent again, nothing is recorded "
                  f"twice{receipt}.", "warn")
        else:
            flash(f"{title}: done — {verdict.msg}{receipt}", "ok")
    else:
        _refuse(title, door_page.explain(_hub().state, proposal, verdict.why), form_name)
    return verdict


@bp.errorhandler(ConductorOnly)
def _conductor_only(refused: ConductorOnly):
    """A conductor's action asked by another login (web/security.py, `conductor_only`)."""
    _refuse(refused.title, "CONDUCTOR ONLY")
    return _back()


@bp.context_processor
def page_globals():
    """What every console page is given (the season's pages too: web/season.py)."""
    return {"new_action_id": actions.new_action_id, "login": g.get("login"),
            "role": security.role(), "hidden_standings": _hub().state.standings_hidden is not None, "kept_form": kept_form,
            "replica": _hub().replica_lag(time.time()) if g.get("login") else None,
            "gap": _gap() if g.get("login") else [], "hub_started": _hub().runs.started,
            "holes": _hub().replication.holes() if g.get("login") else [],
            "restart": _restart()}


def _restart() -> dict | None:
    """After the hub started again: what happened, on every console page until the host
    has read it (in this browser)."""
    if not g.get("login") or session.get("restart_seen") == _hub().runs.started:
        return None
    return restart.summary(_hub(), time.time(), current_app.config["BOARD_SILENT_SECONDS"])


def _gap() -> list[dict]:
    """Staff actions a lost hub journaled that its replica lacked (hub/gap.py), oldest first,
    named as the console's own buttons name them."""
    titles = {a.kind: a.title for a in reversed(list(actions.ACTIONS.values()))}
    return [{**a, "when": time.strftime("%H:%M:%S", time.localtime(a["at"])), "what": json.dumps(a["body"]),
             "title": titles.get(a["kind"], a["kind"])} for a in _hub().staff_gap.waiting()]


# ----- signing in ------------------------------------------------------------------------
@bp.route("/login", methods=("GET", "POST"))
def login():
    store = security.store()
    if not store.has_staff():
        return redirect(url_for("console.setup"))
    if request.method == "POST":
        throttle, device = current_app.extensions["party.login_throttle"], request.remote_addr or ""
        wait = throttle.wait(device)
        if wait:
            flash(f"Too many wrong passwords from this device: try again in {math.ceil(wait)} s.", "refused")
            return render_template("console/login.html"), 429
        who = (request.form.get("login") or "").strip()
        with throttle.checking:
            right = store.check(who, request.form.get("password") or "")
        if right:
            throttle.succeeded(device)
            security.sign_in(who)
            nxt = request.args.get("next") or ""
            return redirect(nxt if nxt.startswith("/console") else url_for("console.home"))
        throttle.failed(device)
        flash("Sign in: refused — wrong login or password.", "refused")
        keep("login", request.form)
    return render_template("console/login.html")


@bp.post("/logout")
@login_required
def logout():
    security.sign_out()
    return redirect(url_for("console.login"))


@bp.route("/setup", methods=("GET", "POST"))
def setup():
    """The first conductor's login and password: only while nobody has one."""
    store = security.store()
    if store.has_staff():
        abort(403, description="The console is already set up: sign in.")
    # A party created from the command line (`party run --tables`) already has its
    # conductor: the console's first login must be that one, or the conductor
    # would refuse every action as NOT STAFF.
    conductors = security.conductors()
    if request.method == "POST":
        try:
            who = actions.text(request.form, "login", limit=24)
            password = actions.text(request.form, "password", limit=200)
            if len(password) < 8:
                raise BadForm("password", "8 characters or more, please.")
            if password != request.form.get("password2"):
                raise BadForm("password2", "the two passwords differ.")
            if not LOGIN.fullmatch(who):
                raise BadForm("login", "lower-case letters, digits and - only.")
            if conductors and who not in conductors:
                raise BadForm("login", f"the party's conductor is {' or '.join(conductors)}: use that login.")
        except BadForm as e:
            _refuse("Set up the console", e, "setup")
            return render_template("console/setup.html", conductors=conductors)
        store.set_password(who, password)
        security.sign_in(who)
        return redirect(url_for("console.home"))
    return render_template("console/setup.html", conductors=conductors)


# ----- pages ------------------------------------------------------------------------------
@bp.get("/")
@login_required
def home():
    hub = _hub()
    return render_template("console/home.html", p=console_page.overview(hub), plan=security.store().plan(),
                           more=actions.kind_actions())


@bp.get("/guests")
@login_required
def guests():
    """The door: the guests found (?q=), a page of them at a time (?page=; web/door.py)."""
    return render_template("console/guests.html", **door.page_context(_hub(), door.Listing.of(request.args)))


@bp.get("/tables")
@login_required
def tables():
    return render_template("console/tables.html", p=console_page.overview(_hub()))


@bp.get("/tables.json")
@login_required
def tables_json():
    """The tables' status, refreshed by the console page every couple of seconds."""
    hub = _hub()
    boards = boards_view(hub.boards, console_page.table_numbers(hub.state), time.time(),
                         current_app.config["BOARD_SILENT_SECONDS"])
    lag = hub.replica_lag(time.time())
    return jsonify(seq=hub.seq, tables=console_page.table_status(hub.state, boards),
                   replica=render_template("console/replica.html", replica=lag) if lag else None)


@bp.get("/hub.json")
@login_required
def hub_state():
    """Asked by every console page every second or two (static/console.js): an answer
    says the hub is up; `started` changes when it has started again. Signed out, the
    redirect to the login page is the answer."""
    told = _restart()
    return jsonify(started=_hub().runs.started,
                   restart=render_template("console/restart.html", restart=told) if told else None)


@bp.post("/restart/seen")
@login_required
def restart_seen():
    """The host has read what the restart did: not shown again in this browser."""
    session["restart_seen"] = _hub().runs.started
    return _back()


@bp.get("/corrections")
@login_required
def corrections():
    """Any session's results (the current one unless ?session= says), to correct or annul."""
    state = _hub().state
    shown = request.args.get("session", type=int) or len(state.sessions)
    if state.sessions and not 1 <= shown <= len(state.sessions):
        abort(404)
    return render_template("console/corrections.html", p=console_page.overview(_hub()), shown=shown,
                           entries=corrections_page.entries(state, shown), bells=console_page.bells(state))


@bp.post("/corrections/preview")
@login_required
def preview_correction():
    """A correction as the conductor would admit it, not yet recorded: the standings and prizes
    before and after, and what it means for the seating, with the button that records it."""
    hub, title = _hub(), actions.ACTIONS["correct"].title
    try:
        proposal = actions.proposal(actions.ACTIONS["correct"], request.form, g.login)
    except BadForm as e:
        _refuse(title, e, "correct")
        return _back("console.corrections")
    state = hub.state
    verdict, after = hub.preview(proposal)   # nothing journaled
    if not verdict.ok:
        _refuse(title, door_page.explain(state, proposal, verdict.why), "correct")
        return _back("console.corrections")
    return render_template("console/correction_preview.html", p=console_page.overview(hub), form=request.form,
                           preview=corrections_page.correction_preview(state, after, proposal.what.entry))


@bp.get("/prizes")
@login_required
def prizes():
    state = _hub().state
    return render_template("console/prizes.html", p=console_page.overview(_hub()), prizes=results_page.prizes(state))


@bp.get("/staff")
@login_required
def staff():
    return render_template("console/staff.html", p=console_page.overview(_hub()), staff=security.staff())


# ----- acting -------------------------------------------------------------------------------
@bp.post("/act/<name>")
@conductor_only(lambda name: actions.find(name).title,
                when=lambda name: getattr(actions.find(name), "conductor_only", False))
def act(name: str):
    action = actions.find(name)
    if action is None:
        abort(404)
    try:
        proposal = actions.proposal(action, request.form, g.login)
        if name == "final-count" and not request.form.get("missing_ok"):
            _counts_all(_hub().state)
    except BadForm as e:
        _refuse(action.title, e, name)
        return _back()
    _submit(proposal, action.title, name)
    return _back()


def _counts_all(state) -> None:
    """The final count asks first when a table's results are missing (the host ticks "count
    without them"): the prizes are given once."""
    missing = console_page.results_missing(state)
    if missing:
        raise BadForm("missing_ok", f"missing — {'; '.join(missing)}. Correct them first, or tick "
                                    "\u201ccount without them\u201d.")


def _gap_title(action_id: str, what: str) -> str:
    waiting = {a["id"]: a for a in _gap()}
    return f"{what.capitalize()}: {waiting[action_id]['title'] if action_id in waiting else action_id}"


@bp.post("/gap/<action_id>/<what>")
@conductor_only(_gap_title)
def gap(action_id: str, what: str):
    """Redo or discard a staff action that is not in the replica (after a takeover)."""
    if what not in ("redo", "discard"):
        abort(404)
    title = _gap_title(action_id, what)
    redo = _hub().staff_gap.redo(action_id, g.login) if what == "redo" else None
    if redo is None and not (what == "discard" and _hub().discard(action_id, g.login)):
        _refuse(title, "NOT WAITING")  # redone or discarded meanwhile (another console)
    elif redo is not None:
        _submit(redo, title)
    else:
        flash(f"{title}: discarded", "ok")
    return _back()


@bp.post("/party")
@login_required
def create_party():
    title = actions.CREATE_PARTY.title
    try:
        prop = actions.proposal(actions.CREATE_PARTY, request.form, g.login)
    except BadForm as e:
        _refuse(title, e, "create-party")
        return _back()
    _submit(prop, title, "create-party")
    return _back()


@bp.post("/staff")
@conductor_only(actions.ACTIONS["add-staff"].title)
def add_staff():
    """A login for an assistant: journaled (who may act), password hash kept beside the journal."""
    try:
        who = actions.text(request.form, "login", limit=24)
        if not LOGIN.fullmatch(who):
            raise BadForm("login", "lower-case letters, digits and - only.")
        password = actions.text(request.form, "password", limit=200)
        if len(password) < 8:
            raise BadForm("password", "8 characters or more, please.")
        prop = actions.proposal(actions.ACTIONS["add-staff"], request.form, g.login)
    except BadForm as e:
        _refuse("Add to the staff", e, "add-staff")
        return _back("console.staff")
    if _submit(prop, f"Add {who} to the staff", "add-staff").ok:
        security.store().set_password(who, password)
    return _back("console.staff")


@bp.post("/staff/remove")
@conductor_only(actions.REMOVE_STAFF.title)
def remove_staff():
    """A login taken off the staff: journaled with why; its password hash is dropped."""
    action = actions.REMOVE_STAFF
    try:
        prop = actions.proposal(action, request.form, g.login)
    except BadForm as e:
        _refuse(action.title, e, "remove-staff")
        return _back("console.staff")
    if _submit(prop, action.title, "remove-staff").ok:
        security.store().remove(prop.what.login)
    return _back("console.staff")


@bp.post("/guests/import")
@login_required
def import_guests():
    """A guest list file, read and sorted for the host to look over: nothing is added yet."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        _refuse("Import the guest list", BadForm("file", "choose the guest list's file."))
        return _back("console.guests")
    try:
        look = guest_list.preview(upload.read(), _hub().state.guests)
    except csv.Error as e:
        _refuse("Import the guest list", BadForm("file", f"not a list this console can read ({e})."))
        return _back("console.guests")
    return render_template("console/import.html", p=console_page.overview(_hub()), preview=look,
                           filename=upload.filename)


@bp.post("/guests/add")
@login_required
def add_guests():
    """The guests the host agreed to in the preview; the near-duplicates ticked as other people."""
    names = [(n, False) for n in request.form.getlist("guest")]
    names += [(n, True) for n in request.form.getlist("similar")]
    _list_guests("Import the guest list", names)
    return _back("console.guests")


@bp.post("/guests/from-plan")
@login_required
def guests_from_plan():
    """The plan's "yes" replies become the guest list in one click (duplicates and
    near-duplicates of guests already listed are left out, and named)."""
    coming = [r["name"] for r in security.store().plan().get("replies", []) if r["coming"]]
    look = guest_list.sort([(i, n, n) for i, n in enumerate(coming, start=1)], _hub().state.guests)
    _list_guests("Guests from the replies", [(r.name, False) for r in look.new],
                 left_out=[f"{r.name} ({r.reason})" for r in look.duplicates + look.near + look.refused])
    return _back("console.guests")


def _list_guests(title: str, names: list[tuple[str, bool]], left_out: list[str] | None = None) -> None:
    """Each name one guest-listed event (similar_ok: the host says a near-duplicate is another person),
    all under the form's one-time id; what was left out before (`left_out`) named after them."""
    try:
        proposals = actions.each(actions.ACTIONS["list-guest"], [{"guest": name, **({"similar_ok": True} if similar_ok else {})}
                                                               for name, similar_ok in names], request.form, g.login)
    except BadForm as e:
        _refuse(title, e)
        return
    added, turned_down = [], []
    for (name, _), proposal in zip(names, proposals):
        verdict = _hub().submit(proposal)
        if verdict.ok:
            added.append(name)
        else:
            turned_down.append(f"{name} ({refusals.sentence(verdict.why).rstrip('.')})")
    if added:   # the wrong file, or the replies twice: undone in one step (undo_batch)
        security.store().save_batch({"title": title, "names": added, "by": g.login})
    flash(f"{title}: {len(added)} added.", "ok")
    if turned_down:
        flash(f"{title}: refused — " + "; ".join(turned_down), "refused")
    if left_out:
        flash(f"{title}: left out — " + "; ".join(left_out), "warn")


@bp.post("/guests/undo-batch")
@login_required
def undo_batch():
    """The last list added at once (a wrong file, say) taken off again: each of its guests not
    checked in since, one guest-removed event each, with the host's why."""
    title = "Undo the last list added"
    names = door_page.batch_removable(_hub().state, security.store().last_batch())
    try:
        why = actions.text(request.form, "why")
        proposals = actions.each(actions.ACTIONS["remove-guest"], [{"guest": name, "why": why} for name in names],
                                 request.form, g.login)
    except BadForm as e:
        _refuse(title, e, "undo-batch")
        return _back("console.guests")
    removed = sum(_hub().submit(proposal).ok for proposal in proposals)
    security.store().save_batch({})
    flash(f"{title}: {removed} removed.", "ok")
    return _back("console.guests")


@bp.post("/plan")
@login_required
def save_plan():
    """The invitation and its replies, from which the tables are planned."""
    try:
        plan = plan_page.plan_from_form(request.form)
    except BadForm as e:
        _refuse("Save the plan", e, "plan")
        return _back()
    security.store().save_plan(plan)
    flash(f"The plan: {plan['coming']} coming, {plan['tables']} tables.", "ok")
    return _back()


# ----- export --------------------------------------------------------------------------------
@bp.get("/export.json")
@login_required
def export_json():
    hub = _hub()
    body = json.dumps(results_page.export(hub), indent=1, ensure_ascii=False)
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": "attachment; filename=results.json"})


@bp.get("/export.csv")
@login_required
def export_csv():
    out = io.StringIO()
    results_page.write_results_csv(_hub(), out)
    return Response(out.getvalue(), mimetype="text/csv",
                    headers={"Content-Disposition": "attachment; filename=results.csv"})


@bp.get("/journal.sqlite3")
@login_required
def export_journal():
    """The journal itself, as a backup: a consistent copy taken while the party goes on
    (`party replay` reads it)."""
    hub = _hub()
    stamp = time.strftime("%Y%m%d-%H%M", time.localtime())
    return Response(hub.backup(), mimetype="application/vnd.sqlite3",
                    headers={"Content-Disposition": f"attachment; filename=party-{stamp}-seq{hub.seq}.sqlite3"})
