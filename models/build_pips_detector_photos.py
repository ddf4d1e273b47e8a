"""Build models/data/pips-detector-dev-photos.npz: the DEV split of the real photo sets (never the
held-out quarter) at half size, with each die's top-face centre and size, for training the detector.

    .venv/bin/python models/build_pips_detector_photos.py [--data /work/shared/data/dice-real]

Photos are halved (area averaging) and stored JPEG-encoded (quality 88) in one byte buffer to stay
small; the detector reads frames at a quarter size, so halving loses nothing it would see. Face sizes
follow the classifier's reading of the two label kinds (`classifier_data.face_sizes`: nell-byler boxes
cover the top face, matteop65 boxes only the pip pattern). Arrays: jpeg (bytes), offsets (photos+1),
photo_dice (photos+1, where each photo's dice start), x, y, size, value (per die, in half-size pixels),
names, sets (per photo). The sets' licences are copied beside it.
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

from companion.vision.evaluate import load_set  # noqa: E402
from companion.vision.pips.classifier_data import BOX_KINDS, face_sizes  # noqa: E402

SHRINK = 2
JPEG_QUALITY = 88
OUT = REPO / "models" / "data" / "pips-detector-dev-photos.npz"


def build(data: Path, out: Path = OUT) -> dict[str, int]:
    blobs, offsets, photo_dice = [], [0], [0]
    xs, ys, sizes, values, names, sets = [], [], [], [], [], []
    for name, box_kind in BOX_KINDS.items():
        for image in load_set(data / name, "dev"):
            frame = image.read()
            small = cv2.resize(frame, (frame.shape[1] // SHRINK, frame.shape[0] // SHRINK), interpolation=cv2.INTER_AREA)
            ok, encoded = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            if not ok:
                raise OSError(f"cannot encode {image.path}")
            blobs.append(encoded.tobytes())
            offsets.append(offsets[-1] + len(blobs[-1]))
            for die, size in zip(image.dice, face_sizes(image.dice, box_kind)):
                cx, cy = die.center
                xs.append(cx / SHRINK)
                ys.append(cy / SHRINK)
                sizes.append(size / SHRINK)
                values.append(die.value)
            photo_dice.append(len(xs))
            names.append(image.name)
            sets.append(name)
        licence = data / name / "LICENSE"
        shutil.copyfile(licence, out.parent / f"LICENSE-{name}")
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out, jpeg=np.frombuffer(b"".join(blobs), np.uint8), offsets=np.array(offsets, np.int64),
        photo_dice=np.array(photo_dice, np.int64), x=np.array(xs, np.float32), y=np.array(ys, np.float32),
        size=np.array(sizes, np.float32), value=np.array(values, np.int8), names=np.array(names), sets=np.array(sets))
    return {"photos": len(names), "dice": len(xs), "bytes": out.stat().st_size}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "dice-real")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    print(build(args.data, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
