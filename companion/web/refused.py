"""The page served when the game journal was refused at start (damaged, lost beside its write-ahead log, a newer
companion's): what was found, that nothing was deleted, and what to do, on every phone at the table.

Without it `companion serve` ended and systemd started it again every few seconds, and every phone said "cannot
connect": families never see the service's log. No journal is open, so no game can start and nothing is written.
"""
from __future__ import annotations

import json

from flask import Flask, Response, render_template

from ..table.journal import START_AGAIN
from .app import fail, protect
from .security import Refused

# What `systemctl status companion` says while the page is this one.
STATUS = "the game journal could not be opened: serving a page that says what to do"


def create_refused_app(refusal, *, allow_outside: bool = False, names: tuple[str, ...] = ()) -> Flask:
    """`refusal`: the journal's JournalRefused, with what it found and what to do."""
    app = Flask(__name__)
    app.json.sort_keys = False
    message = f"{refusal}; {START_AGAIN}. Nothing was deleted, and no game can be played until then."
    protect(app, allow_outside, names, Refused(503, message))

    @app.errorhandler(404)
    @app.errorhandler(405)
    def not_served(_exc):  # /api/state, /api/history, ...: none of them can be read without the journal
        return fail(503, message)

    @app.get("/")
    def page():
        html = render_template("refused.html", found=refusal.found, fix=refusal.fix, start_again=START_AGAIN)
        return Response(html, status=503, headers={"Cache-Control": "no-store", "Retry-After": "60"})

    @app.get("/events")
    def events():
        """A page opened before the restart hears it once and loads this one in its place."""
        event = f"event: unavailable\ndata: {json.dumps({'message': message})}\n\n"
        return Response(event, mimetype="text/event-stream", headers={"Cache-Control": "no-cache"})

    return app
