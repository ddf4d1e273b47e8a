"""Re-reading a recording's camera frames: `companion replay DIR --frames`.

The recorded frames go through the vision pipeline (DicePipeline, with the frames' recorded timestamps)
and the `DiceSettled` / `ZoneState` events it produces take the place of the recorded ones; every other
recorded event (sensors, the page) stays, merged in timestamp order. The re-read camera events are
compared with the recorded ones, so a contributor can check a new reader against recorded sessions.

How the camera was set up (tray, zones, settle time) is read from the recording's camera.json when it
has one (written by `companion record`), else from the defaults; the command line overrides either. A
recording without a camera.json saying `follows_game` was made before the camera followed the game: its camera
read pip dice and the zones in every frame, whatever the game, and its frames are re-read so.
"""
from __future__ import annotations

import dataclasses
import hashlib
import heapq
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

from ..durable import write_bytes
from ..events import DiceSettled, DieReading, Event, ZoneState
from .session_frames import TRUTH_FILE

CAMERA_FILE = "camera.json"
CAMERA_EVENTS = (DiceSettled, ZoneState)
SAME_ROLL_NS = 1_000_000_000


class RereadError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class CameraSetup:
    """What the live pipeline was given: the reader kind, the tray, the zones, the settle time; and whether it
    read what the game on the table takes (`follows_game`, companion.table.camera_game), or, as the camera
    did before, pip dice and the zones in every frame."""

    reader: str = "pips"
    tray: str = "auto"
    zones: str = ""
    settle_ms: int = 300
    follows_game: bool = True

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def write_camera_setup(directory: str | Path, setup: CameraSetup) -> None:
    """Written whole or not at all (companion.durable): a full card or a power cut while the tray set on the page is
    noted keeps the setup noted before. Raises OSError."""
    write_bytes(Path(directory) / CAMERA_FILE, (json.dumps(setup.to_json()) + "\n").encode("utf-8"))


def read_camera_setup(directory: str | Path) -> CameraSetup:
    path = Path(directory) / CAMERA_FILE
    if not path.exists():
        return CameraSetup(follows_game=False)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        values = {f.name: data[f.name] for f in dataclasses.fields(CameraSetup) if f.name in data}
        values.setdefault("follows_game", False)  # written before the camera followed the game
    except (json.JSONDecodeError, TypeError, UnicodeDecodeError) as exc:
        raise RereadError(f"{path} is not a camera setup: {exc}") from None
    except OSError as exc:
        raise RereadError(f"cannot read {path}: {exc.strerror}") from None
    for field in dataclasses.fields(CameraSetup):
        kind = type(field.default)
        if field.name in values and (not isinstance(values[field.name], kind)
                                     or isinstance(values[field.name], bool) is not (kind is bool)):
            what = {int: "a whole number", bool: "true or false"}.get(kind, "text")
            raise RereadError(f"{path}: {field.name} must be {what}, got {values[field.name]!r}")
    return CameraSetup(**values)


def _image_key(image: np.ndarray) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(image).tobytes(), digest_size=16).digest()


