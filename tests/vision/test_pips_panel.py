"""The panel of quick networks: the first reads every candidate, the others re-read the faces it is not quite
sure of, and their probabilities are averaged (companion.vision.pips.classifier.PanelClassifier).

The fakes below tell candidates apart by the grey level of the square they stand on, so each test says what
every network would answer for each candidate and checks what the panel makes of it.
"""
from pathlib import Path

import numpy as np
import pytest

import cv2

from companion.vision.evaluate import SetScore, load_set, match  # noqa: E402
from companion.vision.photo_variants import vary  # noqa: E402
from companion.vision.pips import classifier  # noqa: E402
from companion.vision.pips.classifier import NOT_A_FACE, PANEL_BELOW, PanelClassifier  # noqa: E402
from companion.vision.pips.classifier_data import Candidate  # noqa: E402
from companion.vision.pips.learned import LearnedPipReader  # noqa: E402

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "dice-real"
GREYS = (40, 120, 200)


def probabilities(answer: int, confidence: float) -> np.ndarray:
    row = np.full(7, (1 - confidence) / 6, np.float32)
    row[answer] = confidence
    return row


class FakeNetwork:
    """Answers per candidate by the grey level under its centre, and counts the crops it is given."""

    input_px, context = classifier.INPUT_PX, classifier.CONTEXT
    crops = classifier.PipClassifier.crops  # cut as the real networks cut them

    def __init__(self, by_grey: dict[int, tuple[int, float]]):
        self.by_grey = by_grey
        self.crops_read = 0

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        self.crops_read += len(crops)
        middle = crops[:, self.input_px // 2, self.input_px // 2, 0]
        return np.stack([probabilities(*self.by_grey[min(GREYS, key=lambda g: abs(g - int(m)))]) for m in middle])


@pytest.fixture
def table():
    """A frame with one 60 px square per grey level, and a candidate on each."""
    frame = np.zeros((100, 300, 3), np.uint8)
    for i, grey in enumerate(GREYS):
        frame[20:80, 100 * i + 20: 100 * i + 80] = grey
    return frame, [Candidate((100 * i + 50.0, 50.0), 40.0) for i in range(len(GREYS))]


def test_an_unsure_face_the_others_call_no_face_is_dropped(table):
    frame, candidates = table
    first = FakeNetwork({40: (3, 0.95), 120: (5, 0.95), 200: (NOT_A_FACE, 0.8)})
    others = [FakeNetwork({40: (NOT_A_FACE, 0.9), 120: (5, 0.99), 200: (2, 0.99)}) for _ in range(2)]
    (v1, c1), (v2, c2), (v3, _) = PanelClassifier(first, others).classify(frame, candidates)
    assert v1 == NOT_A_FACE and c1 == pytest.approx((0.05 / 6 + 0.9 + 0.9) / 3)
    assert v2 == 5 and c2 == pytest.approx((0.95 + 0.99 + 0.99) / 3)
    assert v3 == NOT_A_FACE, "what the first network turns down stays down"
    assert [other.crops_read for other in others] == [2, 2]


def test_faces_the_first_network_is_sure_of_are_not_read_again(table):
    frame, candidates = table
    first = FakeNetwork({40: (3, PANEL_BELOW + 0.001), 120: (4, 0.9999), 200: (6, PANEL_BELOW - 0.01)})
    other = FakeNetwork({40: (NOT_A_FACE, 0.99), 120: (NOT_A_FACE, 0.99), 200: (6, 0.99)})
    answers = PanelClassifier(first, [other]).classify(frame, candidates)
    assert [value for value, _ in answers] == [3, 4, 6]
    assert answers[0][1] == pytest.approx(PANEL_BELOW + 0.001) and other.crops_read == 1


def test_a_panel_alone_is_its_first_network(table):
    frame, candidates = table
    first = FakeNetwork({40: (3, 0.5), 120: (NOT_A_FACE, 0.5), 200: (1, 0.7)})
    answers = PanelClassifier(first, []).classify(frame, candidates)
    assert [value for value, _ in answers] == [3, NOT_A_FACE, 1]
    assert PanelClassifier(first, []).classify(frame, []) == []


def test_networks_that_read_other_crops_cannot_sit_on_one_panel():
    first = FakeNetwork({})
    close = FakeNetwork({})
    close.input_px = 48
    with pytest.raises(ValueError, match="48 px"):
        PanelClassifier(first, [close])


def test_the_shipped_panel_reads_with_both_quick_networks():
    panel = classifier.load_close_look().quick
    assert isinstance(panel, PanelClassifier) and len(panel.others) == len(classifier.PANEL_PATHS) == 1


def test_the_panel_makes_fewer_extra_dice_on_darker_and_smaller_photos():
    """matteop65's dev photos are the networks' training photos; made darker or smaller they stand for
    other photos of that kind. The first network alone took 17 side faces and specks for dice there
    (2026-12-01), the panel 6, and it read 648 of the 662 dice right against 646."""
    folder = DATA / "matteop65-d6"
    if not folder.is_dir():
        pytest.skip(f"the real photos are not at {folder}")
    cv2.setNumThreads(1)
    alone = LearnedPipReader(classify=classifier.load_close_look(others=()).classify)
    panel = LearnedPipReader()
    scores = {reader: SetScore([]) for reader in (alone, panel)}
    for image in load_set(folder, "dev"):
        for variant in ("darker", "smaller"):
            frame, dice = vary(cv2.imread(str(image.path)), image.dice, variant)
            for reader, score in scores.items():
                score.images.append(match(dice, reader.read(frame)))
    assert scores[panel].dice == 662
    assert scores[panel].extra <= 8 and scores[panel].extra * 2 < scores[alone].extra
    assert scores[panel].dice_right >= 0.97 * scores[panel].dice
