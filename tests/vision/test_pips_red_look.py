"""The close look's view through a red filter: it may turn an unsure die sure, and nothing else."""
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from companion.vision.pips.classifier import NOT_A_FACE_FROM
from companion.vision.pips.red_look import confirm_through_red, red_view, shows_more_in_red

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real"
BELOW = 0.9


def die_crop(body, pips, px=48):
    """A flat crop: a die face of `body` colour with five round pips of `pips` colour on a grey table."""
    crop = np.full((px, px, 3), 150, np.uint8)
    crop[px // 6:-px // 6, px // 6:-px // 6] = body
    yy, xx = np.mgrid[:px, :px]
    for cx, cy in ((0.35, 0.35), (0.65, 0.35), (0.5, 0.5), (0.35, 0.65), (0.65, 0.65)):
        crop[(xx - cx * px) ** 2 + (yy - cy * px) ** 2 <= (px * 0.06) ** 2] = pips
    return crop


def rows(*values_and_confidences):
    """Probability rows (column 0 "not a face") with each value at its confidence, the rest spread evenly."""
    p = []
    for value, confidence in values_and_confidences:
        row = np.full(7, (1 - confidence) / 6, np.float32)
        row[value] = confidence
        p.append(row)
    return np.array(p, np.float32)


class RedReader:
    """Stands in for the close-look network: answers red views with fixed rows and notes what it was shown."""

    def __init__(self, answers):
        self.answers, self.shown = answers, []

    def __call__(self, crops):
        self.shown.append(crops)
        assert (crops[..., 0] == crops[..., 2]).all() and (crops[..., 1] == crops[..., 2]).all(), "a red view is grey"
        return self.answers[:len(crops)]


RED_PIPS_ON_SMOKE = ((60, 55, 70), (40, 40, 190))  # BGR: a dark smoky body, red pips
WHITE_PIPS_ON_RED = ((40, 40, 200), (245, 245, 245))


def test_pips_show_more_through_red_on_dark_dice_with_red_pips_only():
    crops = np.stack([die_crop(*RED_PIPS_ON_SMOKE), die_crop(*WHITE_PIPS_ON_RED)])
    assert shows_more_in_red(crops).tolist() == [True, False]
    assert (red_view(crops)[..., 0] == crops[..., 2]).all()


def test_an_unsure_value_the_red_view_confirms_more_surely_becomes_sure():
    crops = np.stack([die_crop(*RED_PIPS_ON_SMOKE)] * 3)
    colour = rows((5, 0.55), (3, 0.6), (2, 0.5))
    red = RedReader(rows((5, 0.97), (2, 0.99), (0, 0.9)))
    confirmed = confirm_through_red(red, crops, colour, BELOW, NOT_A_FACE_FROM)
    assert confirmed[0, 5] == pytest.approx(0.97), "the same value, surer: taken"
    assert confirmed[1].tolist() == colour[1].tolist(), "another value: the colour reading stays"
    assert confirmed[2].tolist() == colour[2].tolist(), "'not a face' through the filter: the colour reading stays"


def test_sure_values_faces_turned_down_and_dice_with_other_colours_are_not_looked_at_again():
    crops = np.stack([die_crop(*RED_PIPS_ON_SMOKE), die_crop(*RED_PIPS_ON_SMOKE), die_crop(*WHITE_PIPS_ON_RED)])
    colour = rows((4, 0.95), (0, 0.8), (6, 0.5))
    red = RedReader(rows((4, 0.99), (4, 0.99), (6, 0.99)))
    assert confirm_through_red(red, crops, colour, BELOW, NOT_A_FACE_FROM).tolist() == colour.tolist()
    assert red.shown == []


probabilities = hnp.arrays(np.float32, (6, 7), elements=st.floats(2 ** -10, 1, width=32)).map(
    lambda a: a / a.sum(axis=1, keepdims=True))


@settings(max_examples=200, deadline=None)
@given(colour=probabilities, red=probabilities)
def test_the_red_view_never_changes_a_value_nor_turns_a_face_down(colour, red):
    crops = np.stack([die_crop(*RED_PIPS_ON_SMOKE)] * len(colour))
    confirmed = confirm_through_red(RedReader(red), crops, colour, BELOW, NOT_A_FACE_FROM)
    assert confirmed.shape == colour.shape
    for before, after in zip(colour, confirmed):
        if after.tolist() == before.tolist():
            continue
        value = before[1:].argmax() + 1
        assert before[0] < NOT_A_FACE_FROM and before[value] < BELOW
        assert after[1:].argmax() + 1 == value and after[value] > before[value] and after[0] < NOT_A_FACE_FROM


def test_more_real_dice_read_surely_and_none_more_read_wrong():
    """nell-byler's dev photos the networks never trained on: smoky, blue and marbled dice with red pips."""
    from companion.vision.evaluate import load_set, score_set
    from companion.vision.pips import classifier
    from companion.vision.readers import get_reader

    folder = DATA / "nell-byler-d6"
    if not folder.is_dir():
        pytest.skip(f"the real photos are not at {folder}")
    photos = load_set(folder, "kept-out")
    with_red, without = (score_set(photos, get_reader("pips", classify=classifier.load_close_look(red_look=red).classify))
                         for red in (True, False))
    assert with_red.dice_right >= without.dice_right + 6, (with_red.dice_right, without.dice_right)
    assert with_red.wrong <= without.wrong and with_red.extra <= without.extra
