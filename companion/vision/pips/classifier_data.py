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
