"""Synthetic pip-dice scenes with known truth: single frames and whole roll sequences.

The scene is built in millimetres on a table (z = 0 is the table top, the tray centred on the origin)
and seen through a pinhole camera, straight down or tilted so the dice's side faces show. Each die is
a cube whose faces are small textures (body colour or marble, pips as discs, rounded corners) warped
onto the projected face, so pips become true perspective ellipses; a see-through die (`DiceStyle.see_through`,
smoky and gem dice) shows its lower faces, blurred, through its upper faces' bodies. Lambert shading from one light, soft
cast shadows, lighting flicker, sensor noise and directional motion blur are added on top.

A roll sequence plays, for every roll: a hand reaching into the tray and taking the dice (the first
roll starts with an empty tray), the dice thrown in, tumbling (moving, rotating, blurred, top faces
changing) and coming to rest one by one, then lying still. Everything is drawn from one seed, so the
same arguments give the same frames, and every frame carries its truth (`FrameTruth`).
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import math
from typing import Iterable, Iterator, Sequence

import cv2
import numpy as np

from ..events import DieReading
from .sources import Frame

DIE_MM = 16.0
TRAY_MM = (240.0, 170.0)
TRAY_WALL_MM = 18.0
TEXTURE_PX = 64

# Local face normals and the value each shows: opposite faces sum to 7.
_FACE_NORMALS = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}
# Each face's texture axes in die coordinates: u to the texture's right, v = normal x u to its bottom.
_FACE_U = {v: (0.0, 1.0, 0.0) if n[0] else (1.0, 0.0, 0.0) for v, n in _FACE_NORMALS.items()}
_FACE_V = {v: tuple(float(c) for c in np.cross(n, _FACE_U[v])) for v, n in _FACE_NORMALS.items()}
# Positions of pips on a face, in units of the face side, centred on the face (a standard die; the traced
# renderer lays its pips out the same way).
PIP_LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


@dataclasses.dataclass(frozen=True)
class DiceStyle:
    """How a set of dice looks. Colours are BGR."""

    name: str
    body: tuple[int, int, int]
    pips: tuple[int, int, int]
    opacity: float = 1.0
    marble: tuple[int, int, int] | None = None
    see_through: float = 0.0  # a translucent body: how much of the faces behind shows through a face's body


STYLES: dict[str, DiceStyle] = {
    "white": DiceStyle("white", (235, 238, 240), (25, 25, 25)),
    "black": DiceStyle("black", (30, 30, 32), (240, 240, 240)),
    "red": DiceStyle("red", (40, 40, 200), (245, 245, 245)),
    "blue": DiceStyle("blue", (170, 90, 30), (240, 240, 240)),
    "green": DiceStyle("green", (60, 150, 40), (20, 20, 20)),
    "translucent": DiceStyle("translucent", (60, 60, 210), (250, 250, 250), opacity=0.7),
    "marbled": DiceStyle("marbled", (200, 200, 205), (30, 30, 120), marble=(120, 90, 60)),
}


@dataclasses.dataclass(frozen=True)
class CameraModel:
    """A pinhole camera looking at the tray centre from `distance_mm`, tilted `tilt_deg` from vertical."""

    width: int = 640
    height: int = 480
    tilt_deg: float = 0.0
    hfov_deg: float = 60.0
    distance_mm: float | None = None

    def __post_init__(self):
        if self.width < 32 or self.height < 24:
            raise ValueError(f"frame size {self.width}x{self.height} is too small; at least 32x24")
        if not 0 <= self.tilt_deg <= 60:
            raise ValueError(f"camera tilt {self.tilt_deg} degrees is out of range 0–60")

    @property
    def focal(self) -> float:
        return self._focal

    @functools.cached_property
    def _focal(self) -> float:
        return self.width / (2 * math.tan(math.radians(self.hfov_deg) / 2))

    @functools.cached_property
    def distance(self) -> float:
        if self.distance_mm is not None:
            return self.distance_mm
        # Far enough that the tray and a margin of table fill the frame in both directions.
        half_w = TRAY_MM[0] / 2 * 1.3
        half_h = TRAY_MM[1] / 2 * 1.3 / max(math.cos(math.radians(self.tilt_deg)), 0.5)
        f = self.focal
        return max(half_w * f / (self.width / 2), half_h * f / (self.height / 2))

    def pose(self) -> tuple[np.ndarray, np.ndarray]:
        """(rotation world->camera with rows right, down, forward; camera position)."""
        return self._pose

    @functools.cached_property
    def _pose(self) -> tuple[np.ndarray, np.ndarray]:
        tilt = math.radians(self.tilt_deg)
        position = np.array([0.0, -self.distance * math.sin(tilt), self.distance * math.cos(tilt)])
        forward = -position / np.linalg.norm(position)
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(forward, right)
        return np.stack([right, down, forward]), position

    def project(self, points: np.ndarray) -> np.ndarray:
        rotation, position = self._pose
        cam = (np.asarray(points, dtype=float).reshape(-1, 3) - position) @ rotation.T
        f = self._focal
        return np.stack([f * cam[:, 0] / cam[:, 2] + self.width / 2, f * cam[:, 1] / cam[:, 2] + self.height / 2], axis=1)


@dataclasses.dataclass(frozen=True)
class DieTruth:
    value: int
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    moving: bool


@dataclasses.dataclass(frozen=True)
class FrameTruth:
    """What a frame shows. `tray` is the tray floor's bounding box in pixels."""

    index: int
    t: int
    roll: int
    phase: str  # "empty", "hand", "rolling" or "settled"
    dice: tuple[DieTruth, ...]
    hand_in_tray: bool
    tray: tuple[int, int, int, int]

    @property
    def values(self) -> list[int]:
        return sorted(d.value for d in self.dice)

    @property
    def moving(self) -> bool:
        return self.hand_in_tray or any(d.moving for d in self.dice)


