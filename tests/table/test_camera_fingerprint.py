"""The frozen-frame fingerprint runs on every live frame (30 a second on a Pi): it must cost a small part of
a frame's time (`./dev bench pips`), yet still change with a real camera's sensor noise from one frame to the next."""
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


def test_a_frame_given_as_a_view_has_the_fingerprint_of_its_copy():
    """A source may hand over a channel view (not contiguous): the same picture, the same fingerprint. What it
    costs is measured by `./dev bench pips` (frozen_check_1280x720), not here."""
    view = np.dstack([_frame(0), _frame(1)[:, :, :1]])[:, :, :3]
    assert _fingerprint(view) == _fingerprint(np.ascontiguousarray(view))
