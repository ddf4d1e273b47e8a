"""Finding the dice tray in a frame, for `tray = "auto"`: only dice on the tray count, so a keyboard, the game
board or a card beside the tray is never read as a die.

The camera frames the tray (hardware/ASSEMBLY.md: the tray fills most of the frame), so the frame's middle
shows the tray's floor: one even colour (felt, wood, a mat) with a few dice on it. `find_tray` takes that
colour from the middle, keeps every pixel near it, closes the holes the dice and their shadows make, and
takes the piece that holds the middle. Its bounding box, widened by `MARGIN`, is the tray.

It answers None, and the whole frame counts, when nothing there looks like a tray: the floor's colour runs
to three or more edges of the frame (no wall in view: the floor is the table), or the piece is too small, or
too ragged to be a floor seen in perspective. The dice are never cut off by a guess.

Dice lying against the tray's walls can show their top faces beyond the floor's edge: the floor near a wall
is shaded, a die's top face stands a die's height above the floor, and a tilted camera sees it further out.
So `read_on_found_tray` reads the whole frame, as without a tray, and keeps the dice within `WALL_DICE` of
their own sizes of the tray: what lies further out is not read as a die. (Reading only a crop around the
tray would cost a die here and there: the detector shrinks a crop by another factor than the whole frame.)

`AutoTray` is how the live pipeline uses it: it looks every `FIND_EVERY_S` on a frame where nothing moves
(no hand over the tray), and takes a new box only when two looks in a row agree, so one odd frame never
moves the tray. Its first two looks come `FIRST_LOOKS_S` apart, so the tray is settled on before the
first roll can be (the dice must lie still 300 ms); a roll read before that has the tray found on its own
frame.
"""
from __future__ import annotations

import numpy as np

from .tray import Box

WORK_WIDTH = 320  # the frame is shrunk to this width first
MIDDLE = 0.2  # the middle window, as a share of each side, whose median colour is the floor's
NEAR_FLOOR = 14.0  # Lab distance within which a pixel is floor, at least ...
NEAR_FLOOR_SPREAD = 4.0  # ... or this many times the middle window's median distance (a textured floor)
CLOSE_SHARE = 0.06  # closing kernel, share of the work width: fills dice, pips and shadows on the floor
MIN_AREA = 0.12  # of the frame: a smaller piece is not a tray the camera frames
MIN_FILL = 0.7  # of its bounding box: a floor seen in perspective is a trapezoid, which fills most of it
EDGE = 0.01  # of a side: a piece this close to a frame edge runs off it
MARGIN = 0.05  # of each side of the floor's box, added all round
WALL_DICE = 1.5  # a die counts when its centre lies within this many of its own sizes of the tray's box
# (nell-byler's dev photos, a real tray with sloping inner walls: with no MARGIN, a reach of 1 or 1.5 dice
# left 3 or 1 dice against a wall out; with it, a reach of 1, 1.5 or 2 dice, none)
FIND_EVERY_S = 2.0  # AutoTray looks this often, on still frames ...
FIRST_LOOKS_S = 0.15  # ... but its first two looks this far apart
AGREE = 0.8  # two boxes this alike (intersection over union) are the same tray

_UNSEEN = object()


