"""The web app: the projected standings, the conductor's console, printables, phone keypads.

`create_app(hub)` follows Flask's app-factory pattern; views stay thin: they read
the party from the hub (its state, its standings, the read calls of hub/reading.py;
never the journal or its writer), hand it to their page's presenter (web/pages/), and
act only through `hub.submit(proposal)`, the same single writer and journal as the
tables. Who may do what is the journal's (web/security.py; docs/screens.md).

Blueprints, one job each:
- standings  the projector's page and its SSE stream (public, read-only)
- console    the conductor's console (login required for every action)
- door       the console's Guests list at scale: found as typed, answered in place
- printables invitations, score-cards, table markers, final results (print CSS)
- keypad     a phone per table, speaking the table protocol (bound by a token)
- season     the club's season (app config CLUB, SEASON): projector, console, CSV (web/season.py)
"""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from flask import Flask, render_template

from . import bidi, projection, security
from .store import WebStore
from .throttle import LoginThrottle


def create_app(hub, **config) -> Flask:
    app = Flask(__name__)
    app.config.update(
        SSE_PING_SECONDS=15.0,
        SSE_SETTLE_SECONDS=0.1,      # at most this added to a push while the hub catches up
                                     # (a rush of 200 tables drains in 50-80 ms: one view, not two)
        SSE_QUIET_SECONDS=0.003,     # and, caught up, once this long for inputs on their way (a
                                     # rush's first tables arrive ms before the rest; docs/performance.md)
        BOARD_CHECK_SECONDS=1.0,     # how often a stream looks at the boards' telemetry
        BOARD_SILENT_SECONDS=120.0,  # online but nothing at all heard for this long: silent
                                     # (twice the boards' heartbeat, firmware heartbeat_s = 60:
                                     # one lost heartbeat is no silence)
        KEYPAD_RESEND_SECONDS=3.0,   # a phone resends an unacknowledged entry this often
        LOGIN_TRIES=5,               # wrong passwords from one device before it must wait
        LOGIN_PAUSE_SECONDS=30.0,    # then one try per this long (web/throttle.py)
        WEB_STORE=None,              # default: beside the journal
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(hours=12),  # one party evening
        # The cookie is set only by a request that changed the session: every page's poll
        # (static/console.js) setting it as it read it would, answered after a page took
        # a verdict out, put the verdict back (tests/web/test_verdict_once.py).
        SESSION_REFRESH_EACH_REQUEST=False,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,              # a guest list CSV, generously
    )
    app.config.update(config)
    store = WebStore(app.config["WEB_STORE"] or _beside(hub.journal.path, ".web.json"))
    app.secret_key = store.secret
    app.extensions["party.hub"] = hub
    app.extensions["party.web_store"] = store
    app.extensions["party.login_throttle"] = LoginThrottle(app.config["LOGIN_TRIES"], app.config["LOGIN_PAUSE_SECONDS"])
    app.extensions["party.projection"] = projection.Projection(hub, app.config["SSE_SETTLE_SECONDS"],
                                                               app.config["SSE_QUIET_SECONDS"])

    app.before_request(security.check_csrf)
    app.before_request(security.load_login)
    app.jinja_env.globals["csrf_token"] = security.csrf_token
    app.add_template_filter(bidi.isolated, "bdi")

    from . import console, door, keypad, printables, season, standings
    app.register_blueprint(standings.bp)
    app.register_blueprint(console.bp)
    app.register_blueprint(door.bp)
    app.register_blueprint(printables.bp)
    app.register_blueprint(keypad.bp)
    app.register_blueprint(season.bp)
    app.register_blueprint(season.console_bp)

    @app.errorhandler(400)
    @app.errorhandler(401)
    @app.errorhandler(403)
    @app.errorhandler(404)
    def refused(error):
        return render_template("refused.html", error=error), error.code

    return app


def _beside(path: Path, suffix: str) -> Path:
    return Path(path).with_name(Path(path).name + suffix)
