"""`companion replay DIR [--fast]`: drive the companion from a recorded session and report the game.

The events go through the same table, journal and engine as live ones, each acknowledged before the next,
so the same recording gives the same game every time. `--serve` shows it on the page while it plays.
With `--state-dir` the journal is kept there (and `--resume` continues a replay that was interrupted,
from the last event the journal acknowledged); without it a temporary directory is used and removed.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import sys
import tempfile
import threading

from ..cli import CliError


def add_arguments(parser) -> None:
    parser.add_argument("directory", help="a recorded session (a directory with events.jsonl)")
    parser.add_argument("--fast", action="store_true", help="as fast as possible instead of in real time")
    parser.add_argument("--speed", type=float, default=1.0, help="real-time playback speed factor (default 1)")
    parser.add_argument("--state-dir", help="keep the journal here (default: a temporary directory)")
    parser.add_argument("--resume", action="store_true", help="continue an interrupted replay in --state-dir")
    parser.add_argument("--json", action="store_true", help="one JSON line per acknowledged event, then the result")
    parser.add_argument("--serve", action="store_true", help="also serve the page while replaying")
    parser.add_argument("--port", type=int, default=8080, help="port of the page with --serve (default 8080)")


def state_digest(state_json: dict) -> str:
    return hashlib.sha256(json.dumps(state_json, sort_keys=True).encode()).hexdigest()[:16]


def run(args) -> int:
    from ..table.journal import Journal, JournalError
    from ..table.owner import Table
    from ..table.recording import BadRecording, read_events, replay

    if args.speed <= 0:
        raise CliError(f"--speed must be above 0, got {args.speed}")
    if args.resume and not args.state_dir:
        raise CliError("--resume needs --state-dir (the journal of the interrupted replay)")
    try:
        events = read_events(args.directory)
    except BadRecording as exc:
        raise CliError(str(exc)) from None
    state_dir = args.state_dir or tempfile.mkdtemp(prefix="companion-replay-")
    try:
        journal = Journal(state_dir)
    except JournalError as exc:
        raise CliError(str(exc)) from None
    table = Table(journal)
    after = table.replay_position if args.resume else -1
    if not args.resume and journal.current_game_id() is not None:
        raise CliError(f"{state_dir} already holds a game; use --resume, or an empty --state-dir")
    server = _serve(table, journal, args.port) if args.serve else None
    table.start()

    def acked(position: int, outcome) -> None:
        if args.json:
            print(json.dumps({"position": position, "type": events[position].type, "ok": outcome.ok,
                              "message": outcome.message}), flush=True)

    try:
        sent = replay(events, table, fast=args.fast, speed=args.speed, after=after, on_ack=acked)
        view = table.view()
    finally:
        table.stop()
        journal.close()
        if server is not None:
            server.close()
        if not args.state_dir:
            shutil.rmtree(state_dir, ignore_errors=True)
    game = view["game"]
    result = {"done": True, "events": sent, "game": game and game["name"], "over": bool(game and game["over"]),
              "scores": game and game["scores"], "winners": game and game["winners"],
              "steps": game and game["history_count"], "state": game and state_digest(game["state"])}
    if args.json:
        print(json.dumps(result), flush=True)
    elif game is None:
        print(f"replayed {sent} events; no game was started")
    else:
        names = [p["name"] for p in game["players"]]
        winners = ", ".join(names[i] for i in game["winners"]) or "nobody yet"
        print(f"replayed {sent} events: {game['title']}, {game['history_count']} steps, "
              f"{'over' if game['over'] else 'not over'}; scores {dict(zip(names, game['scores']))}; "
              f"winner: {winners}; state {result['state']}")
    return 0


def _serve(table, journal, port: int):
    from waitress.server import create_server

    from ..web.app import create_app

    class Replayed:
        pass

    service = Replayed()
    service.table, service.journal = table, journal
    app = create_app(service, demo=True)
    try:
        server = create_server(app, host="127.0.0.1", port=port, threads=8)
    except OSError as exc:
        raise CliError(f"cannot listen on port {port}: {exc.strerror}") from None
    print(f"watch the replay on http://127.0.0.1:{server.effective_port}/", file=sys.stderr, flush=True)
    threading.Thread(target=server.run, daemon=True).start()
    return server
