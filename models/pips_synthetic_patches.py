"""Synthetic classifier patches from companion.vision.scene: rendered dice with known pose.

    python models/pips_synthetic_patches.py OUT.npz [--scenes 600] [--seed 1] [--labels 0] [--plain-ground 0] [--see-through 0]
        [--traced]

Each scene has its own camera (tilt 0–60°, field of view 45–75°), its own dice look (one of the
generator's seven styles, or a random body/pip colour pair, sometimes told apart by colour more than by
brightness, like red pips on a blue die; sometimes marbled or translucent) and 1–8
dice at rest, sometimes touching. Positives are patches on each top face at its projected size;
negatives are each die's visible side faces (which look like faces, but are not the top), plus the
false candidates of `classifier_data.false_candidates`, plus clutter on the bare tray that a detector
takes for a die: a speck of dirt or a lone dot (which, without a die around it, is not a 1), a round
button, a printed mark; with `--labels N`, N short printed labels per layout too (a cable's "C120", a
box's lettering), which the shipped networks read as dice (see pips-close-look.md), and with
`--plain-ground`, some of that clutter on a plain white sheet; `--see-through P` gives a share P of the scenes
translucent dice whose lower faces show through their bodies (smoky and gem dice). Blur, glare, noise and contrast are added
at training time, not here. Arrays: patches (n, PATCH_PX, PATCH_PX, 3) uint8 BGR, value (n), oblique (n).
"""
from __future__ import annotations

import argparse
import functools
import math
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from companion.vision import scene, scene_traced  # noqa: E402
from companion.vision.pips.classifier import PATCH_PX, canonical_patches  # noqa: E402
from companion.vision.pips.classifier_data import Candidate, false_candidates  # noqa: E402

OBLIQUE_DEG = 20.0  # cameras tilted more than this see side faces below top faces; rotation is limited there


def random_style(rng: np.random.Generator) -> scene.DiceStyle:
    if rng.random() < 0.35:
        return scene.STYLES[str(rng.choice(list(scene.STYLES)))]
    body = tuple(int(c) for c in rng.integers(0, 256, 3))
    if rng.random() < 0.5:  # pips differing in colour, whatever their brightness
        while True:
            pips = tuple(int(c) for c in rng.integers(0, 256, 3))
            if np.abs(np.subtract(pips, body)).sum() > 180:
                break
        marble = tuple(int(c) for c in rng.integers(0, 256, 3)) if rng.random() < 0.25 else None
        opacity = float(rng.uniform(0.65, 0.9)) if rng.random() < 0.2 else 1.0
        return scene.DiceStyle("random", body, pips, opacity, marble)
    light_body = np.dot(body, (0.114, 0.587, 0.299)) > 120
    pips = tuple(int(c) for c in (rng.integers(0, 70, 3) if light_body else rng.integers(170, 256, 3)))
    marble = tuple(int(c) for c in rng.integers(0, 256, 3)) if rng.random() < 0.2 else None
    opacity = float(rng.uniform(0.65, 0.9)) if rng.random() < 0.15 else 1.0
    return scene.DiceStyle("random", body, pips, opacity, marble)


def see_through_style(rng: np.random.Generator) -> scene.DiceStyle:
    """Translucent dice whose lower faces' pips show through the body (smoky dice, gem dice): a dark or
    coloured body, pips differing from it in colour or brightness."""
    body = tuple(int(c) for c in rng.integers(20, 170, 3))
    while True:
        pips = tuple(int(c) for c in rng.integers(0, 256, 3))
        if np.abs(np.subtract(pips, body)).sum() > 180:
            break
    marble = tuple(int(c) for c in rng.integers(0, 256, 3)) if rng.random() < 0.3 else None
    return scene.DiceStyle("see-through", body, pips, float(rng.uniform(0.8, 0.95)), marble,
                           see_through=float(rng.uniform(0.35, 0.7)))


def _face_quad(renderer: scene.SceneRenderer, pose, value: int) -> np.ndarray:
    half = scene.DIE_MM / 2
    normal = pose.rotation @ np.array(scene._FACE_NORMALS[value], dtype=float)
    u = pose.rotation @ np.array(scene._FACE_U[value]) * half
    v = pose.rotation @ np.array(scene._FACE_V[value]) * half
    centre = pose.position + normal * half
    return renderer.camera.project(np.array([centre, centre - u - v, centre + u - v, centre + u + v, centre - u + v]))


