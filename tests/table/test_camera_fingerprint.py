"""The frozen-frame fingerprint runs on every live frame (30 a second on a Pi): it must cost a small part of
a frame's time, yet still change with a real camera's sensor noise from one frame to the next."""
import timeit
import zlib

import numpy as np

from companion.table.camera import _fingerprint


def _frame(seed: int) -> np.ndarray:
    """A 1280x720 picture of a still tray with a camera's sensor noise (sigma 2)."""
    rng = np.random.default_rng(seed)
    tray = np.full((720, 1280, 3), 90.0)
    return np.clip(tray + rng.normal(0, 2, tray.shape), 0, 255).astype(np.uint8)


def test_a_still_tray_under_sensor_noise_gives_a_new_fingerprint_each_frame_and_a_repeat_the_same():
    frames = [_frame(seed) for seed in range(5)]
    prints = [_fingerprint(f) for f in frames]
    assert len(set(prints)) == len(frames)
    assert _fingerprint(frames[0].copy()) == prints[0]


def test_the_fingerprint_costs_far_less_than_a_checksum_of_the_whole_frame():
    """It was zlib.crc32 of the whole frame (0.7 ms a frame here, some 3 ms on a Pi), after copying a
    frame that was not contiguous (a channel view: ten times that)."""
    frame = np.ascontiguousarray(np.dstack([_frame(0), _frame(1)[:, :, :1]])[:, :, :3])
    view = np.dstack([_frame(0), _frame(1)[:, :, :1]])[:, :, :3]
    whole = min(timeit.repeat(lambda: zlib.crc32(frame.data), number=20, repeat=5))
    ours = min(timeit.repeat(lambda: _fingerprint(view), number=20, repeat=5))
    assert ours < whole / 3, f"fingerprint {ours / 20 * 1e3:.2f} ms against {whole / 20 * 1e3:.2f} ms for the whole frame"
