"""Draw simple pip dice for tests: a rounded face of one colour with round pips, at any angle."""
from __future__ import annotations

import math

import numpy as np

LAYOUTS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def draw_die(canvas: np.ndarray, value: int, center, side: float, angle_deg: float = 0.0,
             face=(235, 235, 235), pip=(20, 20, 20)) -> None:
    import cv2

    cx, cy = center
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    pts = (corners @ rot.T + (cx, cy)).astype(np.int32)
    cv2.fillConvexPoly(canvas, pts, face, lineType=cv2.LINE_AA)
    for u, v in LAYOUTS[value]:
        px, py = np.array([u, v]) * side * 0.26 @ rot.T + (cx, cy)
        cv2.circle(canvas, (int(round(px)), int(round(py))), max(2, int(round(side * 0.08))), pip, -1, cv2.LINE_AA)


def table(width: int = 640, height: int = 480, colour=(120, 130, 140)) -> np.ndarray:
    canvas = np.empty((height, width, 3), np.uint8)
    canvas[:] = colour
    return canvas
