"""Finding symbol dice on the tray: plain cubes of one colour that stand out from the tray cloth.

The tray colour is taken from the border of the zone (dice seldom cover it), everything far enough from it
in colour is a die, holes (the icons) are filled. A blob of dice lying against each other is cut along the
darker seams between them, or failing that into as many parts as its area holds dice, by k-means on its
pixels. The die side comes from the dice lying alone, else from the cut pieces.
"""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np

FIND_WIDTH = 360  # zones wider than this are searched at reduced size
BACKGROUND_DISTANCE = 30.0  # L1 in 8-bit YCrCb, brightness weighted 0.6
MIN_SIDE_PX = 18
SEAM_LEVEL = 0.86  # share of a die's top brightness below which its edge counts as a seam
CORE_SHARE = 0.87  # the bright top of a die, eroded, as a share of its side (measured)


@dataclasses.dataclass(frozen=True)
class FoundDie:
    center: tuple[float, float]
    side: float
    angle: float  # degrees, modulo 90
    box: tuple[float, float, float, float]


def _tray_colour(image: np.ndarray) -> np.ndarray:
    border = np.concatenate([image[:2].reshape(-1, 3), image[-2:].reshape(-1, 3),
                             image[:, :2].reshape(-1, 3), image[:, -2:].reshape(-1, 3)])
    return np.median(border, axis=0)