class RecordedTruthReader:
    """Answers with the dice a synthetic recording's truth.jsonl says each frame shows (frames are
    recognised by their pixels, which the lossless recording keeps), so the replay plumbing can be checked
    apart from reading errors. Only dice inside the tray are returned, as a reader would."""

    def __init__(self, directory: str | Path):
        from ..vision.recording import RecordingSource

        path = Path(directory) / TRUTH_FILE
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            raise RereadError(f"--reader truth needs {path}, which only synthetic recordings have") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RereadError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
        truth: dict[int, tuple[DieReading, ...]] = {}
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                truth[int(entry["index"])] = tuple(DieReading.from_json(d) for d in entry["dice"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise RereadError(f"{path} line {number} is not a frame's truth like {{\"index\": 0, \"dice\": "
                                  f"[...]}}: {type(exc).__name__}: {exc}") from None
        self._dice: dict[bytes, tuple[DieReading, ...]] = {}
        for index, frame in RecordingSource(directory).indexed():
            self._dice[_image_key(frame.image)] = truth.get(index, ())

    def read(self, frame_bgr: np.ndarray, tray=None) -> list[DieReading]:
        dice = self._dice.get(_image_key(frame_bgr), ())
        return [d for d in dice if tray is None or (tray[0] <= d.center[0] < tray[2] and tray[1] <= d.center[1] < tray[3])]


def make_reader(kind: str, directory: str | Path):
    if kind == "truth":
        return RecordedTruthReader(directory)
    from ..vision.readers import KINDS, UnknownReader, reader_with_taught_dice

    if kind not in KINDS:
        raise RereadError(f"unknown dice reader {kind!r}; choose from: {', '.join(KINDS + ('truth',))}")
    try:
        return reader_with_taught_dice(kind)
    except UnknownReader as exc:
        raise RereadError(str(exc)) from None


def reread_frames(directory: str | Path, setup: CameraSetup, reader=None,
                  on_damage: Callable[[str], None] | None = None,
                  games: Sequence[tuple[int, str | None]] = ()) -> tuple[list[Event], int]:
    """The camera events the recording's frames give through the vision pipeline, and the frame count.
    Frames the index lists but the recording cannot give (a video cut short, a frame file damaged or missing)
    are told to `on_damage`; none at all is a RereadError.
    `games` (`camera_game.games_on_the_table`): the pipeline reads what the live camera read for the game on
    the table at each frame (no pip dice in Banana Matcho, the zones only there)."""
    from ..vision.live import DicePipeline
    from ..vision.recording import FRAMES_FOLDER, FRAMES_INDEX, FRAMES_VIDEO, RecordingSource
    from ..vision.sources import SourceError
    from ..vision.tray import is_auto, parse_tray

    try:
        source = RecordingSource(directory)
    except SourceError as exc:
        raise RereadError(f"{directory} has no frames to re-read: {exc}") from None
    try:
        tray = parse_tray(setup.tray)
        zones = _zones(setup.zones)
    except ValueError as exc:
        raise RereadError(str(exc)) from None
    events: list[Event] = []
    try:
        pipeline = DicePipeline(None, reader if reader is not None else make_reader(setup.reader, directory),
                                settle_ms=setup.settle_ms, tray=tray, zones=zones, auto_tray=is_auto(setup.tray))
        pipeline.source = _following_the_game(source, pipeline, games) if games else source
        pipeline.on_event = events.append
        frames = pipeline.run()
    except SourceError as exc:
        raise RereadError(str(exc)) from None
    if frames < len(source):
        where = source.directory / (FRAMES_VIDEO if source.fmt == "ffv1" else FRAMES_FOLDER)
        damage = f"{where} holds {frames} of the {len(source)} frames {FRAMES_INDEX} lists"
        if frames == 0:
            raise RereadError(f"{damage}: it is damaged or empty")
        for why in _not_read(source, frames) if on_damage is not None else ():
            on_damage(f"{damage}{why}")
    return [e for e in events if isinstance(e, CAMERA_EVENTS)], frames


def _not_read(source, frames: int) -> list[str]:
    """What a re-read of `frames` frames of the recording `source` left out: frame files damaged or missing
    mid-way (the frames after them are re-read), and its end when the recording was cut short."""
    cut = len(source)
    for path in reversed(source.unreadable):
        if int(path.stem) != cut - 1:
            break
        cut -= 1
    within = [path for path in source.unreadable if int(path.stem) < cut]
    said = []
    if within:
        one = len(within) == 1
        more = f" and {len(within) - 3} more" if len(within) > 3 else ""
        names = ", ".join(path.name for path in within[:3]) + more
        said.append(f": {names} could not be read (damaged or missing) and {'is' if one else 'are'} left out; the "
                    f"frames after {'it' if one else 'them'} are re-read")
    if frames + len(within) < len(source):
        said.append(f" (cut short or damaged): the rolls after frame {frames + len(within)} are not re-read")
    return said


def _following_the_game(frames: Iterable, pipeline, games: Sequence[tuple[int, str | None]]) -> Iterator:
    """The frames, the pipeline told before each what the live camera read then (as the service tells it)."""
    from .camera_game import CameraGame

    changes, camera_game = list(games), CameraGame()
    pipeline.read_zones(False)  # no game yet, as a service starts
    for frame in frames:
        while changes and changes[0][0] <= frame.t:
            reads = camera_game.follow(changes.pop(0)[1])
            pipeline.read_pip_dice(reads.pip_dice)
            pipeline.read_zones(reads.zones)
        yield frame


def _zones(text: str):
    if not text.strip():
        return ()
    from ..vision.readers import get_zone_reader, taught_dice_folder
    from ..vision.zones import ZoneTracker, parse_zone

    zones = [parse_zone(part.strip()) for part in text.split(";") if part.strip()]
    return ZoneTracker(zones, make_reader=lambda kind: get_zone_reader(kind, taught_dice_folder()))


def with_reread_camera(recorded: list[Event], reread: list[Event]) -> list[Event]:
    """The recorded events with the camera's replaced by the re-read ones, in timestamp order; at equal
    times the recorded event goes first (it was there already)."""
    others = [e for e in recorded if not isinstance(e, CAMERA_EVENTS)]
    return list(heapq.merge(others, reread, key=lambda e: e.t))


def _values(dice) -> str:
    return " ".join(f"{d.value}{'?' if d.unsure else ''}" for d in dice) or "no dice"


def _same(a, b) -> bool:
    return sorted(map(str, (d.value for d in a))) == sorted(map(str, (d.value for d in b))) \
        and sum(d.unsure for d in a) == sum(d.unsure for d in b)


def roll_differences(recorded: list[Event], reread: list[Event]) -> list[str]:
    """Lines like "roll 3 at t=12.345s: recorded 4 4 2, re-read 4 4 1". Rolls are paired in time order
    when they settled within a second of each other; a roll only one side has is named as such."""
    was = [e for e in recorded if isinstance(e, DiceSettled)]
    now = [e for e in reread if isinstance(e, DiceSettled)]
    out = []
    i = j = 0
    while i < len(was) or j < len(now):
        a = was[i] if i < len(was) else None
        b = now[j] if j < len(now) else None
        if a is not None and b is not None and abs(a.t - b.t) <= SAME_ROLL_NS:
            if not _same(a.dice, b.dice):
                out.append(f"roll {i + 1} at t={a.t / 1e9:.3f}s: recorded {_values(a.dice)}, re-read {_values(b.dice)}")
            elif a.t != b.t:
                out.append(f"roll {i + 1}: recorded at t={a.t / 1e9:.3f}s, re-read at t={b.t / 1e9:.3f}s "
                           f"(same dice {_values(a.dice)})")
            i, j = i + 1, j + 1
        elif b is None or (a is not None and a.t < b.t):
            out.append(f"roll {i + 1} at t={a.t / 1e9:.3f}s: recorded {_values(a.dice)}, not re-read")
            i += 1
        else:
            out.append(f"re-read a roll at t={b.t / 1e9:.3f}s that was not recorded: {_values(b.dice)}")
            j += 1
    return out


def zone_differences(recorded: list[Event], reread: list[Event]) -> list[str]:
    """Zone by zone, the stretches of time where the recorded and re-read faces differ, one line each. Only the
    frames whose zones the live camera read are compared: it reads them only while Banana Matcho is played (a
    recording made before it followed the game has them in every frame)."""
    def by_time(events):
        table: dict[str, dict[int, tuple]] = {}
        for e in events:
            if isinstance(e, ZoneState):
                table.setdefault(e.zone, {})[e.t] = e.dice
        return table

    was, now = by_time(recorded), by_time(reread)
    read_live = {t for states in was.values() for t in states}
    out = []
    for zone in sorted(set(was) | set(now)):
        times = sorted(read_live & (set(was.get(zone, {})) | set(now.get(zone, {}))))
        run: list = []
        for t in times + [None]:
            a = was.get(zone, {}).get(t) if t is not None else None
            b = now.get(zone, {}).get(t) if t is not None else None
            differs = t is not None and (a is None or b is None or not _same(a, b))
            key = (None if a is None else _values(a), None if b is None else _values(b))
            if run and (not differs or key != run[0]):
                first, last, (text_a, text_b) = run[1], run[2], run[0]
                span = f"t={first / 1e9:.3f}s" + (f" to {last / 1e9:.3f}s" if last != first else "")
                out.append(f"zone {zone} at {span}: recorded {text_a or 'nothing'}, re-read {text_b or 'nothing'}")
                run = []
            if differs:
                run = [key, run[1] if run else t, t]
    return out
