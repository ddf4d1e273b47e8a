"""`companion bench pips`: reading a 1280×720 frame on one core, and the motion checks every frame pays.

The frames are real photos from shared/data/dice-real placed on a 1280×720 canvas of their own
background colour (several photos side by side, so a frame holds many dice); without the shared data
the benchmark says so instead of measuring something else.
"""
from __future__ import annotations

import functools
from pathlib import Path

from ..bench import Benchmark, summarise, time_calls

TARGET_MS = 15.0
FRAME_SIZE = (720, 1280)
SETS = ("nell-byler-d6", "matteop65-d6")


def data_root() -> Path:
    return Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real"


def build_frames(count: int = 8):
    """1280×720 frames, each holding two real photos side by side on their median colour."""
    import numpy as np

    from .image_files import load_image

    photos = []
    for name in SETS:
        folder = data_root() / name / "images"
        photos += sorted(folder.glob("*.jpg"))[::7]
    frames = []
    for i in range(count):
        canvas = None
        x = 0
        for path in photos[2 * i % len(photos):][:2]:
            image = load_image(path)[: FRAME_SIZE[0], : FRAME_SIZE[1] // 2]
            if canvas is None:
                canvas = np.empty((*FRAME_SIZE, 3), np.uint8)
                canvas[:] = np.median(image.reshape(-1, 3), axis=0).astype(np.uint8)
            canvas[: image.shape[0], x: x + image.shape[1]] = image
            x += FRAME_SIZE[1] // 2
        frames.append(canvas)
    return frames


def _timed(name: str, make_call, target_ms: float | None = TARGET_MS):
    """Median time of `make_call()(frame)` over the benchmark frames, one core."""
    import cv2

    if not data_root().is_dir():
        from ..bench import Result

        return Result(name, "ms", float("nan"), target_ms, note=f"not measured: no photos at {data_root()}")
    cv2.setNumThreads(1)
    frames = build_frames()
    call = make_call()
    index = [0]

    def one():
        call(frames[index[0] % len(frames)])
        index[0] += 1

    samples = time_calls(one, repeat=240, warmup=len(frames))
    return summarise(name, samples, target_ms,
                     note="one core (OpenCV and ONNX Runtime on one thread); a Pi 4 core is 3-4x slower")


def _read_frame(name: str = "read_1280x720", **options):
    """The pip reader as `get_reader("pips", **options)` makes it: by default with the close look, as it
    reads each settled roll; `close_look=False` is the reader for reading every frame."""
    from .readers import get_reader

    return _timed(name, lambda: get_reader("pips", **options).read)


def _detect_frame():
    from .pips.detector import PipDetector

    return _timed("detect_1280x720", lambda: PipDetector().find)


def _settle_frame():
    """The settle detector's look at every frame for motion; the benchmark's frames all differ, so it never
    reads: this is what each frame costs while dice roll."""
    from .settle import SettleDetector
    from .sources import Frame

    def watch():
        detector = SettleDetector(reader=None, tray=None)  # type: ignore[arg-type]
        return lambda image: detector.feed(Frame(0, image))

    return _timed("settle_watch_1280x720", watch, target_ms=None)


def _zone_motion_frame():
    """A zone over the whole frame marking which of six dice moved (`die_motion`), on top of its reading."""
    from ..events import DieReading
    from .die_motion import DieMotion

    dice = [DieReading(1, (100.0 + 200 * i, 300.0), (70.0 + 200 * i, 270.0, 130.0 + 200 * i, 330.0), 0.99)
            for i in range(6)]

    def mark():
        motion = DieMotion((0, 0, FRAME_SIZE[1], FRAME_SIZE[0]))
        return lambda image: motion.mark(image, dice)

    return _timed("zone_motion_1280x720", mark, target_ms=None)


def _frozen_check_frame():
    """The camera feed's frozen-frame fingerprint, taken of every live frame on the camera's thread."""
    from ..table.camera import _fingerprint

    return _timed("frozen_check_1280x720", lambda: _fingerprint, target_ms=None)


def benchmarks() -> list[Benchmark]:
    quick = functools.partial(_read_frame, "read_1280x720_quick", close_look=False)
    return [Benchmark("read_1280x720", _read_frame), Benchmark("read_1280x720_quick", quick),
            Benchmark("detect_1280x720", _detect_frame), Benchmark("settle_watch_1280x720", _settle_frame),
            Benchmark("zone_motion_1280x720", _zone_motion_frame),
            Benchmark("frozen_check_1280x720", _frozen_check_frame)]
