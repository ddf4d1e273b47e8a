import hashlib
import math

import cv2
import numpy as np
import pytest

from companion.vision.scene import (DIE_MM, STYLES, CameraModel, TruthReader, render_scene, rest_rotation,
                                    roll_sequence, top_value)

SMALL = CameraModel(240, 180)


def digest(image):
    return hashlib.sha1(image.tobytes()).hexdigest()


@pytest.mark.parametrize("value", range(1, 7))
def test_a_die_at_rest_shows_its_value_on_top_whatever_its_yaw(value):
    for yaw in (0.0, 0.7, 2.0, 4.5):
        assert top_value(rest_rotation(value, yaw)) == value


def test_opposite_faces_sum_to_seven():
    for value in range(1, 7):
        upside_down = np.diag([1.0, -1.0, -1.0]) @ rest_rotation(value, 0.3)
        assert top_value(upside_down) == 7 - value


def count_pips(image, truth_die, camera):
    side_px = DIE_MM * camera.focal / (camera.distance - DIE_MM)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    mask = np.zeros_like(grey)
    cx, cy = (int(round(c)) for c in truth_die.center)
    cv2.circle(mask, (cx, cy), int(side_px * 0.47), 255, -1)
    dark = ((grey < 110) & (mask > 0)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 3)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_rendered_pips_match_the_truth_seen_from_above(seed):
    camera = CameraModel(640, 480)
    image, truth = render_scene(seed, dice=4, camera=camera, style="white", noise=2)
    assert len(truth.dice) == 4
    for die in truth.dice:
        assert count_pips(image, die, camera) == die.value


def test_dice_lie_inside_the_tray_and_the_frame():
    for tilt in (0, 30, 50):
        image, truth = render_scene(7, dice=5, camera=CameraModel(320, 240, tilt_deg=tilt))
        x0, y0, x1, y1 = truth.tray
        assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 240
        for die in truth.dice:
            assert x0 <= die.center[0] <= x1 and y0 <= die.center[1] <= y1
            bx0, by0, bx1, by1 = die.box
            assert bx0 < die.center[0] < bx1 and by0 < die.center[1] < by1


def test_a_tilted_camera_shows_side_faces_so_boxes_grow_taller():
    _, flat = render_scene(4, dice=1, camera=CameraModel(320, 240, tilt_deg=0), values=[3])
    _, tilted = render_scene(4, dice=1, camera=CameraModel(320, 240, tilt_deg=50), values=[3])
    height = lambda d: d.box[3] - d.box[1]
    width = lambda d: d.box[2] - d.box[0]
    assert height(tilted.dice[0]) / width(tilted.dice[0]) > height(flat.dice[0]) / width(flat.dice[0])


def test_touching_dice_are_flush():
    _, truth = render_scene(9, dice=2, camera=CameraModel(320, 240), touching=True)
    a, b = truth.dice
    gap = b.box[0] - a.box[2]
    assert abs(gap) < 2


@pytest.mark.parametrize("style", sorted(STYLES))
def test_every_style_renders_something_different(style):
    image, _ = render_scene(5, dice=3, camera=SMALL, style=style)
    assert image.shape == (180, 240, 3) and image.dtype == np.uint8
    others = {s: digest(render_scene(5, dice=3, camera=SMALL, style=s)[0]) for s in STYLES if s != style}
    assert digest(image) not in others.values()


def test_unknown_style_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown dice style 'glitter'.*white"):
        render_scene(1, style="glitter")


def test_same_seed_same_sequence_other_seed_other_sequence():
    a = [digest(f.frame.image) for f in roll_sequence(11, rolls=1, camera=SMALL)]
    b = [digest(f.frame.image) for f in roll_sequence(11, rolls=1, camera=SMALL)]
    c = [digest(f.frame.image) for f in roll_sequence(12, rolls=1, camera=SMALL)]
    assert a == b
    assert a != c


