"""Pip candidates: small round blobs darker or lighter than their surroundings, at several scales.

Each pyramid level looks for blobs about 3–8 px across against a local mean over a window a few pips
wide, so one level covers one octave of pip sizes and the reader works from tiny to large dice without
a size setting.
"""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np

WINDOW = 13  # local-mean window at every level, in level pixels: about three pips
MIN_CONTRAST = 22.0  # grey levels between a pip and its local mean
MIN_AREA = 5
MAX_AREA = 70
SPLIT_STEP = 1.4
SPLIT_LIMIT = 4.0
SPLIT_MAX_AREA = 400
RING_SAMPLES = 16
RING_OUTLIERS = 3  # ring samples allowed to fail (glare, a neighbouring pip)
RING_EVENNESS = 1.2  # spread of the ring (10th–90th percentile) relative to the pip's contrast
LEVEL_MAX_DIAMETER = 8.5  # blobs wider than this at one level are left to the next, coarser level


@dataclasses.dataclass
class Pip:
    x: float
    y: float
    diameter: float  # equivalent-circle diameter, frame pixels
    dark: bool  # dark pip on a lighter face
    contrast: float  # mean grey difference from the local mean
    aspect: float  # minor / major axis, 1 = round
    angle: float  # major-axis angle, radians
    level: int


def _contrast_maps(smooth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How much darker / lighter than the local mean each pixel is, in its most telling channel."""
    mean = cv2.blur(smooth, (WINDOW, WINDOW))
    darker = cv2.split(cv2.subtract(mean, smooth))
    lighter = cv2.split(cv2.subtract(smooth, mean))
    return (cv2.max(cv2.max(darker[0], darker[1]), darker[2]),
            cv2.max(cv2.max(lighter[0], lighter[1]), lighter[2]))


def _blobs(image: np.ndarray, scale: float, level: int, smooth: np.ndarray | None = None) -> list[Pip]:
    """Blobs darker (or lighter) than their local mean in any colour channel, with an even ring around."""
    if smooth is None:
        smooth = cv2.GaussianBlur(image, (3, 3), 0) if level == 0 else image
    found: list[Pip] = []
    for dark, contrast in zip((True, False), _contrast_maps(smooth)):
        blobs = list(_round_blobs(contrast, MIN_CONTRAST, 0, 0))
        if not blobs:
            continue
        centres = np.array([(x + cx, y + cy) for _, x, y, _, cx, cy in blobs], np.float32)
        diameters = np.array([2.0 * np.sqrt(area / np.pi) for _, _, _, area, _, _ in blobs], np.float32)
        keep = _ringed(smooth, contrast, centres, diameters)
        if level < 2:
            keep &= diameters <= LEVEL_MAX_DIAMETER
        for k in np.flatnonzero(keep):
            roi, x, y, area, _, _ = blobs[k]
            h, w = roi.shape
            m = cv2.moments(roi.view(np.uint8), binaryImage=True)
            mu20, mu02, mu11 = m["mu20"] / area, m["mu02"] / area, m["mu11"] / area
            common = np.sqrt(max(0.0, ((mu20 - mu02) / 2) ** 2 + mu11 ** 2))
            major = (mu20 + mu02) / 2 + common
            minor = (mu20 + mu02) / 2 - common
            aspect = float(np.sqrt(max(minor, 1e-6) / max(major, 1e-6)))
            angle = 0.5 * float(np.arctan2(2 * mu11, mu20 - mu02))
            strength = float(contrast[y:y + h, x:x + w][roi].mean())
            cx, cy = centres[k]
            found.append(Pip((cx + 0.5) * scale - 0.5, (cy + 0.5) * scale - 0.5, float(diameters[k]) * scale,
                             dark, strength, aspect, angle, level))
    return found


def _round_blobs(contrast: np.ndarray, threshold: float, ox: int, oy: int):
    """(mask, x, y, area, cx, cy) of compact blobs above `threshold` (cx, cy relative to x, y); a blob
    too long or too big is split by raising the threshold inside it (pips of a 6 on a small die blur
    into one another)."""
    _, mask = cv2.threshold(contrast, threshold, 1, cv2.THRESH_BINARY)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if count <= 1:
        return
    xs, ys, ws, hs, areas = stats[1:].T
    compact = (ws <= 2 * hs + 1) & (hs <= 2 * ws + 1) & (areas >= 0.5 * ws * hs) & (areas <= MAX_AREA)
    splittable = ~compact & (areas <= SPLIT_MAX_AREA) & (threshold < SPLIT_LIMIT * MIN_CONTRAST)
    for i in np.flatnonzero((areas >= MIN_AREA) & (compact | splittable)) + 1:
        x, y, w, h, area = stats[i]
        own = labels[y:y + h, x:x + w] == i
        if compact[i - 1]:
            yield own, x + ox, y + oy, int(area), centroids[i][0] - x, centroids[i][1] - y
        else:
            inside = np.where(own, contrast[y:y + h, x:x + w], 0).astype(np.uint8)
            yield from _round_blobs(inside, threshold * SPLIT_STEP, x + ox, y + oy)


_ANGLES = np.linspace(0, 2 * np.pi, RING_SAMPLES, endpoint=False)
_COS, _SIN = np.cos(_ANGLES), np.sin(_ANGLES)


def _ringed(image: np.ndarray, contrast: np.ndarray, centres: np.ndarray, diameters: np.ndarray) -> np.ndarray:
    """Which blobs lie inside one face: a ring just outside each is even, and clearly unlike the blob."""
    radius = diameters / 2 + np.maximum(1.5, 0.4 * diameters)
    height, width = image.shape[:2]
    xs = np.clip(np.rint(centres[:, :1] + radius[:, None] * _COS), 0, width - 1).astype(int)
    ys = np.clip(np.rint(centres[:, 1:] + radius[:, None] * _SIN), 0, height - 1).astype(int)
    ring = image[ys, xs].astype(np.float32)  # blobs × samples × channels
    cx = np.clip(np.rint(centres[:, 0]), 0, width - 1).astype(int)
    cy = np.clip(np.rint(centres[:, 1]), 0, height - 1).astype(int)
    colour = image[cy, cx].astype(np.float32)
    strength = contrast[cy, cx].astype(np.float32)
    step = np.abs(ring - colour[:, None, :]).max(axis=2)
    enough = np.count_nonzero(step < 0.5 * strength[:, None], axis=1) <= RING_OUTLIERS
    spread = np.abs(ring - np.median(ring, axis=1, keepdims=True)).max(axis=2)
    even = np.sort(spread, axis=1)[:, int(0.8 * RING_SAMPLES)] < 0.5 * RING_EVENNESS * np.maximum(strength, step.mean(axis=1))
    return enough & even


def find_pips(image: np.ndarray, levels: int = 3, smooth: np.ndarray | None = None) -> list[Pip]:
    """Pip-like blobs at `levels` octaves; a blob found at two levels is kept once, at the finer one."""
    pips: list[Pip] = []
    for level in range(levels):
        if level:
            if min(image.shape[:2]) < 2 * WINDOW:
                break
            image = cv2.pyrDown(image)
        scale = float(2 ** level)
        finer = list(pips)
        for pip in _blobs(image, scale, level, smooth if level == 0 else None):
            if any(abs(p.x - pip.x) < reach and abs(p.y - pip.y) < reach
                   and np.hypot(p.x - pip.x, p.y - pip.y) < 0.5 * (p.diameter + pip.diameter) + scale
                   for p in finer for reach in (0.5 * (p.diameter + pip.diameter) + scale,)):
                continue
            pips.append(pip)
    return pips
