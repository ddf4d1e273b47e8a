"""What the recogniser compares: features of a die's canonical crop that survive light, turn and blur.

Light: the crop is divided by the die's own body colour (the median of its margin), so a dimmer or warmer
light changes nothing the features see. Turn: the crop is square to the die's edges, so only quarter
turns remain, and the shape template is compared in all four. Colour and ring profiles are unchanged by
any turn. Blur: everything is sampled coarsely.
"""
from __future__ import annotations

import dataclasses

import cv2
import numpy as np

CROP_PX = 40
TEMPLATE_PX = 12
HIST_BINS = 8
RINGS = 6
NEUTRAL = 200.0


@dataclasses.dataclass
class Features:
    colour: np.ndarray  # sqrt of a colour histogram of the icon, by a*b* and by L
    templates: np.ndarray  # (4, n): the icon's shape and colour on a coarse grid, in each quarter turn
    rings: np.ndarray  # how much icon lies at each distance from the centre


def _band_mask(size: int) -> np.ndarray:
    yy, xx = np.mgrid[0:size, 0:size] + 0.5
    edge = np.minimum(np.minimum(xx, size - xx), np.minimum(yy, size - yy))
    return edge < size * 0.12


_BAND = _band_mask(CROP_PX)
_YY, _XX = np.mgrid[0:CROP_PX, 0:CROP_PX] + 0.5
_RADIUS = np.hypot(_XX - CROP_PX / 2, _YY - CROP_PX / 2) / (CROP_PX / 2)
_RING_FLAT = np.minimum((_RADIUS * RINGS / 1.2).astype(int), RINGS - 1).ravel()
_RING_AREA = np.bincount(_RING_FLAT, minlength=RINGS)
# Where each value of a flattened (TEMPLATE_PX, TEMPLATE_PX, 4) template comes from, in each quarter turn.
_TURNS = np.stack([np.rot90(np.arange(TEMPLATE_PX * TEMPLATE_PX * 4).reshape(TEMPLATE_PX, TEMPLATE_PX, 4), k)
                   .ravel() for k in range(4)])


def body_colour(crop_bgr: np.ndarray) -> np.ndarray:
    band = crop_bgr[_BAND]
    middle = len(band) // 2
    return np.partition(band, middle, axis=0)[middle].astype(np.float32)


CLIPPED = 250  # a body this bright in any channel is overexposed: its hue is not what the camera saw


def body_tint(crop_bgr: np.ndarray) -> np.ndarray | None:
    """The hue of the die's body as (ln B/G, ln R/G), the same however bright the light: what `extract`
    divides away, so a plain skin-coloured blob would otherwise look like a blank face. None when the body
    is overexposed (a white die in bright light)."""
    body = body_colour(crop_bgr)
    if body.max() >= CLIPPED:
        return None
    body = np.log(np.maximum(body, 8.0))
    return np.array([body[0] - body[1], body[2] - body[1]], np.float32)


def extract(crop_bgr: np.ndarray) -> Features:
    body = np.maximum(body_colour(crop_bgr), 8.0)
    norm = crop_bgr.astype(np.float32) * (NEUTRAL / 255.0 / body)
    lab = cv2.cvtColor(np.minimum(norm, 1.0, out=norm), cv2.COLOR_BGR2LAB)
    lab[:, :, 0] -= 80.0  # the neutral body's lightness: now 0 means "like the die"
    light, a, b = lab[:, :, 0], lab[:, :, 1], lab[:, :, 2]
    strength = cv2.sqrt(0.5 * light * light + a * a + b * b)
    ink = cv2.min(cv2.max((strength - 8.0) * (1 / 14.0), 0.0), 1.0)
    weight = ink.ravel() * (1.0 / ink.size)
    ab = cv2.min(cv2.max((lab[:, :, 1:] + 64.0) * (HIST_BINS / 128), 0.0), HIST_BINS - 0.5).astype(np.int32)
    ab_hist = np.bincount((ab[:, :, 0] * HIST_BINS + ab[:, :, 1]).ravel(), weights=weight,
                          minlength=HIST_BINS * HIST_BINS)
    ab_hist = cv2.GaussianBlur(ab_hist.reshape(HIST_BINS, HIST_BINS).astype(np.float32), (3, 3), 0.7)
    l_bin = cv2.min(cv2.max((light + 80.0) * (6 / 100), 0.0), 5.5).astype(np.int32).ravel()
    l_hist = np.bincount(l_bin, weights=weight, minlength=6)
    colour = np.sqrt(np.concatenate([ab_hist.ravel(), l_hist.astype(np.float32)]))
    rings = np.bincount(_RING_FLAT, weights=ink.ravel(), minlength=RINGS) / _RING_AREA
    planes = cv2.merge([ink, light * (1 / 60.0) * ink, a * (1 / 40.0), b * (1 / 40.0)])
    small = cv2.resize(planes, (TEMPLATE_PX, TEMPLATE_PX), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0.6)
    templates = small.ravel()[_TURNS]
    return Features(colour.astype(np.float32), templates.astype(np.float32), rings.astype(np.float32))


def stack(features: list[Features]) -> dict[str, np.ndarray]:
    template = np.stack([f.templates[0] for f in features])
    return {
        "colour": np.stack([f.colour for f in features]),
        "template": template,
        "template_sq": (template ** 2).sum(axis=1),
        "rings": np.stack([f.rings for f in features]),
    }


def distances(query: Features, bank: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each part's distance from one query to every example in a bank (from `stack`)."""
    colour = np.linalg.norm(bank["colour"] - query.colour, axis=1)
    # |a - b|² = |a|² + |b|² - 2 a·b, for every example against the query in each quarter turn at once
    cross = bank["template"] @ query.templates.T
    sq = bank["template_sq"][:, None] + (query.templates ** 2).sum(axis=1)[None, :] - 2 * cross
    template = np.sqrt(np.maximum(sq.min(axis=1), 0) / query.templates.shape[1])
    rings = np.linalg.norm(bank["rings"] - query.rings, axis=1)
    return {"colour": colour, "template": template, "rings": rings}


def motion_blurred(crop_bgr: np.ndarray, length: int, angle_deg: float) -> np.ndarray:
    """The crop as a die moving `length` crop pixels along `angle_deg` would smear it."""
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0
    rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), angle_deg, 1.0)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    return cv2.filter2D(crop_bgr, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REPLICATE)


BLUR_VARIANTS = tuple((length, angle) for length in (4, 7) for angle in (0, 45, 90, 135))