def test_a_roll_sequence_plays_hand_throw_tumble_rest_with_truth():
    frames = list(roll_sequence(3, rolls=2, dice=3, fps=30, camera=SMALL))
    times = [f.frame.t for f in frames]
    assert all(round(b - a) == round(1e9 / 30) or abs((b - a) - 1e9 / 30) <= 1 for a, b in zip(times, times[1:]))
    phases = [f.truth.phase for f in frames]
    first_roll = [p for f, p in zip(frames, phases) if f.truth.roll == 0]
    second_roll = [p for f, p in zip(frames, phases) if f.truth.roll == 1]
    compress = lambda ps: [p for i, p in enumerate(ps) if i == 0 or ps[i - 1] != p]
    assert compress(first_roll) == ["empty", "rolling", "settled"]
    assert compress(second_roll) == ["hand", "empty", "rolling", "settled"]
    assert any(f.truth.hand_in_tray for f in frames if f.truth.phase == "hand")
    rolling = [f for f in frames if f.truth.phase == "rolling"]
    assert all(len(f.truth.dice) == 3 for f in rolling)
    assert any(d.moving for f in rolling for d in f.truth.dice)
    faces_seen = {i: {f.truth.dice[i].value for f in rolling if f.truth.roll == 0} for i in range(3)}
    assert any(len(v) > 1 for v in faces_seen.values()), "tumbling dice must change faces"
    settled = [f for f in frames if f.truth.phase == "settled" and f.truth.roll == 0]
    assert len({tuple(d.center for d in f.truth.dice) for f in settled}) == 1
    assert not any(d.moving for f in settled for d in f.truth.dice)


def test_moving_dice_are_blurred():
    camera = CameraModel(320, 240)
    frames = list(roll_sequence(8, rolls=1, dice=1, camera=camera, noise=0, flicker=0))
    fast = next(f for f in frames if f.truth.phase == "rolling" and f.frame.t > frames[0].frame.t + int(0.5e9))
    rest = frames[-1]
    def sharpness(f):
        x0, y0, x1, y1 = (int(v) for v in f.truth.dice[0].box)
        crop = cv2.cvtColor(f.frame.image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        return cv2.Laplacian(crop, cv2.CV_32F).var()
    blurred = [f for f in frames if f.truth.phase == "rolling"][2:8]
    assert min(sharpness(f) for f in blurred) < sharpness(rest)


def test_truth_reader_answers_only_for_frames_it_knows():
    frames = list(roll_sequence(2, rolls=1, dice=2, camera=SMALL))
    reader = TruthReader(frames)
    last = frames[-1]
    assert sorted(d.value for d in reader.read(last.frame.image)) == last.truth.values
    assert reader.read(np.zeros_like(last.frame.image)) == []


def test_a_see_through_die_shows_the_pips_of_its_lower_faces_and_keeps_its_own(monkeypatch):
    """Smoky and gem dice: a 1 on top, through whose body the 6 below shows (red pips on a dark body)."""
    camera = CameraModel(320, 240, hfov_deg=25)
    reds = {}
    for see_through in (0.0, 0.6):
        style = STYLES["black"].__class__("smoky", (60, 55, 70), (40, 40, 200), 0.9, None, see_through)
        monkeypatch.setitem(STYLES, "smoky", style)
        image, truth = render_scene(7, dice=1, style="smoky", camera=camera, values=[1], noise=0)
        x0, y0, x1, y1 = (int(round(c)) for c in truth.dice[0].box)
        cx, cy = truth.dice[0].center
        face = image[y0:y1, x0:x1].astype(int)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        off_centre = np.hypot(xx - cx, yy - cy) > 0.2 * (x1 - x0)
        redness = face[..., 2] - (face[..., 0] + face[..., 1]) / 2
        reds[see_through] = (int((redness[off_centre] > 25).sum()), int(redness[~off_centre].max()))
    assert reds[0.6][0] >= max(20, 5 * reds[0.0][0]), reds
    assert reds[0.6][1] >= reds[0.0][1] - 10, "the top face's own pip stays as red"
