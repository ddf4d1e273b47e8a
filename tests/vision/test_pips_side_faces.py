"""Reading the camera's tilt from a 1's pip, which decides whether a die below a 1 may be its side face."""
import math

import numpy as np
import pytest

import cv2

from companion.vision.pips.detector import Candidate  # noqa: E402
from companion.vision.pips.side_faces import lies_below, suspects, tilt_from_one  # noqa: E402


def _one(tilt_deg: float, angle_deg: float = 0.0, body=(235, 238, 240), pip=(25, 25, 25)) -> np.ndarray:
    """A 1's face, 60 px wide and foreshortened, its pip squeezed upright by the cosine of the tilt."""
    image = np.zeros((120, 120, 3), np.uint8)
    image[:] = (120, 150, 170)
    cv2.rectangle(image, (30, 40), (90, 80), body, -1)
    axes = (9, max(1, round(9 * math.cos(math.radians(tilt_deg)))))
    cv2.ellipse(image, (60, 60), axes, angle_deg, 0, 360, pip, -1, cv2.LINE_AA)
    return image


@pytest.mark.parametrize("tilt", [0, 30, 45, 60])
def test_the_tilt_is_read_from_how_much_the_pip_is_squeezed(tilt):
    assert tilt_from_one(_one(tilt), (60, 60), 60) == pytest.approx(tilt, abs=8)


def test_a_light_pip_on_a_dark_die_is_read_too():
    assert tilt_from_one(_one(50, body=(30, 30, 32), pip=(240, 240, 240)), (60, 60), 60) == pytest.approx(50, abs=8)


def test_no_tilt_is_read_from_a_face_without_a_pip_or_a_pip_askew():
    blank = np.full((120, 120, 3), 200, np.uint8)
    assert tilt_from_one(blank, (60, 60), 60) is None
    assert tilt_from_one(_one(50, angle_deg=60), (60, 60), 60) is None


def test_a_tilted_synthetic_scene_gives_about_its_tilt():
    from companion.vision.scene import CameraModel, render_scene

    image, truth = render_scene(3, dice=1, values=[1], camera=CameraModel(1280, 720, tilt_deg=50, distance_mm=220))
    die = truth.dice[0]
    size = die.box[2] - die.box[0]
    assert tilt_from_one(image, die.center, size) == pytest.approx(50, abs=12)
    flat, flat_truth = render_scene(3, dice=1, values=[1], camera=CameraModel(1280, 720, distance_mm=220))
    die = flat_truth.dice[0]
    assert tilt_from_one(flat, die.center, die.box[2] - die.box[0]) < 20


def test_only_a_die_below_a_1_about_a_face_away_is_suspect():
    one = Candidate((100, 100), 40, 0.9)
    assert lies_below(Candidate((105, 136), 40, 0.9), one)
    assert not lies_below(Candidate((105, 64), 40, 0.9), one)  # above
    assert not lies_below(Candidate((140, 136), 40, 0.9), one)  # beside
    assert lies_below(Candidate((80, 128), 40, 0.9), one)  # aside by half a face: a die off the camera's axis
    assert not lies_below(Candidate((100, 160), 40, 0.9), one)  # a die's length away
    image = np.zeros((200, 200, 3), np.uint8)
    kept = [(one, (1, 0.99)), (Candidate((105, 136), 40, 0.9), (5, 0.98))]
    assert suspects(image, kept) == []  # a black frame shows no pip, so no tilt
