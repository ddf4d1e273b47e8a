"""`companion record --out DIR`: run the companion as `companion serve` does, and record the session:
the camera frames (the vision FrameRecorder) and events.jsonl with every event and its timestamp.

`--synthetic GAME` writes a session made by the repo's own generators instead (a seeded playout turned
into the events the camera and the sensors would report), with no hardware at all.
"""
from __future__ import annotations

from pathlib import Path

from ..cli import CliError


def add_arguments(parser) -> None:
    parser.add_argument("--out", required=True, help="the session directory to write (must be empty or new)")
    parser.add_argument("--synthetic", metavar="GAME", help="generate a whole game's session instead of recording")
    parser.add_argument("--seed", type=int, default=1, help="seed of --synthetic (default 1)")
    parser.add_argument("--players", type=int, default=2, help="players of --synthetic (default 2)")
    parser.add_argument("--settings", help="the settings file (TOML)")
    parser.add_argument("--host", help="address of the page (default: service.host)")
    parser.add_argument("--port", type=int, help="port of the page (default: service.port)")
    parser.add_argument("--state-dir", help="where games are kept (default: service.state_dir)")


def run(args) -> int:
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CliError(f"{out} is not an empty directory; choose a new one")
    if args.synthetic:
        return _synthetic(args, out)
    from ..table.recording import EventRecorder
    from ..web import cli_serve

    recorder = EventRecorder(out)
    args.demo, args.demo_speed = False, 1.0
    try:
        return cli_serve.run(args, tap=recorder, record_dir=out)
    finally:
        recorder.close()
        print(f"recorded to {out}")


def _synthetic(args, out: Path) -> int:
    from ..games.api import GameError
    from ..table.recording import write_events
    from ..table.sessions import generate

    try:
        events = generate(args.synthetic, args.seed, args.players)
    except GameError as exc:
        raise CliError(str(exc)) from None
    write_events(out, events)
    print(f"wrote {len(events)} events of a {args.synthetic} game to {out / 'events.jsonl'}")
    return 0
