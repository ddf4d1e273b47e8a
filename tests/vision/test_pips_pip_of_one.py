"""A die showing 1 is reported at its pip, the centre of its top face, wherever the camera looks from."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

import cv2

from companion.vision.pips.pip_of_one import centre_of_one  # noqa: E402

MATTEOP65 = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real" / "matteop65-d6"


def _tilted_one(body=(230, 235, 238), pip=(30, 30, 30), side=(150, 155, 160)) -> np.ndarray:
    """A 1 seen at about 50°: a squashed top face (60 × 36 px) with its pip squeezed upright at (80, 58),
    and the side face below it showing two pips."""
    image = np.zeros((160, 160, 3), np.uint8)
    image[:] = (120, 150, 175)
    cv2.rectangle(image, (50, 40), (110, 76), body, -1)
    cv2.rectangle(image, (50, 77), (110, 126), side, -1)
    cv2.ellipse(image, (80, 58), (8, 5), 0, 0, 360, pip, -1, cv2.LINE_AA)
    for x, y in ((64, 92), (96, 112)):
        cv2.ellipse(image, (x, y), (6, 5), 0, 0, 360, pip, -1, cv2.LINE_AA)
    return image


def test_the_pip_is_found_where_the_detector_put_the_centre_lower():
    found = centre_of_one(_tilted_one(), (80, 73), 60)  # a quarter face below the pip, towards the side face
    assert found == pytest.approx((80, 58), abs=1)


def test_a_light_pip_on_a_dark_die_is_found_too():
    image = _tilted_one(body=(35, 30, 30), pip=(235, 235, 235), side=(20, 18, 18))
    assert centre_of_one(image, (83, 66), 60) == pytest.approx((80, 58), abs=1)


def test_no_pip_is_found_on_a_plain_face_or_in_a_marbled_swirl():
    plain = np.full((160, 160, 3), 200, np.uint8)
    assert centre_of_one(plain, (80, 80), 60) is None
    swirl = np.full((160, 160, 3), (200, 170, 90), np.uint8)
    cv2.ellipse(swirl, (80, 80), (14, 10), 0, 200, 340, (250, 250, 250), 2, cv2.LINE_AA)
    assert centre_of_one(swirl, (80, 80), 60) is None


def test_a_tilted_camera_sees_each_1_reported_at_its_top_face_centre():
    from companion.vision.pips.learned import LearnedPipReader
    from companion.vision.scene import CameraModel, render_scene

    image, truth = render_scene(1, dice=4, values=[1, 1, 1, 1], camera=CameraModel(1280, 720, tilt_deg=50, distance_mm=300))
    readings = LearnedPipReader().read(image)
    assert [r.value for r in readings] == [1, 1, 1, 1]
    for die in truth.dice:
        reading = min(readings, key=lambda r: math.dist(r.center, die.center))
        face = reading.box[2] - reading.box[0]
        assert math.dist(reading.center, die.center) < 0.02 * face, (die.center, reading.center)


def test_a_webcam_photo_of_1s_seen_steeply_reports_them_at_their_pips():
    """matteop65 labels a 1 by a box round its pip. In this photo the detector's centre lay up to 0.72 of that
    box below the pip, and the brighter, smaller and larger variants of the photo (`--vary`) lost a 1 each:
    read too far from its label, it counted as a die missed and an extra one."""
    if not MATTEOP65.is_dir():
        pytest.skip(f"the real photos are not at {MATTEOP65}")
    from companion.vision.pips.learned import LearnedPipReader

    labels = next(json.loads(line) for line in (MATTEOP65 / "labels.jsonl").read_text().splitlines()
                  if json.loads(line)["image"] == "images/train_dice_46.jpg")
    readings = LearnedPipReader().read(cv2.imread(str(MATTEOP65 / labels["image"])))
    for die in labels["dice"]:
        x0, y0, x1, y1 = die["box"]
        reading = min(readings, key=lambda r: math.dist(r.center, ((x0 + x1) / 2, (y0 + y1) / 2)))
        assert reading.value == 1
        assert math.dist(reading.center, ((x0 + x1) / 2, (y0 + y1) / 2)) < 0.3 * max(x1 - x0, y1 - y0)