def foreground(roi_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mask, brightness): mask is 255 where the zone shows something that is not tray cloth, holes filled."""
    ycc = cv2.cvtColor(roi_bgr, cv2.COLOR_BGR2YCrCb)  # several times cheaper than Lab, as good here
    tray = tuple(float(v) for v in _tray_colour(ycc)) + (0.0,)
    diff = cv2.absdiff(ycc, tray)
    # Light falls off across the tray: brightness counts less than colour.
    dist = cv2.transform(diff, np.array([[0.6, 1.0, 1.0]], np.float32))
    _, mask = cv2.threshold(dist, BACKGROUND_DISTANCE, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return _filled(mask), ycc[:, :, 0]


def _filled(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    return filled


def _squareish(contour: np.ndarray, area: float) -> bool:
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    return min(w, h) > 0 and max(w, h) / min(w, h) < 1.25 and area / (w * h) > 0.8


def _seam_pieces(brightness: np.ndarray, contour: np.ndarray, min_area: float) -> list[np.ndarray]:
    """Cut a blob of touching dice along the seams between them: the rounded edges of a die are darker
    than its top, so keeping only the bright top of each die leaves one piece per die."""
    x, y, w, h = cv2.boundingRect(contour)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, cv2.FILLED, offset=(-x, -y))
    patch = brightness[y:y + h, x:x + w]
    values = patch[blob > 0]
    level = float(np.partition(values, len(values) * 3 // 4)[len(values) * 3 // 4])
    core = ((patch >= SEAM_LEVEL * level) & (blob > 0)).astype(np.uint8) * 255
    core = cv2.erode(_filled(core), np.ones((3, 3), np.uint8))  # break the bridges across thin seams
    pieces, _ = cv2.findContours(core, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    # A dark icon reaching a seam leaves a bite out of the top; a die's top is convex.
    hulls = [cv2.convexHull(p) for p in pieces]
    return [h + (x, y) for h in hulls if cv2.contourArea(h) >= min_area]


def _kmeans_split(shape, contour: np.ndarray, count: int) -> list[np.ndarray]:
    blob = np.zeros(shape, np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, cv2.FILLED)
    ys, xs = np.nonzero(blob[::2, ::2])
    points = np.stack([xs, ys], 1).astype(np.float32) * 2
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(count)  # the same frame always splits the same way
    _, labels, _ = cv2.kmeans(points, count, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    return [points[labels.ravel() == k] for k in range(count)]


def _die_from_points(points: np.ndarray) -> tuple[tuple[float, float], float]:
    (cx, cy), (_, _), angle = cv2.minAreaRect(points.astype(np.float32))
    return (cx, cy), angle % 90


def _lone(contour: np.ndarray, area: float, pieces: list[np.ndarray]) -> bool:
    """A blob that is one die: square, and not cut into several big pieces by seams."""
    return _squareish(contour, area) and sum(cv2.contourArea(p) >= 0.15 * area for p in pieces) <= 1


def _die_side(blobs, side_hint: float | None) -> float | None:
    """The die side in the searched image: from lone dice, else from cut tops, else the hint."""
    singles = [a for c, a, pieces in blobs if _lone(c, a, pieces)]
    if singles:
        return float(np.median(np.sqrt(singles)))
    tops = [cv2.contourArea(p) for c, a, pieces in blobs for p in pieces
            if cv2.contourArea(p) >= 0.15 * a and _squareish(p, cv2.contourArea(p))]
    if tops:
        return float(np.median(np.sqrt(tops))) / CORE_SHARE
    if side_hint:
        return side_hint
    return float(np.sqrt(min(a for _, a, _ in blobs))) if blobs else None


def _dice_in_blob(blob, side: float, shape) -> list[np.ndarray]:
    """The point sets of the dice in one blob: itself, its seam-cut tops, or k-means parts."""
    contour, area, pieces = blob
    count = int(round(area / (side * side)))
    if area < 0.4 * side * side:
        return []
    if count <= 1 or _lone(contour, area, pieces) and area < 1.5 * side * side:
        return [contour.reshape(-1, 2)]
    top_area = (side * CORE_SHARE) ** 2
    tops = [(p, int(round(cv2.contourArea(p) / top_area))) for p in pieces
            if cv2.contourArea(p) >= 0.5 * top_area and _squareish(p, cv2.contourArea(p))]
    if sum(k for _, k in tops) != count:
        tops = [(contour, count)]
    out = []
    for piece, k in tops:
        out += [piece.reshape(-1, 2)] if k <= 1 else _kmeans_split(shape, piece, k)
    return out


def find_dice(frame_bgr: np.ndarray, tray: tuple[int, int, int, int] | None = None,
              side_hint: float | None = None) -> list[FoundDie]:
    """Every die in the tray region, in frame pixels, sorted top to bottom then left to right."""
    fh, fw = frame_bgr.shape[:2]
    x0, y0, x1, y1 = tray if tray is not None else (0, 0, fw, fh)
    x0, y0, x1, y1 = max(0, int(x0)), max(0, int(y0)), min(fw, int(x1)), min(fh, int(y1))
    roi = frame_bgr[y0:y1, x0:x1]
    if roi.size == 0:
        return []
    step = max(1, int(np.ceil(roi.shape[1] / FIND_WIDTH)))
    scale = 1.0 / step
    # Every step-th pixel: the dice are big, and this costs next to nothing.
    small = cv2.resize(roi, (roi.shape[1] // step, roi.shape[0] // step), interpolation=cv2.INTER_NEAREST)
    mask, brightness = foreground(small)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = (MIN_SIDE_PX * scale) ** 2
    blobs = [(c, a, _seam_pieces(brightness, c, min_area / 2))
             for c in contours if (a := cv2.contourArea(c)) >= min_area]
    side = _die_side(blobs, side_hint * scale if side_hint else None)
    if side is None:
        return []
    point_sets = [points for blob in blobs for points in _dice_in_blob(blob, side, mask.shape)]
    found: list[FoundDie] = []
    full_side = side / scale
    for points in point_sets:
        (cx, cy), angle = _die_from_points(points)
        center = (x0 + cx / scale, y0 + cy / scale)
        reach = full_side * 0.5 * (abs(np.cos(np.deg2rad(angle))) + abs(np.sin(np.deg2rad(angle))))
        box = (float(center[0] - reach), float(center[1] - reach), float(center[0] + reach), float(center[1] + reach))
        found.append(FoundDie((float(center[0]), float(center[1])), float(full_side), float(angle), box))
    found.sort(key=lambda d: (round(d.center[1] / max(1.0, d.side)), d.center[0]))
    return _without_doubles(found)


def _without_doubles(found: list[FoundDie]) -> list[FoundDie]:
    """Two dice cannot lie closer than a die's side; a blurred die cut in two is one die."""
    kept: list[FoundDie] = []
    for die in found:
        if all(np.hypot(die.center[0] - k.center[0], die.center[1] - k.center[1]) >= 0.6 * die.side for k in kept):
            kept.append(die)
    return kept


def canonical_crop(frame_bgr: np.ndarray, die: FoundDie, size: int, cover: float = 0.9) -> np.ndarray:
    """The die's top face turned square to the axes, `cover` of its side, as a size×size image."""
    zoom = size / (die.side * cover)
    m = cv2.getRotationMatrix2D(die.center, die.angle, zoom)
    m[:, 2] += (size / 2 - die.center[0], size / 2 - die.center[1])
    return cv2.warpAffine(frame_bgr, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