def faces_of(renderer: scene.SceneRenderer, pose) -> tuple[Candidate, list[Candidate]]:
    """The top face as a candidate (centre, longest projected edge), and the side faces the camera sees."""
    return visible_faces(renderer.camera, scene.top_value(pose.rotation), pose.position,
                         {value: pose.rotation @ np.array(normal, dtype=float) for value, normal in scene._FACE_NORMALS.items()},
                         lambda value: _face_quad(renderer, pose, value))


def visible_faces(camera: scene.CameraModel, top: int, die_centre: np.ndarray, normals: dict, face_quad) -> tuple[Candidate, list[Candidate]]:
    """(top face, side faces seen well enough to show their pips) as candidates sized by the top face's longest
    projected edge; `face_quad(value)` is a face's projected centre and four corners."""
    _, camera_position = camera.pose()
    top_quad = face_quad(top)
    edges = np.linalg.norm(np.roll(top_quad[1:], -1, axis=0) - top_quad[1:], axis=1)
    size = float(edges.max())
    sides = []
    for value, n_world in normals.items():
        if value == top:
            continue
        centre = die_centre + n_world * scene.DIE_MM / 2
        facing = float(np.dot(n_world, (camera_position - centre) / np.linalg.norm(camera_position - centre)))
        if facing > 0.35:
            sides.append(Candidate(tuple(face_quad(value)[0]), size))
    return Candidate(tuple(top_quad[0]), size), sides


TEXT_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-/"  # no dots: a "." or ":" on a square tag is a 1 or a 2
# cv2.FONT_HERSHEY_SIMPLEX, DUPLEX, COMPLEX, TRIPLEX and SCRIPT_SIMPLEX; PLAIN, COMPLEX_SMALL, SCRIPT_COMPLEX
# and the italics are left for the tests, so they measure labels in faces the networks never saw
TRAINING_FONTS = (0, 2, 3, 4, 6)


def printed_text(canvas: np.ndarray, centre: tuple[int, int], size: float, colour, rng: np.random.Generator) -> None:
    """A short printed label (a cable's "C120", a box's lettering), sometimes on a light or dark tag of its own."""
    import cv2

    text = "".join(rng.choice(list(TEXT_CHARACTERS), int(rng.integers(1, 6))))
    font = int(rng.choice(TRAINING_FONTS))
    scale = cv2.getFontScaleFromHeight(font, max(3, int(size * rng.uniform(0.2, 1.1))))
    thickness = max(1, int(round(scale * rng.uniform(0.8, 2.0))))
    (text_w, text_h), _ = cv2.getTextSize(text, font, scale, thickness)
    origin = (int(centre[0] - text_w * rng.uniform(0, 1)), int(centre[1] + text_h * rng.uniform(0, 1)))
    layer = np.zeros_like(canvas)
    mask = np.zeros(canvas.shape[:2], np.uint8)
    if rng.random() < 0.5:
        pad = int(size * 0.1)
        tag = tuple(int(c) for c in rng.integers(0, 256, 3))
        corners = (origin[0] - pad, origin[1] - text_h - pad), (origin[0] + text_w + pad, origin[1] + pad)
        cv2.rectangle(layer, *corners, tag, -1)
        cv2.rectangle(mask, *corners, 255, -1)
        if abs(np.mean(tag) - np.mean(colour)) < 60:
            colour = (0, 0, 0) if np.mean(tag) > 127 else (255, 255, 255)
    cv2.putText(layer, text, origin, font, scale, colour, thickness, cv2.LINE_AA)
    cv2.putText(mask, text, origin, font, scale, 255, thickness, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), float(rng.uniform(-90, 90)), 1.0)
    layer = cv2.warpAffine(layer, turn, (canvas.shape[1], canvas.shape[0]))
    alpha = cv2.warpAffine(mask, turn, (canvas.shape[1], canvas.shape[0])).astype(np.float32)[..., None] / 255
    canvas[:] = (canvas * (1 - alpha) + layer * alpha).astype(np.uint8)


