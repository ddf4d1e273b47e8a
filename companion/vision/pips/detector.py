"""The learned pip-dice detector: where each die's top face is, and how big, in one small network pass.

The frame is shrunk (area averaging) to at most `INPUT_PIXELS` pixels and run through a tiny
fully-convolutional network (models/pips-detector.onnx, run by ONNX Runtime; only Conv and Relu) that
predicts, every `STRIDE` input pixels, four maps: a top-face-centre heatmap (logit), the log of the top
face's size in input pixels, and the centre's offset within the cell. Local maxima of the heatmap above `threshold` become
`Candidate`s. The network and its training are described in models/pips-detector.md and made by
models/train_pips_detector.py.

The shrink is the finest whole number that keeps the network's input within `INPUT_PIXELS` (a 320×180
image), so every frame costs about the same: 1280×720 is shrunk by 4, 640×480 and 640×640 by 3; a tray
cut out of a frame is shrunk as the whole frame would be. A camera frames the whole tray whatever its
resolution, so the dice keep about the same size in the network's input. It was trained on dice 5–24
shrunk pixels across (20–96 px in a 1280×720 frame); finer is better for dice that touch, whose centres
must lie in different cells of the network's output.
"""
from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Sequence

import numpy as np

from .networks import models_folder, open_network

INPUT_PIXELS = 320 * 180
STRIDE = 4
INPUT_MEAN = 127.5
INPUT_SCALE = 1 / 64.0
MODEL_PATH = models_folder() / "pips-detector.onnx"
THRESHOLD = 0.3
MAX_CANDIDATES = 80
SAME_DIE = 0.4  # two peaks closer than this many face sizes are one die (dev split: 0.5 merged dice lying flush)
SHOULDER_HEAT = 0.4  # hot cells for `shoulders` (scene sweep: 0.3 read 2 more of 1,196 dice for twice the looks)
MAX_SHOULDERS = 8
LARGE_FROM = 20  # shrunk pixels at the frame's shrink: near the top of the 5–24 the network was trained on


@dataclasses.dataclass(frozen=True)
class Candidate:
    """A die's top face as the detector found it: centre (x, y) and face size in frame pixels, and the
    heatmap peak (0–1) that says how sure the detector is that a top face is there."""

    center: tuple[float, float]
    size: float
    score: float


