"""Settled rolls: read the dice once, when they have stopped moving.

Motion is found by frame differencing inside the tray, on a small, blurred grey copy whose brightness is
normalised to its mean (so lighting flicker and auto-exposure steps are not motion) with a per-pixel
threshold well above sensor noise. The detector keeps the first frame of the current still period as its
reference; any frame that differs from it starts a new still period, so slow creeping counts as motion.

When the tray has been still for `settle_ms` (measured only with the frames' own `t`), the reader runs
once and one `DiceSettled` is produced, if the reader found dice. While dice roll or a hand moves in the
tray nothing is produced. After a roll has fired, the tray is read again only once it has changed against
the picture of that roll, and what is read is a new roll only if some die lies elsewhere or shows another
face (`part_of_the_roll`). So the same dice lying still, a hand passing by, a lamp switched on, an arm's
shadow, a bumped table, a sleeve nudging a die, some of the dice taken out, or a camera nudged on its mount
or back at another size over three dice or more (all moved alike: `seen_anew`) do not fire again; picking the
dice up and rolling again does.

With `reading` off (a game without pip dice on the table) the tray is watched but never read: each still
tray is taken as seen, so what lies there when reading starts again is read only once it has moved.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Protocol

import cv2
import numpy as np

from ..events import DiceSettled, DieReading
from .sources import Frame
from .tray import Box, crop_to_tray


SAME_PLACE = 0.5  # of a face: a die read this close to where a die of the last roll lay can be that die


def part_of_the_roll(dice, roll) -> bool:
    """Whether every die of `dice` lies where a die of `roll` lay (within SAME_PLACE of its face) showing
    the same value (or either was read unsure): the dice of that roll, or those of them still in the tray.
    A die thrown again lands elsewhere or shows another face. A single die thrown into a tray a dozen faces
    across lands that close showing the same face about once in 700 throws; the person then taps the roll
    in, where a roll played twice would have played the last player's dice as the next one's."""
    return _unmatched(dice, roll) is not None


def _unmatched(dice, roll) -> list[DieReading] | None:
    """The dice of `roll` left over once each die of `dice` took its nearest match; None if one found none."""
    left = list(roll)
    for die in dice:
        near = [old for old in left if _same_die(die, old)]
        if not near:
            return None
        left.remove(min(near, key=lambda old: math.dist(die.center, old.center)))
    return left


def seen_anew(dice, roll) -> list[DieReading] | None:
    """`_unmatched` for a camera nudged on its mount or back at another size since `roll` was read: the dice
    of the roll (or some of them) where one shift of at most `NUDGE_FACES` faces and one scale, the same for
    all, put them. The dice of the roll left over, where the camera sees them now; None if no such move makes
    every die of `dice` match.

    Tried with three dice or more, anchored on a die read surely. With two, a real throw would too often land
    as two of the roll's dice lay, one shifted as the other (Matterhorn's two dice thrown after three were
    eliminated from five: about once in 700 throws with any shift), so a camera moved over two dice reads them
    again, as before. Three dice thrown again never landed so in 200,000 simulated throws."""
    anchor = next((d for d in dice if not d.unsure), None)
    if anchor is None or len(dice) < 3 or len(dice) > len(roll):
        return None
    scale = _face(dice) / _face(roll)
    if abs(scale - 1) < NUDGE_SCALE:
        scale = 1.0
    reach = NUDGE_FACES * _face(dice)
    for old in roll:
        if old.value != anchor.value and not old.unsure:
            continue
        dx, dy = anchor.center[0] - scale * old.center[0], anchor.center[1] - scale * old.center[1]
        if math.hypot(dx, dy) > reach:
            continue
        left = _unmatched(dice, [_moved(d, scale, dx, dy) for d in roll])
        if left is not None:
            return left
    return None


NUDGE_FACES = 3.0  # a camera nudged moves the picture by a die or two; dice lying further off were thrown
NUDGE_SCALE = 0.1  # faces read this much larger or smaller are the same size: the camera was nudged, not resized


def _face(dice) -> float:
    return float(np.median([max(d.box[2] - d.box[0], d.box[3] - d.box[1], 1.0) for d in dice]))


def _moved(die: DieReading, scale: float, dx: float, dy: float) -> DieReading:
    x0, y0, x1, y1 = die.box
    return dataclasses.replace(die, center=(scale * die.center[0] + dx, scale * die.center[1] + dy),
                               box=(scale * x0 + dx, scale * y0 + dy, scale * x1 + dx, scale * y1 + dy))


def _same_die(die: DieReading, old: DieReading) -> bool:
    face = max(old.box[2] - old.box[0], old.box[3] - old.box[1], 1.0)
    return (math.dist(die.center, old.center) <= SAME_PLACE * face
            and (die.value == old.value or die.unsure or old.unsure))


class Reader(Protocol):
    def read(self, frame_bgr: np.ndarray, tray: Box | None = None) -> list[DieReading]: ...


@dataclasses.dataclass(frozen=True)
class MotionSettings:
    """How motion is measured. `work_width` is the most the tray's width is shrunk to before differencing,
    by a whole factor (OpenCV's area resize takes a fast path for those: 0.35 ms against 2.1 ms for a
    1280x720 frame); `pixel_threshold` is a grey-level step (of 255, after normalising the mean to 128);
    `min_changed_fraction` of the tray's pixels must change for the frame to count as motion."""

    work_width: int = 200
    blur_sigma: float = 1.0
    pixel_threshold: int = 20
    min_changed_fraction: float = 0.0004
    min_changed_pixels: int = 4


