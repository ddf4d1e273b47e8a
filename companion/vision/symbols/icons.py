"""Drawn fruit icons and monkey faces in several printing styles, for the synthetic symbol dice.

A style is one printing of the dice: how each fruit is drawn (whole, sliced or geometric), its palette,
its outline and the monkey's face. Styles in HELD_OUT_STYLES were never looked at while the recogniser
was developed; the accuracy figures in models/symbols-card.md are measured on them.
"""
from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy as np

SUPERSAMPLE = 2

NATURAL = {
    "coconut": {"main": (40, 70, 110), "inner": (235, 240, 240), "mark": (20, 30, 50)},
    "starfruit": {"main": (60, 210, 230), "inner": (30, 160, 170), "mark": (30, 110, 120)},
    "orange": {"main": (20, 140, 250), "inner": (120, 200, 255), "mark": (40, 150, 40)},
    "banana": {"main": (50, 220, 245), "inner": (120, 235, 250), "mark": (30, 60, 90)},
    "pineapple": {"main": (40, 170, 220), "inner": (40, 140, 30), "mark": (20, 100, 150)},
    "papaya": {"main": (60, 170, 120), "inner": (50, 110, 240), "mark": (30, 30, 30)},
    "monkey": {"main": (30, 60, 110), "inner": (150, 190, 230), "mark": (20, 20, 30)},
}

# Another printing's colour choices: greener starfruit, redder papaya, darker coconut.
ALTERNATE = {
    "coconut": {"main": (30, 50, 80), "inner": (200, 215, 225), "mark": (10, 15, 25)},
    "starfruit": {"main": (70, 220, 170), "inner": (40, 170, 110), "mark": (30, 110, 60)},
    "orange": {"main": (0, 165, 255), "inner": (90, 200, 255), "mark": (30, 120, 30)},
    "banana": {"main": (0, 205, 255), "inner": (90, 230, 255), "mark": (20, 50, 80)},
    "pineapple": {"main": (30, 150, 200), "inner": (30, 120, 40), "mark": (10, 70, 110)},
    "papaya": {"main": (50, 150, 90), "inner": (40, 90, 230), "mark": (25, 25, 25)},
    "monkey": {"main": (20, 45, 90), "inner": (130, 175, 220), "mark": (10, 10, 20)},
}


def _recolour(palette: dict, fn) -> dict:
    return {name: {part: tuple(int(v) for v in fn(np.array(c, float))) for part, c in parts.items()}
            for name, parts in palette.items()}


def pastel(palette: dict, amount: float = 0.25) -> dict:
    return _recolour(palette, lambda c: c + (255 - c) * amount)


def muted(palette: dict) -> dict:
    def fn(c):
        grey = c.mean()
        return np.clip((grey + (c - grey) * 0.65) * 0.88, 0, 255)
    return _recolour(palette, fn)


def vivid(palette: dict) -> dict:
    def fn(c):
        grey = c.mean()
        return np.clip(grey + (c - grey) * 1.3, 0, 255)
    return _recolour(palette, fn)


@dataclasses.dataclass(frozen=True)
class IconStyle:
    name: str
    fruit: str  # "whole", "sliced" or "geometric"
    monkey: str  # "round", "cartoon" or "geometric"
    palette: str
    outline: tuple[int, int, int] | None = None
    outline_px: int = 0
    detail: bool = True
    scale: float = 0.7  # icon radius as a share of half the face

    def colours(self) -> dict:
        return PALETTES[self.palette]


PALETTES = {
    "natural": NATURAL,
    "alternate": ALTERNATE,
    "vivid": vivid(NATURAL),
    "pastel": pastel(NATURAL),
    "muted-alternate": muted(ALTERNATE),
    "vivid-alternate": vivid(ALTERNATE),
}

DEV_STYLES = (
    IconStyle("flat", "whole", "round", "natural", detail=True, scale=0.72),
    IconStyle("outlined", "whole", "cartoon", "vivid", (20, 20, 20), 3, detail=False, scale=0.7),
    IconStyle("sticker", "sliced", "round", "natural", (30, 50, 70), 2, detail=True, scale=0.75),
    IconStyle("blocky", "geometric", "geometric", "alternate", detail=False, scale=0.7),
)
HELD_OUT_STYLES = (
    IconStyle("pastel", "sliced", "cartoon", "pastel", (110, 110, 110), 1, detail=True, scale=0.68),
    IconStyle("bold", "geometric", "geometric", "vivid-alternate", (0, 0, 0), 4, detail=True, scale=0.74),
    IconStyle("ink", "whole", "round", "muted-alternate", (15, 15, 15), 2, detail=True, scale=0.66),
)
STYLES = {s.name: s for s in DEV_STYLES + HELD_OUT_STYLES}
_WHITE = "_white"
PALETTES[_WHITE] = _recolour(NATURAL, lambda c: np.full(3, 255.0))


