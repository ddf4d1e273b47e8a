"""Group pips into faces: two pips share a face when they are alike and the face between them is even.

Distance alone cannot tell a 2 (pips far apart) from two touching dice (pips close together), so the
test looks at the pixels on the straight line between the two pips: one face shows one even colour
there; a gap, an edge or another die's colour breaks it.
"""
from __future__ import annotations

import numpy as np

from .candidates import Pip

MAX_SPAN = 6.5  # farthest two pips of one face, in pip diameters (the diagonal of a 2 is about 5.5)
MAX_SIZE_RATIO = 1.8
STEP_TOLERANCE = 0.45  # a sample breaks the face when it differs by this share of the pip contrast...
MIN_STEP = 18.0  # ...and by at least this many grey levels
MAX_BROKEN = 0.12
HALO = 2.0  # pixels around a pip that still carry its blur
SHAPE_MIN_DIAMETER = 4.5  # smaller pips are too few pixels to tell their shape
MAX_ASPECT_DIFFERENCE = 0.25  # share of samples allowed to break the face (glare, texture)


def _segment_even(image: np.ndarray, a: Pip, b: Pip, pips: list[Pip], tolerance: float) -> bool:
    dx, dy = b.x - a.x, b.y - a.y
    length = float(np.hypot(dx, dy))
    count = max(4, int(length))
    t = np.linspace(0.0, 1.0, count)
    xs, ys = a.x + t * dx, a.y + t * dy
    keep = np.ones(count, bool)
    for pip in pips:
        if abs(pip.x - (a.x + b.x) / 2) > length / 2 + pip.diameter or abs(pip.y - (a.y + b.y) / 2) > length / 2 + pip.diameter:
            continue
        keep &= np.hypot(xs - pip.x, ys - pip.y) > 0.5 * pip.diameter + HALO
    if np.count_nonzero(keep) < 3:
        return True
    xi = np.clip(np.rint(xs[keep]).astype(int), 0, image.shape[1] - 1)
    yi = np.clip(np.rint(ys[keep]).astype(int), 0, image.shape[0] - 1)
    samples = image[yi, xi].astype(np.float32)
    reference = np.median(samples, axis=0)
    off = np.abs(samples - reference).max(axis=1) > tolerance
    if np.count_nonzero(off) > MAX_BROKEN * len(off):
        return False
    return not np.any(off[1:] & off[:-1])  # two neighbouring samples off: an edge or a gap


def _alike_shape(a: Pip, b: Pip) -> bool:
    """Pips on one face are foreshortened alike; a side face seen at a slant squashes its pips more."""
    if min(a.diameter, b.diameter) < SHAPE_MIN_DIAMETER:
        return True
    if abs(a.aspect - b.aspect) > MAX_ASPECT_DIFFERENCE:
        return False
    if max(a.aspect, b.aspect) < 0.8:
        turn = abs(a.angle - b.angle) % np.pi
        return min(turn, np.pi - turn) < np.radians(35)
    return True


def group_faces(image: np.ndarray, pips: list[Pip]) -> list[list[Pip]]:
    """Pips joined into faces (connected groups of pairs that pass the even-face test)."""
    n = len(pips)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if n < 2:
        return [[p] for p in pips]
    xy = np.array([(p.x, p.y) for p in pips])
    d = np.array([p.diameter for p in pips])
    dist = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    big, small = np.maximum(d[:, None], d[None, :]), np.minimum(d[:, None], d[None, :])
    near = (dist <= MAX_SPAN * big) & (big <= MAX_SIZE_RATIO * small)
    for i, j in zip(*np.nonzero(np.triu(near, 1))):
        a, b = pips[i], pips[j]
        if not _alike_shape(a, b):
            continue
        tolerance = max(MIN_STEP, STEP_TOLERANCE * min(a.contrast, b.contrast))
        if root(i) != root(j) and _segment_even(image, a, b, pips, tolerance):
            parent[root(i)] = root(j)
    groups: dict[int, list[Pip]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(pips[i])
    return list(groups.values())
