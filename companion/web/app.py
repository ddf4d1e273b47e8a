"""The page's Flask app: the page, a small JSON API, the live stream and the camera view.

The app never touches an engine: it reads the table's latest view and posts commands through the table's
queue, waiting for the answer. Every request is checked (local network, sent to the companion's own name,
same origin, the join-code hook); a bad one gets a 4xx JSON `{"ok": false, "message": ...}` that the page
shows, and the game is unchanged.
"""
from __future__ import annotations

import json
import time
from typing import Any

from flask import Flask, Response, jsonify, render_template, request

from ..games import registry
from ..table.journal import JournalError
from ..table.camera import TrayNotKept
from . import boards
from . import joincode
from .joincode import is_own_screen
from .security import Refused, check_client, check_host, check_same_origin, is_loopback_host
from .stream import KEEPALIVE_SECONDS, LIFETIME_SECONDS, Broadcaster, TooManyStreams, refusal

MAX_BODY_BYTES = 16 * 1024
COMMAND_TIMEOUT_S = 10.0
# Every response: scripts and styles from the page's own files only (a name that got into the page as markup
# could not run: no inline script, handler or style attribute), never inside another site's frame (a tap on
# undo or join made through a page laid over it). The page evaluates no text, so no 'unsafe-eval'.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def game_infos() -> list[dict[str, Any]]:
    infos = []
    for name in registry.GAME_MODULES:
        try:
            infos.append(registry.get_game(name).info())
        except (ImportError, AttributeError):
            continue  # an engine that is not part of this build
    return infos


def decorate(view: dict[str, Any]) -> dict[str, Any]:
    """The view as pages get it: the board drawn, each player's colour as the board paints it, and the
    engine's raw state left out (the drawing shows it; every page parses each update, so it is kept small)."""
    game = view.get("game")
    if not game:
        return view
    page_game = {k: v for k, v in game.items() if k != "state"}
    page_game["board"] = boards.render(game)
    page_game["colours"] = boards.colours(game.get("players") or [])
    return {**view, "game": page_game}


def fail(status: int, message: str) -> Response:
    response = jsonify({"ok": False, "message": message})
    response.status_code = status
    return response


def protect(app: Flask, allow_outside: bool, names: tuple[str, ...], posts_refused: Refused | None = None) -> None:
    """Every request checked (the local network, sent to the companion's own name, same origin) and every
    response given the security headers; `posts_refused`: what every POST gets instead (the demo's)."""
    @app.before_request
    def guard():
        try:
            check_client(request.remote_addr, allow_outside)
            check_host(request.host, allow_outside, names)
            check_same_origin(request.method, request.headers, request.host)
        except Refused as exc:
            return fail(exc.status, exc.message)
        if request.method == "POST" and posts_refused is not None:
            return fail(posts_refused.status, posts_refused.message)
        return None

    @app.after_request
    def secure_headers(response: Response) -> Response:
        for header, value in SECURITY_HEADERS.items():
            response.headers.setdefault(header, value)
        return response


