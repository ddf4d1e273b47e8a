"""Which value a group of pips shows, how sure that is, and where the face is.

A face is checked against the layout of its count on a die (a 3 is a diagonal line, a 4 a square, a
5 a square with its centre, a 6 two rows of three); a group that fits no layout is reported unsure.
"""
from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from .candidates import Pip

SIDE_PER_SPAN = 1.35  # die side / farthest pip-to-pip distance on the face (pips sit near the quarters)
SIDE_PER_PIP = 4.5  # die side / pip diameter, for a 1
SLANTED_ASPECT = 0.55  # median pip minor/major axis below which a face is a side face
SHAPE_MIN_DIAMETER = 4.5


@dataclasses.dataclass
class Face:
    value: int
    center: tuple[float, float]
    side: float  # die side length in pixels (estimated)
    confidence: float
    pips: list[Pip]

    @property
    def slanted(self) -> bool:
        """A side face seen at a slant: its pips are squashed far more than a top face's."""
        shaped = [p.aspect for p in self.pips if p.diameter >= SHAPE_MIN_DIAMETER]
        return bool(shaped) and float(np.median(shaped)) < SLANTED_ASPECT

    @property
    def box(self) -> tuple[float, float, float, float]:
        half = self.side / 2
        return (self.center[0] - half, self.center[1] - half, self.center[0] + half, self.center[1] + half)


def _layout_error(points: np.ndarray) -> float:
    """How far the pips are from their count's layout, as a share of the face span (0 = perfect)."""
    n = len(points)
    center = points.mean(axis=0)
    span = max(np.hypot(*(p - q)) for p, q in itertools.combinations(points, 2))
    if n == 2:
        return 0.0
    if n == 3:
        middle = min(range(3), key=lambda i: np.hypot(*(points[i] - center)))
        others = [points[i] for i in range(3) if i != middle]
        return float(np.hypot(*(points[middle] - (others[0] + others[1]) / 2)) / span)
    if n == 4:
        radii = np.hypot(*(points - center).T)
        return float((radii.max() - radii.min()) / span)
    if n == 5:
        middle = int(np.argmin(np.hypot(*(points - center).T)))
        corners = np.delete(points, middle, axis=0)
        radii = np.hypot(*(corners - points[middle]).T)
        return float(max(radii.max() - radii.min(), np.hypot(*(corners.mean(axis=0) - points[middle]))) / span)
    # 6: the two long rows; each middle pip lies halfway along its row
    radii = np.hypot(*(points - center).T)
    middles = np.argsort(radii)[:2]
    corners = np.delete(points, middles, axis=0)
    corner_radii = np.hypot(*(corners - center).T)
    error = corner_radii.max() - corner_radii.min()
    for m in middles:
        dists = np.hypot(*(corners - points[m]).T)
        pair = corners[np.argsort(dists)[:2]]
        error = max(error, np.hypot(*(points[m] - pair.mean(axis=0))))
    return float(error / span)


def read_face(pips: list[Pip]) -> Face | None:
    """The face a group of pips shows; None when the group is no face (more than six pips)."""
    n = len(pips)
    if n == 0 or n > 6:
        return None
    points = np.array([(p.x, p.y) for p in pips])
    center = tuple(points.mean(axis=0))
    diameters = np.array([p.diameter for p in pips])
    if n == 1:
        return Face(1, center, SIDE_PER_PIP * pips[0].diameter, 0.9, pips)
    span = max(np.hypot(*(p - q)) for p, q in itertools.combinations(points, 2))
    error = _layout_error(points)
    size_spread = float(diameters.std() / diameters.mean())
    confidence = float(np.clip(1.0 - 2.0 * error - 1.0 * size_spread, 0.0, 1.0))
    return Face(n, center, SIDE_PER_SPAN * span, confidence, pips)


FACE_RING = 1.7  # pip diameters: still on the die around a lone pip
OFF_DIE_RING = 3.6  # pip diameters: past the edge of the die around a lone pip
_ANGLES = np.linspace(0, 2 * np.pi, 16, endpoint=False)


def _ring(image: np.ndarray, pip: Pip, radius: float) -> np.ndarray:
    xs = np.clip(np.rint(pip.x + radius * np.cos(_ANGLES)), 0, image.shape[1] - 1).astype(int)
    ys = np.clip(np.rint(pip.y + radius * np.sin(_ANGLES)), 0, image.shape[0] - 1).astype(int)
    return image[ys, xs].astype(np.float32)


def lone_pip_on_a_die(image: np.ndarray, pip: Pip) -> bool:
    """A lone pip is a 1 only when an even face surrounds it and that face ends a few pips away:
    a speck on the table or a glint on a die's edge has the same surface all around, far out."""
    face = _ring(image, pip, FACE_RING * pip.diameter)
    colour = np.median(face, axis=0)
    if np.count_nonzero(np.abs(face - colour).max(axis=1) > max(25.0, 0.6 * pip.contrast)) > 3:
        return False
    outside = _ring(image, pip, OFF_DIE_RING * pip.diameter)
    return np.count_nonzero(np.abs(outside - colour).max(axis=1) > 20.0) >= 4
