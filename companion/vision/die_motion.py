"""Continuous mode: which dice read in a zone are still moving.

A die read while it tumbles shows a blurred face, or one halfway through a turn. The pip reader was made
for dice at rest: blurred by 7 px, nell-byler's dev photos read 16 dice silently wrong, against 4, and on
generated rolls it read 149 of 2,160 tumbling dice sure and wrong. So each die read in a zone is compared
with the frame before, inside its own box, and a die whose box changed is marked unsure. A reader that
reads moving dice itself (`reads_moving_dice`, the symbol readers) is left alone.
"""
from __future__ import annotations

import dataclasses
from typing import Sequence

import numpy as np

from ..events import DieReading
from .settle import MotionMeter, MotionSettings
from .tray import Box, crop_to_tray

MOVED_FROM = 0.02
"""The share of a die's window (its box and `MARGIN` around it) that must change for the die to count as
moving. On 16 generated rolls one of 1,911 dice at rest changed more than that (0.05 of its window); a
tumbling die changes a median of 0.37, and the 5% that change less are about to stop."""

MARGIN = 0.15
"""How far around its box a die's window reaches, as a share of the box's longer side: the blur of a moving
die reaches past the face the reader boxed."""


class DieMotion:
    """Compares each frame of one zone with the one before and marks the dice read in it that moved.

    A die seen for the first time counts as moving: nothing yet shows that it lies still.
    """

    def __init__(self, zone: Box, settings: MotionSettings = MotionSettings()):
        self.zone = zone
        self.meter = MotionMeter(None, settings)
        self._previous: np.ndarray | None = None

    def mark(self, image: np.ndarray, dice: Sequence[DieReading]) -> list[DieReading]:
        cropped = crop_to_tray(image, self.zone)
        if cropped is None:
            self._previous = None
            return [_unsure(d) for d in dice]
        part, left, top = cropped
        small = self.meter.prepare(part)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return [_unsure(d) for d in dice]
        changed = np.abs(small - previous * _gain(small, previous)) > self.meter.settings.pixel_threshold
        scale = small.shape[1] / part.shape[1]
        return [_unsure(d) if _moved(changed, d, left, top, scale) else d for d in dice]


def _gain(small: np.ndarray, previous: np.ndarray) -> float:
    """How much brighter this frame is than the one before, over most of the zone. The meter scales each
    frame to its mean, against flicker; a hand coming into one corner of the zone would shift that mean and
    make every die in it look changed, so the gain between frames is taken where most pixels agree."""
    return float(np.median(small / np.maximum(previous, 1.0)))


def _moved(changed: np.ndarray, die: DieReading, left: int, top: int, scale: float) -> bool:
    x0, y0, x1, y1 = die.box
    margin = MARGIN * max(x1 - x0, y1 - y0)
    window = changed[max(0, int(np.floor((y0 - margin - top) * scale))):int(np.ceil((y1 + margin - top) * scale)),
                     max(0, int(np.floor((x0 - margin - left) * scale))):int(np.ceil((x1 + margin - left) * scale))]
    return window.size == 0 or float(window.mean()) >= MOVED_FROM


def _unsure(die: DieReading) -> DieReading:
    return die if die.unsure else dataclasses.replace(die, unsure=True)