def create_app(service, *, allow_outside: bool = False, names: tuple[str, ...] = (), max_streams: int = 16,
               demo: bool = False, keepalive: float = KEEPALIVE_SECONDS,
               stream_lifetime: float = LIFETIME_SECONDS) -> Flask:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.json.sort_keys = False
    table = service.table
    broadcaster = Broadcaster(max_streams, decorate, keepalive, stream_lifetime)
    broadcaster.publish(table.view())
    stop_listening = table.listen(broadcaster.publish)
    app.extensions["companion"] = {"broadcaster": broadcaster, "stop": stop_listening}

    protect(app, allow_outside, names, Refused(403, "this is the demo: it plays itself. Run `companion serve` to "
                                               "play a game.") if demo else None)

    @app.errorhandler(404)
    def not_found(_exc):
        return fail(404, f"there is nothing at {request.path}")

    @app.errorhandler(405)
    def bad_method(_exc):
        return fail(405, f"{request.method} is not allowed on {request.path}")

    @app.errorhandler(413)
    def too_big(_exc):
        return fail(413, f"a request is at most {MAX_BODY_BYTES} bytes")

    @app.errorhandler(Exception)
    def crashed(exc):
        if hasattr(exc, "code") and hasattr(exc, "description"):
            return fail(int(exc.code), str(exc.description))
        if isinstance(exc, JournalError):  # the card failed under the history page: its message says what to do
            return fail(503, str(exc))
        app.logger.exception("request failed")
        return fail(500, f"the companion hit a problem: {type(exc).__name__}")

    @app.get("/")
    def page():
        # the join words are joincode's, said by the server too: the page takes them from here, not a copy
        return render_template("index.html", demo=demo, join_button=joincode.JOIN_BUTTON,
                               join_prompt=f"Enter the {joincode.CODE_DIGITS}-digit join code. "
                                           f"{joincode.WHERE_THE_CODE_IS}")

    @app.get("/api/state")
    def state():
        return jsonify(broadcaster.latest() or decorate(table.view()))

    @app.get("/api/games")
    def games():
        return jsonify({"games": game_infos()})

    @app.get("/api/history")
    def history():
        return jsonify({"games": history_rows(service.journal), "now": time.time()})

    @app.get("/api/stats")
    def stats():
        return jsonify({"games": service.journal.statistics()})

    @app.get("/api/history/<int:game_id>")
    def game_history(game_id: int):
        row = service.journal.game(game_id)
        if row is None:
            return fail(404, f"there is no game number {game_id}")
        steps: list[dict[str, Any]] = []
        for op, data in service.journal.ops(game_id):
            if op == "undo":
                if steps:
                    steps.pop()
            else:
                steps.append({"action": data["action"], **data["info"]})
        return jsonify({**row, "steps": steps})

    @app.post("/api/command")
    def command():
        if not request.is_json:
            return fail(415, "send the request as JSON (Content-Type: application/json)")
        try:
            body = json.loads(request.get_data(as_text=True) or "null")
        except ValueError as exc:  # not JSON, not UTF-8, or a number of more than 4300 digits
            return fail(400, f"the request is not valid JSON: {exc}")
        except RecursionError:
            return fail(400, "the request is nested too deeply")
        if not isinstance(body, dict):
            return fail(400, 'a request is a JSON object like {"do": "undo"}')
        try:
            outcome = table.request(body, timeout=COMMAND_TIMEOUT_S)
        except TimeoutError:
            return fail(503, "the table is busy; try again")
        if not outcome.ok:  # with the game as it is now: a page that had not caught up shows it at once
            response = jsonify({"ok": False, "message": outcome.message, "state": broadcaster.latest()})
            response.status_code = 400
            return response
        return jsonify({**outcome.to_json(), "state": broadcaster.latest()})

    @app.get("/events")
    def events():
        headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        try:
            box = broadcaster.open(None if is_own_screen(request.remote_addr) else request.remote_addr)
        except TooManyStreams as exc:
            return Response(refusal(str(exc)), mimetype="text/event-stream", headers=headers)
        gone = request.environ.get("waitress.client_disconnected")  # set by waitress, None under other servers
        response = Response(broadcaster.stream(box, gone), mimetype="text/event-stream", headers=headers)
        # The stream gives its slot back when it ends; a body never read (HEAD, a page gone before its first
        # byte) never starts it, so the slot is given back when the response is closed too.
        response.call_on_close(lambda: broadcaster.close(box))
        return response

    @app.get("/camera.jpg")
    def camera():
        camera = getattr(service, "camera", None)
        if camera is None:
            return fail(404, service_message(service, "camera") or "no camera in this session")
        jpeg = camera.latest_jpeg()
        if jpeg is None:
            health = service.table.health.get("camera") or {}
            trouble = health.get("message") if health.get("state", "ok") != "ok" else None
            return fail(404, trouble or "the camera has not produced a frame yet")
        return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/api/reading.jpg")
    def reading():
        camera = getattr(service, "camera", None)
        roll = request.args.get("v", type=int)  # the roll's t: the page asks for the photo of the roll it shows
        jpeg = None if camera is None else camera.reading_jpeg() if roll is None else camera.reading_jpeg(roll)
        if jpeg is None:
            return fail(404, "no photo of the last roll")
        return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/api/tray")
    def tray_in_use():
        camera = getattr(service, "camera", None)
        if camera is None:
            return fail(404, "there is no camera to calibrate")
        box = getattr(camera, "tray", None)
        return jsonify({"tray": list(box) if box else "auto"})

    @app.post("/api/tray")
    def tray():
        camera = getattr(service, "camera", None)
        if camera is None:
            return fail(409, "there is no camera to calibrate")
        try:
            body = request.get_json(silent=True)
        except RecursionError:  # nested too deeply to read
            body = None
        box = body.get("tray") if isinstance(body, dict) else None
        if box != "auto" and (not isinstance(box, list) or len(box) != 4
                              or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in box)
                              or box[0] >= box[2] or box[1] >= box[3]):
            return fail(400, "the tray is \"auto\" or [x0, y0, x1, y1] in pixels with x0 < x1 and y0 < y1")
        try:
            camera.set_tray(None if box == "auto" else tuple(box))
        except TrayNotKept as exc:
            return jsonify({"ok": True, "tray": box, "warning": str(exc)})
        return jsonify({"ok": True, "tray": box})

    @app.get("/api/addresses")
    def addresses():
        """Where other phones open this page; set by `companion serve` once it listens."""
        fallback = [] if is_loopback_host(request.host) else [request.host_url]
        return jsonify({"urls": app.config.get("PAGE_URLS", fallback)})

    @app.get("/api/health")
    def health():
        latest = broadcaster.latest() or {}
        return jsonify({"ok": True, "streams": broadcaster.open_streams, "time": time.time(),
                        "run": latest.get("run"), "version": latest.get("version")})

    return app


def history_rows(journal, limit: int = 50) -> list[dict[str, Any]]:
    """The newest games and, however old, every unfinished one with a step (the page offers them to pick up),
    newest first. Each has `played_at`, the Pi's clock when it was last played: the response's `now` (the same
    clock) lets a phone whose clock differs say it in its own time."""
    rows = {row["id"]: row for row in journal.games(limit=limit)}
    for row in journal.unfinished_games(limit=None):
        rows.setdefault(row["id"], row)
    return [rows[game_id] for game_id in sorted(rows, reverse=True)]


def service_message(service, feature: str) -> str:
    messages = getattr(service, "messages", {}) or {}
    return messages.get(feature, "")
