"""The side face under a die showing 1, seen by a camera at an angle, is not a die.

A camera tilted towards the tray sees the side face below each die's top face. The classifier turns most
of those down because the top face's pips show at the top of the crop, but a 1 has its one pip in the
middle, out of the side face's crop: the side face under a 1 reads as a clean face. Such a die is
suspect when it lies below the 1, about one face away, and the camera is tilted; the tilt is
read from the 1's own pip, a disc that the tilt squeezes into an ellipse whose short axis is upright.
(Straight down, a die one face below a 1 is a die in front of it, and a wider look at it would see the
1's die too, so the check is kept to tilted views.) A die away from the middle of the view shows its side
face aside as well as below, up to half a face in matteop65's webcam photos.
"""
from __future__ import annotations

import math

import numpy as np

from .pip_of_one import ellipse_of

ACROSS = 0.6  # at most this many of the 1's face sizes sideways (off-centre dice show it aside) ...
BELOW = (0.5, 1.2)  # ... and this far below it (dev split)
LEAST_TILT_DEG = 35.0  # side faces of a less tilted view are too thin to read as a face
UPRIGHT_WITHIN_DEG = 30.0  # the pip ellipse's long axis is this close to level


def lies_below(candidate, top) -> bool:
    """Whether `candidate` (centre, size) lies where the side face under `top`'s face shows."""
    across = abs(candidate.center[0] - top.center[0])
    below = candidate.center[1] - top.center[1]
    return across <= ACROSS * top.size and BELOW[0] * top.size <= below <= BELOW[1] * top.size


def tilt_from_one(image_bgr: np.ndarray, center: tuple[float, float], size: float) -> float | None:
    """The camera's tilt from vertical, in degrees, as a 1's pip shows it: the pip's axis ratio is the
    cosine of the tilt. None when the pip cannot be told from the face, or lies askew (the face is then
    not level, or the blob is not the pip)."""
    import cv2

    side = max(8, int(round(0.7 * size)))
    patch = cv2.getRectSubPix(image_bgr, (side, side), (float(center[0]), float(center[1])))
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    border = np.ones((side, side), bool)
    inner = side // 4
    border[inner:-inner, inner:-inner] = False
    distance = np.linalg.norm(lab - np.median(lab[border], axis=0), axis=2)
    if distance.max() < 10:
        return None
    scaled = (distance * (255 / distance.max())).astype(np.uint8)
    _, mask = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        return None
    middle = side / 2
    pip = min(range(1, count), key=lambda i: (centres[i][0] - middle) ** 2 + (centres[i][1] - middle) ** 2)
    if math.dist(centres[pip], (middle, middle)) > 0.15 * size or stats[pip, cv2.CC_STAT_AREA] < 6:
        return None
    ellipse = ellipse_of(labels == pip)
    if ellipse.ratio < 0.95 and ellipse.level_deg > UPRIGHT_WITHIN_DEG:
        return None
    return ellipse.tilt_deg


def suspects(image_bgr: np.ndarray, kept: list) -> list[int]:
    """Indexes into `kept` ((candidate, (value, confidence)) pairs) of dice that may be the side face
    under a 1 seen at a tilt of at least LEAST_TILT_DEG."""
    ones = [c for c, (value, _) in kept if value == 1]
    below = [(i, [one for one in ones if one is not c and lies_below(c, one)]) for i, (c, _) in enumerate(kept)]
    below = [(i, tops) for i, tops in below if tops]
    if not below:
        return []
    tilts = {}
    for _, tops in below:
        for top in tops:
            if id(top) not in tilts:
                tilts[id(top)] = tilt_from_one(image_bgr, top.center, top.size)
    return [i for i, tops in below if any((tilts[id(top)] or 0.0) >= LEAST_TILT_DEG for top in tops)]
