"""Score the pip detector alone on a labelled photo set, and a label oracle that stands in for the classifier.

    python -m companion.vision.pips.detector_eval SET_FOLDER [--split dev|holdout|all]

Prints recall (labelled dice with a candidate within the evaluation's match radius), extra candidates
per photo (matching no label), and how far candidate centres and sizes are from the labels.
`LabelOracle` answers the classifier's question from the labels, so the detector's part of the reader
is measured apart from reading errors.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import numpy as np

from ..evaluate import MATCH_RADIUS, load_set, match
from ...events import DieReading


@dataclasses.dataclass
class DetectorScore:
    dice: int = 0
    found: int = 0
    extra: int = 0
    photos: int = 0
    centre_error: list[float] = dataclasses.field(default_factory=list)  # in label sizes

    @property
    def recall(self) -> float:
        return self.found / max(1, self.dice)

    @property
    def extra_per_photo(self) -> float:
        return self.extra / max(1, self.photos)


def score_detector(images, find) -> DetectorScore:
    """`find(frame) -> candidates`; each label matches at most one candidate, nearest first."""
    score = DetectorScore()
    for image in images:
        frame = image.read()
        candidates = find(frame)
        readings = [DieReading(0, c.center, (0, 0, 0, 0), c.score) for c in candidates]
        result = match(image.dice, readings)
        score.photos += 1
        score.dice += len(image.dice)
        score.extra += result.extra
        for die in image.dice:
            near = [((c.center[0] - die.center[0]) ** 2 + (c.center[1] - die.center[1]) ** 2) ** 0.5 for c in candidates]
            if near and min(near) <= MATCH_RADIUS * die.size:
                score.centre_error.append(min(near) / die.size)
        score.found += sum(1 for _, read, _ in result.pairs if read is not None)
    return score


class LabelOracle:
    """A classifier stand-in that knows the labels of one photo: a candidate within the match radius of
    a labelled die reads as its value (each die once, nearest candidate first, over all the reader's calls
    for the photo), any other as 0."""

    def __init__(self, dice):
        self.dice = dice
        self.answered: set[int] = set()

    def __call__(self, frame_bgr, candidates) -> list[tuple[int, float]]:
        readings = [DieReading(0, c.center, (0, 0, 0, 0), 1.0) for c in candidates]
        pairs = []
        for i, die in enumerate(self.dice):
            cx, cy = die.center
            for j, r in enumerate(readings):
                dist = ((r.center[0] - cx) ** 2 + (r.center[1] - cy) ** 2) ** 0.5
                if dist <= MATCH_RADIUS * die.size:
                    pairs.append((dist, i, j))
        answers = [(0, 1.0)] * len(candidates)
        taken_candidates = set()
        for _, i, j in sorted(pairs):
            if i in self.answered or j in taken_candidates:
                continue
            self.answered.add(i)
            taken_candidates.add(j)
            answers[j] = (self.dice[i].value, 1.0)
        return answers


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.pips.detector_eval", description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--split", choices=("dev", "holdout", "all"), default="dev")
    parser.add_argument("--model", type=Path, help="an ONNX detector other than the shipped one")
    parser.add_argument("--threshold", type=float)
    args = parser.parse_args(argv)

    from .detector import MODEL_PATH, THRESHOLD, PipDetector

    detector = PipDetector(args.model or MODEL_PATH, args.threshold if args.threshold is not None else THRESHOLD)
    score = score_detector(load_set(args.folder, args.split), detector.find)
    errors = np.array(score.centre_error) if score.centre_error else np.zeros(1)
    print(f"{args.folder.name} [{args.split}]: {score.photos} photos, recall {score.recall:.1%} "
          f"({score.found}/{score.dice}), {score.extra_per_photo:.2f} extra candidates per photo, "
          f"centre error median {np.median(errors):.2f} / 90% {np.percentile(errors, 90):.2f} face sizes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
