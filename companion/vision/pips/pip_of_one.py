"""The pip of a die showing 1: the centre of its top face, and the camera's tilt.

A 1's one pip sits in the middle of its top face, so where it lies is where the top face's centre lies,
from any camera. The detector's centre for a die is rougher: a camera at an angle sees the die's side face
below its top face, and the detector's centre slides towards the middle of all it sees, up to a third of a
face below the pip in matteop65's webcam photos. A disc seen at a tilt is an ellipse whose axis ratio is
the cosine of the tilt, so the same pip also tells how steeply the camera looks.
"""
from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

# How far from the detector's centre, in face sizes: matteop65's dev 1s lie within 0.3; beyond it, on the
# scene sweeps, more moves went to another blob than to the pip.
WITHIN = 0.3
LEAST_CONTRAST = 10.0  # distance from the face's colour (BGR); below it no pip is told from the face
LEAST_AREA = 0.003  # of the face size squared (the detector may size a tilted die by its whole height) ...
MOST_AREA = 0.35 ** 2  # ... and at most this
LEAST_ROUNDNESS = 0.4  # short over long axis: a marbled die's swirl is a thin arc, a pip a squeezed disc
LEAST_SOLIDITY = 0.8  # of its convex hull


@dataclasses.dataclass(frozen=True)
class Ellipse:
    ratio: float  # short axis over long axis, 1 for a circle
    level_deg: float  # how far the long axis lies from level, 0–90

    @property
    def tilt_deg(self) -> float:
        return math.degrees(math.acos(min(1.0, self.ratio)))


def ellipse_of(mask: np.ndarray) -> Ellipse:
    """The ellipse with the same second moments as a non-empty binary mask."""
    import cv2

    m = cv2.moments(mask.astype(np.uint8), True)
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    spread = math.hypot((mu20 - mu02) / 2, mu11)
    long_axis, short_axis = (mu20 + mu02) / 2 + spread, max((mu20 + mu02) / 2 - spread, 0.0)
    ratio = math.sqrt(short_axis / long_axis) if long_axis > 0 else 1.0
    return Ellipse(ratio, abs(0.5 * math.degrees(math.atan2(2 * mu11, mu20 - mu02))))


def centre_of_one(image_bgr: np.ndarray, center: tuple[float, float], size: float) -> tuple[float, float] | None:
    """The pip's centre of the 1 the detector found at `center` with face `size`: the blob nearest that
    centre, within WITHIN of a face, that stands out from the face's colour and is shaped like a pip.
    None when there is none (the centre is then best left where the detector put it)."""
    import cv2

    side = max(8, int(round((2 * WITHIN + 0.2) * size)))
    patch = cv2.getRectSubPix(image_bgr, (side, side), (float(center[0]), float(center[1])), patchType=cv2.CV_32F)
    near = _disc(side, int(round(WITHIN * size)))
    difference = patch - np.median(patch[near], axis=0)
    distance = np.sqrt(np.einsum("ijk,ijk->ij", difference, difference))
    peak = float(distance[near].max())
    if peak < LEAST_CONTRAST:
        return None
    _, mask = cv2.threshold(cv2.convertScaleAbs(distance, alpha=255 / peak), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    middle = (side - 1) / 2
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    x, y, w, h, area = stats[1:].T
    away = np.hypot(centres[1:, 0] - middle, centres[1:, 1] - middle)
    inside = (x > 0) & (y > 0) & (x + w < side) & (y + h < side) & (away <= WITHIN * size)
    sized = (area >= max(4.0, LEAST_AREA * size * size)) & (area <= MOST_AREA * size * size)
    for i in np.flatnonzero(inside & sized)[np.argsort(away[inside & sized])] + 1:
        blob = labels == i
        if ellipse_of(blob).ratio >= LEAST_ROUNDNESS and _solidity(blob) >= LEAST_SOLIDITY:
            return float(center[0] - middle + centres[i, 0]), float(center[1] - middle + centres[i, 1])
    return None


@functools.lru_cache(maxsize=64)
def _disc(side: int, radius: int) -> np.ndarray:
    yy, xx = np.ogrid[0:side, 0:side]
    middle = (side - 1) / 2
    return (xx - middle) ** 2 + (yy - middle) ** 2 <= radius ** 2


def _solidity(blob: np.ndarray) -> float:
    import cv2

    contours, _ = cv2.findContours(blob.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.contourArea(cv2.convexHull(max(contours, key=cv2.contourArea)))
    return 1.0 if hull <= 0 else min(1.0, float(blob.sum()) / hull)
