"""The few-shot recogniser: nearest taught examples per face, and "unsure" when the answer is not clear.

A die is compared with every taught example; each part of the distance (colour, shape, rings) is scaled by
how far apart different faces are in the taught examples, so no part drowns the others. The face with the
nearest example wins unless the runner-up face is nearly as near (ambiguous), or even the nearest example
is far off in colour and shape (a face never taught: a die of another kind, another printing).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from . import features as feat

PARTS = ("colour", "template", "rings")
AMBIGUOUS_RATIO = 0.8
# How far (colour + shape, in units of the typical distance between two taught faces) the nearest example
# may be before the die counts as a face never taught. On the development styles the taught faces, blurred
# or not, stayed below 0.62, and a monkey shown to the fruit reader sat at 0.78 or more.
NOVELTY_PARTS = ("colour", "template")
NOVELTY_LIMIT = 0.7


@dataclasses.dataclass(frozen=True)
class Decision:
    face: str
    confidence: float
    unsure: bool
    distance: float
    runner_up: str


class NotEnoughExamples(ValueError):
    pass


class Recogniser:
    def __init__(self, examples: dict[str, list[feat.Features]],
                 variants: dict[str, list[feat.Features]] | None = None):
        """`variants` (e.g. the examples blurred) are matched against too, but do not set the scales."""
        self.faces = [face for face, found in examples.items() if found]
        if len(self.faces) < 2:
            raise NotEnoughExamples("the recogniser needs examples of at least two faces")
        flat = [(face, f) for face in self.faces for f in examples[face]]
        self.labels = np.array([self.faces.index(face) for face, _ in flat])
        self.bank = feat.stack([f for _, f in flat])
        self._features = [f for _, f in flat]
        self.scales = self._part_scales()
        self.spread = self._within_face_spread()
        extra = [(face, f) for face in self.faces for f in (variants or {}).get(face, [])]
        if extra:
            more = feat.stack([f for _, f in extra])
            self.bank = {part: np.concatenate([self.bank[part], more[part]]) for part in self.bank}
            self.labels = np.concatenate([self.labels, [self.faces.index(face) for face, _ in extra]])
        # The whole bank in face order, so the nearest example of every face is one reduceat.
        order = np.argsort(self.labels, kind="stable")
        self._sorted_bank = {part: values[order] for part, values in self.bank.items()}
        self._starts = np.searchsorted(self.labels[order], np.arange(len(self.faces)))

    def _pairwise(self) -> dict[str, np.ndarray]:
        n = len(self._features)
        rows = [{p: d[:n] for p, d in feat.distances(f, self.bank).items()} for f in self._features]
        return {part: np.stack([r[part] for r in rows]) for part in PARTS}

    def _part_scales(self) -> dict[str, float]:
        pairs = self._pairwise()
        labels = self.labels[:len(self._features)]
        other = labels[:, None] != labels[None, :]
        return {part: max(float(np.median(pairs[part][other])), 1e-6) for part in PARTS}

    def combined(self, parts: dict[str, np.ndarray]) -> np.ndarray:
        return sum(parts[p] / self.scales[p] for p in PARTS)

    def example_distances(self) -> np.ndarray:
        """Combined distance between every pair of taught examples."""
        return self.combined(self._pairwise())

    def _within_face_spread(self) -> float:
        d = self.example_distances()
        labels = self.labels[:len(self._features)]
        same = (labels[:, None] == labels[None, :]) & ~np.eye(len(labels), dtype=bool)
        if not same.any():
            return float(np.median(d[~same & ~np.eye(len(labels), dtype=bool)])) / 3
        return max(float(np.percentile(d[same], 90)), 0.05)

    def decide(self, features: feat.Features) -> Decision:
        parts = feat.distances(features, self._sorted_bank)
        d = self.combined(parts)
        per_face = np.minimum.reduceat(d, self._starts)
        order = np.argsort(per_face)
        best, second = per_face[order[0]], per_face[order[1]]
        ratio = best / max(second, 1e-9)
        nearest = int(np.argmin(d))
        novelty = sum(float(parts[p][nearest]) / self.scales[p] for p in NOVELTY_PARTS)
        unsure = bool(ratio > AMBIGUOUS_RATIO or novelty > NOVELTY_LIMIT)
        confidence = float(np.clip(1 - ratio, 0, 1) * np.clip(1 - novelty / (2 * NOVELTY_LIMIT), 0, 1))
        return Decision(self.faces[order[0]], confidence, unsure, float(best), self.faces[order[1]])