def shrink_for(frame_shape: tuple[int, ...]) -> int:
    """The finest whole-number shrink that brings a frame of this (height, width, ...) within INPUT_PIXELS."""
    height, width = frame_shape[0], frame_shape[1]
    shrink = 1
    while (height // shrink) * (width // shrink) > INPUT_PIXELS:
        shrink += 1
    return shrink


def shrunk(frame_bgr: np.ndarray, shrink: int) -> np.ndarray:
    """The frame shrunk by `shrink` (area averaging), at least STRIDE pixels each way."""
    import cv2

    height, width = frame_bgr.shape[:2]
    small_w, small_h = max(STRIDE, width // shrink), max(STRIDE, height // shrink)
    small = frame_bgr
    while shrink % 2 == 0 and small.shape[1] // 2 >= small_w and small.shape[0] // 2 >= small_h:
        # OpenCV's halving is a fast path: two halvings take 0.5 ms of a 1280×720 frame, one 4× shrink 1.9 ms
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        shrink //= 2
    if small.shape[1] != small_w or small.shape[0] != small_h:
        small = cv2.resize(small, (small_w, small_h), interpolation=cv2.INTER_AREA)
    return small


def network_input(frame_bgr: np.ndarray, shrink: int) -> tuple[np.ndarray, float, float]:
    """The network's input blob (1, 3, h/shrink, w/shrink) and the frame pixels per input pixel (x, y)."""
    return _blob_of(shrunk(frame_bgr, shrink), frame_bgr.shape)


def _blob_of(small: np.ndarray, frame_shape: tuple[int, ...]) -> tuple[np.ndarray, float, float]:
    import cv2

    blob = cv2.dnn.blobFromImage(small, INPUT_SCALE, mean=(INPUT_MEAN, INPUT_MEAN, INPUT_MEAN), swapRB=False)
    return blob, frame_shape[1] / small.shape[1], frame_shape[0] / small.shape[0]


def decode(maps: np.ndarray, scale_x: float, scale_y: float, threshold: float = THRESHOLD,
           limit: int = MAX_CANDIDATES) -> list[Candidate]:
    """Candidates from the network's output maps (4, h, w): heatmap peaks above `threshold`, strongest
    first, with a weaker peak within `SAME_DIE` face sizes of a stronger one dropped."""
    import cv2

    logits = maps[0]
    floor = float(np.log(threshold / (1 - threshold)))
    peaks = (logits >= cv2.dilate(logits, np.ones((3, 3), np.uint8))) & (logits > floor)
    rows, cols = np.nonzero(peaks)
    if len(rows) == 0:
        return []
    order = np.argsort(-logits[rows, cols])[: 4 * limit]
    rows, cols = rows[order], cols[order]
    scores = 1 / (1 + np.exp(-logits[rows, cols]))
    xs = (cols + maps[2, rows, cols]) * STRIDE * scale_x
    ys = (rows + maps[3, rows, cols]) * STRIDE * scale_y
    sizes = np.exp(np.clip(maps[1, rows, cols], 0.0, 6.0)) * (scale_x + scale_y) / 2
    kept: list[Candidate] = []
    for x, y, size, score in zip(xs.tolist(), ys.tolist(), sizes.tolist(), scores.tolist()):
        if any((x - k.center[0]) ** 2 + (y - k.center[1]) ** 2 < (SAME_DIE * max(size, k.size)) ** 2 for k in kept):
            continue
        kept.append(Candidate((x, y), size, score))
        if len(kept) == limit:
            break
    return kept


def shoulders(maps: np.ndarray, scale_x: float, scale_y: float, apart: float, away_from: Sequence[tuple[float, float]] = (),
              floor: float = SHOULDER_HEAT, limit: int = MAX_SHOULDERS) -> list[Candidate]:
    """Where the heatmap is raised to at least `floor` without a die found there: a die lying flush against
    another often shows only as a shoulder on its neighbour's peak. Each hot cell gives the centre it
    estimates, hottest first; one lying within `apart` pixels of a centre in `away_from` (the dice already
    found) or of a hotter shoulder is passed over. Sized `apart`."""
    heat = 1 / (1 + np.exp(-maps[0]))
    rows, cols = np.nonzero(heat >= floor)
    xs = (cols + maps[2, rows, cols]) * STRIDE * scale_x
    ys = (rows + maps[3, rows, cols]) * STRIDE * scale_y
    if len(away_from):
        centres = np.asarray(away_from, np.float64).reshape(-1, 2)
        near = ((xs[:, None] - centres[:, 0]) ** 2 + (ys[:, None] - centres[:, 1]) ** 2 < apart ** 2).any(axis=1)
        rows, cols, xs, ys = rows[~near], cols[~near], xs[~near], ys[~near]
    found: list[Candidate] = []
    for i in np.argsort(-heat[rows, cols])[: 32 * limit]:  # a hot, busy background costs no more than this
        x, y = float(xs[i]), float(ys[i])
        if any((x - k.center[0]) ** 2 + (y - k.center[1]) ** 2 < apart ** 2 for k in found):
            continue
        found.append(Candidate((x, y), apart, float(heat[rows[i], cols[i]])))
        if len(found) == limit:
            break
    return found


class PipDetector:
    """Finds pip dice's top faces in BGR frames with one network session (safe to share between threads)."""

    def __init__(self, path: str | Path = MODEL_PATH, threshold: float = THRESHOLD):
        self.path = str(path)
        self.threshold = threshold
        self._net = open_network(self.path, "models/train_pips_detector.py")

    def maps(self, frame_bgr: np.ndarray, shrink: int) -> tuple[np.ndarray, float, float]:
        return self._maps_of(network_input(frame_bgr, shrink))

    def _maps_of(self, blob_and_scales: tuple[np.ndarray, float, float]) -> tuple[np.ndarray, float, float]:
        blob, scale_x, scale_y = blob_and_scales
        return self._net(blob)[0], scale_x, scale_y

    def find(self, frame_bgr: np.ndarray, frame_shape: tuple[int, ...] | None = None) -> list[Candidate]:
        """Top faces in `frame_bgr`. When it is the tray cut out of a camera frame, `frame_shape` is the
        whole frame's (height, width): the shrink follows the camera, so the dice keep their size."""
        return decode(*self.find_maps(frame_bgr, frame_shape), self.threshold)

    def find_maps(self, frame_bgr: np.ndarray, frame_shape: tuple[int, ...] | None = None) -> tuple[np.ndarray, float, float]:
        """The network's maps for `frame_bgr` and the frame pixels per input pixel (x, y), as `find` reads
        them; `decode` and `shoulders` take them."""
        _check_frame(frame_bgr)
        return self.maps(frame_bgr, shrink_for(frame_shape or frame_bgr.shape))

    def find_maps_and_large(self, frame_bgr: np.ndarray, frame_shape: tuple[int, ...] | None = None
                            ) -> tuple[tuple[np.ndarray, float, float], list[Candidate]]:
        """`find_maps`, and the top faces at least `LARGE_FROM` shrunk pixels across, which the network finds
        in the frame shrunk twice as far, well inside the sizes it was trained on. At the frame's own shrink
        a face that large can come out as groups of its pips (a camera close over a small tray). The second
        shrink halves the first one's image: about 0.5 ms more for a 1280×720 frame."""
        import cv2

        _check_frame(frame_bgr)
        shrink = shrink_for(frame_shape or frame_bgr.shape)
        small = shrunk(frame_bgr, shrink)
        half = cv2.resize(small, (max(STRIDE, small.shape[1] // 2), max(STRIDE, small.shape[0] // 2)),
                          interpolation=cv2.INTER_AREA)
        large = decode(*self._maps_of(_blob_of(half, frame_bgr.shape)), self.threshold)
        return self._maps_of(_blob_of(small, frame_bgr.shape)), [c for c in large if c.size >= LARGE_FROM * shrink]


def _check_frame(frame_bgr: np.ndarray) -> None:
    if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
        raise ValueError("expected a BGR image (height × width × 3)")


@functools.lru_cache(maxsize=1)
def default_detector() -> PipDetector:
    return PipDetector()


def find_dice(frame_bgr: np.ndarray) -> list[Candidate]:
    """Every die's top face in the frame (centre, size in px, score), strongest first."""
    return default_detector().find(frame_bgr)
