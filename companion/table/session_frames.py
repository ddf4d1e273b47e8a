"""Camera frames for a synthetic session: every settled roll of the session drawn by the scene generator
(companion.vision.scene) with the roll's own values, as a handful of frames — the dice tumbling, then lying
still long enough for the settle logic to read them at exactly the roll's recorded time.

Frames come with their truth (the dice the renderer drew, where it drew them), so a session's
`DiceSettled` events can carry the boxes the page draws, and a recording can be re-read with the truth
instead of a reader (`companion replay DIR --frames --reader truth`, see companion.table.reread).
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Iterable, Iterator, Sequence

import numpy as np

from ..events import DiceSettled, DieReading, Event
from ..vision.sources import Frame

TRUTH_FILE = "truth.jsonl"
TUMBLE_STEP_NS = 120_000_000


@dataclasses.dataclass(frozen=True)
class TruthFrame:
    """A frame and the dice drawn on it (moving dice read as unsure, as the scene's TruthReader does)."""

    frame: Frame
    dice: tuple[DieReading, ...]
    moving: bool


class RollFilmer:
    """Draws rolls with given values on one table (background, tray, light fixed by the seed).

    A roll settled at `t` gives `tumbling` frames of dice in flight, `TUMBLE_STEP_NS` apart, then two
    frames of the dice at rest: one `still_ns` before `t` and one at `t`, so a settle detector with
    `settle_ms` up to `still_ns / 1e6` reads the roll at `t`.
    """

    def __init__(self, seed: int, *, width: int = 640, height: int = 360, style: str = "white",
                 noise: float = 0.0, tumbling: int = 2, still_ns: int = 400_000_000):
        from ..vision import scene

        self._scene = scene
        self.rng = np.random.default_rng(seed)
        self.camera = scene.CameraModel(width=width, height=height)
        self.renderer = scene.SceneRenderer(self.camera, scene.STYLES[style], self.rng, noise=noise)
        self.tumbling = tumbling
        self.still_ns = still_ns

    @property
    def tray(self) -> tuple[int, int, int, int]:
        return self.renderer.tray

    def roll(self, values: Sequence[int], t: int) -> list["Shot"]:
        """The roll's frames, planned but not drawn yet (drawing is the slow part)."""
        scene = self._scene
        plan = scene.plan_roll(self.rng, len(values), False, values=values)
        duration = max(plan.stop_after)
        shots = []
        times = self.shot_times(t)
        previous_px = None
        for i in range(self.tumbling):
            elapsed = duration * (i + 1) / (self.tumbling + 1)
            poses = [scene.tumble_pose(plan, d, elapsed) for d in range(len(values))]
            centres = self.camera.project(np.array([p.position for p in poses]))
            if previous_px is not None:
                for pose, now, before in zip(poses, centres, previous_px):
                    pose.velocity_px = tuple((now - before) * 0.3)
            previous_px = centres
            shots.append(Shot(self, times[i], poses))
        rest = [scene.tumble_pose(plan, d, duration + 1) for d in range(len(values))]
        shots.append(Shot(self, times[-2], rest))
        shots.append(Shot(self, times[-1], rest))
        return shots

    def shot_times(self, t: int) -> list[int]:
        start = t - self.still_ns - self.tumbling * TUMBLE_STEP_NS
        return [start + i * TUMBLE_STEP_NS for i in range(self.tumbling)] + [t - self.still_ns, t]


@dataclasses.dataclass
class Shot:
    filmer: RollFilmer
    t: int
    poses: list

    def dice(self) -> tuple[DieReading, ...]:
        out = []
        for pose in self.poses:
            truth = self.filmer.renderer.die_truth(pose)
            out.append(DieReading(truth.value, truth.center, truth.box, 0.5 if truth.moving else 1.0,
                                  unsure=truth.moving))
        return tuple(out)

    @property
    def moving(self) -> bool:
        return any(p.moving for p in self.poses)

    def render(self) -> np.ndarray:
        return self.filmer.renderer.render(self.poses)


def plan_session(events: Sequence[Event], seed: int, **options) -> tuple[list[Event], list[list[Shot]]]:
    """The session's events with every `DiceSettled` placed where its dice are drawn, and the shots of
    every roll, in time order (cheap: nothing is drawn yet). Values, their order and every timestamp stay
    as they were. The same events and seed give the same plan."""
    filmer = RollFilmer(seed, **options)
    placed: list[Event] = []
    rolls: list[list[Shot]] = []
    for event in events:
        if isinstance(event, DiceSettled) and event.dice:
            roll = filmer.roll([d.value for d in event.dice], event.t)
            rolls.append(roll)
            placed.append(DiceSettled(t=event.t, dice=tuple(
                dataclasses.replace(drawn, confidence=recorded.confidence, unsure=recorded.unsure)
                for drawn, recorded in zip(roll[-1].dice(), event.dice))))
        else:
            placed.append(event)
    return placed, rolls


def draw(shots: Iterable[Shot]) -> Iterator[TruthFrame]:
    """Draw shots in order; a shot of the same poses as the one before reuses its picture."""
    previous: tuple[Shot, np.ndarray] | None = None
    for shot in shots:
        if previous is not None and previous[0].poses is shot.poses:
            image = previous[1]
        else:
            image = shot.render()
        previous = (shot, image)
        yield TruthFrame(Frame(shot.t, image), shot.dice(), shot.moving)


def film_session(events: Sequence[Event], seed: int, **options) -> tuple[list[Event], Iterator[TruthFrame]]:
    """`plan_session`, with the frames drawn one by one as the iterator is read."""
    placed, rolls = plan_session(events, seed, **options)
    return placed, draw(shot for roll in rolls for shot in roll)


def record_frames(directory: str | Path, frames: Iterable[TruthFrame], *, fmt: str = "auto") -> int:
    """Write frames as a recording (companion.vision.recording layout) with truth.jsonl beside them: one
    line per frame, in frame order, {"index": 0, "dice": [...]}. Returns the number of frames."""
    from ..vision.recording import FrameRecorder

    count = 0
    with FrameRecorder(directory, fmt=fmt) as recorder, \
            open(Path(directory) / TRUTH_FILE, "w", encoding="utf-8") as truth:
        for frame in frames:
            recorder.write(frame.frame)
            truth.write(json.dumps({"index": count, "dice": [d.to_json() for d in frame.dice]}) + "\n")
            count += 1
    return count
