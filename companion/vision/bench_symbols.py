"""`companion bench symbols`: reading both Banana Matcho zones (six fruit dice, three Matcho dice).

The dice are taught from synthetic photos (three per face), then a set of synthetic 1280×720 tables is
read zone by zone, on one OpenCV thread, as companion.vision.zones does every frame.
"""
from __future__ import annotations

import os
import time

from ..bench import Benchmark, Result, summarise, time_calls

TARGET_MS = 25.0
FRAMES = 12


def _readers_and_frames(blur: bool):
    from .symbols import SymbolReader
    from .symbols.evaluate import teach_examples
    from .symbols.icons import DEV_STYLES
    from .symbols.render import ZONES, SceneOptions, render_table

    style = DEV_STYLES[0]
    options = SceneOptions(die_px=(66, 70), motion_blur=(6, 14) if blur else None)
    teach_options = SceneOptions(die_px=(66, 70))
    readers = {kind: SymbolReader(kind, teach_examples(style, kind, "ivory", 3, 0, options=teach_options))
               for kind in ZONES}
    frames = [render_table(1000 + n, style, "ivory", "ivory", options=options).image for n in range(FRAMES)]
    return readers, frames, ZONES


def _bench(name: str, blur: bool) -> Result:
    import cv2

    previous = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        readers, frames, zones = _readers_and_frames(blur)
        position = iter(range(10**9))
        for frame in frames:  # warm up
            [readers[kind].read(frame, zones[kind]) for kind in readers]

        def read_both():
            frame = frames[next(position) % len(frames)]
            return [readers[kind].read(frame, zones[kind]) for kind in readers]

        cpu_before = time.process_time()
        samples = time_calls(read_both, repeat=5 * FRAMES, warmup=0)
        cpu_ms = (time.process_time() - cpu_before) * 1000 / len(samples)
    finally:
        cv2.setNumThreads(previous)
    # On a shared machine wall time includes waiting for a core; the CPU time per frame says what one
    # free core would take.
    return summarise(name, samples, TARGET_MS,
                     f"both zones, 9 dice, 1280x720, 1 OpenCV thread; CPU {cpu_ms:.1f} ms/frame, "
                     f"load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def benchmarks() -> list[Benchmark]:
    return [
        Benchmark("read-both-zones", lambda: _bench("read-both-zones", blur=False)),
        Benchmark("read-both-zones-motion-blur", lambda: _bench("read-both-zones-motion-blur", blur=True)),
    ]