class _Pen:
    """Draws filled shapes with an optional outline, in icon units (-1..1 of the icon radius)."""

    def __init__(self, img: np.ndarray, radius: float, style: IconStyle):
        self.img = img
        self.c = img.shape[0] / 2
        self.r = radius
        self.style = style
        self.line = max(1, style.outline_px * SUPERSAMPLE)

    def pts(self, xy) -> np.ndarray:
        xy = np.asarray(xy, float).reshape(-1, 2)
        return np.round(self.c + xy * self.r).astype(np.int32)

    def _outline(self, draw) -> None:
        if self.style.outline is not None and self.style.outline_px:
            draw(self.style.outline, self.line)

    def poly(self, xy, colour, outline: bool = True) -> None:
        p = self.pts(xy)
        cv2.fillPoly(self.img, [p], colour, cv2.LINE_AA)
        if outline:
            self._outline(lambda col, t: cv2.polylines(self.img, [p], True, col, t, cv2.LINE_AA))

    def circle(self, xy, r, colour, outline: bool = True) -> None:
        self.ellipse(xy, (r, r), 0, colour, outline)

    def ellipse(self, xy, axes, angle, colour, outline: bool = True) -> None:
        p = cv2.ellipse2Poly(tuple(int(v) for v in self.pts(xy)[0]),
                             (max(1, int(axes[0] * self.r)), max(1, int(axes[1] * self.r))), int(angle), 0, 360, 5)
        self._poly_px(p, colour, outline)

    def _poly_px(self, p, colour, outline) -> None:
        cv2.fillPoly(self.img, [p], colour, cv2.LINE_AA)
        if outline:
            self._outline(lambda col, t: cv2.polylines(self.img, [p], True, col, t, cv2.LINE_AA))

    def lines(self, segments, colour, width: float) -> None:
        t = max(1, int(width * self.r))
        for a, b in segments:
            pa, pb = self.pts(a)[0], self.pts(b)[0]
            cv2.line(self.img, tuple(int(v) for v in pa), tuple(int(v) for v in pb), colour, t, cv2.LINE_AA)

    def dot(self, xy, r, colour) -> None:
        self.circle(xy, r, colour, outline=False)


def _star(points: int, outer: float, inner: float, rot: float = -90) -> np.ndarray:
    angles = np.deg2rad(rot + np.arange(points * 2) * 180 / points)
    radii = np.where(np.arange(points * 2) % 2 == 0, outer, inner)
    return np.stack([radii * np.cos(angles), radii * np.sin(angles)], 1)


def _regular(n: int, r: float, rot: float = 0) -> np.ndarray:
    angles = np.deg2rad(rot + np.arange(n) * 360 / n)
    return np.stack([r * np.cos(angles), r * np.sin(angles)], 1)


def _crescent(cx: float = 0, cy: float = 0, turn: float = 0) -> np.ndarray:
    outer = [(np.cos(a) * 1.0, np.sin(a) * 1.0 - 0.45) for a in np.deg2rad(np.linspace(20, 160, 24))]
    inner = [(np.cos(a) * 0.95, np.sin(a) * 0.62 - 0.45) for a in np.deg2rad(np.linspace(160, 20, 24))]
    xy = np.array(outer + inner)
    t = np.deg2rad(turn)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return xy @ rot.T * 0.95 + (cx, cy)