class MotionMeter:
    """Turns frames into small normalised grey images and says whether two of them differ."""

    def __init__(self, tray: Box | None = None, settings: MotionSettings = MotionSettings()):
        self.tray = tray
        self.settings = settings

    def prepare(self, image: np.ndarray) -> np.ndarray:
        cropped = crop_to_tray(image, self.tray)
        if cropped is None:
            raise ValueError(f"tray {self.tray} lies outside the {image.shape[1]}x{image.shape[0]} frame")
        image = cropped[0]
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        width = grey.shape[1]
        if width > self.settings.work_width:
            shrink = 1 / math.ceil(width / self.settings.work_width)
            grey = cv2.resize(grey, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
        grey = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), self.settings.blur_sigma)
        return grey * (128.0 / max(float(grey.mean()), 1.0))

    def changed_pixels(self, a: np.ndarray, b: np.ndarray) -> int:
        return int(np.count_nonzero(np.abs(a - b) > self.settings.pixel_threshold))

    def differ(self, a: np.ndarray, b: np.ndarray) -> bool:
        if a.shape != b.shape:
            return True
        limit = max(self.settings.min_changed_pixels, self.settings.min_changed_fraction * a.size)
        return self.changed_pixels(a, b) > limit


class SettleDetector:
    """Feed it every frame; it returns a `DiceSettled` once per roll, else None."""

    def __init__(self, reader: Reader, *, settle_ms: float = 300, tray: Box | None = None,
                 motion: MotionSettings = MotionSettings()):
        if settle_ms < 0:
            raise ValueError(f"settle_ms must not be negative, got {settle_ms}")
        self.reader = reader
        self.tray = tray
        self.settle_ns = int(settle_ms * 1e6)
        self.meter = MotionMeter(tray, motion)
        self._reference: np.ndarray | None = None
        self._still_since = 0
        self._checked_this_still = False
        self._fired_picture: np.ndarray | None = None
        self._roll: tuple[DieReading, ...] = ()
        self._last_read: tuple[DieReading, ...] = ()
        self._told = False
        self.moving = False
        self.reading = True

    def remember(self, dice) -> None:
        """The dice of the roll the game took, told by the table (after a restart, the last roll's dice lie
        where they were): read lying there, or some of them, they are not a new roll. Once told, a roll fired
        but not taken (asked about: "I see 5 dice but expected 3") is not remembered as taken, so the dice
        left once the person cleared the tray are read. Untold, each roll fired counts as taken."""
        self._told = True
        self._roll = tuple(dice)

    def new_clock(self) -> None:
        """The frames' time started over: the still period is timed again; the roll read is kept."""
        self._reference = None
        self._checked_this_still = False

    def new_size(self) -> None:
        """The camera came back at another size: the pictures kept cannot be compared with its frames."""
        self.new_clock()
        self._fired_picture = None

    def reset(self) -> None:
        """Forget everything: the next still tray fires again."""
        self._reference = None
        self._fired_picture = None
        self._roll = self._last_read = ()
        self._checked_this_still = False

    def feed(self, frame: Frame) -> DiceSettled | None:
        picture = self.meter.prepare(frame.image)
        if self._reference is None or self.meter.differ(picture, self._reference):
            self._reference = picture
            self._still_since = frame.t
            self._checked_this_still = False
            self.moving = True
            return None
        self.moving = False
        if self._checked_this_still or frame.t - self._still_since < self.settle_ns:
            return None
        self._checked_this_still = True
        if self._fired_picture is not None and not self.meter.differ(picture, self._fired_picture):
            return None
        if not self.reading:  # seen, not read: these dice lying there when reading starts again are no roll
            self._fired_picture = picture
            return None
        dice = tuple(self.reader.read(frame.image, self.tray))
        if not dice:
            return None
        self._fired_picture = picture
        roll, last = self._roll, self._last_read
        self._last_read = dice
        left = _unmatched(dice, roll)
        if left is None:
            left = seen_anew(dice, roll)
        if left is not None:  # part of the roll: those dice where they are read, and the ones no read matched
            self._roll = dice + tuple(left)  # (hidden by a hand, or missed) where they lay, so they still count
            return None
        if len(dice) == len(last) and (part_of_the_roll(dice, last) or seen_anew(dice, last) is not None):
            return None
        if not self._told:
            self._roll = dice
        return DiceSettled(frame.t, dice)
