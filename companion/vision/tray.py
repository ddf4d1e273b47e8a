"""The tray: the part of the frame where dice count. Parsed from settings or `--tray`, and cut out of a
frame for a reader (which reports positions in the whole frame's pixels)."""
from __future__ import annotations

import numpy as np

Box = tuple[int, int, int, int]


def is_auto(text: str | None) -> bool:
    """Whether a tray setting asks for the tray to be found (`tray_finder`): "auto", or left empty."""
    return text is not None and text.strip().lower() in ("", "auto")


class BadTray(ValueError):
    """A tray that is not one: "bad tray TEXT: PROBLEM"; `problem` says what a good one looks like."""

    def __init__(self, text: str, problem: str):
        super().__init__(f"bad tray {text!r}: {problem}")
        self.text = text
        self.problem = problem


def parse_tray(text: str | None) -> Box | None:
    """None for "auto" (or empty): no box given (found on its own where that is asked for, else the whole
    frame); else "x0,y0,x1,y1" in pixels."""
    if text is None or is_auto(text):
        return None
    try:
        x0, y0, x1, y1 = (int(float(v)) for v in text.split(","))
    except ValueError:
        raise BadTray(text, "expected auto or x0,y0,x1,y1 in pixels, like 100,80,1180,660") from None
    except OverflowError:  # inf, or a number too large for a float (1e309): no pixel
        raise BadTray(text, "every corner must be a finite number of pixels, like 100,80,1180,660") from None
    if x1 <= x0 or y1 <= y0:
        raise BadTray(text, "x0 must be below x1 and y0 below y1, like 100,80,1180,660")
    return (x0, y0, x1, y1)


def tray_text(box: Box | None) -> str:
    """The tray as camera.tray writes it: "auto" for None, else "x0,y0,x1,y1"."""
    return ",".join(map(str, box)) if box else "auto"


def clip_box(box: Box, width: int, height: int) -> Box | None:
    """The part of `box` inside a width x height picture; None when it lies wholly outside."""
    x0, y0, x1, y1 = (int(v) for v in box)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def crop_to_tray(frame: np.ndarray, tray: Box | None) -> tuple[np.ndarray, int, int] | None:
    """(the tray's part of the frame, its left, its top), clipped to the frame; None when the tray lies
    wholly outside it."""
    if tray is None:
        return frame, 0, 0
    inside = clip_box(tray, frame.shape[1], frame.shape[0])
    if inside is None:
        return None
    x0, y0, x1, y1 = inside
    return frame[y0:y1, x0:x1], x0, y0