@dataclasses.dataclass(frozen=True)
class SceneFrame:
    frame: Frame
    truth: FrameTruth


def _rot(axis: np.ndarray, angle: float) -> np.ndarray:
    matrix, _ = cv2.Rodrigues(np.asarray(axis, dtype=float).reshape(3) / np.linalg.norm(axis) * angle)
    return matrix


_REST_ROTATIONS = {
    1: np.eye(3),
    6: _rot(np.array([1.0, 0, 0]), math.pi),
    2: _rot(np.array([0, 1.0, 0]), -math.pi / 2),
    5: _rot(np.array([0, 1.0, 0]), math.pi / 2),
    3: _rot(np.array([1.0, 0, 0]), math.pi / 2),
    4: _rot(np.array([1.0, 0, 0]), -math.pi / 2),
}


def rest_rotation(value: int, yaw: float) -> np.ndarray:
    """The rotation of a die lying flat with `value` on top, turned `yaw` radians about the vertical."""
    return _rot(np.array([0, 0, 1.0]), yaw) @ _REST_ROTATIONS[value]


def top_value(rotation: np.ndarray) -> int:
    """The value on the face pointing most upwards."""
    return max(_FACE_NORMALS, key=lambda v: float((rotation @ np.array(_FACE_NORMALS[v], dtype=float))[2]))


@dataclasses.dataclass
class _DiePose:
    position: np.ndarray  # centre, mm
    rotation: np.ndarray
    velocity_px: tuple[float, float] = (0.0, 0.0)  # image motion per frame, for blur
    moving: bool = False


def _face_texture(style: DiceStyle, value: int, rng: np.random.Generator) -> np.ndarray:
    size = TEXTURE_PX
    texture = np.empty((size, size, 3), np.uint8)
    texture[:] = style.body
    if style.marble is not None:
        yy, xx = np.mgrid[0:size, 0:size].astype(float) / size
        phase = rng.uniform(0, 2 * math.pi, 3)
        swirl = np.sin(6 * xx + 4 * np.sin(5 * yy + phase[0]) + phase[1]) * np.sin(3 * yy + 2 * np.cos(4 * xx + phase[2]))
        weight = 0.75 * np.clip((swirl + 0.2) * 1.4, 0, 1)[..., None]
        texture = (texture * (1 - weight) + np.array(style.marble) * weight).astype(np.uint8)
    _draw_pips(texture, value, style.pips)
    return texture


