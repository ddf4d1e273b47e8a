"""Finding symbol dice on the tray: plain cubes of one colour that stand out from the tray cloth.

The tray colour is taken from the border of the zone (dice seldom cover it), everything far enough from it
in colour is a die, holes (the icons) are filled, and a blob as big as k dice is cut into k by k-means on its
pixels (dice lying against each other). The die side comes from the dice lying alone in the frame.
"""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np

FIND_WIDTH = 360  # zones wider than this are searched at reduced size
BACKGROUND_DISTANCE = 30.0  # L1 in 8-bit YCrCb, brightness weighted 0.6
MIN_SIDE_PX = 18


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


def foreground(roi_bgr: np.ndarray) -> np.ndarray:
    """255 where the zone shows something that is not tray cloth, holes filled."""
    ycc = cv2.cvtColor(roi_bgr, cv2.COLOR_BGR2YCrCb)  # several times cheaper than Lab, as good here
    tray = tuple(float(v) for v in _tray_colour(ycc)) + (0.0,)
    diff = cv2.absdiff(ycc, tray)
    # Light falls off across the tray: brightness counts less than colour.
    dist = cv2.transform(diff, np.array([[0.6, 1.0, 1.0]], np.float32))
    _, mask = cv2.threshold(dist, BACKGROUND_DISTANCE, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, cv2.FILLED)
    return filled


def _squareish(contour: np.ndarray, area: float) -> bool:
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    return min(w, h) > 0 and max(w, h) / min(w, h) < 1.2 and area / (w * h) > 0.82


def _die_side(contours, areas, hint: float | None, min_area: float) -> float | None:
    singles = [np.sqrt(a) for c, a in zip(contours, areas) if a >= min_area and _squareish(c, a)]
    if singles:
        return float(np.median(singles))
    if hint:
        return hint
    big = [a for a in areas if a >= min_area]
    return float(np.sqrt(min(big))) if big else None


def _die_from_points(points: np.ndarray, side: float) -> tuple[tuple[float, float], float]:
    (cx, cy), (_, _), angle = cv2.minAreaRect(points.astype(np.float32))
    return (cx, cy), angle % 90


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
    small = np.ascontiguousarray(roi[::step, ::step])  # every step-th pixel: the dice are big, this is cheap
    mask = foreground(small)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    areas = [cv2.contourArea(c) for c in contours]
    min_area = (MIN_SIDE_PX * scale) ** 2
    side = _die_side(contours, areas, side_hint * scale if side_hint else None, min_area)
    found: list[FoundDie] = []
    for contour, area in zip(contours, areas):
        if side is None or area < max(min_area, 0.4 * side * side):
            continue
        count = max(1, int(round(area / (side * side))))
        if count == 1:
            dice = [_die_from_points(contour.reshape(-1, 2), side)]
        else:
            blob = np.zeros(mask.shape, np.uint8)
            cv2.drawContours(blob, [contour], -1, 255, cv2.FILLED)
            ys, xs = np.nonzero(blob[::2, ::2])
            points = np.stack([xs, ys], 1).astype(np.float32) * 2
            criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
            cv2.setRNGSeed(count)  # the same frame always splits the same way
            _, labels, _ = cv2.kmeans(points, count, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
            dice = [_die_from_points(points[labels.ravel() == k], side) for k in range(count)]
        for (cx, cy), angle in dice:
            full_side = side / scale
            center = (x0 + cx / scale, y0 + cy / scale)
            reach = full_side * 0.5 * (abs(np.cos(np.deg2rad(angle))) + abs(np.sin(np.deg2rad(angle))))
            box = (center[0] - reach, center[1] - reach, center[0] + reach, center[1] + reach)
            found.append(FoundDie(center, float(full_side), float(angle), box))
    found.sort(key=lambda d: (round(d.center[1] / max(1.0, d.side)), d.center[0]))
    return found


def canonical_crop(frame_bgr: np.ndarray, die: FoundDie, size: int, cover: float = 0.9) -> np.ndarray:
    """The die's top face turned square to the axes, `cover` of its side, as a size×size image."""
    zoom = size / (die.side * cover)
    m = cv2.getRotationMatrix2D(die.center, die.angle, zoom)
    m[:, 2] += (size / 2 - die.center[0], size / 2 - die.center[1])
    return cv2.warpAffine(frame_bgr, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
