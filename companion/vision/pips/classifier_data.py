"""Candidates cut from labelled photos for the pip classifier: label-centred dice and false candidates.

Used to build the shipped dev-split crop file (models/build_pips_dev_crops.py) and, in the tests, as
a stand-in for the detector. The two real sets label different things (shared/data/dice-real/README.md):
nell-byler boxes cover the whole top face, matteop65 boxes only the pip pattern, so there the face size
is estimated from the pattern: a 2–6 pattern spans about `PATTERN_SPAN` of the face; a lone pip (a 1) about
`ONE_PIP_SPAN`, unless its box is big enough to be the whole die. Dice in one photo lie at about the same
distance, so each photo uses the median estimate of its dice (preferring the 2–6 dice, whose patterns
say more).
"""
from __future__ import annotations

import dataclasses
import math
from statistics import median

import numpy as np

PATTERN_SPAN = 0.72
ONE_PIP_SPAN = 0.33
WHOLE_DIE_BOX = 30.0  # px: a 1's box at least this big covers the die, not the pip
BOX_KINDS = {"nell-byler-d6": "face", "matteop65-d6": "pips"}


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A place to classify, as the detector reports it: centre (x, y) and the top face's side in px."""

    center: tuple[float, float]
    size: float
    score: float = 1.0


def face_sizes(dice, box_kind: str) -> list[float]:
    """The top-face side in px for each labelled die of one photo."""
    if box_kind == "face":
        return [d.size for d in dice]
    if box_kind != "pips":
        raise ValueError(f"unknown box kind {box_kind!r}; expected 'face' or 'pips'")
    patterns, ones = [], []
    for d in dice:
        if d.value == 1:
            ones.append(d.size * 0.7 if d.size >= WHOLE_DIE_BOX else d.size / ONE_PIP_SPAN)
        else:
            patterns.append(d.size / PATTERN_SPAN)
    estimate = median(patterns) if patterns else median(ones)
    return [estimate] * len(dice)


def label_candidates(image, box_kind: str) -> list[Candidate]:
    """One candidate per labelled die, at the label's centre and estimated face size."""
    return [Candidate(d.center, s) for d, s in zip(image.dice, face_sizes(image.dice, box_kind))]


def false_candidates(truth: list[Candidate], shape: tuple[int, int], rng: np.random.Generator,
                     per_die: int = 2, background: int = 4) -> list[Candidate]:
    """Places near the true faces `truth` that are not a die's top face: off-centre on a die (half a
    die, its side face, the gap to a neighbour), far too small (a pip or two), the midpoint of two close
    dice, and plain background. None lies within half a face of a true face's centre."""
    height, width = shape
    if not truth:
        return []
    typical = median(c.size for c in truth)
    out: list[Candidate] = []

    def far_from_faces(x: float, y: float, size: float) -> bool:
        return all(math.hypot(x - c.center[0], y - c.center[1]) > 0.5 * max(c.size, size) for c in truth)

    for c in truth:
        for _ in range(per_die):
            kind = rng.integers(0, 3)
            if kind == 0:  # shifted by half a face or more: half a die, its side, its surroundings
                angle, distance = rng.uniform(0, 2 * math.pi), rng.uniform(0.55, 1.1) * c.size
                x, y = c.center[0] + distance * math.cos(angle), c.center[1] + distance * math.sin(angle)
                size = c.size * rng.uniform(0.8, 1.2)
            elif kind == 1:  # far too small: a pip or two, not a face
                x, y = c.center[0] + rng.normal(0, 0.15) * c.size, c.center[1] + rng.normal(0, 0.15) * c.size
                out.append(Candidate((x, y), c.size * rng.uniform(0.3, 0.5)))
                continue
            else:  # just below the face, where an oblique camera sees the side face
                x, y = c.center[0] + rng.normal(0, 0.1) * c.size, c.center[1] + rng.uniform(0.6, 0.95) * c.size
                size = c.size * rng.uniform(0.8, 1.2)
            if far_from_faces(x, y, size):
                out.append(Candidate((x, y), size))
    for a in range(len(truth)):
        for b in range(a + 1, len(truth)):
            (ax, ay), (bx, by) = truth[a].center, truth[b].center
            size = (truth[a].size + truth[b].size) / 2
            if math.hypot(ax - bx, ay - by) < 1.8 * size:
                x, y = (ax + bx) / 2, (ay + by) / 2
                if far_from_faces(x, y, size):
                    out.append(Candidate((x, y), size * rng.uniform(1.0, 1.6)))
    placed = 0
    for _ in range(background * 20):
        if placed == background:
            break
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        size = typical * rng.uniform(0.7, 1.3)
        if all(math.hypot(x - c.center[0], y - c.center[1]) > 1.2 * max(c.size, size) for c in truth):
            out.append(Candidate((x, y), size))
            placed += 1
    return out