def clutter_patches(image: np.ndarray, tops: list[Candidate], rng: np.random.Generator, count: int = 3,
                    labels: int = 0, plain_ground: float = 0.0) -> np.ndarray:
    """Negatives: `count` marks and `labels` printed labels drawn on bare parts of the rendered tray, each cut
    as a candidate of a die's size; a `plain_ground` share of them on a plain sheet of some colour, often
    white (the generator's felt trays are dark, the real photos' tables white)."""
    import cv2

    size = float(np.median([t.size for t in tops]))
    height, width = image.shape[:2]
    patches = []
    for _ in range((count + labels) * 10):
        if len(patches) == count + labels:
            break
        x, y = rng.uniform(size, width - size), rng.uniform(size, height - size)
        if any(math.hypot(x - t.center[0], y - t.center[1]) < 1.6 * size for t in tops):
            continue
        canvas = image.copy()
        if plain_ground and rng.random() < plain_ground:
            sheet = rng.integers(200, 256, 3) if rng.random() < 0.7 else rng.integers(0, 256, 3)
            half = size * rng.uniform(1.5, 4)
            cv2.rectangle(canvas, (int(x - half), int(y - half)), (int(x + half), int(y + half)),
                          tuple(int(c) for c in sheet), -1)
        base = canvas[int(y), int(x)].astype(int)
        colour = tuple(int(c) for c in (np.clip(base * rng.uniform(0.1, 0.6), 0, 255) if rng.random() < 0.8
                                       else rng.integers(0, 256, 3)))
        kind = rng.integers(0, 3) if len(patches) < count else 3
        centre = (int(x), int(y))
        if kind == 0:  # a speck or a dot, about a pip's size or smaller
            axes = (max(1, int(size * rng.uniform(0.03, 0.14))), max(1, int(size * rng.uniform(0.03, 0.14))))
            cv2.ellipse(canvas, centre, axes, float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
        elif kind == 1:  # a round button or a hole, about a face across
            cv2.circle(canvas, centre, max(2, int(size * rng.uniform(0.2, 0.55))), colour, -1, cv2.LINE_AA)
        elif kind == 2:  # a printed mark: a few strokes
            for _ in range(int(rng.integers(1, 4))):
                end = (int(x + rng.normal(0, 0.3) * size), int(y + rng.normal(0, 0.3) * size))
                cv2.line(canvas, centre, end, colour, max(1, int(size * 0.06)), cv2.LINE_AA)
        else:
            printed_text(canvas, centre, size, colour, rng)
        canvas = cv2.GaussianBlur(canvas, (0, 0), float(rng.uniform(0.3, 1.2)))
        patches.append(canonical_patches(canvas, [(x, y)], [size * rng.uniform(0.7, 1.2)])[0])
    return np.array(patches, np.uint8).reshape(-1, PATCH_PX, PATCH_PX, 3)


def random_camera(rng: np.random.Generator) -> scene.CameraModel:
    """A 640×480 camera, straight down to OBLIQUE_DEG or oblique to 60° (half each), field of view 45–75°."""
    tilt = float(rng.uniform(0, OBLIQUE_DEG) if rng.random() < 0.5 else rng.uniform(OBLIQUE_DEG, 60))
    return scene.CameraModel(640, 480, tilt_deg=tilt, hfov_deg=float(rng.uniform(45, 75)))


def layout_patches(image: np.ndarray, faces: list[tuple[Candidate, list[Candidate]]], top_values: list[int],
                   rng: np.random.Generator, labels: int, plain_ground: float) -> tuple[list[np.ndarray], list[int]]:
    """One rendered layout's patches and values: each die's top face (`faces`: top and side faces per die),
    then the negatives (side faces clear of the top faces before them, false candidates) and the clutter."""
    tops, sides = [], []
    for top, side_faces in faces:
        tops.append(top)
        sides += [s for s in side_faces
                  if all(math.hypot(s.center[0] - t.center[0], s.center[1] - t.center[1]) > 0.5 * t.size for t in tops)]
    negatives = sides + false_candidates(tops, image.shape[:2], rng, per_die=1, background=3)
    candidates = tops + negatives
    clear = canonical_patches(image, [c.center for c in candidates], [c.size for c in candidates])
    clutter = clutter_patches(image, tops, rng, labels=labels, plain_ground=plain_ground)
    return [clear, clutter], list(top_values) + [0] * len(negatives) + [0] * len(clutter)


def scene_patches(rng: np.random.Generator, layouts: int = 3, labels: int = 0, plain_ground: float = 0.0,
                  see_through: float = 0.0):
    camera = random_camera(rng)
    style = see_through_style(rng) if see_through and rng.random() < see_through else random_style(rng)
    renderer = scene.SceneRenderer(camera, style, rng, noise=float(rng.uniform(1, 6)))
    patches, values = [], []
    for _ in range(layouts):
        count = int(rng.integers(1, 9))
        touching = count >= 2 and rng.random() < 0.3
        poses = []
        for value, (x, y) in zip(rng.integers(1, 7, count), scene._place_dice(rng, count, touching)):
            yaw = float(rng.uniform(0, 2 * math.pi))
            poses.append(scene._DiePose(np.array([x, y, scene.DIE_MM / 2]), scene.rest_rotation(int(value), yaw)))
        image = renderer.render(poses, gain=float(rng.uniform(0.7, 1.3)))
        layout, layout_values = layout_patches(image, [faces_of(renderer, pose) for pose in poses],
                                               [scene.top_value(p.rotation) for p in poses], rng, labels, plain_ground)
        patches += layout
        values += layout_values
    return np.concatenate(patches), values, camera.tilt_deg > OBLIQUE_DEG


def random_traced_look(rng: np.random.Generator) -> scene_traced.TracedStyle:
    """A random dice look for the traced renderer (its named styles are left to the sweep): pips differing from
    the body in brightness, or in colour only; sometimes a swirl through the plastic."""
    body = rng.uniform(0.02, 0.95, 3)
    if rng.random() < 0.4:
        while True:
            pips = rng.uniform(0, 1, 3)
            if np.abs(pips - body).sum() > 0.7:
                break
    else:
        light = float(np.dot(body, (0.114, 0.587, 0.299))) > 0.45
        pips = rng.uniform(0, 0.25, 3) if light else rng.uniform(0.7, 1.0, 3)
    swirl = tuple(rng.uniform(0, 1, 3)) if rng.random() < 0.25 else None
    return scene_traced.TracedStyle("random", tuple(body), tuple(pips), float(rng.uniform(0.15, 0.9)), swirl)


def traced_scene_patches(rng: np.random.Generator, layouts: int = 2, labels: int = 0, plain_ground: float = 0.0):
    """As `scene_patches`, from scenes of the traced renderer (companion.vision.scene_traced)."""
    camera = random_camera(rng)
    look = random_traced_look(rng)
    table = str(rng.choice(scene_traced.TABLES))
    patches, values = [], []
    for _ in range(layouts):
        count = int(rng.integers(1, 9))
        dice = scene_traced.resting_dice(rng, [int(v) for v in rng.integers(1, 7, count)], flush=count >= 2 and rng.random() < 0.3)
        image = scene_traced.draw(rng, camera, look, table, dice)
        faces = [visible_faces(camera, die.top_value(), die.centre,
                               {value: die.rotation @ np.array(normal, float) for value, normal in scene_traced.FACES.items()},
                               lambda value, die=die: camera.project(die.face_points(value)))
                 for die in dice]
        layout, layout_values = layout_patches(image, faces, [die.top_value() for die in dice], rng, labels, plain_ground)
        patches += layout
        values += layout_values
    return np.concatenate(patches), values, camera.tilt_deg > OBLIQUE_DEG


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scenes", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--labels", type=int, default=0,
                        help="printed labels drawn as clutter per layout (0, as the shipped networks were trained)")
    parser.add_argument("--plain-ground", type=float, default=0.0,
                        help="share of clutter drawn on a plain, mostly white sheet (0, as the shipped networks)")
    parser.add_argument("--see-through", type=float, default=0.0,
                        help="share of scenes with translucent dice whose lower faces show through (0, as the "
                             "shipped networks)")
    parser.add_argument("--traced", action="store_true",
                        help="draw the scenes with companion.vision.scene_traced (two layouts a scene, about 2 s)")
    args = parser.parse_args()
    if args.traced and args.see_through:
        parser.error("--see-through draws with the repo's scene generator, not with --traced")
    rng = np.random.default_rng(args.seed)
    patches, values, oblique = [], [], []
    make = traced_scene_patches if args.traced else functools.partial(scene_patches, see_through=args.see_through)
    for i in range(args.scenes):
        p, v, o = make(rng, labels=args.labels, plain_ground=args.plain_ground)
        patches.append(p)
        values += v
        oblique += [o] * len(v)
        if (i + 1) % 50 == 0:
            print(f"{i + 1} scenes, {len(values)} patches", flush=True)
    np.savez_compressed(args.out, patches=np.concatenate(patches), value=np.array(values, np.int8),
                        oblique=np.array(oblique, bool))
    return 0


if __name__ == "__main__":
    sys.exit(main())
