"""Rearranged real dice: the real dev patches' pips laid out again as every other value, for the classifier.

    .venv/bin/python models/pips_rearranged_patches.py OUT.npz [--cross 4] [--seed 5]

The classifier reads too few real examples of each kind of die (dark, smoky and marbled dice with coloured
pips above all), and the scene generator's dice do not look enough like them to stand in
(`pips-classifier.md`). So each real top face in the training photos of `models/data/pips-dev-crops.npz`
becomes six: its pips are found (the labelled count of blobs that stand out from the die's body, lying in
a die's layout), erased, and pasted back, with the die's own pixels, at the layout of each value 1–6 on
the face's own pip grid. `--cross` more per face carry another found die's pips, scaled to this face's
grid: a body and a pip colour that never met in the photos.

A face is used only when its pips are found in the layout of its labelled value; a 1 gives no grid
direction and is not used as a source. Photos kept out of training for validation
(`companion.vision.evaluate.kept_out_of_training`) are never read. Arrays as `pips_synthetic_patches.py`
writes them: patches (n, PATCH_PX, PATCH_PX, 3) uint8 BGR, value (n), oblique (n); and set (n), the
source die's photo set.
"""
from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "models"))

from build_pips_dev_crops import load_dev_crops  # noqa: E402
from companion.vision.evaluate import kept_out_of_training  # noqa: E402
from companion.vision.pips.classifier import PATCH_CONTEXT, PATCH_PX  # noqa: E402

FACE = PATCH_PX / PATCH_CONTEXT  # the labelled face size in patch pixels
MIDDLE = PATCH_PX / 2 - 0.5
LAYOUTS = {  # pip positions in units of the corner pips' offset from the face centre
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
BODY_APART = 25.0  # Lab distance from the patch's border that makes a pixel part of the die
LAYOUT_FIT = 0.3  # the farthest pip may lie this many corner offsets from its place in the layout
NEXT_PEAK_BELOW = 0.7  # the strongest blob beyond the value's count must be this much weaker than the last
PIP_SPACING = (0.09, 0.3)  # corner offset, in labelled face sizes (labels box more than the top face)


@dataclasses.dataclass(frozen=True)
class FoundPips:
    centres: np.ndarray  # (k, 2) x, y in patch pixels
    masks: tuple[np.ndarray, ...]  # one bool mask per pip
    centre: np.ndarray  # the layout's centre
    axes: np.ndarray  # (2, 2): columns are the grid's unit steps (the corner offset) along x and y

    @property
    def spacing(self) -> float:
        return float(np.linalg.norm(self.axes[:, 0]))


def die_face(lab: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """The die around the patch centre as a mask: what differs from the patch's border, holes (its pips)
    filled, its rim eroded; a disc where that fails (a die the colour of the table)."""
    border = np.concatenate([lab[:4].reshape(-1, 3), lab[-4:].reshape(-1, 3),
                             lab[:, :4].reshape(-1, 3), lab[:, -4:].reshape(-1, 3)])
    apart = (np.linalg.norm(lab - np.median(border, axis=0), axis=2) > BODY_APART) & (radius <= 0.75 * FACE)
    _, labels = cv2.connectedComponents(apart.astype(np.uint8))
    disc = radius <= 0.42 * FACE
    middle = labels[int(MIDDLE), int(MIDDLE)]
    if middle == 0:
        return disc
    die = (labels == middle).astype(np.uint8)
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(die, contours, -1, 1, -1)
    if not 0.5 <= die.sum() / FACE ** 2 <= 1.8:
        return disc
    return cv2.erode(die, np.ones((3, 3), np.uint8), iterations=2).astype(bool) & (radius <= 0.6 * FACE)


def fit_layout(points: np.ndarray, value: int) -> tuple[float, np.ndarray, np.ndarray] | None:
    """(residual in corner offsets, centre, axes) of the value's layout best fitting `points`, trying each
    point as a corner pip."""
    centre = points.mean(axis=0)
    best = None
    for point in points:
        offset = point - centre
        reach = float(np.linalg.norm(offset))
        if reach < 0.08 * FACE:
            continue
        for quarter in range(4):
            angle = math.atan2(offset[1], offset[0]) - math.pi / 4 + quarter * math.pi / 2
            axes = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]) * reach / math.sqrt(2)
            for layout in (LAYOUTS[value], tuple((y, x) for x, y in LAYOUTS[value])):
                places = centre + np.array(layout, float) @ axes.T
                apart = np.linalg.norm(points[:, None] - places[None], axis=2)
                residual = max(apart.min(axis=0).max(), apart.min(axis=1).max()) / (reach / math.sqrt(2))
                if best is None or residual < best[0]:
                    best = (float(residual), centre, axes)
    return best


