"""Synthetic symbol-dice scenes: fruit and Matcho dice on a tray, with the truth for every die.

Deterministic from a seed. A scene varies what a camera above the tray varies: where the dice lie and how
they are turned (some touching), the die size (camera height), a slight tilt (perspective), the light
(brightness, colour, a gradient across the tray), sensor noise and, on request, motion blur.
"""
from __future__ import annotations

import dataclasses
import functools

import cv2
import numpy as np

from .faces import faces_of
from .icons import IconStyle, icon_layer

FACE_PX = 96
DIE_COLOURS = {
    "ivory": (228, 238, 242),
    "cream": (185, 222, 236),
    "sky": (238, 216, 190),
    "mint": (200, 232, 205),
    "blush": (212, 212, 242),
}
TRAY_COLOURS = {
    "felt-green": (50, 90, 40),
    "felt-blue": (95, 55, 30),
    "slate": (72, 70, 68),
    "walnut": (38, 58, 88),
}
FRAME_SIZE = (1280, 720)
ZONES = {"fruit": (60, 80, 720, 650), "matcho": (790, 80, 1220, 650)}


@dataclasses.dataclass(frozen=True)
class SceneOptions:
    die_px: tuple[float, float] = (56.0, 84.0)
    tilt: float = 0.04  # corner jitter as a share of the die side: a slight perspective
    touching: float = 0.5  # chance that a die is placed against one already on the tray
    # Brightness: auto exposure keeps the brightest die just below saturation, dimmer light is common.
    light: tuple[float, float] = (0.55, 1.0)
    noise: tuple[float, float] = (1.0, 5.0)
    motion_blur: tuple[int, int] | None = None  # blur length in pixels, e.g. (6, 14)
    # The tables' light against the teaching photos' (render_table only): blue and red gain, and a drift of
    # +-drift per channel (blue up, red down) from the left to the right edge of each zone.
    cast: tuple[float, float] = (1.0, 1.0)
    drift: float = 0.0


@dataclasses.dataclass(frozen=True)
class DieTruth:
    kind: str
    face: str
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    side: float
    angle: float


@dataclasses.dataclass
class Scene:
    image: np.ndarray
    dice: list[DieTruth]
    zones: dict[str, tuple[int, int, int, int]]


@functools.lru_cache(maxsize=64)
def _bevel(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Shading of a die's rounded top (edges darker) and its rounded-square outline as alpha."""
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) + 0.5
    edge = np.minimum(np.minimum(xx, size - xx), np.minimum(yy, size - yy)) / size
    shade = 0.72 + 0.28 * np.clip(edge / 0.09, 0, 1) ** 0.6
    corner = 0.14 * size
    cx = np.clip(xx, corner, size - corner)
    cy = np.clip(yy, corner, size - corner)
    dist = np.hypot(xx - cx, yy - cy)
    alpha = np.clip(corner - dist + 0.5, 0, 1)
    return shade[:, :, None], alpha