def _draw_fruit(pen: _Pen, fruit: str, style: IconStyle) -> None:
    col = style.colours()[fruit]
    main, inner, mark = col["main"], col["inner"], col["mark"]
    v = style.fruit
    if fruit == "coconut":
        if v == "sliced":
            pen.circle((0, 0), 0.82, main)
            pen.circle((0, 0), 0.64, inner, outline=False)
            pen.circle((0, 0), 0.36, tuple(int(c * 0.8 + 40) for c in main), outline=False)
        else:
            shape = _regular(6, 0.82, 30) if v == "geometric" else None
            pen.poly(shape, main) if shape is not None else pen.circle((0, 0), 0.82, main)
            for xy in ((-0.22, -0.28), (0.22, -0.28), (0, 0.05)):
                pen.dot(xy, 0.11, mark)
            if style.detail:
                pen.lines([((-0.5, 0.35), (-0.2, 0.55)), ((0.5, 0.35), (0.2, 0.55))], mark, 0.05)
    elif fruit == "starfruit":
        inner_r = 0.55 if v == "geometric" else 0.42
        pen.poly(_star(5, 1.0, inner_r), main)
        if v == "sliced":
            pen.poly(_star(5, 0.5, 0.22), inner, outline=False)
            for xy in _regular(5, 0.3, -90):
                pen.dot(xy, 0.06, mark)
        elif style.detail:
            pen.lines([((0, 0), tuple(p)) for p in _star(5, 0.85, 0.3)[::2]], inner, 0.05)
    elif fruit == "orange":
        if v == "sliced":
            pen.circle((0, 0), 0.82, main)
            pen.circle((0, 0), 0.7, (235, 245, 250), outline=False)
            pen.circle((0, 0), 0.64, inner, outline=False)
            pen.lines([((0, 0), tuple(p)) for p in _regular(8, 0.64)], (235, 245, 250), 0.06)
        else:
            shape = _regular(8, 0.8, 22.5) if v == "geometric" else None
            pen.poly(shape, main) if shape is not None else pen.circle((0, 0.08), 0.78, main)
            if v == "geometric":
                pen.poly([(0.05, -0.95), (0.45, -0.95), (0.45, -0.7), (0.05, -0.7)], mark)
            else:
                pen.ellipse((0.3, -0.75), (0.32, 0.14), -30, mark)
            if style.detail:
                for xy in ((-0.3, 0.1), (0.1, 0.35), (0.35, 0.0)):
                    pen.dot(xy, 0.04, inner)
    elif fruit == "banana":
        if v == "geometric":
            p = cv2.ellipse2Poly((0, 0), (700, 700), 0, 30, 150, 6).astype(float) / 1000.0 - (0, 0.35)
            thick = 0.32
            pen.lines(list(zip(p[:-1], p[1:])), main, thick)
            pen.dot(tuple(p[0]), 0.08, mark)
            pen.dot(tuple(p[-1]), 0.08, mark)
        else:
            turns = (-22, 18) if v == "sliced" else (0,)
            for i, turn in enumerate(turns):
                xy = _crescent(0.12 * (i * 2 - len(turns) + 1), 0.12 * (i - (len(turns) - 1) / 2), turn)
                pen.poly(xy, main)
                pen.dot(tuple(xy[0]), 0.07, mark)
                pen.dot(tuple(xy[23]), 0.07, mark)
            if style.detail:
                pen.lines([(tuple(_crescent()[6] * 0.9), tuple(_crescent()[18] * 0.9))], inner, 0.04)
    elif fruit == "pineapple":
        if v == "sliced":
            pen.circle((0, 0), 0.82, mark)
            pen.circle((0, 0), 0.72, main, outline=False)
            pen.lines([((0, 0), tuple(p)) for p in _regular(12, 0.7)], mark, 0.03)
            pen.circle((0, 0), 0.26, (230, 240, 245), outline=True)
        else:
            crown = [(-0.38, -0.35), (-0.45, -1.0), (-0.12, -0.55), (0, -1.08), (0.12, -0.55), (0.45, -1.0),
                     (0.38, -0.35)]
            pen.poly(crown, inner)
            if v == "geometric":
                body = [(0, -0.45), (0.55, 0.25), (0, 0.98), (-0.55, 0.25)]
                pen.poly(body, main)
            else:
                pen.ellipse((0, 0.25), (0.5, 0.72), 0, main)
            if style.detail:
                lines = [((-0.45 + 0.3 * k, -0.3), (-0.45 + 0.3 * k + 0.6, 0.8)) for k in range(-1, 3)]
                lines += [((0.45 - 0.3 * k, -0.3), (0.45 - 0.3 * k - 0.6, 0.8)) for k in range(-1, 3)]
                mask = np.zeros(pen.img.shape[:2], np.uint8)
                sub = _Pen(mask, pen.r, style)
                sub.lines(lines, 255, 0.04)
                body_mask = np.zeros_like(mask)
                cv2.ellipse(body_mask, tuple(int(v) for v in pen.pts((0, 0.25))[0]),
                            (int(0.45 * pen.r), int(0.66 * pen.r)), 0, 0, 360, 255, -1)
                pen.img[(mask > 0) & (body_mask > 0)] = mark
    elif fruit == "papaya":
        if v == "sliced":
            pen.ellipse((0, 0), (0.55, 0.88), 0, main)
            pen.ellipse((0, 0.02), (0.45, 0.78), 0, inner, outline=False)
            for k in range(7):
                pen.dot((0.08 * np.cos(k * 2.4), 0.08 + 0.22 * np.sin(k * 1.7)), 0.07, mark)
        elif v == "geometric":
            drop = np.vstack([[(0, -0.95)], _regular(10, 0.58, 0)[[9, 0, 1, 2, 3, 4, 5, 6]] + (0, 0.3)])
            pen.poly(drop, main)
            pen.poly(_regular(10, 0.3, 0) + (0, 0.35), inner, outline=False)
        else:
            hull = cv2.convexHull(np.vstack([_regular(24, 0.58) + (0, 0.32), _regular(24, 0.36) + (0, -0.42)])
                                  .astype(np.float32)).reshape(-1, 2)
            pen.poly(hull, main)
            pen.ellipse((0.12, 0.4), (0.25, 0.32), 20, inner, outline=False)
            pen.lines([((0, -0.78), (0.05, -0.98))], mark, 0.06)


