"""The traced renderer draws what its truth says: each die's top face where the truth puts it, with as
many pips as its value, the same frame for the same seed."""
import cv2
import numpy as np
import pytest

from companion.vision.scene import CameraModel
from companion.vision.scene_traced import STYLES, TABLES, render_traced, resting_dice

STRAIGHT_DOWN = CameraModel(1280, 720, tilt_deg=0.0, hfov_deg=50.0)


def _pips_on_top_face(frame: np.ndarray, quad: np.ndarray) -> int:
    """Dark blobs the size of a pip inside a top face's projected corners (ivory dice, black pips)."""
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    dark = (cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY) < 90).astype(np.uint8)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(dark)
    face = (quad - (x0, y0)).astype(np.float32)
    side = float(np.linalg.norm(quad[1] - quad[0]))
    return sum(1 for (cx, cy), area in zip(centroids[1:], stats[1:, cv2.CC_STAT_AREA])
               if cv2.pointPolygonTest(face, (float(cx), float(cy)), True) > 0.05 * side and 6 <= area <= 0.1 * side * side)


def test_every_die_shows_as_many_pips_as_its_value():
    seen = set()
    for seed in range(3):
        values = [1, 2, 3, 4, 5, 6][seed::3] + [(seed * 5) % 6 + 1]
        frame, dice = render_traced(seed, camera=STRAIGHT_DOWN, style="ivory", table="felt", values=values)
        assert [d.value for d in dice] == values
        # the same dice again, from the same draws, for their top faces' corners
        for die, truth in zip(resting_dice(np.random.default_rng(seed), values), dice):
            quad = STRAIGHT_DOWN.project(die.face_points(die.top_value())[1:])
            assert _pips_on_top_face(frame, quad) == truth.value, f"seed {seed}: a {truth.value} at {truth.center}"
            seen.add(truth.value)
    assert seen == {1, 2, 3, 4, 5, 6}


def test_the_truth_centres_lie_on_the_dice_and_inside_their_boxes():
    frame, dice = render_traced(4, dice=5, camera=CameraModel(640, 480, tilt_deg=30.0), style="red", table="paper")
    table = np.median(frame.reshape(-1, 3), axis=0)
    for die in dice:
        x0, y0, x1, y1 = die.box
        assert x0 < die.center[0] < x1 and y0 < die.center[1] < y1
        around = frame[int(die.center[1]) - 2:int(die.center[1]) + 3, int(die.center[0]) - 2:int(die.center[0]) + 3]
        assert np.abs(around.reshape(-1, 3).mean(axis=0) - table).sum() > 60  # a red die, not white paper


def test_the_same_seed_draws_the_same_frame():
    first, truth = render_traced(7, dice=3, camera=CameraModel(320, 240), style="smoky", table="wood", flush=True)
    again, truth_again = render_traced(7, dice=3, camera=CameraModel(320, 240), style="smoky", table="wood", flush=True)
    other, _ = render_traced(8, dice=3, camera=CameraModel(320, 240), style="smoky", table="wood", flush=True)
    assert np.array_equal(first, again) and truth == truth_again
    assert not np.array_equal(first, other)
    assert first.shape == (240, 320, 3) and first.dtype == np.uint8


def test_two_dice_lying_flush_touch():
    _, dice = render_traced(2, dice=2, camera=STRAIGHT_DOWN, style="black", table="felt", flush=True)
    a, b = dice
    apart = np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1])
    face = min(a.box[2] - a.box[0], a.box[3] - a.box[1])
    assert apart < 1.45 * face  # side by side, square: about one face apart (1.41 if corner to corner)


def test_every_style_and_table_renders():
    for i, style in enumerate(STYLES):
        frame, dice = render_traced(i, dice=2, camera=CameraModel(160, 120), style=style, table=TABLES[i % len(TABLES)])
        assert frame.shape == (120, 160, 3) and len(dice) == 2


def test_unknown_style_or_table_is_named():
    with pytest.raises(ValueError, match="unknown traced dice style 'plaid'.*ivory"):
        render_traced(0, style="plaid")
    with pytest.raises(ValueError, match="unknown table 'glass'.*felt, wood, paper"):
        render_traced(0, table="glass")
