"""Synthetic training scenes for the pip-dice detector, from the repo's own scene generator.

Each scene is a still frame of 1–24 dice lying in the tray (some in touching clusters), seen by a camera
tilted 0–55°, with the truth the detector learns: each die's top-face centre and the side of its
top-face box in pixels (the larger of the projected top face's width and height, as the real labels
measure it). Run by hand from models/train_pips_detector.py; never at run time.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "models"))

from companion.vision import scene, scene_traced  # noqa: E402
from pips_synthetic_patches import random_traced_look  # noqa: E402

FRAMES_PER_TABLE = 4


def _placements(rng: np.random.Generator, count: int) -> list[tuple[float, float, float]]:
    """(x, y, yaw) resting places on the tray floor that do not overlap; about a third of the dice are put
    flush against an earlier die, square to it, as dice end up after a roll."""
    half = scene.DIE_MM / 2
    w, h = scene.TRAY_MM[0] / 2 - scene.DIE_MM, scene.TRAY_MM[1] / 2 - scene.DIE_MM
    placed: list[tuple[float, float, float]] = []
    for _ in range(count):
        for _attempt in range(200):
            if placed and rng.random() < 0.35:
                bx, by, yaw = placed[int(rng.integers(len(placed)))]
                side = rng.integers(4) * math.pi / 2 + yaw
                gap = scene.DIE_MM * rng.uniform(1.0, 1.08)
                slide = rng.uniform(-0.4, 0.4) * scene.DIE_MM
                x = bx + gap * math.cos(side) - slide * math.sin(side)
                y = by + gap * math.sin(side) + slide * math.cos(side)
                candidate = (x, y, yaw + rng.normal(0, 0.05))
            else:
                candidate = (rng.uniform(-w, w), rng.uniform(-h, h), rng.uniform(0, 2 * math.pi))
            if abs(candidate[0]) > w + half or abs(candidate[1]) > h + half:
                continue
            if all(math.hypot(candidate[0] - p[0], candidate[1] - p[1]) > scene.DIE_MM * 0.999
                   and _apart(candidate, p) for p in placed):
                placed.append(candidate)
                break
    return placed


def _apart(a, b) -> bool:
    """True when two squares of side DIE_MM at (x, y, yaw) do not overlap (separating-axis test)."""
    def corners(p):
        x, y, yaw = p
        c, s = math.cos(yaw), math.sin(yaw)
        half = scene.DIE_MM / 2
        return np.array([(x + c * u - s * v, y + s * u + c * v) for u in (-half, half) for v in (-half, half)])

    ca, cb = corners(a), corners(b)
    for yaw in (a[2], b[2]):
        for axis in ((math.cos(yaw), math.sin(yaw)), (-math.sin(yaw), math.cos(yaw))):
            pa, pb = ca @ axis, cb @ axis
            if pa.max() <= pb.min() + 1e-6 or pb.max() <= pa.min() + 1e-6:
                return True
    return False


def _top_face_box(camera: scene.CameraModel, x: float, y: float, yaw: float) -> tuple[float, float, float]:
    half = scene.DIE_MM / 2
    c, s = math.cos(yaw), math.sin(yaw)
    corners = np.array([(x + c * u - s * v, y + s * u + c * v, scene.DIE_MM) for u in (-half, half) for v in (-half, half)])
    pts = camera.project(corners)
    centre = camera.project(np.array([[x, y, scene.DIE_MM]]))[0]
    size = float(max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1])))
    return float(centre[0]), float(centre[1]), size


def make_scenes(count: int, seed: int = 0, tilt: tuple[float, float] | None = None, labels: int = 0, traced: bool = False):
    """`count` scenes: list of (BGR image, float32 array (n, 4) of x, y, size, value). Each table's camera is
    tilted 0°, 0–25° or 25–55° (a third each), or, given `tilt` (low, high), anywhere in that range. `labels`
    printed labels per frame lie on the tray away from the dice, as background to learn. `traced` draws the
    frames with companion.vision.scene_traced (random dice looks, its tables) instead of the generator."""
    rng = np.random.default_rng(seed)
    out = []
    styles = list(scene.STYLES)
    while len(out) < count:
        width = int(rng.choice([640, 800, 960]))
        height = int(width * rng.choice([0.75, 0.5625]))
        tilt_deg = float(rng.choice([0.0, rng.uniform(0, 25), rng.uniform(25, 55)]) if tilt is None else rng.uniform(*tilt))
        base = scene.CameraModel(width, height, tilt_deg=tilt_deg, hfov_deg=float(rng.uniform(45, 75)))
        camera = scene.CameraModel(width, height, tilt_deg=tilt_deg, hfov_deg=base.hfov_deg,
                                   distance_mm=base.distance * float(rng.uniform(0.55, 1.1)))
        if traced:
            look, table = random_traced_look(rng), str(rng.choice(scene_traced.TABLES))
        else:
            style = scene.STYLES[styles[int(rng.integers(len(styles)))]]
            renderer = scene.SceneRenderer(camera, style, rng, noise=float(rng.uniform(1, 6)))
        for _ in range(FRAMES_PER_TABLE):
            count_here = int(rng.choice([rng.integers(1, 6), rng.integers(5, 25)]))
            poses, truth = [], []
            shape = scene_traced.dice_shape(rng) if traced else None
            for x, y, yaw in _placements(rng, count_here):
                value = int(rng.integers(1, 7))
                if traced:
                    poses.append(scene_traced.TracedDie(np.array([x, y, scene.DIE_MM / 2]),
                                                        scene_traced.resting_rotation(value, yaw), *shape))
                else:
                    poses.append(scene._DiePose(np.array([x, y, scene.DIE_MM / 2]), scene.rest_rotation(value, yaw)))
                cx, cy, size = _top_face_box(camera, x, y, yaw)
                truth.append((cx, cy, size, value))
            if traced:
                image = scene_traced.draw(rng, camera, look, table, poses)
            else:
                image = renderer.render(poses, gain=float(rng.uniform(0.7, 1.25)))
            if labels:
                draw_labels(image, truth, labels, rng)
            inside = [t for t in truth if 0 <= t[0] < width and 0 <= t[1] < height]
            out.append((image, np.array(inside, np.float32).reshape(-1, 4)))
    return out[:count]


def draw_labels(image: np.ndarray, truth: list[tuple[float, float, float, int]], count: int,
                rng: np.random.Generator) -> None:
    """`count` printed labels (`pips_synthetic_patches.printed_text`) at least 1.6 face sizes from every die."""
    from pips_synthetic_patches import printed_text

    size = float(np.median([t[2] for t in truth])) if truth else 40.0
    height, width = image.shape[:2]
    drawn = 0
    for _ in range(count * 10):
        if drawn == count:
            break
        x, y = rng.uniform(size, width - size), rng.uniform(size, height - size)
        if any(math.hypot(x - t[0], y - t[1]) < 1.6 * max(size, t[2]) for t in truth):
            continue
        base = image[int(y), int(x)].astype(int)
        colour = tuple(int(c) for c in (np.clip(base * rng.uniform(0.1, 0.6), 0, 255) if rng.random() < 0.5
                                       else rng.integers(0, 256, 3)))
        printed_text(image, (int(x), int(y)), size * rng.uniform(0.8, 1.5), colour, rng)
        drawn += 1


def save(path: Path, scenes) -> None:
    import cv2

    blobs, offsets, dice_at, truth = [], [0], [0], []
    for image, dice in scenes:
        ok, encoded = cv2.imencode(".png", image)
        blobs.append(encoded.tobytes())
        offsets.append(offsets[-1] + len(blobs[-1]))
        truth.append(dice)
        dice_at.append(dice_at[-1] + len(dice))
    np.savez(path, png=np.frombuffer(b"".join(blobs), np.uint8), offsets=np.array(offsets),
             dice_at=np.array(dice_at), truth=np.concatenate(truth) if truth else np.zeros((0, 4), np.float32))


def load(path: Path):
    import cv2

    with np.load(path) as data:
        png, offsets, dice_at, truth = data["png"], data["offsets"], data["dice_at"], data["truth"]
    out = []
    for i in range(len(offsets) - 1):
        image = cv2.imdecode(png[offsets[i]:offsets[i + 1]], cv2.IMREAD_COLOR)
        out.append((image, truth[dice_at[i]:dice_at[i + 1]]))
    return out


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="render synthetic detector scenes to an .npz cache")
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tilt", type=float, nargs=2, metavar=("LOW", "HIGH"),
                        help="every camera tilted within this range, in degrees (default: 0°, 0–25° or 25–55°)")
    parser.add_argument("--labels", type=int, default=0, help="printed labels drawn per frame, away from the dice")
    parser.add_argument("--traced", action="store_true", help="draw with companion.vision.scene_traced (about 3 s a frame)")
    args = parser.parse_args()
    save(args.out, make_scenes(args.count, args.seed, tuple(args.tilt) if args.tilt else None, args.labels, args.traced))
    print(f"{args.count} scenes -> {args.out}")
