"""The few-shot recogniser: nearest taught examples per face, and "unsure" when the answer is not clear.

A die is compared with every taught example; each part of the distance (colour, shape, rings) is scaled by
how far apart different faces are in the taught examples, so no part drowns the others. The face with the
nearest example wins unless the runner-up face is nearly as near (ambiguous), or even the nearest example
is far beyond how much the examples of one face differ from each other (a face never taught, a hand, a
die half out of view).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from . import features as feat

PARTS = ("colour", "template", "rings")
AMBIGUOUS_RATIO = 0.8
FAR_FACTOR = 4.0


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
        d = self.combined(feat.distances(features, self.bank))
        per_face = np.array([d[self.labels == k].min() for k in range(len(self.faces))])
        order = np.argsort(per_face)
        best, second = per_face[order[0]], per_face[order[1]]
        ratio = best / max(second, 1e-9)
        unsure = bool(ratio > AMBIGUOUS_RATIO or best > FAR_FACTOR * self.spread)
        confidence = float(np.clip(1 - ratio, 0, 1)) * float(np.clip(FAR_FACTOR * self.spread / max(best, 1e-9), 0, 1))
        return Decision(self.faces[order[0]], confidence, unsure, float(best), self.faces[order[1]])