@functools.lru_cache(maxsize=256)
def face_image(style: IconStyle, face: str, die_colour: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """One face of a die, FACE_PX square: (BGR float32, alpha float32)."""
    icon, icon_alpha = icon_layer(style, face, FACE_PX)
    body = np.empty((FACE_PX, FACE_PX, 3), np.float32)
    body[:] = die_colour
    img = body * (1 - icon_alpha[:, :, None]) + icon.astype(np.float32)
    shade, alpha = _bevel(FACE_PX)
    return img * shade, alpha


def _quad(center, side, angle_deg, jitter) -> np.ndarray:
    t = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    half = side / 2
    corners = np.array([(-half, -half), (half, -half), (half, half), (-half, half)]) @ rot.T
    return (corners + center + jitter).astype(np.float32)


def _background(rng: np.random.Generator, size: tuple[int, int], tray: tuple[int, int, int]) -> np.ndarray:
    w, h = size
    coarse = rng.normal(0, 6, (h // 40 + 2, w // 40 + 2, 1)).astype(np.float32)
    texture = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC)[:, :, None]
    return np.asarray(tray, np.float32)[None, None, :] + texture


def _place(rng, zone, n, side, touching, placed) -> list[tuple[np.ndarray, float]]:
    """Centres and angles for n dice in zone, none overlapping, some against another die."""
    x0, y0, x1, y1 = zone
    margin = side * 0.75
    out = []
    for _ in range(n):
        for attempt in range(400):
            if out and rng.random() < touching and attempt < 200:
                other_c, other_a = out[rng.integers(len(out))]
                direction = np.deg2rad(other_a + 90 * rng.integers(4))
                gap = rng.uniform(0.5, 2.5)
                center = other_c + (side + gap) * np.array([np.cos(direction), np.sin(direction)])
                angle = other_a + rng.uniform(-3, 3)
            else:
                center = np.array([rng.uniform(x0 + margin, x1 - margin), rng.uniform(y0 + margin, y1 - margin)])
                angle = rng.uniform(0, 360)
            if not (x0 + margin <= center[0] <= x1 - margin and y0 + margin <= center[1] <= y1 - margin):
                continue
            quad = _quad(center, side * 1.02, angle, 0)
            if all(cv2.intersectConvexConvex(quad, _quad(c, side * 1.02, a, 0))[0] <= 0.5 for c, a in out + placed):
                out.append((center, angle))
                break
        else:
            raise RuntimeError(f"could not place {n} dice of {side:.0f} px in zone {zone}")
    return out


def _draw_die(canvas, quad, face_img, face_alpha) -> None:
    x0, y0 = np.floor(quad.min(0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 2
    src = np.array([(0, 0), (FACE_PX, 0), (FACE_PX, FACE_PX), (0, FACE_PX)], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    size = (int(x1 - x0), int(y1 - y0))
    img = cv2.warpPerspective(face_img, m, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(face_alpha, m, size, flags=cv2.INTER_LINEAR)[:, :, None]
    region = canvas[y0:y1, x0:x1]
    region[:] = region * (1 - a) + img * a


def render_dice(seed: int, style: IconStyle, groups: list[tuple[str, list[str], str, tuple[int, int, int, int]]],
                tray: str = "felt-green", size: tuple[int, int] = FRAME_SIZE,
                options: SceneOptions = SceneOptions()) -> Scene:
    """Render groups of dice: each group is (kind, faces, die colour name, zone rectangle)."""
    rng = np.random.default_rng(seed)
    w, h = size
    canvas = _background(rng, size, TRAY_COLOURS[tray])
    side = rng.uniform(*options.die_px)
    dice: list[DieTruth] = []
    quads = []
    placed: list[tuple[np.ndarray, float]] = []
    for kind, faces, colour, zone in groups:
        for face in faces:
            if face not in faces_of(kind):
                raise ValueError(f"{face!r} is not a face of the {kind} dice")
        spots = _place(rng, zone, len(faces), side * rng.uniform(0.98, 1.02), options.touching, placed)
        placed += spots
        for face, (center, angle) in zip(faces, spots):
            die_side = side * rng.uniform(0.98, 1.02)
            jitter = rng.uniform(-options.tilt, options.tilt, (4, 2)) * die_side
            quad = _quad(center, die_side, angle, jitter)
            quads.append((quad, face_image(style, face, DIE_COLOURS[colour])))
            x0, y0 = quad.min(0)
            x1, y1 = quad.max(0)
            dice.append(DieTruth(kind, face, (float(quad[:, 0].mean()), float(quad[:, 1].mean())),
                                 (float(x0), float(y0), float(x1), float(y1)), float(die_side), float(angle % 90)))
    shadow = np.zeros((h, w), np.float32)
    offset = np.array([0.05, 0.07]) * side
    for quad, _ in quads:
        cv2.fillConvexPoly(shadow, np.round(quad + offset).astype(np.int32), 1.0, cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), side * 0.06)
    canvas *= (1 - 0.3 * shadow)[:, :, None]
    for quad, (img, alpha) in quads:
        _draw_die(canvas, quad, img, alpha)
    gain = rng.uniform(*options.light)
    tint = rng.uniform(0.94, 1.05, 3)
    gx, gy = rng.uniform(-0.15, 0.15, 2)
    corners = np.array([[1 - gx / 2 - gy / 2, 1 + gx / 2 - gy / 2], [1 - gx / 2 + gy / 2, 1 + gx / 2 + gy / 2]])
    gradient = cv2.resize(corners.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    light = cv2.merge([gradient * float(gain * t) for t in tint])
    canvas = cv2.multiply(canvas, light)
    if options.motion_blur:
        length = int(rng.integers(options.motion_blur[0], options.motion_blur[1] + 1))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        rot = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        canvas = cv2.filter2D(canvas, -1, kernel / kernel.sum())
    noise = np.empty_like(canvas)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(noise, 0.0, float(rng.uniform(*options.noise)))
    canvas += noise
    return Scene(np.clip(canvas, 0, 255).astype(np.uint8), dice, {g[0]: g[3] for g in groups})


def random_faces(rng: np.random.Generator, kind: str, n: int) -> list[str]:
    faces = faces_of(kind)
    return [faces[i] for i in rng.integers(len(faces), size=n)]


def render_table(seed: int, style: IconStyle, fruit_colour: str = "ivory", matcho_colour: str = "cream",
                 tray: str = "felt-green", options: SceneOptions = SceneOptions()) -> Scene:
    """A 1280×720 frame with both zones: six fruit dice and three Matcho dice, faces drawn at random."""
    rng = np.random.default_rng([seed, 1])
    groups = [("fruit", random_faces(rng, "fruit", 6), fruit_colour, ZONES["fruit"]),
              ("matcho", random_faces(rng, "matcho", 3), matcho_colour, ZONES["matcho"])]
    scene = render_dice(seed, style, groups, tray, FRAME_SIZE, options)
    if options.cast != (1.0, 1.0) or options.drift:
        scene.image = _relit(scene.image, options.cast, options.drift)
    return scene


def _relit(image: np.ndarray, cast: tuple[float, float], drift: float) -> np.ndarray:
    """The frame under a light of another colour: a room lamp against daylight, a window on one side."""
    width = image.shape[1]
    ramp = np.zeros(width)
    for x0, _, x1, _ in ZONES.values():
        ramp[x0:x1] = np.linspace(-1.0, 1.0, x1 - x0)
    gain = np.stack([cast[0] * (1 + drift * ramp), np.ones(width), cast[1] * (1 - drift * ramp)], axis=1)
    return np.clip(image * gain[None, :, :], 0, 255).astype(np.uint8)


def render_teach_image(seed: int, style: IconStyle, kind: str, face: str, die_colour: str, n_dice: int = 1,
                       tray: str = "felt-green", options: SceneOptions = SceneOptions()) -> Scene:
    """What the camera sees while teaching: n dice of one kind, all showing `face`, in a 640×480 frame."""
    size = (640, 480)
    zone = (20, 20, size[0] - 20, size[1] - 20)
    return render_dice(seed, style, [(kind, [face] * n_dice, die_colour, zone)], tray, size, options)
