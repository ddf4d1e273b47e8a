"""`companion replay DIR [--fast]`: drive the companion from a recorded session and report the game.

The events go through the same table, journal and engine as live ones, each acknowledged before the next,
so the same recording gives the same game every time. `--serve` shows it on the page while it plays.
With `--state-dir` the journal is kept there (and `--resume` continues a replay that was interrupted,
from the last event the journal acknowledged); without it a temporary directory is used and removed.

`--frames` re-reads the recorded camera frames through the vision pipeline instead of trusting the
recorded rolls (companion.table.reread), prints every difference between the re-read and the recorded
camera events, and exits 1 when there is one (0 when the re-read agrees), so a new reader can be checked
against recorded sessions. `--reader truth` reads a synthetic recording by its stored truth instead.
"""
from __future__ import annotations

import hashlib
import json
import math
import shutil
import sys
import tempfile
import threading

from ..cli import CliError, port_number, speed_factor


def add_arguments(parser) -> None:
    parser.add_argument("directory", help="a recorded session (a directory with events.jsonl)")
    parser.add_argument("--fast", action="store_true", help="as fast as possible instead of in real time")
    parser.add_argument("--speed", type=speed_factor, default=1.0,
                        help="real-time playback speed factor (default 1)")
    parser.add_argument("--state-dir", help="keep the journal here (default: a temporary directory)")
    parser.add_argument("--resume", action="store_true", help="continue an interrupted replay in --state-dir")
    parser.add_argument("--json", action="store_true", help="one JSON line per acknowledged event, then the result")
    parser.add_argument("--serve", action="store_true", help="also serve the page while replaying")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on with --serve (default: 127.0.0.1, this computer only; 0.0.0.0: "
                             "phones on the network too)")
    parser.add_argument("--port", type=port_number, default=8080, help="port of the page with --serve (default 8080)")
    frames = parser.add_argument_group("re-reading the camera frames")
    frames.add_argument("--frames", action="store_true",
                        help="re-read the recorded frames through the vision pipeline instead of the recorded rolls")
    frames.add_argument("--reader", help="dice reader for --frames: pips, fruit, matcho, or truth (a synthetic "
                                         "recording's truth.jsonl, from `record --synthetic GAME --frames`); default: "
                                         "the recording's camera.json, else pips")
    frames.add_argument("--tray", help="tray for --frames: auto or x0,y0,x1,y1 (default: as recorded)")
    frames.add_argument("--zones", help="dice zones for --frames, NAME:KIND:x0,y0,x1,y1;... (default: as recorded)")
    frames.add_argument("--settle-ms", type=int, help="settle time for --frames (default: as recorded, else 300)")


def state_digest(state_json: dict) -> str:
    return hashlib.sha256(json.dumps(state_json, sort_keys=True).encode()).hexdigest()[:16]


def run(args) -> int:
    from ..table.journal import Journal, JournalError
    from ..table.owner import Table
    from ..table.recording import BadRecording, read_events, replay

    if not (args.speed > 0 and math.isfinite(args.speed)):
        raise CliError(f"--speed must be a number above 0, got {args.speed}")
    if args.resume and not args.state_dir:
        raise CliError("--resume needs --state-dir (the journal of the interrupted replay)")
    try:
        events = read_events(args.directory,
                             on_cut_short=lambda why: print(f"companion replay: {why}", file=sys.stderr))
    except BadRecording as exc:
        raise CliError(str(exc)) from None
    if not events:
        raise CliError(f"{args.directory} holds no events to replay")
    reread = _reread(args, events) if args.frames else None
    if reread is not None:
        events = reread["events"]
    state_dir = args.state_dir or tempfile.mkdtemp(prefix="companion-replay-")
    try:
        journal = Journal(state_dir)
    except JournalError as exc:
        raise CliError(str(exc)) from None
    refused: list[tuple[int, str, str]] = []

    def acked(position: int, outcome) -> None:
        if not outcome.ok:
            refused.append((position, events[position].type, outcome.message))
        if args.json:
            print(json.dumps({"position": position, "type": events[position].type, "ok": outcome.ok,
                              "message": outcome.message}), flush=True)

    table = server = None
    try:
        recording = _fingerprint(events)
        _check_folder(journal, state_dir, recording, args.resume)
        table = Table(journal)
        if table.notice:  # the folder's game could not be loaded: playing on would not continue it
            raise CliError(f"{state_dir}: {table.notice}")
        after = table.replay_position if args.resume else -1
        with journal.transaction() as tx:
            tx.set_meta("replay_of", recording)
        server = _serve(table, journal, args.host, args.port) if args.serve else None
        table.start()
        sent = replay(events, table, fast=args.fast, speed=args.speed, after=after, on_ack=acked)
        view = table.view()
    except KeyboardInterrupt:
        if args.state_dir:
            print(f"companion replay: stopped; `companion replay {args.directory} --state-dir {args.state_dir} "
                  f"--resume` goes on from here", file=sys.stderr)
        raise
    finally:
        if table is not None:
            table.stop()
        journal.close()
        if server is not None:
            server.close()
        if not args.state_dir:
            shutil.rmtree(state_dir, ignore_errors=True)
    game = view["game"]
    result = {"done": True, "events": sent, "game": game and game["name"], "over": bool(game and game["over"]),
              "scores": game and game["scores"], "winners": game and game["winners"],
              "steps": game and game["history_count"], "state": game and state_digest(game["state"]),
              "refused": len(refused)}
    if reread is not None:
        result["frames"] = {key: reread[key] for key in ("frames", "rolls", "differences")}
    if args.json:
        print(json.dumps(result), flush=True)
    elif game is None:
        print(f"replayed {sent} events; no game was started")
    else:
        names = [p["name"] for p in game["players"]]
        winners = ", ".join(names[i] for i in game["winners"]) or ("nobody" if game["over"] else "nobody yet")
        print(f"replayed {sent} events: {game['title']}, {game['history_count']} steps, "
              f"{'over' if game['over'] else 'not over'}; scores {dict(zip(names, game['scores']))}; "
              f"winner: {winners}; state {result['state']}")
    if refused and not args.json:
        _print_refused(refused)
    if reread is not None and not args.json:
        _print_reread(reread)
    return 1 if reread is not None and reread["differences"] else 0


