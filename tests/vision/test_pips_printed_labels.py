"""Printed labels on the table (a cable's "C120", a box's "USB-C", a power supply's "12V DC") are not dice.

The labels are drawn in OpenCV faces that the training clutter of `models/pips_synthetic_patches.py
--labels` leaves out (TRAINING_FONTS there), so this measures printed text in general rather than the
marks a network learnt to turn down. The shipped networks were not trained with labels and read some as
dice: the bound below is what they do, as the real photos' floors are, so a change that reads more labels
as dice fails here; the aim is none (models/pips-close-look.md, "Printed labels"). The first quick network
with the close look read 21 of the 96 labels as dice; with the panel of two quick networks, 8
(2026-12-01, fifteenth session).
"""
import numpy as np
import pytest

import cv2

from companion.vision.evaluate import SetScore, match  # noqa: E402
from companion.vision.evaluate_scenes import labelled  # noqa: E402
from companion.vision.readers import get_reader  # noqa: E402
from companion.vision.scene import CameraModel, render_scene  # noqa: E402

LABELS = ("C120", "6", "USB-C", "A4", "88", "5V", "HDMI", "0", "1:1", "B", "ON/OFF", "12V DC", "x3")
UNSEEN_FONTS = (cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_COMPLEX_SMALL, cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
                cv2.FONT_HERSHEY_SIMPLEX | cv2.FONT_ITALIC, cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC)
STYLES = ("white", "red", "blue", "black")
SCENES = 24
# In all SCENES scenes together, of their 96 labels. OpenCV 5 and OpenCV 4 (a Bookworm Pi's, the second test run)
# draw these fonts differently: 8 read as dice with 5.0, 12 with 4.11 (11 with 5.1, which tests/constraints.txt
# keeps out), the same networks and every real photo read the same.
MOST_EXTRA_DICE = 10 if int(cv2.__version__.split(".")[0]) >= 5 else 14


def labelled_scene(seed: int):
    """A rendered table of three dice with four printed labels on its free parts, each at least 120 px
    (about two dice) from every die."""
    image, truth = render_scene(seed, dice=3, camera=CameraModel(960, 720), style=STYLES[seed % len(STYLES)])
    rng = np.random.default_rng(seed)
    height, width = image.shape[:2]
    placed = 0
    while placed < 4:
        x, y = int(rng.uniform(80, width - 160)), int(rng.uniform(60, height - 60))
        if any(np.hypot(x - die.center[0], y - die.center[1]) < 120 for die in truth.dice):
            continue
        ink = (30, 30, 30) if rng.random() < 0.7 else (235, 235, 235)
        cv2.putText(image, str(rng.choice(LABELS)), (x, y), int(rng.choice(UNSEEN_FONTS)), float(rng.uniform(0.8, 1.8)),
                    ink, int(rng.integers(1, 4)), cv2.LINE_AA)
        placed += 1
    return image, truth


@pytest.fixture(scope="module")
def score():
    """The scenes scored as the photo sets are (`companion.vision.evaluate.match`)."""
    reader = get_reader("pips")
    return SetScore([match(labelled(truth.dice), reader.read(image))
                     for image, truth in map(labelled_scene, range(500, 500 + SCENES))])


def test_printed_labels_are_not_read_as_dice(score):
    extra = {i: s.extra for i, s in enumerate(score.images) if s.extra}
    assert score.extra <= MOST_EXTRA_DICE, f"labels read as dice, scene: count {extra}"


def test_dice_beside_printed_labels_are_still_read(score):
    assert score.wrong == 0 and score.dice_right >= 0.95 * score.dice, \
        f"{score.dice_right} of {score.dice} dice read right, {score.wrong} silently wrong"