@dataclasses.dataclass
class ClassifierScore:
    """How the classifier did on one set: label-centred dice and false candidates."""

    confusion: np.ndarray  # 7 × 7, truth (0 = false candidate) × answer
    confidences: list[tuple[float, bool]]  # (confidence, right) per answer
    ms_per_frame: list[float]

    @property
    def dice(self) -> int:
        return int(self.confusion[1:].sum())

    @property
    def die_accuracy(self) -> float:
        return float(np.trace(self.confusion[1:, 1:]) / max(1, self.dice))

    @property
    def false_candidates(self) -> int:
        return int(self.confusion[0].sum())

    @property
    def false_rejected(self) -> float:
        return float(self.confusion[0, 0] / max(1, self.false_candidates))

    def accuracy_above(self, threshold: float) -> tuple[float, float]:
        """(share right among answers at least this confident, share of answers that are)."""
        kept = [right for confidence, right in self.confidences if confidence >= threshold]
        return sum(kept) / max(1, len(kept)), len(kept) / max(1, len(self.confidences))

    def report(self, title: str) -> str:
        per_value = ", ".join(f"{v}: {self.confusion[v, v]}/{self.confusion[v].sum()}" for v in range(1, 7))
        lines = [
            f"{title}: {self.dice} dice, {self.false_candidates} false candidates",
            f"  dice read right: {self.die_accuracy:.1%}; per value {per_value}",
            f"  false candidates rejected (read 0): {self.false_rejected:.1%}",
            "  confident answers (>= 0.9): {:.1%} right, {:.1%} of answers".format(*self.accuracy_above(0.9)),
            f"  classify time per photo: median {median(self.ms_per_frame):.2f} ms",
            "  confusion (truth -> read; 0 = not a face):",
            "        " + "".join(f"{c:>6}" for c in range(7)),
        ]
        lines += [f"    {t}   " + "".join(f"{n:>6}" for n in self.confusion[t]) for t in range(7)]
        return "\n".join(lines)


def score_classifier(images, box_kind: str, classify, seed: int = 0) -> ClassifierScore:
    """Run `classify(frame, candidates)` on every photo's label-centred dice and false candidates."""
    import time

    rng = np.random.default_rng(seed)
    confusion = np.zeros((7, 7), int)
    confidences, times = [], []
    for image in images:
        frame = image.read()
        truth = label_candidates(image, box_kind)
        negatives = false_candidates(truth, frame.shape[:2], rng)
        start = time.perf_counter()
        answers = classify(frame, truth + negatives)
        times.append((time.perf_counter() - start) * 1e3)
        for expected, (value, confidence) in zip([d.value for d in image.dice] + [0] * len(negatives), answers):
            confusion[expected, value] += 1
            confidences.append((confidence, value == expected))
    return ClassifierScore(confusion, confidences, times)


def main(argv: list[str] | None = None) -> int:
    """Print the classifier's scores on the real sets, dev and held-out apart."""
    import argparse
    from pathlib import Path

    import cv2

    from ..evaluate import load_set
    from .classifier import classify_dice

    parser = argparse.ArgumentParser(prog="python -m companion.vision.pips.classifier_data",
                                     description="score the pip classifier on label-centred crops")
    parser.add_argument("data", type=Path, help="the folder holding the real sets (shared/data/dice-real)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    for name, box_kind in BOX_KINDS.items():
        for split in ("dev", "holdout"):
            score = score_classifier(load_set(args.data / name, split), box_kind, classify_dice)
            print(score.report(f"{name} [{split}]"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