def _fingerprint(events) -> str:
    """Names the recording (as replayed, re-read frames included) in the journal it is replayed into."""
    digest = hashlib.sha256()
    for event in events:
        digest.update(json.dumps(event.to_json(), sort_keys=True).encode())
    return digest.hexdigest()[:16]


def _check_folder(journal, state_dir: str, recording: str, resume: bool) -> None:
    """A replay goes into an empty folder, or with --resume into the folder of the same recording's replay:
    never into a family's games, where it would add its game to their history or play into theirs."""
    if not journal.games(limit=1):
        return
    replayed = journal.meta("replay_of")
    if not resume:
        more = " (--resume continues it)" if replayed == recording else ""
        raise CliError(f"{state_dir} already holds games{more}: give an empty --state-dir")
    if replayed is None and journal.meta("replay_position") is not None:
        raise CliError(f"{state_dir} holds a replay interrupted in an older companion, which did not note the "
                       "recording it played: --resume cannot tell it is this one; replay it again from the start "
                       "into an empty --state-dir")
    if replayed != recording:
        what = "another recording's replay" if replayed else "games that are not a replay"
        raise CliError(f"{state_dir} holds {what}: --resume continues only a replay of this same recording")


def _print_refused(refused: list[tuple[int, str, str]]) -> None:
    """Refused events are not always a fault (a tap refused at the table is refused again), but a replay
    that differs from the recorded game shows here first."""
    print(f"{len(refused)} event{'s' if len(refused) != 1 else ''} refused:")
    for position, kind, message in refused[:5]:
        print(f"  position {position} ({kind}): {message}")
    if len(refused) > 5:
        print(f"  ... and {len(refused) - 5} more (--json lists them all)")


def _reread(args, events) -> dict:
    """The recorded events with the camera's re-read from the frames, and what differed."""
    import dataclasses

    from ..events import DiceSettled
    from ..table.camera_game import games_on_the_table, reads_pip_dice, reads_zones
    from ..table.reread import CAMERA_FILE, RereadError, read_camera_setup, reread_frames, roll_differences, \
        with_reread_camera, zone_differences

    try:
        setup = read_camera_setup(args.directory)
        overrides = {"reader": args.reader, "tray": args.tray, "zones": args.zones, "settle_ms": args.settle_ms}
        setup = dataclasses.replace(setup, **{k: v for k, v in overrides.items() if v is not None})
        if setup.settle_ms < 0:
            raise RereadError(f"--settle-ms must not be negative, got {setup.settle_ms}")
        games = games_on_the_table(events)
        if not setup.follows_game and any(not reads_pip_dice(game) or reads_zones(game) for _, game in games):
            print(f"companion replay: {args.directory} was recorded before the camera followed the game (no "
                  f"{CAMERA_FILE} says it did): its frames are re-read as its camera read them, pip dice and the dice "
                  "zones in every frame, whatever the game", file=sys.stderr)
        camera_events, frames = reread_frames(
            args.directory, setup, on_damage=lambda why: print(f"companion replay: {why}", file=sys.stderr),
            games=games if setup.follows_game else ())
    except RereadError as exc:
        raise CliError(str(exc)) from None
    differences = roll_differences(events, camera_events) + zone_differences(events, camera_events)
    return {"events": with_reread_camera(events, camera_events), "frames": frames,
            "rolls": sum(isinstance(e, DiceSettled) for e in camera_events), "differences": differences,
            "reader": setup.reader}


def _print_reread(reread: dict) -> None:
    count = len(reread["differences"])
    print(f"re-read {reread['frames']} frames with the {reread['reader']} reader: {reread['rolls']} rolls; "
          + ("the same camera events as recorded" if not count else
             f"{count} difference{'s' if count != 1 else ''} from the recording:"))
    for line in reread["differences"]:
        print(f"  {line}")


def _serve(table, journal, host: str, port: int):
    from ..web.app import create_app
    from ..web.cli_serve import listen, listening_port, page_addresses

    class Replayed:
        pass

    service = Replayed()
    service.table, service.journal = table, journal
    app = create_app(service, demo=True)
    server = listen(app, host, port, threads=8)
    for name, url in page_addresses(host, listening_port(server), announced=False):
        print(f"watch the replay on {url}{name}", file=sys.stderr, flush=True)
    threading.Thread(target=server.run, daemon=True).start()
    return server
