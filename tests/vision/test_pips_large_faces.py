"""Dice near or beyond the largest the detector knows are found in the frame shrunk twice as far, and such a
large face stands for the groups of its pips that were read as dice of their own."""
import json
import math
from pathlib import Path

import pytest

import cv2

from companion.vision.evaluate import LabelledDie, match  # noqa: E402
from companion.vision.pips.detector import LARGE_FROM, Candidate, PipDetector, shrink_for  # noqa: E402
from companion.vision.pips.learned import LearnedPipReader, _large_faces_for_their_parts  # noqa: E402

MATTEOP65 = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real" / "matteop65-d6"


def test_a_sure_large_face_stands_for_the_smaller_dice_read_inside_it():
    face = (Candidate((200, 200), 120, 0.5), (2, 0.97))
    pip_groups = [(Candidate((180, 180), 50, 0.6), (1, 0.99)), (Candidate((225, 222), 50, 0.6), (1, 0.98))]
    apart = (Candidate((330, 200), 50, 0.7), (4, 0.99))  # further than half the face: another die
    kept = _large_faces_for_their_parts([*pip_groups, apart, face], [face[0]])
    assert kept == [apart, face]


def test_a_large_face_gives_way_to_a_die_read_inside_it_at_about_its_size():
    """A tilted camera's top and side face of one die, found together as one large face."""
    face = (Candidate((200, 215), 110, 0.5), (2, 0.99))
    die = (Candidate((200, 195), 75, 0.8), (1, 1.0))
    assert _large_faces_for_their_parts([die, face], [face[0]]) == [die]


def test_the_second_shrink_finds_only_faces_of_at_least_the_large_size():
    from companion.vision.scene import CameraModel, render_scene

    image, truth = render_scene(3, dice=3, values=[5, 3, 6], camera=CameraModel(1280, 720, tilt_deg=10, distance_mm=220))
    detector = PipDetector()
    maps, large = detector.find_maps_and_large(image)
    assert [m.shape for m in maps[:1]] == [detector.find_maps(image)[0].shape]
    assert large and all(c.size >= LARGE_FROM * shrink_for(image.shape) for c in large)
    for die in truth.dice:
        assert any(math.dist(c.center, die.center) < 0.4 * (die.box[2] - die.box[0]) for c in large)


def test_a_camera_close_over_the_tray_still_finds_big_2s():
    """Dice 130–160 px across: before the large faces (and the pip pairs they replaced) none was found."""
    from companion.vision.scene import CameraModel, render_scene

    image, truth = render_scene(3, dice=3, values=[2, 2, 2], camera=CameraModel(1280, 720, tilt_deg=30, distance_mm=200))
    readings = LearnedPipReader().read(image)
    assert len(readings) >= 2
    for reading in readings:
        die = min(truth.dice, key=lambda d: math.dist(d.center, reading.center))
        assert reading.value == 2 and not reading.unsure
        assert math.dist(die.center, reading.center) < 0.3 * (die.box[2] - die.box[0])


@pytest.mark.parametrize("name", ["images/valid_valid_68.jpg", "images/valid_valid_83.jpg", "images/train_two_19.jpg"])
def test_a_webcam_photo_twice_as_large_reads_every_die_once_and_right(name):
    """Measured: at twice their size these photos read a 2 as 1 (one of its pips), and _83 missed a 3."""
    if not MATTEOP65.is_dir():
        pytest.skip(f"the real photos are not at {MATTEOP65}")
    labels = next(json.loads(line) for line in (MATTEOP65 / "labels.jsonl").read_text().splitlines()
                  if json.loads(line)["image"] == name)
    image = cv2.imread(str(MATTEOP65 / name))
    readings = LearnedPipReader().read(cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR))
    dice = tuple(LabelledDie(d["value"], tuple(2 * v for v in d["box"])) for d in labels["dice"])
    score = match(dice, readings)
    assert score.right, (score.pairs, score.extra)