def _draw_monkey(pen: _Pen, style: IconStyle) -> None:
    col = style.colours()["monkey"]
    fur, face, mark = col["main"], col["inner"], col["mark"]
    v = style.monkey
    if v == "geometric":
        for sx in (-1, 1):
            pen.poly([(sx * 0.62, -0.4), (sx * 0.98, -0.4), (sx * 0.98, 0.05), (sx * 0.62, 0.05)], fur)
        pen.poly(_regular(6, 0.78, 0), fur)
        pen.poly([(-0.45, -0.35), (0.45, -0.35), (0.45, 0.6), (-0.45, 0.6)], face, outline=False)
        for sx in (-1, 1):
            pen.poly([(sx * 0.3 - 0.09, -0.2), (sx * 0.3 + 0.09, -0.2), (sx * 0.3 + 0.09, -0.02),
                      (sx * 0.3 - 0.09, -0.02)], mark, outline=False)
        pen.poly([(-0.25, 0.32), (0.25, 0.32), (0.25, 0.42), (-0.25, 0.42)], mark, outline=False)
        return
    ear = 0.36 if v == "cartoon" else 0.27
    for sx in (-1, 1):
        pen.circle((sx * 0.72, -0.12), ear, fur)
        pen.circle((sx * 0.72, -0.12), ear * 0.55, face, outline=False)
    pen.circle((0, 0), 0.74, fur)
    for sx in (-1, 1):
        pen.circle((sx * 0.22, -0.12), 0.3, face, outline=False)
    pen.ellipse((0, 0.28), (0.45, 0.32), 0, face, outline=False)
    if v == "cartoon":
        for sx in (-1, 1):
            pen.circle((sx * 0.22, -0.12), 0.14, (250, 250, 250), outline=True)
            pen.dot((sx * 0.2, -0.1), 0.07, mark)
        pen.ellipse((0, 0.38), (0.18, 0.1), 0, mark, outline=False)
    else:
        for sx in (-1, 1):
            pen.dot((sx * 0.2, -0.12), 0.08, mark)
        pen.lines([((-0.18, 0.4), (0, 0.46)), ((0, 0.46), (0.18, 0.4))], mark, 0.05)
    for sx in (-1, 1):
        pen.dot((sx * 0.07, 0.15), 0.035, mark)


@functools.lru_cache(maxsize=256)
def icon_layer(style: IconStyle, face: str, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The icon for `face` ("blank" has none) on a size×size canvas: (BGR image, alpha 0..1)."""
    big = size * SUPERSAMPLE
    img = np.zeros((big, big, 3), np.uint8)
    alpha = np.zeros((big, big), np.uint8)
    if face != "blank":
        radius = style.scale * big / 2
        pen = _Pen(img, radius, style)
        if face == "matcho":
            _draw_monkey(pen, style)
        else:
            _draw_fruit(pen, face, style)
        # The alpha is the same icon drawn all in white.
        mask_style = dataclasses.replace(style, palette=_WHITE, outline=(255, 255, 255) if style.outline else None)
        mask_pen = _Pen(np.zeros((big, big, 3), np.uint8), radius, mask_style)
        if face == "matcho":
            _draw_monkey(mask_pen, mask_pen.style)
        else:
            _draw_fruit(mask_pen, face, mask_pen.style)
        alpha = mask_pen.img[:, :, 0]
    img = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    a = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    return img, a
