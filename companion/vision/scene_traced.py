"""A second renderer of pip-dice scenes: sphere-traced dice, to measure the reader on a look it never trained on.

`companion.vision.scene` (the generator the networks' training scenes come from) warps flat face textures
onto cubes. This one shares only its pinhole camera (`CameraModel`), its truth (`DieTruth`) and a standard
die's pip layout. Each die is a cube with rounded edges, a signed distance field, with its pips pressed in
as spherical dimples and painted in. Every pixel's ray is traced to the dice or the table. A key light gives
diffuse shading, a glossy highlight (glare on faces and in the pips' hollows, which are lit on one side and
shaded on the other) and soft shadows traced back to the dice. A sky-coloured fill and contact shading under
the dice complete it. The tables are felt, wood or white paper. Then the camera: a soft lens, uneven light,
sensor noise and JPEG.

Dice styles are the common kinds (ivory and white with black pips, red pips on white, light pips on black,
red, blue, green and purple, black pips on yellow, red pips on dark smoky plastic, marbled); translucency
is not modelled. Everything is drawn from the seed.
"""
from __future__ import annotations

import dataclasses
import functools
import math

import cv2
import numpy as np

from .scene import PIP_LAYOUT, CameraModel, DieTruth

DIE_MM = 16.0
HALF = DIE_MM / 2
TRAY_MM = (240.0, 170.0)
MAX_STEPS = 64
HIT_MM = 2e-3
GAMMA = 2.2  # colours are given as seen (sRGB-like) and lit in linear light

