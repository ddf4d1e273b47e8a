"""Build models/data/pips-dev-crops.npz: classifier training patches cut from the DEV split of the real
photo sets (never the held-out quarter), with the sets' licences beside it.

    .venv/bin/python models/build_pips_dev_crops.py [--data /work/shared/data/dice-real]

Each labelled die gives one patch centred on its label at its (estimated) face size, and one more for
each of the shipped detector's candidates on it (at two shrinks: the centre and size the reader will
really cut), value 1–6; each photo also gives false candidates (off-centre, far too small, between two
dice, background) and the detector's candidates on no die, value 0.
Patches are `classifier.PATCH_PX` square BGR, stored JPEG-encoded (quality 90) in one byte buffer to
stay small. Arrays: jpeg (bytes), offsets (n+1), value (n), photo (n, an index into photos), oblique
(n, true for the webcam set shot at an angle), photos (names), sets (set per photo).
"""
from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from companion.vision.evaluate import MATCH_RADIUS, load_set  # noqa: E402
from companion.vision.pips.classifier import canonical_patches  # noqa: E402
from companion.vision.pips.classifier_data import BOX_KINDS, false_candidates, label_candidates  # noqa: E402
from companion.vision.pips.detector import PipDetector, decode  # noqa: E402

OBLIQUE_SETS = {"matteop65-d6"}
JPEG_QUALITY = 90
DETECTOR_SHRINKS = (3, 4)
DETECTOR_THRESHOLD = 0.2
ON_A_DIE = 0.35  # a detector candidate this close to a label's centre (in face sizes) reads as that die,
SIZE_AGREES = (0.65, 1.5)  # if its size is within these times the label's face size


def detector_candidates(detector: PipDetector, frame: np.ndarray, truth, values) -> tuple[list, list, list]:
    """The detector's candidates on a labelled die at about its size (with its value) and those on no die
    (farther than the evaluation's match radius); candidates in between are left out as neither."""
    on_dice, their_values, extras = [], [], []
    for shrink in DETECTOR_SHRINKS:
        maps, sx, sy = detector.maps(frame, shrink)
        for c in decode(maps, sx, sy, DETECTOR_THRESHOLD):
            distances = [np.hypot(c.center[0] - t.center[0], c.center[1] - t.center[1]) / t.size for t in truth]
            nearest = int(np.argmin(distances)) if distances else -1
            ratio = c.size / truth[nearest].size if nearest >= 0 else 0.0
            if nearest >= 0 and distances[nearest] <= ON_A_DIE and SIZE_AGREES[0] <= ratio <= SIZE_AGREES[1]:
                on_dice.append(c)
                their_values.append(values[nearest])
            elif nearest < 0 or distances[nearest] > MATCH_RADIUS:
                extras.append(c)
    return on_dice, their_values, extras


def build(data: Path, out: Path, seed: int = 0) -> dict[str, int]:
    rng = np.random.default_rng(seed)
    detector = PipDetector()
    patches, values, photo_index, oblique, photos, sets = [], [], [], [], [], []
    for name, box_kind in BOX_KINDS.items():
        for image in load_set(data / name, "dev"):
            frame = image.read()
            truth = label_candidates(image, box_kind)
            label_values = [d.value for d in image.dice]
            found, found_values, extras = detector_candidates(detector, frame, truth, label_values)
            negatives = false_candidates(truth, frame.shape[:2], rng) + extras
            candidates = truth + found + negatives
            labels = label_values + found_values + [0] * len(negatives)
            patches.append(canonical_patches(frame, [c.center for c in candidates], [c.size for c in candidates]))
            values += labels
            photo_index += [len(photos)] * len(candidates)
            oblique += [name in OBLIQUE_SETS] * len(candidates)
            photos.append(image.name)
            sets.append(name)
    encoded = [cv2.imencode(".jpg", p, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])[1].tobytes()
               for p in np.concatenate(patches)]
    offsets = np.cumsum([0] + [len(e) for e in encoded])
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, jpeg=np.frombuffer(b"".join(encoded), np.uint8), offsets=offsets,
             value=np.array(values, np.int8), photo=np.array(photo_index, np.int32),
             oblique=np.array(oblique, bool), photos=np.array(photos), sets=np.array(sets))
    for name in BOX_KINDS:
        shutil.copyfile(data / name / "LICENSE", out.parent / f"LICENSE-{name}")
    return {"patches": len(values), "dice": sum(v > 0 for v in values), "photos": len(photos),
            "bytes": out.stat().st_size}


def load_dev_crops(path: Path) -> dict[str, np.ndarray]:
    """The crop file decoded: patches (n, PATCH_PX, PATCH_PX, 3) uint8 BGR and the per-patch arrays."""
    with np.load(path) as data:
        jpeg, offsets = data["jpeg"], data["offsets"]
        patches = np.stack([cv2.imdecode(jpeg[offsets[i]:offsets[i + 1]], cv2.IMREAD_COLOR)
                            for i in range(len(offsets) - 1)])
        return {"patches": patches, **{k: data[k] for k in ("value", "photo", "oblique", "photos", "sets")}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "dice-real")
    parser.add_argument("--out", type=Path, default=REPO / "models" / "data" / "pips-dev-crops.npz")
    args = parser.parse_args()
    print(build(args.data, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
