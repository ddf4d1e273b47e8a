"""`PipReader`: pips → faces → one `DieReading` per top face."""
from __future__ import annotations

import numpy as np

from ...events import DieReading
from ..tray import crop_to_tray
from .candidates import find_pips
from .faces import group_faces
from .patterns import Face, lone_pip_on_a_die, read_face

UNSURE_BELOW = 0.5


class PipReader:
    """Reads six-sided pip dice in a BGR frame. Stateless; safe to reuse across frames."""

    kind = "pips"

    def __init__(self, levels: int = 3, unsure_below: float = UNSURE_BELOW):
        self.levels = levels
        self.unsure_below = unsure_below

    def faces(self, frame_bgr: np.ndarray) -> list[Face]:
        import cv2

        smooth = cv2.GaussianBlur(frame_bgr, (3, 3), 0)
        pips = find_pips(frame_bgr, self.levels, smooth)
        faces = []
        for group in group_faces(smooth, pips):
            face = read_face(group)
            if face is None or face.slanted:
                continue
            if face.value == 1 and not lone_pip_on_a_die(smooth, face.pips[0]):
                continue
            faces.append(face)
        return faces

    def read(self, frame_bgr: np.ndarray, tray: tuple[int, int, int, int] | None = None) -> list[DieReading]:
        if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
            raise ValueError("expected a BGR image (height × width × 3)")
        cropped = crop_to_tray(frame_bgr, tray)
        if cropped is None:
            return []
        image, ox, oy = cropped
        readings = []
        for face in self.faces(image):
            cx, cy = face.center
            x0, y0, x1, y1 = face.box
            readings.append(DieReading(
                value=face.value,
                center=(float(cx + ox), float(cy + oy)),
                box=(float(x0 + ox), float(y0 + oy), float(x1 + ox), float(y1 + oy)),
                confidence=float(face.confidence),
                unsure=face.confidence < self.unsure_below,
            ))
        readings.sort(key=lambda r: (r.center[1], r.center[0]))
        return readings
