"""`companion record --out DIR`: run the companion as `companion serve` does, and record the session:
the camera frames (the vision FrameRecorder) and events.jsonl with every event and its timestamp.

`--synthetic GAME` writes a session made by the repo's own generators instead (a seeded playout turned
into the events the camera and the sensors would report), with no hardware at all; `--frames` also draws
the camera's frames of every roll, with their truth, to re-read with `companion replay DIR --frames`.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..cli import CliError, port_number, require_hardware_free


def add_arguments(parser) -> None:
    parser.add_argument("--out", required=True, help="the session directory to write (must be empty or new)")
    parser.add_argument("--synthetic", metavar="GAME", help="generate a whole game's session instead of recording")
    parser.add_argument("--seed", type=int, default=1, help="seed of --synthetic (default 1)")
    parser.add_argument("--players", type=int, default=2, help="players of --synthetic (default 2)")
    parser.add_argument("--frames", action="store_true",
                        help="with --synthetic: also draw the camera's frames of every roll, with the truth of "
                             "each (for `companion replay DIR --frames`; Matterhorn and Mountain Goats)")
    parser.add_argument("--settings", help="the settings file (TOML)")
    parser.add_argument("--host", help="address of the page (default: service.host)")
    parser.add_argument("--port", type=port_number, help="port of the page (default: service.port)")
    parser.add_argument("--state-dir", help="where games are kept (default: service.state_dir)")


def run(args) -> int:
    """Everything that can be refused is refused before the session directory is made, and a recording that
    fails to start leaves nothing behind: a corrected retry into the same --out is not refused."""
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CliError(_taken(out, live=not args.synthetic))
    if args.synthetic:
        return _synthetic(args, out)
    if args.frames:
        raise CliError("--frames goes with --synthetic: a live recording keeps the camera's own frames")
    from ..table.recording import EventRecorder
    from ..web import cli_serve

    settings = cli_serve.load(args)
    require_hardware_free("the camera and the sensors", settings.state_dir)
    made = _make(out)
    try:
        recorder = EventRecorder(out)
    except OSError as exc:
        _unmake(out, made)
        raise CliError(f"cannot record into {out}: {exc.strerror or exc}") from None
    args.demo, args.demo_speed = False, 1.0
    try:
        code = cli_serve.run(args, tap=recorder, record_dir=out)
    except CliError:  # refused before anything was served: nothing was recorded
        recorder.close()
        _unmake(out, made)
        raise
    except BaseException:
        _finish(recorder)
        raise
    _finish(recorder)
    print(f"recorded to {out}")
    return code


def _taken(out: Path, live: bool) -> str:
    """Why `out` is refused, and what to do. One holding a recording is most often, when recording live, the one a
    power cut (or a crash) ended: it is never written over, and the evening goes on in a new folder."""
    from .recording import EVENTS_FILE

    try:
        from ..vision.recording import FRAMES_INDEX
    except ModuleNotFoundError:  # a build without the camera pipeline
        FRAMES_INDEX = None
    counts = [(_lines(out / name), what) for name, what in ((EVENTS_FILE, "events"), (FRAMES_INDEX, "camera frames"))
              if name and (out / name).is_file()]
    if not out.is_dir() or not counts:
        return f"{out} is not an empty directory; choose a new one"
    held = ", ".join(f"{count} {what}" for count, what in counts)
    after = next(new for new in (out.with_name(f"{out.name}-{n}") for n in range(2, 10_000)) if not new.exists())
    said = (f"{out} holds a recording already ({held}), which is kept as it is: to record, give a new folder "
            f"(e.g. --out {after})")
    if live:
        said += (". After a power cut or a crash, the game goes on from the journal, and each recording replays on "
                 "its own (`companion replay DIR`)")
    return said


def _lines(path: Path) -> int:
    try:
        with open(path, "rb") as f:
            return sum(1 for _ in f)
    except OSError:
        return 0


def _finish(recorder) -> None:
    """The events closed, and everything recorded written to the card before the recording is said to be done: a
    Pi is switched off at the wall, and its events, frames and their index were written without a sync each (that
    would stall the camera), which the system may keep for half a minute."""
    recorder.close()
    os.sync()


def _make(out: Path) -> Path | None:
    """Make `out` (which is new or empty) and check it can be written in; the topmost directory made (None when
    `out` was there), for _unmake."""
    made = next((p for p in reversed([out, *out.parents]) if not p.exists()), None)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".companion-probe"
        probe.touch()
        probe.unlink()
    except OSError as exc:
        _unmake(out, made)
        raise CliError(f"cannot record into {out}: {exc.strerror or exc}") from None
    return made


def _unmake(out: Path, made: Path | None) -> None:
    """Undo _make and what was written since: remove the directories it made, else empty `out` again."""
    if made is not None:
        shutil.rmtree(made, ignore_errors=True)
        return
    for child in out.iterdir() if out.is_dir() else ():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def _synthetic(args, out: Path) -> int:
    from ..games.api import GameError
    from ..games.registry import get_game
    from ..table.recording import write_events
    from ..table.sessions import generate

    if args.seed < 0:
        raise CliError(f"--seed is a whole number 0 or more, got {args.seed}")
    try:
        game = get_game(args.synthetic)
        if not game.min_players <= args.players <= game.max_players:
            raise CliError(f"--players: {game.title} takes {game.min_players}–{game.max_players} players, "
                           f"got {args.players}")
        events = generate(args.synthetic, args.seed, args.players)
    except GameError as exc:
        raise CliError(str(exc)) from None
    if args.frames:
        from ..events import DiceSettled

        if not any(isinstance(e, DiceSettled) and e.dice for e in events):
            raise CliError(f"--frames draws rolls of pip dice, which {args.synthetic} has none of: use matterhorn "
                           "or mountain-goats")
    made = _make(out)
    try:
        if not args.frames:
            write_events(out, events)
            print(f"wrote {len(events)} events of a {args.synthetic} game to {out / 'events.jsonl'}")
            return 0
        from .session_frames import film_session, record_frames

        placed, frames = film_session(events, seed=args.seed)
        write_events(out, placed)
        count = record_frames(out, frames)
    except OSError as exc:
        _unmake(out, made)
        raise CliError(f"cannot record into {out}: {exc.strerror or exc}") from None
    except BaseException:
        _unmake(out, made)
        raise
    print(f"wrote {len(placed)} events of a {args.synthetic} game and {count} camera frames to {out}")
    return 0