def find_pips(patch: np.ndarray, value: int) -> FoundPips | None:
    """The `value` pips of a canonical patch centred on a die's top face, or None when that many blobs
    that stand out from the die's body do not lie in the value's layout (or the value is 1)."""
    if value < 2:
        return None
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    yy, xx = np.mgrid[:PATCH_PX, :PATCH_PX]
    face = die_face(lab, np.hypot(xx - MIDDLE, yy - MIDDLE))
    if face.sum() < 0.3 * FACE ** 2:
        return None
    apart = lab - np.median(lab[face], axis=0)
    distance = np.sqrt(0.5 * apart[..., 0] ** 2 + apart[..., 1] ** 2 + apart[..., 2] ** 2)  # colour over lightness
    inside = face.astype(np.float32)

    def local_mean(sigma: float) -> np.ndarray:
        return (cv2.GaussianBlur(distance * inside, (0, 0), sigma)
                / np.maximum(cv2.GaussianBlur(inside, (0, 0), sigma), 1e-3))

    blob = local_mean(0.045 * FACE) - local_mean(0.13 * FACE)
    inner = cv2.erode(face.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    ys, xs = np.nonzero((blob == cv2.dilate(blob, np.ones((3, 3), np.uint8))) & inner & (blob > 0))
    peaks: list[tuple[float, float, float]] = []
    for j in np.argsort(-blob[ys, xs]):
        if all(math.hypot(xs[j] - x, ys[j] - y) >= 0.1 * FACE for x, y, _ in peaks):
            peaks.append((float(xs[j]), float(ys[j]), float(blob[ys[j], xs[j]])))
        if len(peaks) > value:
            break
    if len(peaks) < value or (len(peaks) > value and peaks[value][2] > NEXT_PEAK_BELOW * peaks[value - 1][2]):
        return None
    fit = fit_layout(np.array([(x, y) for x, y, _ in peaks[:value]]), value)
    if fit is None or fit[0] > LAYOUT_FIT:
        return None
    _, centre, axes = fit
    spacing = float(np.linalg.norm(axes[:, 0]))
    if not PIP_SPACING[0] * FACE <= spacing <= PIP_SPACING[1] * FACE:
        return None
    masks = []
    for x, y, _ in peaks[:value]:
        near = (np.hypot(xx - x, yy - y) <= 0.5 * spacing) & (distance >= 0.5 * distance[int(y), int(x)])
        _, parts = cv2.connectedComponents(near.astype(np.uint8))
        masks.append(parts == parts[int(y), int(x)])
    areas = [int(m.sum()) for m in masks]
    if min(areas) < 4 or max(areas) > 2.5 * min(areas):
        return None
    centres = np.array([np.argwhere(m)[:, ::-1].mean(axis=0) for m in masks])
    return FoundPips(centres, tuple(masks), centre, axes)


def rearrange(patch: np.ndarray, found: FoundPips, value: int, rng: np.random.Generator,
              donor: tuple[np.ndarray, FoundPips] | None = None) -> np.ndarray:
    """The patch with its pips erased and `value` pips laid out on its grid: its own pips (each left where
    a pip of the new layout lies, moved otherwise), or those of `donor` (patch, its pips), scaled."""
    erase = np.zeros(patch.shape[:2], np.uint8)
    for mask in found.masks:
        erase |= mask.astype(np.uint8)
    out = cv2.inpaint(patch, cv2.dilate(erase, np.ones((3, 3), np.uint8)), 3, cv2.INPAINT_TELEA).astype(np.float32)
    layout = LAYOUTS[value]
    if rng.random() < 0.5:
        layout = tuple((y, x) for x, y in layout)
    if rng.random() < 0.5:
        layout = tuple((-x, y) for x, y in layout)
    places = found.centre + np.array(layout, float) @ found.axes.T
    source, pips = (patch, found) if donor is None else donor
    source = source.astype(np.float32)
    scale = found.spacing / pips.spacing
    for place in places:
        apart = np.linalg.norm(pips.centres - place, axis=1)
        j = int(np.argmin(apart)) if donor is None and apart.min() < 1.0 else int(rng.integers(len(pips.centres)))
        alpha = pips.masks[j].astype(np.uint8)
        if donor is None:  # the own die's rim around the pip blends in; another die's would show
            alpha = cv2.dilate(alpha, np.ones((3, 3), np.uint8))
        alpha = cv2.GaussianBlur(alpha.astype(np.float32), (3, 3), 0.7)
        x, y = pips.centres[j]
        move = np.float32([[scale, 0, place[0] - scale * x], [0, scale, place[1] - scale * y]])
        moved = cv2.warpAffine(source, move, (PATCH_PX, PATCH_PX), borderMode=cv2.BORDER_REFLECT)
        weight = cv2.warpAffine(alpha, move, (PATCH_PX, PATCH_PX))[..., None]
        out = out * (1 - weight) + moved * weight
    return np.clip(out, 0, 255).astype(np.uint8)


def build(dev_crops: Path, cross: int, seed: int) -> dict[str, np.ndarray]:
    real = load_dev_crops(dev_crops)
    rng = np.random.default_rng(seed)
    faces = []
    for i in np.nonzero(real["value"] > 0)[0]:
        photo = int(real["photo"][i])
        if kept_out_of_training(str(real["photos"][photo])):
            continue
        found = find_pips(real["patches"][i], int(real["value"][i]))
        if found is not None:
            faces.append((real["patches"][i], found, bool(real["oblique"][i]), str(real["sets"][photo])))
    if not faces:
        raise ValueError(f"no die in {dev_crops} had its pips found")
    patches, values, oblique, sets = [], [], [], []
    for patch, found, is_oblique, set_name in faces:
        donors = [None] + [faces[int(rng.integers(len(faces)))][:2] for _ in range(cross)]
        for donor in donors:
            for value in (range(1, 7) if donor is None else [int(rng.integers(1, 7))]):
                patches.append(rearrange(patch, found, value, rng, donor))
                values.append(value)
                oblique.append(is_oblique)
                sets.append(set_name)
    return {"patches": np.stack(patches), "value": np.array(values, np.int8), "oblique": np.array(oblique),
            "set": np.array(sets), "faces": np.array(len(faces))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--dev-crops", type=Path, default=REPO / "models" / "data" / "pips-dev-crops.npz")
    parser.add_argument("--cross", type=int, default=4, help="patches per face carrying another die's pips")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    arrays = build(args.dev_crops, args.cross, args.seed)
    np.savez(args.out, **arrays)
    print(f"{len(arrays['value'])} patches from {int(arrays['faces'])} faces: "
          + ", ".join(f"{s} {int((arrays['set'] == s).sum())}" for s in sorted(set(arrays["set"].tolist()))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