def find_tray(frame_bgr: np.ndarray) -> Box | None:
    """The tray as a box (x0, y0, x1, y1) in the frame's pixels, or None when no tray can be told apart."""
    import cv2

    height, width = frame_bgr.shape[:2]
    scale = WORK_WIDTH / width
    small = cv2.resize(frame_bgr, (WORK_WIDTH, max(8, int(round(height * scale)))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    my, mx = int(h * (1 - MIDDLE) / 2), int(w * (1 - MIDDLE) / 2)
    floor = np.median(lab[my:h - my, mx:w - mx].reshape(-1, 3), axis=0)
    distance = np.sqrt(((lab - floor) ** 2).sum(axis=2))
    near = max(NEAR_FLOOR, NEAR_FLOOR_SPREAD * float(np.median(distance[my:h - my, mx:w - mx])))
    mask = (distance < near).astype(np.uint8)
    k = max(3, int(round(CLOSE_SHARE * w)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    votes = np.bincount(labels[my:h - my, mx:w - mx].ravel(), minlength=count)
    votes[0] = 0
    piece = int(votes.argmax())
    if votes[piece] == 0:
        return None
    x, y, bw, bh, area = (int(v) for v in stats[piece])
    if area < MIN_AREA * w * h or area < MIN_FILL * bw * bh:
        return None
    edge_x, edge_y = EDGE * w, EDGE * h
    edges = (x <= edge_x) + (y <= edge_y) + (x + bw >= w - edge_x) + (y + bh >= h - edge_y)
    if edges >= 3:
        return None
    grow_x, grow_y = MARGIN * bw, MARGIN * bh
    return (max(0, int(np.floor((x - grow_x) / scale))), max(0, int(np.floor((y - grow_y) / scale))),
            min(width, int(np.ceil((x + bw + grow_x) / scale))), min(height, int(np.ceil((y + bh + grow_y) / scale))))


def read_on_found_tray(reader, frame_bgr: np.ndarray, tray: Box | None) -> list:
    """The dice `reader` reads on a found tray and against its walls (see the module docstring); the whole
    frame's dice for None."""
    dice = reader.read(frame_bgr, None)
    if tray is None:
        return dice
    x0, y0, x1, y1 = tray

    def on_the_tray(die) -> bool:
        reach = WALL_DICE * max(die.box[2] - die.box[0], die.box[3] - die.box[1])
        return x0 - reach <= die.center[0] <= x1 + reach and y0 - reach <= die.center[1] <= y1 + reach

    return [die for die in dice if on_the_tray(die)]


class FoundTrayReader:
    """A reader whose `tray` is a found one: `read` keeps the dice `read_on_found_tray` keeps. Asked to read
    before `auto` (an AutoTray, if given) has decided where the tray is, it has it decide on this frame."""

    def __init__(self, reader, auto: "AutoTray | None" = None):
        self.reader, self.auto = reader, auto

    def read(self, frame_bgr: np.ndarray, tray: Box | None = None) -> list:
        if self.auto is not None and not self.auto.decided:
            tray = self.auto.decide(frame_bgr)
        return read_on_found_tray(self.reader, frame_bgr, tray)


def overlap(a: Box, b: Box) -> float:
    """Intersection over union of two boxes."""
    w = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - w * h
    return w * h / union if union > 0 else 0.0


def _same(a: Box | None, b: Box | None) -> bool:
    return a is None and b is None or a is not None and b is not None and overlap(a, b) >= AGREE


class AutoTray:
    """The tray found on the frames shown to it: `look(t, image)` on still frames; `box` is the tray taken
    (None, the whole frame, until two looks agree). `decided` is False until two looks have agreed once."""

    def __init__(self, every_s: float = FIND_EVERY_S, find=find_tray, first_looks_s: float = FIRST_LOOKS_S):
        self.every_ns = int(every_s * 1e9)
        self.first_ns = int(first_looks_s * 1e9)
        self.find = find
        self.box: Box | None = None
        self.decided = False
        self._last_t: int | None = None
        self._last_found = _UNSEEN

    def look(self, t: int, image: np.ndarray) -> bool:
        """Look for the tray in this still frame if it is time; True when `box` changed."""
        wait = self.every_ns if self.decided else self.first_ns
        if self._last_t is not None and t - self._last_t < wait:
            return False
        self._last_t = t
        found = self.find(image)
        agreed = self._last_found is not _UNSEEN and _same(found, self._last_found)
        self._last_found = found
        if not agreed:
            return False
        self.decided = True
        if _same(found, self.box):
            return False
        self.box = found
        return True

    def decide(self, image: np.ndarray) -> Box | None:
        """The tray found on this one frame, taken at once (for a roll to read before two looks agreed)."""
        self.box = self._last_found = self.find(image)
        self.decided = True
        return self.box
