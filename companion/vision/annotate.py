"""The annotated frame for the page's live view: the tray outline, zones, and each die's box with its value
and confidence; dice the reader is unsure of are drawn in a different colour so a person checks them."""
from __future__ import annotations

from typing import Iterable, Sequence

import cv2
import numpy as np

from ..events import DieReading

SURE_BGR = (60, 200, 60)
UNSURE_BGR = (0, 140, 255)
TRAY_BGR = (230, 180, 40)
ZONE_BGR = (200, 90, 200)
MOVING_BGR = (40, 40, 230)


def annotate(image: np.ndarray, dice: Iterable[DieReading] = (), *, tray: Sequence[int] | None = None,
             zones: Iterable[tuple[str, Sequence[int]]] = (), moving: bool = False) -> np.ndarray:
    """A copy of `image` with the readings drawn on it."""
    out = image.copy()
    scale = max(0.35, out.shape[1] / 1600)
    thick = max(1, round(out.shape[1] / 640))
    if tray is not None:
        x0, y0, x1, y1 = (int(round(v)) for v in tray)
        cv2.rectangle(out, (x0, y0), (x1, y1), MOVING_BGR if moving else TRAY_BGR, thick)
    for name, box in zones:
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        cv2.rectangle(out, (x0, y0), (x1, y1), ZONE_BGR, thick)
        cv2.putText(out, name, (x0 + 3, y0 + int(14 * scale * 2)), cv2.FONT_HERSHEY_SIMPLEX, scale, ZONE_BGR, thick, cv2.LINE_AA)
    for die in dice:
        colour = UNSURE_BGR if die.unsure else SURE_BGR
        x0, y0, x1, y1 = (int(round(v)) for v in die.box)
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
        label = f"{die.value}{'?' if die.unsure else ''} {die.confidence:.0%}"
        (w, h), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        top = y0 - h - base - 2 if y0 - h - base - 2 >= 0 else y1 + 2
        cv2.rectangle(out, (x0, top), (x0 + w + 2, top + h + base + 2), colour, -1)
        cv2.putText(out, label, (x0 + 1, top + h + 1), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick, cv2.LINE_AA)
    return out


def to_jpeg(image: np.ndarray, quality: int = 80) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"cannot encode a {image.shape} image as JPEG")
    return data.tobytes()


def annotated_jpeg(image: np.ndarray, dice: Iterable[DieReading] = (), *, tray: Sequence[int] | None = None,
                   zones: Iterable[tuple[str, Sequence[int]]] = (), moving: bool = False, quality: int = 80,
                   max_width: int | None = 960) -> bytes:
    """The annotated frame as JPEG bytes, shrunk to `max_width` so phones on Wi-Fi keep up."""
    out = annotate(image, dice, tray=tray, zones=zones, moving=moving)
    if max_width and out.shape[1] > max_width:
        out = cv2.resize(out, (max_width, round(out.shape[0] * max_width / out.shape[1])), interpolation=cv2.INTER_AREA)
    return to_jpeg(out, quality)
