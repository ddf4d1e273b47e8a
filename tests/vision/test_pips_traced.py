"""The pip reader on dice it never saw drawn: the traced renderer's rounded, dimpled, glossy dice.

No network here was trained on that renderer, so this is the nearest the repo comes to the "other
renderers' scenes" the reader is measured on. The floors are what the shipped reader read when they were
set (63 of 79 dice right, 2 silently wrong, no extra die), less a margin, so a regression fails here; the
whole sweep is `python -m companion.vision.evaluate_scenes --renderer traced` (models/pips-detector.md).
"""
import pytest

from companion.vision.evaluate import SetScore, match
from companion.vision.evaluate_scenes import labelled
from companion.vision.readers import get_reader
from companion.vision.scene import CameraModel
from companion.vision.scene_traced import STYLES, TABLES, render_traced

SCENES = 20


@pytest.fixture(scope="module")
def score() -> SetScore:
    reader, styles, score = get_reader("pips"), list(STYLES), SetScore([])
    for i in range(SCENES):
        camera = CameraModel(1280, 720, tilt_deg=float(i % 3) * 4, hfov_deg=55)
        frame, dice = render_traced(700 + i, dice=3 + i % 3, camera=camera, style=styles[i % len(styles)],
                                    table=TABLES[i % len(TABLES)], flush=i % 2 == 1)
        score.images.append(match(labelled(dice), reader.read(frame)))
    return score


def test_most_dice_of_an_unseen_look_are_read_straight_down(score):
    assert score.dice == 79
    assert score.dice_right >= 56, f"{score.dice_right} of {score.dice} traced dice read right"


def test_dice_of_an_unseen_look_are_seldom_silently_misread_and_nothing_is_invented(score):
    assert score.wrong <= 4, f"{score.wrong} traced dice read as another value without being marked unsure"
    assert score.extra <= 1
