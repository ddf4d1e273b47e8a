"""Other photos of the same kinds, made from a labelled set's own: turned, rescaled, relit or re-compressed,
with the labels moved along.

The dev photos are also the networks' training photos, so the reader's figures on them say more about those
files than about dice in general, and the held-out quarter is small. A camera mounted on another side of
the table, set higher or lower, in a dimmer room or sending rougher JPEG gives the same dice in photos the
reader never saw. `python -m companion.vision.evaluate SET --vary NAME` scores the reader on them.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from .evaluate import LabelledDie

Dice = tuple[LabelledDie, ...]
Variant = Callable[[np.ndarray, Dice], tuple[np.ndarray, Dice]]


def _turn(quarter_turns: int) -> Variant:
    """Clockwise quarter turns, as a camera mounted on another side of the table sees the tray."""
    def turn(frame: np.ndarray, dice: Dice) -> tuple[np.ndarray, Dice]:
        for _ in range(quarter_turns):
            height = frame.shape[0]
            frame = np.ascontiguousarray(np.rot90(frame, -1))
            dice = tuple(LabelledDie(d.value, (height - d.box[3], d.box[0], height - d.box[1], d.box[2])) for d in dice)
        return frame, dice
    return turn


def _scale(factor: float) -> Variant:
    """The camera further away (factor < 1) or closer: every die smaller or larger."""
    def scale(frame: np.ndarray, dice: Dice) -> tuple[np.ndarray, Dice]:
        import cv2

        height, width = frame.shape[:2]
        size = (max(1, round(width * factor)), max(1, round(height * factor)))
        resized = cv2.resize(frame, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR)
        fx, fy = size[0] / width, size[1] / height
        return resized, tuple(LabelledDie(d.value, (d.box[0] * fx, d.box[1] * fy, d.box[2] * fx, d.box[3] * fy)) for d in dice)
    return scale


def _light(gain: float) -> Variant:
    def light(frame: np.ndarray, dice: Dice) -> tuple[np.ndarray, Dice]:
        return np.clip(frame.astype(np.float32) * gain, 0, 255).astype(np.uint8), dice
    return light


def _jpeg(quality: int) -> Variant:
    def jpeg(frame: np.ndarray, dice: Dice) -> tuple[np.ndarray, Dice]:
        import cv2

        ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise ValueError("cannot encode the photo as JPEG")
        return cv2.imdecode(encoded, cv2.IMREAD_COLOR), dice
    return jpeg


VARIANTS: dict[str, Variant] = {
    "turn90": _turn(1),
    "turn180": _turn(2),
    "turn270": _turn(3),
    "smaller": _scale(0.7),
    "larger": _scale(1.4),
    "darker": _light(0.6),
    "brighter": _light(1.3),
    "jpeg": _jpeg(40),
}


def vary(frame: np.ndarray, dice: Dice, name: str) -> tuple[np.ndarray, Dice]:
    """The photo and its labels as variant `name` (one of VARIANTS) shows them."""
    if name not in VARIANTS:
        raise ValueError(f"unknown photo variant {name!r}; choose from: {', '.join(VARIANTS)}")
    return VARIANTS[name](frame, dice)
