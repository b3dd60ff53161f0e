"""The web app: the projected standings (and, later, the console and printables).

`create_app(hub)` follows Flask's app-factory pattern; views stay thin and ask
the hub for derived state, never the journal directly.
"""
from __future__ import annotations

from flask import Flask


def create_app(hub, **config) -> Flask:
    app = Flask(__name__)
    app.config.update({"SSE_PING_SECONDS": 15.0, **config})
    app.extensions["party.hub"] = hub

    from . import standings
    app.register_blueprint(standings.bp)
    return app