_CORNERS = np.array([[x, y, z] for x in (-HALF, HALF) for y in (-HALF, HALF) for z in (-HALF, HALF)])
# Face normals in the die's own axes and the value each face shows (opposite faces sum to 7).
FACES = {1: (0, 0, 1), 6: (0, 0, -1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}


@dataclasses.dataclass(frozen=True)
class TracedStyle:
    """How a set of dice looks: colours BGR in 0–1, `gloss` the highlight's strength, `swirl` a second body
    colour laid through the plastic."""

    name: str
    body: tuple[float, float, float]
    pips: tuple[float, float, float]
    gloss: float = 0.5
    swirl: tuple[float, float, float] | None = None


STYLES: dict[str, TracedStyle] = {s.name: s for s in (
    TracedStyle("ivory", (0.78, 0.90, 0.94), (0.05, 0.05, 0.05), 0.35),
    TracedStyle("white red pips", (0.93, 0.93, 0.93), (0.10, 0.10, 0.65), 0.6),
    TracedStyle("black", (0.06, 0.06, 0.07), (0.92, 0.92, 0.92), 0.7),
    TracedStyle("red", (0.12, 0.12, 0.70), (0.95, 0.95, 0.95), 0.6),
    TracedStyle("blue", (0.62, 0.30, 0.08), (0.95, 0.95, 0.95), 0.6),
    TracedStyle("green", (0.20, 0.55, 0.12), (0.96, 0.96, 0.96), 0.6),
    TracedStyle("purple", (0.45, 0.12, 0.38), (0.95, 0.95, 0.95), 0.6),
    TracedStyle("yellow", (0.10, 0.78, 0.92), (0.05, 0.05, 0.05), 0.5),
    TracedStyle("smoky", (0.16, 0.16, 0.18), (0.12, 0.12, 0.75), 0.8, swirl=(0.45, 0.45, 0.48)),
    TracedStyle("marbled", (0.85, 0.62, 0.35), (0.97, 0.97, 0.97), 0.5, swirl=(0.95, 0.92, 0.90)),
)}
TABLES = ("felt", "wood", "paper")


@dataclasses.dataclass(frozen=True)
class TracedDie:
    """A die at rest: centre (mm), rotation (die axes → world) and the shape of its edges and pips."""

    centre: np.ndarray
    rotation: np.ndarray
    edge_mm: float
    pip_radius_mm: float
    pip_pitch_mm: float
    pip_depth_mm: float

    def pip_centres(self) -> tuple[np.ndarray, float]:
        """Centres of the pips' dimple spheres in the die's axes by face, and the spheres' radius."""
        return _pip_centres(self.pip_radius_mm, self.pip_pitch_mm, self.pip_depth_mm)

    def nearest_pip(self, p: np.ndarray) -> np.ndarray:
        """Distance from points (n, 3) in the die's axes to the nearest pip sphere's centre: only the pips of
        the face each point lies nearest can be near it."""
        centres, _ = self.pip_centres()
        axis = np.abs(p).argmax(axis=1)
        sign = (p[np.arange(len(p)), axis] < 0).astype(int)
        near = centres[axis, sign]
        return np.sqrt(((p[:, None, :] - near) ** 2).sum(axis=2).min(axis=1))

    def top_value(self) -> int:
        return max(FACES, key=lambda v: float((self.rotation @ np.asarray(FACES[v], float))[2]))

    def corners(self) -> np.ndarray:
        """The cube's eight corners (world, mm), edges not rounded."""
        return _CORNERS @ self.rotation.T + self.centre

    def face_points(self, value: int) -> np.ndarray:
        """The face showing `value`: its centre and four corners (world, mm)."""
        n, u, v = _face_axes(value)
        local = [n * HALF] + [n * HALF + (a * u + b * v) * HALF for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        return np.array(local) @ self.rotation.T + self.centre


def _face_axes(value: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The face showing `value`: its normal and the axes its pip layout runs along (die axes)."""
    n = np.asarray(FACES[value], float)
    u = np.array([0.0, 1.0, 0.0]) if n[0] else np.array([1.0, 0.0, 0.0])
    return n, u, np.cross(n, u)


@functools.lru_cache(maxsize=64)
def _pip_centres(a: float, pitch: float, depth: float) -> tuple[np.ndarray, float]:
    """The centres of the pips' dimple spheres in the die's axes, by face: (3 axes, 2 signs, 6 pips, 3), a
    face with fewer pips padded far away; and the spheres' radius (mm)."""
    sphere = (a * a + depth * depth) / (2 * depth)
    centres = np.full((3, 2, 6, 3), 1e3)
    for value in FACES:
        n, u, v = _face_axes(value)
        axis, sign = int(np.argmax(np.abs(n))), int(n.sum() < 0)
        for k, (pu, pv) in enumerate(PIP_LAYOUT[value]):
            centres[axis, sign, k] = n * (HALF + sphere - depth) + (pu * u + pv * v) * pitch
    return centres, sphere


def rounded_box(p: np.ndarray, edge: float) -> np.ndarray:
    """Signed distance (mm) from points (n, 3) in a die's axes to the die with edges rounded to `edge`."""
    q = np.abs(p) - (HALF - edge)
    outside = np.linalg.norm(np.maximum(q, 0.0), axis=1)
    inside = np.minimum(q.max(axis=1), 0.0)
    return outside + inside - edge


def die_distance(die: TracedDie, p: np.ndarray) -> np.ndarray:
    """Signed distance to the die with its pips pressed in (points in the die's axes)."""
    _, sphere = die.pip_centres()
    return np.maximum(rounded_box(p, die.edge_mm), sphere - die.nearest_pip(p))


def _trace(die: TracedDie, origins: np.ndarray, dirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(hit, t) of rays (world) against one die: sphere tracing from where each ray enters its box."""
    o = (origins - die.centre) @ die.rotation
    d = dirs @ die.rotation
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / d
        t0 = (-HALF - 0.05 - o) * inv
        t1 = (HALF + 0.05 - o) * inv
    near = np.nanmax(np.minimum(t0, t1), axis=1)
    far = np.nanmin(np.maximum(t0, t1), axis=1)
    t = np.maximum(near, 0.0)
    hit = np.zeros(len(o), bool)
    active = np.nonzero(far > t)[0]
    for _ in range(MAX_STEPS):
        if not len(active):
            break
        dist = die_distance(die, o[active] + d[active] * t[active, None])
        t[active] += dist
        done = dist < HIT_MM
        hit[active[done]] = True
        active = active[~done & (t[active] < far[active])]
    return hit, t


def _shadow(dice: list[TracedDie], points: np.ndarray, light: np.ndarray, softness: float) -> np.ndarray:
    """Light reaching each world point from direction `light` (1 lit, 0 in shadow), soft-edged."""
    lit = np.ones(len(points))
    reach = HALF * 1.75
    for die in dice:
        # only the points whose ray towards the light passes the die's bounding sphere: first a cheap test of
        # where the ray is at the die's height, then the exact one
        rise = (die.centre[2] - points[:, 2]) / max(light[2], 1e-3)
        at_height = points[:, :2] + np.outer(rise, light[:2]) - die.centre[:2]
        slack = reach * (1 + np.linalg.norm(light[:2]) / max(light[2], 1e-3))
        near = np.nonzero((np.abs(at_height[:, 0]) < slack) & (np.abs(at_height[:, 1]) < slack))[0]
        o = (points[near] - die.centre) @ die.rotation
        d = light @ die.rotation
        along = -(o @ d)
        closest = np.linalg.norm(o + np.outer(along, d), axis=1)
        keep = (closest < reach) & (along > -reach)
        near, o = near[keep], o[keep]
        if not len(near):
            continue
        t = np.full(len(near), 0.05)
        res = np.ones(len(near))
        for _ in range(40):
            dist = rounded_box(o + np.outer(t, d), die.edge_mm)
            res = np.minimum(res, softness * dist / t)
            t += np.clip(dist, 0.05, 4.0)
        lit[near] = np.minimum(lit[near], np.clip(res, 0.0, 1.0))
    return lit


def _table_colour(kind: str, xy: np.ndarray, rng_values: np.ndarray) -> np.ndarray:
    base, phase, scale = rng_values[:3], rng_values[3], rng_values[4]
    x, y = xy[:, 0], xy[:, 1]
    if kind == "wood":
        grain = np.sin(0.35 * y * scale + 2.5 * np.sin(0.03 * x + phase) + 1.5 * np.sin(0.11 * y + x * 0.013))
        return base[None] * (0.9 + 0.1 * grain[:, None])
    if kind == "paper":
        return np.full((len(xy), 3), 0.9) + 0.04 * (base[None] - 0.5)
    weave = np.sin(3.1 * x + phase) * np.sin(2.9 * y - phase)
    return base[None] * (0.95 + 0.05 * weave[:, None])


def _marble(p: np.ndarray, phase: np.ndarray) -> np.ndarray:
    swirl = np.sin(0.45 * p[:, 0] + 1.6 * np.sin(0.35 * p[:, 1] + phase[0]) + phase[1]) * \
        np.sin(0.3 * p[:, 2] + 1.3 * np.cos(0.4 * p[:, 0] + phase[2]))
    return np.clip((swirl + 0.1) * 1.5, 0, 1)


def _place(rng: np.random.Generator, count: int, flush: bool) -> list[tuple[np.ndarray, float]]:
    """Resting centres (x, y) and yaws: apart by more than a die's diagonal, or the second flush on the first."""
    w, h = TRAY_MM[0] / 2 - DIE_MM, TRAY_MM[1] / 2 - DIE_MM
    placed: list[tuple[np.ndarray, float]] = []
    for i in range(count):
        for _attempt in range(500):
            if flush and i == 1:
                centre0, yaw = placed[0]
                side = DIE_MM * 1.01 * np.array([math.cos(yaw), math.sin(yaw)])
                candidate, yaw_i = centre0 + (side if rng.random() < 0.5 else side[::-1] * [-1, 1]), yaw
            else:
                candidate, yaw_i = np.array([rng.uniform(-w, w), rng.uniform(-h, h)]), float(rng.uniform(0, 2 * math.pi))
            if (flush and i == 1) or all(np.linalg.norm(candidate - c) > DIE_MM * 1.5 for c, _ in placed):
                placed.append((candidate, yaw_i))
                break
        else:
            raise ValueError(f"cannot fit {count} dice in the tray")
    return placed


def resting_rotation(value: int, yaw: float) -> np.ndarray:
    """Die axes → world for a die lying with `value` up, turned `yaw` about the vertical."""
    up = np.asarray(FACES[value], float)
    helper = np.array([1.0, 0, 0]) if abs(up[0]) < 0.5 else np.array([0, 1.0, 0])
    x_axis = helper - up * (helper @ up)
    x_axis /= np.linalg.norm(x_axis)
    frame = np.stack([x_axis, np.cross(up, x_axis), up])  # rows: die vectors that go to world x, y, z
    c, s = math.cos(yaw), math.sin(yaw)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]]) @ frame


def render_traced(seed: int, *, dice: int = 3, camera: CameraModel | None = None, style: str | TracedStyle = "ivory",
                  table: str = "felt", flush: bool = False, values: list[int] | None = None) -> tuple[np.ndarray, tuple[DieTruth, ...]]:
    """One frame of dice at rest on a table, and each die's truth (top value, top face centre, box)."""
    if isinstance(style, str) and style not in STYLES:
        raise ValueError(f"unknown traced dice style {style!r}; choose from: {', '.join(STYLES)}")
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; choose from: {', '.join(TABLES)}")
    camera = camera or CameraModel()
    rng = np.random.default_rng(seed)
    values = values or [int(v) for v in rng.integers(1, 7, dice)]
    dice_ = resting_dice(rng, values, flush)
    frame = draw(rng, camera, STYLES[style] if isinstance(style, str) else style, table, dice_)
    return frame, tuple(die_truth(camera, die) for die in dice_)


def resting_dice(rng: np.random.Generator, values: list[int], flush: bool = False) -> list[TracedDie]:
    """Dice of one set (one edge rounding and pip shape) lying with `values` up; with `flush`, the second
    lies square against the first."""
    shape = dice_shape(rng)
    return [TracedDie(np.array([x, y, HALF]), resting_rotation(v, yaw), *shape)
            for v, ((x, y), yaw) in zip(values, _place(rng, len(values), flush))]


def dice_shape(rng: np.random.Generator) -> tuple[float, float, float, float]:
    """One set's edge rounding, pip radius, pip pitch and pip depth (mm), as `TracedDie` takes them."""
    edge, pip_radius = rng.uniform(0.6, 2.4), rng.uniform(1.2, 1.7)
    pitch, depth = rng.uniform(4.3, 4.9), rng.uniform(0.4, 0.9)
    return edge, pip_radius, pitch, depth


def draw(rng: np.random.Generator, camera: CameraModel, look: TracedStyle, table: str, dice_: list[TracedDie]) -> np.ndarray:
    """The camera's BGR frame of `dice_` on a `table`, under a light drawn from `rng`."""
    width, height = camera.width, camera.height
    rotation, position = camera.pose()
    us, vs = np.meshgrid(np.arange(width) + 0.5, np.arange(height) + 0.5)
    cam = np.stack([(us - width / 2) / camera.focal, (vs - height / 2) / camera.focal, np.ones_like(us)], axis=2).reshape(-1, 3)
    dirs = cam @ rotation
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    depth, owner = _first_hits(camera, position, dirs, dice_)

    elevation, azimuth = math.radians(rng.uniform(35, 80)), rng.uniform(0, 2 * math.pi)
    light = _Light(np.array([math.cos(elevation) * math.cos(azimuth), math.cos(elevation) * math.sin(azimuth), math.sin(elevation)]),
                   key=rng.uniform(0.65, 0.95), fill=rng.uniform(0.25, 0.45),
                   sky=np.array([1.0, 0.98, 0.95]) * rng.uniform(0.8, 1.0), softness=rng.uniform(6, 20))
    image = np.zeros((len(dirs), 3))
    on_table = np.nonzero((owner < 0) & np.isfinite(depth))[0]
    image[on_table] = _shade_table(table, rng, position + dirs[on_table] * depth[on_table, None], dice_, light)
    phase, shininess = rng.uniform(0, 2 * math.pi, 3), rng.uniform(60, 250)
    for k, die in enumerate(dice_):
        idx = np.nonzero(owner == k)[0]
        if len(idx):
            others = [d for j, d in enumerate(dice_) if j != k]
            image[idx] = _shade_die(die, others, position + dirs[idx] * depth[idx, None], -dirs[idx], look, light, phase, shininess)
    return _camera_effects(image.reshape(height, width, 3), rng)


@dataclasses.dataclass(frozen=True)
class _Light:
    """The key light's direction (towards it) and strength, the sky's fill, and how soft shadows are."""

    direction: np.ndarray
    key: float
    fill: float
    sky: np.ndarray
    softness: float


def _first_hits(camera: CameraModel, position: np.ndarray, dirs: np.ndarray, dice_: list[TracedDie]) -> tuple[np.ndarray, np.ndarray]:
    """Each ray's distance to what it meets first, and which die that is (-1: the table, or nothing)."""
    depth = np.where(dirs[:, 2] < -1e-6, -position[2] / np.minimum(dirs[:, 2], -1e-6), np.inf)
    owner = np.full(len(dirs), -1)
    origins = np.broadcast_to(position, dirs.shape)
    for k, die in enumerate(dice_):
        px = camera.project(die.corners())
        x0, y0 = np.floor(px.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 2
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, camera.width), min(y1, camera.height)
        if x0 >= x1 or y0 >= y1:
            continue
        idx = (np.arange(y0, y1)[:, None] * camera.width + np.arange(x0, x1)[None]).ravel()
        hit, t = _trace(die, origins[idx], dirs[idx])
        closer = hit & (t < depth[idx])
        depth[idx[closer]] = t[closer]
        owner[idx[closer]] = k
    return depth, owner


def _shade_table(table: str, rng: np.random.Generator, points: np.ndarray, dice_: list[TracedDie], light: _Light) -> np.ndarray:
    """Linear colour of table points: its texture, the dice's soft shadows and the darker contact under them."""
    pattern = np.concatenate([_table_base(table, rng), [rng.uniform(0, 6.3), rng.uniform(0.5, 1.5)]])
    albedo = _table_colour(table, points[:, :2], pattern) ** GAMMA
    lit = _shadow(dice_, points, light.direction, light.softness)
    contact = np.ones(len(points))
    for die in dice_:
        near = np.nonzero(np.abs(points[:, :2] - die.centre[:2]).max(axis=1) < HALF * 1.5 + 8.0)[0]
        gap = np.maximum(rounded_box((points[near] - die.centre) @ die.rotation, die.edge_mm), 0.0)
        contact[near] *= 1 - 0.55 * np.exp(-gap / 2.0)
    return albedo * (light.fill * contact[:, None] * light.sky + light.key * light.direction[2] * lit[:, None])


def _shade_die(die: TracedDie, others: list[TracedDie], world: np.ndarray, view: np.ndarray, look: TracedStyle,
               light: _Light, phase: np.ndarray, shininess: float) -> np.ndarray:
    """Linear colour of points on a die seen from `view` (towards the camera): body or pip paint, diffuse
    light with shadows from the other dice and its own rim, a glossy highlight and a sky reflection."""
    local = (world - die.centre) @ die.rotation
    grad = np.stack([die_distance(die, local + off) - die_distance(die, local - off) for off in np.eye(3) * 0.02], axis=1)
    normal = grad / np.maximum(np.linalg.norm(grad, axis=1, keepdims=True), 1e-9) @ die.rotation.T
    in_pip = die.nearest_pip(local) < die.pip_centres()[1] + 0.03
    albedo = np.broadcast_to(np.asarray(look.body) ** GAMMA, (len(world), 3)).copy()
    if look.swirl is not None:
        weight = _marble(local + die.centre, phase)[:, None] * 0.8
        albedo = albedo * (1 - weight) + np.asarray(look.swirl) ** GAMMA * weight
    albedo[in_pip] = np.asarray(look.pips) ** GAMMA
    to_light = light.direction
    lit = _shadow(others, world + normal * 0.05, to_light, light.softness)
    lit = np.minimum(lit, _self_shadow(die, local + (normal @ die.rotation) * 0.05, to_light @ die.rotation, light.softness))
    diffuse = np.clip(normal @ to_light, 0.0, 1.0) * lit
    halfway = (to_light + view) / np.linalg.norm(to_light + view, axis=1, keepdims=True)
    highlight = np.clip((normal * halfway).sum(axis=1), 0, 1) ** shininess * lit
    fresnel = 0.04 + 0.96 * (1 - np.clip((normal * view).sum(axis=1), 0, 1)) ** 5
    lift = np.clip(world[:, 2] / 4.0, 0, 1)
    ambient = light.fill * (0.55 + 0.45 * lift) * (0.6 + 0.4 * np.clip(normal[:, 2], 0, 1))
    gloss = look.gloss * np.where(in_pip, 0.7, 1.0)
    return (albedo * (ambient[:, None] * light.sky + light.key * diffuse[:, None])
            + (gloss * (light.key * highlight + 0.5 * fresnel * light.fill))[:, None] * light.sky)


def _table_base(kind: str, rng: np.random.Generator) -> np.ndarray:
    if kind == "wood":
        return np.array([0.30, 0.48, 0.66]) * rng.uniform(0.7, 1.1)
    if kind == "paper":
        return rng.uniform(0.3, 0.7, 3)
    felts = np.array([[0.25, 0.45, 0.15], [0.50, 0.25, 0.10], [0.30, 0.30, 0.30], [0.15, 0.12, 0.45]])
    return felts[rng.integers(len(felts))] * rng.uniform(0.7, 1.2)


def _self_shadow(die: TracedDie, local: np.ndarray, light_local: np.ndarray, softness: float) -> np.ndarray:
    """Light reaching points on a die past its own rim: the pips' hollows shade their far side."""
    t = np.full(len(local), 0.02)
    res = np.ones(len(local))
    for _ in range(12):
        dist = die_distance(die, local + np.outer(t, light_local))
        res = np.minimum(res, softness * np.maximum(dist, 0) / t)
        t += np.clip(dist, 0.03, 1.0)
    return np.clip(res, 0.0, 1.0)


def _camera_effects(linear: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    height, width = linear.shape[:2]
    yy, xx = np.mgrid[0:height, 0:width].astype(float)
    cx, cy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
    falloff = 1 - rng.uniform(0.1, 0.35) * (((xx - cx) ** 2 + (yy - cy) ** 2) / (width ** 2 + height ** 2))
    exposure = rng.uniform(0.9, 1.25)
    img = np.clip(linear * falloff[..., None] * exposure, 0, 1) ** (1 / GAMMA)
    img = cv2.GaussianBlur((img * 255).astype(np.float32), (0, 0), rng.uniform(0.5, 1.1))
    img += rng.normal(0, rng.uniform(1.5, 5.0), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 96))])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def die_truth(camera: CameraModel, die: TracedDie) -> DieTruth:
    px = camera.project(die.corners())
    top = camera.project(die.centre + np.array([0, 0, HALF]))[0]
    x0, y0 = px.min(axis=0)
    x1, y1 = px.max(axis=0)
    return DieTruth(die.top_value(), (float(top[0]), float(top[1])), (float(x0), float(y0), float(x1), float(y1)), False)
