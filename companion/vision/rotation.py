"""A camera mounted turned: frames are turned upright before anything reads them.

The Pi camera's ribbon often decides how the camera hangs over the tray, and a webcam clamped to the
table's other side sees the dice upside down. Top faces read the same either way, but a camera at an
angle sees side faces below each die in an upright frame only, and the reader (its networks and its
side-face checks) counts on that: turned a quarter, matteop65's oblique photos gain 7.5–32.5 extra dice
per 100 (models/pips-detector.md). So `camera.rotate` (and `companion read --rotate`) says how many
degrees clockwise to turn each frame to make it upright.

Positions a reader reports on the upright frame can be turned back into the camera's own pixels
(`reading_back`), so `companion read IMAGE --rotate` speaks of the image as given.
"""
from __future__ import annotations

import dataclasses
from typing import Iterator

import numpy as np

ROTATIONS = (0, 90, 180, 270)


def parse_rotation(value) -> int:
    """Degrees clockwise, one of ROTATIONS; anything else is refused with a message naming the choices."""
    try:
        degrees = int(str(value).strip())
    except ValueError:
        degrees = None
    if degrees not in ROTATIONS:
        raise ValueError(f"bad rotation {value!r}: turn the frame 0, 90, 180 or 270 degrees clockwise")
    return degrees


def upright(image: np.ndarray, degrees: int) -> np.ndarray:
    """The image turned `degrees` clockwise (the image itself for 0)."""
    import cv2

    turns = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
    return image if degrees == 0 else cv2.rotate(image, turns[parse_rotation(degrees)])


def turn_point(x: float, y: float, degrees: int, width: int, height: int) -> tuple[float, float]:
    """Where pixel (x, y) of a `width` × `height` image lands once the image is turned `degrees` clockwise."""
    if degrees == 90:
        return (height - 1 - y, x)
    if degrees == 180:
        return (width - 1 - x, height - 1 - y)
    if degrees == 270:
        return (y, width - 1 - x)
    return (x, y)


def turn_box(box, degrees: int, width: int, height: int) -> tuple[float, float, float, float]:
    """A box (x0, y0, x1, y1) of a `width` × `height` image, in the image turned `degrees` clockwise."""
    (ax, ay), (bx, by) = (turn_point(box[0], box[1], degrees, width, height),
                          turn_point(box[2], box[3], degrees, width, height))
    return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))


def reading_back(reading, degrees: int, upright_shape: tuple[int, ...]):
    """A die read on the upright frame (of `upright_shape`), placed back in the camera's own frame."""
    height, width = upright_shape[:2]
    back = (360 - degrees) % 360
    return dataclasses.replace(reading, center=turn_point(*reading.center, back, width, height),
                               box=turn_box(reading.box, back, width, height))


class UprightSource:
    """Another frame source's frames, turned upright. `stop` and `close` reach the source it turns."""

    def __init__(self, source, degrees: int):
        self.source, self.degrees = source, parse_rotation(degrees)

    def __iter__(self) -> Iterator:
        for frame in self.source:
            yield dataclasses.replace(frame, image=upright(frame.image, self.degrees))

    def stop(self) -> None:
        getattr(self.source, "stop", lambda: None)()

    def close(self) -> None:
        getattr(self.source, "close", lambda: None)()