def _draw_pips(texture: np.ndarray, value: int, colour) -> None:
    """The pips of `value` as discs on a face texture (TEXTURE_PX square)."""
    size = TEXTURE_PX
    pitch = size * 0.27
    radius = max(2, int(round(size * 0.095)))
    for px, py in PIP_LAYOUT[value]:
        centre = (int(round(size / 2 + px * pitch)), int(round(size / 2 + py * pitch)))
        cv2.circle(texture, centre, radius, colour, -1, cv2.LINE_AA)


def _pip_mask(value: int) -> np.ndarray:
    """Where `_face_texture` paints the pips of `value` (255), so a see-through face keeps its pips opaque."""
    mask = np.zeros((TEXTURE_PX, TEXTURE_PX), np.uint8)
    _draw_pips(mask, value, 255)
    return mask


def _rounded_mask() -> np.ndarray:
    size = TEXTURE_PX
    mask = np.zeros((size, size), np.uint8)
    r = size // 7
    cv2.rectangle(mask, (r, 0), (size - 1 - r, size - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (size - 1, size - 1 - r), 255, -1)
    for cx in (r, size - 1 - r):
        for cy in (r, size - 1 - r):
            cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


class SceneRenderer:
    """Draws frames of one table: background, tray and clutter fixed; dice, hand, light per frame."""

    def __init__(self, camera: CameraModel, style: DiceStyle, rng: np.random.Generator, *,
                 noise: float = 3.0, light: tuple[float, float, float] | None = None):
        self.camera = camera
        self.style = style
        self.noise = noise
        self.rng = rng
        direction = np.array(light if light is not None else (rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0))
        self.light = direction / np.linalg.norm(direction)
        self.textures = {v: _face_texture(style, v, rng) for v in range(1, 7)}
        self.face_mask = _rounded_mask()
        self.pip_masks = {v: _pip_mask(v) for v in range(1, 7)} if style.see_through else {}
        self.background = self._draw_background()
        # The tray box holds the floor and anything lying on it up to a die's height, so a die against the
        # far wall still has its top face inside the box when the camera is tilted.
        corners = self.camera.project(np.vstack([self._tray_floor(), self._tray_floor(DIE_MM)]))
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
        self.tray = (max(0, int(x0)), max(0, int(y0)), min(camera.width, int(x1)), min(camera.height, int(y1)))

    @staticmethod
    def _tray_floor(z: float = 0.0) -> np.ndarray:
        w, h = TRAY_MM[0] / 2, TRAY_MM[1] / 2
        return np.array([[-w, -h, z], [w, -h, z], [w, h, z], [-w, h, z]])

    def _fill_world(self, image: np.ndarray, points: np.ndarray, colour) -> None:
        poly = np.round(self.camera.project(points) * 16).astype(np.int32)
        cv2.fillPoly(image, [poly], colour, cv2.LINE_AA, shift=4)

    def _draw_background(self) -> np.ndarray:
        cam, rng = self.camera, self.rng
        image = np.empty((cam.height, cam.width, 3), np.uint8)
        wood = np.array([rng.uniform(60, 110), rng.uniform(100, 150), rng.uniform(140, 190)])
        ys = np.linspace(0, 1, cam.height)[:, None]
        xs = np.linspace(0, 1, cam.width)[None, :]
        grain = 0.88 + 0.12 * np.sin(40 * ys + 3 * np.sin(7 * xs + rng.uniform(0, 6)))
        image[:] = np.clip(wood[None, None, :] * grain[..., None], 0, 255).astype(np.uint8)
        # Clutter on the table around the tray: cards, coins, a cup, a pencil.
        w, h = TRAY_MM[0] / 2, TRAY_MM[1] / 2
        for _ in range(int(rng.integers(4, 9))):
            for _attempt in range(20):
                cx, cy = rng.uniform(-w * 1.6, w * 1.6), rng.uniform(-h * 1.8, h * 1.8)
                if abs(cx) > w + 40 or abs(cy) > h + 40:
                    break
            else:
                continue
            colour = tuple(int(c) for c in rng.integers(20, 240, 3))
            kind = rng.integers(0, 3)
            if kind == 0:
                a, b, angle = rng.uniform(20, 45), rng.uniform(30, 60), rng.uniform(0, math.pi)
                rect = np.array([[-a, -b], [a, -b], [a, b], [-a, b]]) @ np.array(
                    [[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
                points = np.column_stack([rect + (cx, cy), np.zeros(4)])
            elif kind == 1:
                r = rng.uniform(8, 35)
                angles = np.linspace(0, 2 * math.pi, 24, endpoint=False)
                points = np.column_stack([cx + r * np.cos(angles), cy + r * np.sin(angles), np.zeros(24)])
            else:
                angle = rng.uniform(0, math.pi)
                d = np.array([math.cos(angle), math.sin(angle)]) * 70
                n = np.array([-d[1], d[0]]) / 70 * 4
                quad = np.array([(cx, cy) - d - n, (cx, cy) + d - n, (cx, cy) + d + n, (cx, cy) - d + n])
                points = np.column_stack([quad, np.zeros(4)])
            self._fill_world(image, points, colour)
        # The tray: walls first (outer faces seen at an angle), then the felt floor.
        wall = (int(rng.integers(30, 80)),) * 3
        top = self._tray_floor(TRAY_WALL_MM) * np.array([1.06, 1.08, 1])
        bottom_out = self._tray_floor(0) * np.array([1.06, 1.08, 1])
        for i in range(4):
            j = (i + 1) % 4
            self._fill_world(image, np.array([bottom_out[i], bottom_out[j], top[j], top[i]]), wall)
        self._fill_world(image, top, tuple(int(c * 1.3) for c in wall))
        floor_colour = tuple(int(c) for c in rng.choice([(60, 110, 40), (110, 60, 40), (70, 70, 75), (40, 40, 120)]))
        inner_top = self._tray_floor(TRAY_WALL_MM)
        floor = self._tray_floor(0)
        for i in range(4):  # inner walls, shaded darker
            j = (i + 1) % 4
            self._fill_world(image, np.array([floor[i], floor[j], inner_top[j], inner_top[i]]),
                             tuple(int(c * 0.7) for c in floor_colour))
        self._fill_world(image, floor, floor_colour)
        felt = rng.normal(0, 4, image.shape[:2]).astype(np.float32)
        felt = cv2.GaussianBlur(felt, (0, 0), 1.2)
        return np.clip(image + felt[..., None], 0, 255).astype(np.uint8)

    def die_corners(self, pose: _DiePose) -> np.ndarray:
        half = DIE_MM / 2
        local = np.array([[x, y, z] for x in (-half, half) for y in (-half, half) for z in (-half, half)])
        return local @ pose.rotation.T + pose.position

    def die_truth(self, pose: _DiePose) -> DieTruth:
        pts = self.camera.project(self.die_corners(pose))
        x0, y0 = pts.min(axis=0)
        x1, y1 = pts.max(axis=0)
        top_centre = self.camera.project(pose.position + pose.rotation @ np.array(_FACE_NORMALS[top_value(pose.rotation)]) * DIE_MM / 2)[0]
        return DieTruth(top_value(pose.rotation), (float(top_centre[0]), float(top_centre[1])),
                        (float(x0), float(y0), float(x1), float(y1)), pose.moving)

    def _shadow(self, mask: np.ndarray, points: np.ndarray) -> None:
        l = self.light
        flat = points - np.outer(points[:, 2] / l[2], l)
        hull = cv2.convexHull(np.round(self.camera.project(flat) * 16).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 1.0, cv2.LINE_AA, shift=4)

    def _draw_die(self, image: np.ndarray, pose: _DiePose) -> None:
        rotation, position = self.camera.pose()
        corners_px = self.camera.project(self.die_corners(pose))
        blur = np.array(pose.velocity_px, dtype=float)
        margin = int(np.ceil(np.abs(blur).max())) + 3
        x0 = max(0, int(np.floor(corners_px[:, 0].min())) - margin)
        y0 = max(0, int(np.floor(corners_px[:, 1].min())) - margin)
        x1 = min(image.shape[1], int(np.ceil(corners_px[:, 0].max())) + margin)
        y1 = min(image.shape[0], int(np.ceil(corners_px[:, 1].max())) + margin)
        if x1 <= x0 or y1 <= y0:
            return
        layer = np.zeros((y1 - y0, x1 - x0, 3), np.float32)
        alpha = np.zeros((y1 - y0, x1 - x0), np.float32)
        half = DIE_MM / 2
        normals = {value: pose.rotation @ np.array(normal, dtype=float) for value, normal in _FACE_NORMALS.items()}
        facing = [value for value, n in normals.items() if np.dot(n, position - (pose.position + n * half)) > 0]
        behind = [value for value in normals if value not in facing] if self.style.see_through else []
        for value in behind + facing:
            n_world = normals[value]
            centre = pose.position + n_world * half
            seen_from_inside = value in behind
            # Face axes: u along the face's local "right", v its local "down", so pip layouts read upright.
            u_local = _FACE_U[value]
            v_local = _FACE_V[value]
            u, v = pose.rotation @ np.array(u_local) * half, pose.rotation @ np.array(v_local) * half
            quad = np.array([centre - u - v, centre + u - v, centre + u + v, centre - u + v])
            dst = (self.camera.project(quad) - (x0, y0)).astype(np.float32)
            src = np.float32([[0, 0], [TEXTURE_PX, 0], [TEXTURE_PX, TEXTURE_PX], [0, TEXTURE_PX]])
            homography = cv2.getPerspectiveTransform(src, dst)
            size = (x1 - x0, y1 - y0)
            face = cv2.warpPerspective(self.textures[value], homography, size, flags=cv2.INTER_LINEAR).astype(np.float32)
            mask = cv2.warpPerspective(self.face_mask, homography, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
            shade = 0.5 if seen_from_inside else 0.45 + 0.6 * max(0.0, float(np.dot(n_world, self.light)))
            if behind and not seen_from_inside:  # a see-through face: its pips opaque, its body letting the faces behind show
                pips = cv2.warpPerspective(self.pip_masks[value], homography, size, flags=cv2.INTER_LINEAR)
                mask = mask * (1 - self.style.see_through * (1 - pips.astype(np.float32) / 255))
            layer = layer * (1 - mask[..., None]) + face * shade * mask[..., None]
            alpha = np.maximum(alpha, mask)
            if seen_from_inside and value == behind[-1]:
                layer = cv2.GaussianBlur(layer, (0, 0), 0.8)  # the body scatters what lies behind
        speed = float(np.hypot(*blur))
        if speed >= 1.5:
            length = int(math.ceil(speed))
            kernel = np.zeros((2 * length + 1, 2 * length + 1), np.float32)
            cv2.line(kernel, (int(round(length - blur[0] / 2)), int(round(length - blur[1] / 2))),
                     (int(round(length + blur[0] / 2)), int(round(length + blur[1] / 2))), 1.0, 1)
            kernel /= kernel.sum()
            premultiplied = cv2.filter2D(layer * alpha[..., None], -1, kernel)
            alpha = cv2.filter2D(alpha, -1, kernel)
            layer = premultiplied / np.maximum(alpha[..., None], 1e-3)
        alpha *= self.style.opacity
        roi = image[y0:y1, x0:x1]
        roi[:] = roi * (1 - alpha[..., None]) + layer * alpha[..., None]

    def _hand_outline(self, centre_mm: tuple[float, float]) -> tuple[np.ndarray, list[np.ndarray]]:
        """The hand as world points at palm height: a palm polygon and finger segments; the arm runs to the
        camera-side edge of the frame."""
        cx, cy = centre_mm
        z = 45.0
        angles = np.linspace(0, 2 * math.pi, 20, endpoint=False)
        palm = np.column_stack([cx + 38 * np.cos(angles), cy + 45 * np.sin(angles), np.full(20, z)])
        fingers = []
        for i, dx in enumerate((-27, -9, 9, 27)):
            fingers.append(np.array([[cx + dx, cy + 35, z], [cx + dx * 1.15, cy + 80 - abs(dx) * 0.5, z]]))
        fingers.append(np.array([[cx - 35, cy, z], [cx - 70, cy + 30, z]]))
        arm = np.array([[cx - 30, cy - 30, z + 10], [cx + 30, cy - 30, z + 10], [cx + 45, cy - 400, z + 80], [cx - 45, cy - 400, z + 80]])
        return np.vstack([palm]), fingers + [arm]

    def _draw_hand(self, image: np.ndarray, shadow: np.ndarray, centre_mm: tuple[float, float]) -> None:
        palm, parts = self._hand_outline(centre_mm)
        skin = (120, 150, 205)
        scale = self.camera.focal / self.camera.distance
        width = max(2, int(round(16 * scale)))
        for points, target, colour in ((palm, shadow, 1.0), (palm, image, skin)):
            if target is shadow:
                l = self.light
                project = lambda p: self.camera.project(p - np.outer(p[:, 2] / l[2], l))
            else:
                project = self.camera.project
            cv2.fillPoly(target, [np.round(project(points)).astype(np.int32)], colour, cv2.LINE_AA)
            for part in parts:
                pts = np.round(project(part)).astype(np.int32)
                if len(part) == 2:
                    cv2.line(target, tuple(pts[0]), tuple(pts[1]), colour, width, cv2.LINE_AA)
                else:
                    cv2.fillPoly(target, [pts], colour, cv2.LINE_AA)

    def render(self, poses: list[_DiePose], hand_mm: tuple[float, float] | None = None,
               gain: float = 1.0) -> np.ndarray:
        image = self.background.astype(np.float32)
        shadow = np.zeros(image.shape[:2], np.float32)
        for pose in poses:
            self._shadow(shadow, self.die_corners(pose))
        hand_layer = None
        if hand_mm is not None:
            hand_layer = np.zeros_like(image)
            self._draw_hand(hand_layer, shadow, hand_mm)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, self.camera.width / 400))
        image *= (1 - 0.45 * np.clip(shadow, 0, 1))[..., None]
        _, camera_position = self.camera.pose()
        for pose in sorted(poses, key=lambda p: -float(np.linalg.norm(p.position - camera_position))):
            self._draw_die(image, pose)
        if hand_layer is not None:
            covered = hand_layer.any(axis=2)
            image[covered] = hand_layer[covered]
        image *= gain
        if self.noise > 0:
            image += self.rng.normal(0, self.noise, image.shape).astype(np.float32)
        return np.clip(image, 0, 255).astype(np.uint8)


def _place_dice(rng: np.random.Generator, count: int, touching: bool) -> list[np.ndarray]:
    """Resting centres (x, y) inside the tray floor, apart by at least a die's diagonal; with `touching`,
    the second die is put flush against the first."""
    margin = DIE_MM
    w, h = TRAY_MM[0] / 2 - margin, TRAY_MM[1] / 2 - margin
    centres: list[np.ndarray] = []
    for i in range(count):
        for _attempt in range(500):
            if touching and i == 1:
                candidate = centres[0] + np.array([DIE_MM * 1.02, 0.0])
            else:
                candidate = np.array([rng.uniform(-w, w), rng.uniform(-h, h)])
            if all(np.linalg.norm(candidate - c) > DIE_MM * 1.5 for c in centres) or (touching and i == 1):
                centres.append(candidate)
                break
        else:
            raise ValueError(f"cannot fit {count} dice in the tray")
    return centres


def render_scene(seed: int, *, dice: int = 2, camera: CameraModel | None = None, style: str = "white",
                 touching: bool = False, noise: float = 3.0, values: list[int] | None = None) -> tuple[np.ndarray, FrameTruth]:
    """One still frame of dice lying in the tray, and its truth."""
    if style not in STYLES:
        raise ValueError(f"unknown dice style {style!r}; choose from: {', '.join(STYLES)}")
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer(camera or CameraModel(), STYLES[style], rng, noise=noise)
    values = values or [int(v) for v in rng.integers(1, 7, dice)]
    poses = []
    for value, (x, y) in zip(values, _place_dice(rng, len(values), touching)):
        yaw = 0.0 if touching else rng.uniform(0, 2 * math.pi)
        poses.append(_DiePose(np.array([x, y, DIE_MM / 2]), rest_rotation(value, yaw)))
    image = renderer.render(poses)
    truth = FrameTruth(0, 0, 0, "settled", tuple(renderer.die_truth(p) for p in poses), False, renderer.tray)
    return image, truth


@dataclasses.dataclass
class _Roll:
    values: list[int]
    rests: list[np.ndarray]  # resting (x, y)
    yaws: list[float]
    starts: list[np.ndarray]  # where each die enters, (x, y)
    axes: list[np.ndarray]
    spins: list[float]  # total tumble angle, radians
    stop_after: list[float]  # seconds after the throw that each die comes to rest


def roll_sequence(seed: int, *, rolls: int = 3, dice: int = 2, fps: float = 30.0, camera: CameraModel | None = None,
                  style: str = "white", noise: float = 3.0, flicker: float = 0.02, touching: bool = False,
                  rest_s: float = 1.2, hand: bool = True, t0: int = 1_000_000_000) -> Iterator[SceneFrame]:
    """Frames of `rolls` rolls in a row, each: (hand takes the dice), throw, tumble, rest for `rest_s`.

    Time advances by exactly 1/fps per frame from `t0` (ns). `flicker` is the relative amplitude of
    mains-like lighting flicker.
    """
    if style not in STYLES:
        raise ValueError(f"unknown dice style {style!r}; choose from: {', '.join(STYLES)}")
    if fps <= 0:
        raise ValueError(f"fps must be positive, got {fps}")
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer(camera or CameraModel(), STYLES[style], rng, noise=noise)
    dt = 1.0 / fps
    index = 0
    previous: list[_DiePose] = []

    def emit(roll: int, phase: str, poses: list[_DiePose], hand_mm=None) -> SceneFrame:
        nonlocal index
        t = t0 + int(round(index * dt * 1e9))
        gain = 1.0 + flicker * math.sin(2 * math.pi * 7.3 * index * dt + seed) + rng.normal(0, flicker / 3)
        image = renderer.render(poses, hand_mm, gain)
        truth = FrameTruth(index, t, roll, phase, tuple(renderer.die_truth(p) for p in poses),
                           hand_mm is not None and _hand_over_tray(hand_mm), renderer.tray)
        index += 1
        return SceneFrame(Frame(t, image), truth)

    for roll in range(rolls):
        if previous and hand:
            # A hand comes in from the camera side, takes the dice halfway, and goes back out.
            target = np.mean([p.position[:2] for p in previous], axis=0)
            outside = np.array([target[0], -TRAY_MM[1] / 2 - 160.0])
            steps = max(6, int(round(1.0 * fps)))
            for i in range(steps):
                s = i / (steps - 1)
                reach = math.sin(math.pi * s)
                hand_mm = tuple(outside + (target - outside) * reach)
                poses = previous if s < 0.5 else []
                yield emit(roll, "hand", poses, hand_mm)
            for _ in range(max(2, int(round(0.2 * fps)))):
                yield emit(roll, "empty", [])
        elif not previous:
            for _ in range(max(2, int(round(0.3 * fps)))):
                yield emit(roll, "empty", [])
        plan = plan_roll(rng, dice, touching)
        duration = max(plan.stop_after)
        steps = int(math.ceil(duration * fps))
        last_px = [None] * dice
        for i in range(steps):
            elapsed = i * dt
            poses = []
            for d in range(dice):
                pose = tumble_pose(plan, d, elapsed)
                centre = renderer.camera.project(pose.position)[0]
                if pose.moving and last_px[d] is not None:
                    pose.velocity_px = tuple((centre - last_px[d]) * 0.6)
                last_px[d] = centre
                poses.append(pose)
            yield emit(roll, "rolling", poses)
        previous = [tumble_pose(plan, d, duration + 1) for d in range(dice)]
        for _ in range(max(1, int(round(rest_s * fps)))):
            yield emit(roll, "settled", previous)


def _hand_over_tray(hand_mm) -> bool:
    x, y = hand_mm
    return abs(x) < TRAY_MM[0] / 2 + 40 and y + 80 > -TRAY_MM[1] / 2


def plan_roll(rng: np.random.Generator, dice: int, touching: bool, values: Sequence[int] | None = None) -> _Roll:
    """A roll's path from the throw to rest. `values` sets the faces it comes to rest on (drawn from `rng`
    when not given; the generator is advanced the same either way, so the paths do not depend on it)."""
    drawn = [int(v) for v in rng.integers(1, 7, dice)]
    if values is not None and len(values) != dice:
        raise ValueError(f"a roll of {dice} dice needs {dice} values, got {list(values)}")
    values = [int(v) for v in values] if values is not None else drawn
    rests = _place_dice(rng, dice, touching)
    side = rng.choice([-1, 1])
    starts = [np.array([side * (TRAY_MM[0] / 2 - 10), rng.uniform(-40, 40)]) for _ in range(dice)]
    yaws = [0.0 if touching else float(rng.uniform(0, 2 * math.pi)) for _ in range(dice)]
    axes = []
    for _ in range(dice):
        axis = rng.normal(size=3)
        axis[2] *= 0.3
        axes.append(axis / np.linalg.norm(axis))
    spins = [float(rng.uniform(3, 6) * math.pi) for _ in range(dice)]
    stop_after = [float(rng.uniform(0.6, 1.1)) for _ in range(dice)]
    return _Roll(values, rests, yaws, starts, axes, spins, stop_after)


def tumble_pose(plan: _Roll, d: int, elapsed: float) -> _DiePose:
    """The pose of die `d` `elapsed` seconds after the throw: decelerating along its path, spinning less
    and less, and exactly at rest from its stop time on."""
    remaining = max(0.0, 1.0 - elapsed / plan.stop_after[d])
    rest_rot = rest_rotation(plan.values[d], plan.yaws[d])
    if remaining == 0:
        return _DiePose(np.array([*plan.rests[d], DIE_MM / 2]), rest_rot)
    ease = remaining ** 2
    xy = plan.rests[d] + (plan.starts[d] - plan.rests[d]) * ease
    bounce = abs(math.sin(elapsed * 14 + d)) * 20 * ease
    lift = DIE_MM * 0.37 * min(1.0, remaining * 3)
    rotation = _rot(plan.axes[d], plan.spins[d] * ease) @ rest_rot
    return _DiePose(np.array([xy[0], xy[1], DIE_MM / 2 + lift + bounce]), rotation, moving=True)


class TruthReader:
    """A reader that answers with the generator's truth for frames it was given: for testing what comes
    after the reader (settling, zones, the live loop) apart from reading errors. Frames are recognised by
    their pixels; an unknown frame reads as no dice."""

    def __init__(self, scene_frames: Iterable[SceneFrame] = ()):
        self._truth: dict[bytes, FrameTruth] = {}
        self.calls = 0
        for scene_frame in scene_frames:
            self.add(scene_frame)

    @staticmethod
    def _key(image: np.ndarray) -> bytes:
        return hashlib.blake2b(np.ascontiguousarray(image).tobytes(), digest_size=16).digest()

    def add(self, scene_frame: SceneFrame) -> None:
        self._truth[self._key(scene_frame.frame.image)] = scene_frame.truth

    def read(self, frame_bgr: np.ndarray, tray=None) -> list[DieReading]:
        self.calls += 1
        truth = self._truth.get(self._key(frame_bgr))
        if truth is None:
            return []
        return [DieReading(d.value, d.center, d.box, 0.5 if d.moving else 1.0, unsure=d.moving) for d in truth.dice
                if tray is None or (tray[0] <= d.center[0] < tray[2] and tray[1] <= d.center[1] < tray[3])]
