"""The learned pip classifier: read the top face of a candidate die as 1–6, or 0 for "not a die's top face".

`classify_dice(frame_bgr, candidates)` takes candidates from the detector (anything with `center` (x, y)
and `size`, the side of the top face in pixels), cuts one colour crop per candidate centred on it and
scaled by its size (`CONTEXT` face sides across, resampled to `INPUT_PX` square), and runs all crops
through one small convolutional network (ONNX Runtime, one thread) in a single batch. It returns
`(value, confidence)` per candidate: value 1–6 or `NOT_A_FACE` (0) for background, a side face, half a
die or two dice; confidence is the temperature-calibrated softmax probability of that answer.

The network lives in models/pips-classifier.onnx, made by models/train_pips_classifier.py (see the
model card models/pips-classifier.md). Training cuts its crops with `canonical_patches` below, so
training and reading see the same geometry.

`classify_dice` reads in two steps. Quick networks read the candidates first: the first reads every
candidate, and the ones it calls a face less surely than `PANEL_BELOW` are read again by a second network
trained apart, whose answers are averaged with its own (`PanelClassifier`, models/pips-classifier-2.onnx).
The values still read unsurely are then read again from a sharper crop by the close look
(`CloseLookClassifier`, models/pips-close-look.onnx), which may confirm its unsure values through a red
filter (`red_look.py`).

The crops keep their colour: many dice have pips whose grey level is the body's (red pips on black or
blue dice, yellow on green), and only the colour tells them apart.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from .networks import models_folder, open_network
from .red_look import confirm_through_red

NOT_A_FACE = 0
INPUT_PX = 32
CONTEXT = 1.4  # the crop spans this many face sides, so the die's edges and neighbours show
PATCH_CONTEXT = 2.1  # stored training patches span this many face sides, so rotation and shifts stay inside
PATCH_PX = 72  # ... at this resolution: enough for the close look's 48 px input
NOT_A_FACE_FROM = 0.1  # a candidate this likely not a top face is dropped even if a value wins (dev split)
NORMALISE_FLOOR = 8.0  # grey levels; keeps flat background crops from being blown up into noise
MODEL_PATH = models_folder() / "pips-classifier.onnx"
CLOSE_LOOK_PATH = MODEL_PATH.with_name("pips-close-look.onnx")
PANEL_PATHS = (MODEL_PATH.with_name("pips-classifier-2.onnx"),)
PANEL_BELOW = 0.99  # faces the first quick network reads less surely than this are read by its panel too (dev split)
CLOSE_LOOK_BELOW = 0.9  # values the quick network reads less surely than this are read again, closer (dev split)


def cut_crops(image: np.ndarray, centers: Sequence[tuple[float, float]], sizes: Sequence[float],
              out_px: int = INPUT_PX, context: float = CONTEXT) -> np.ndarray:
    """uint8 BGR crops (n, out_px, out_px, 3) of a BGR image: each `context × size` pixels square around
    its centre, resampled with area averaging so small and large dice end up equally sharp. Pixels outside
    the image repeat the border."""
    import cv2

    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a BGR image (height × width × 3), got shape {image.shape}")
    crops = np.empty((len(centers), out_px, out_px, 3), np.uint8)
    for i, ((cx, cy), size) in enumerate(zip(centers, sizes)):
        if not size > 0:
            raise ValueError(f"candidate {i} has size {size}; a die's face size must be positive")
        side = max(out_px // 4, int(round(context * size)))
        patch = cv2.getRectSubPix(image, (side, side), (float(cx), float(cy)))
        interpolation = cv2.INTER_AREA if side > out_px else cv2.INTER_LINEAR
        patch = cv2.resize(patch, (out_px, out_px), interpolation=interpolation)
        crops[i] = patch
    return crops


def canonical_patches(frame_bgr: np.ndarray, centers, sizes) -> np.ndarray:
    """Training patches (n, PATCH_PX, PATCH_PX, 3): the same cut as `cut_crops`, wider, so that the
    input crop is the patch's middle `INPUT_PX` square at scale 1."""
    return cut_crops(frame_bgr, centers, sizes, PATCH_PX, PATCH_CONTEXT)


def normalise(crops: np.ndarray) -> np.ndarray:
    """float32 network input (n, 3, h, w) of uint8 BGR crops (n, h, w, 3): each crop minus its mean, over its
    spread (at least NORMALISE_FLOOR), both taken over all its pixels and channels so the colours keep their
    relations. Turned channels-first while still bytes, the cheapest place for that copy."""
    n, h, w, channels = crops.shape
    x = np.ascontiguousarray(crops.transpose(0, 3, 1, 2)).reshape(n, channels * h * w).astype(np.float32)
    x -= x.mean(axis=1, keepdims=True)
    spread = np.sqrt(np.einsum("ij,ij->i", x, x) / x.shape[1])[:, None]
    x /= np.maximum(spread, NORMALISE_FLOOR)
    return x.reshape(n, channels, h, w)


class _CandidateClassifier:
    """`classify` for anything that gives class probabilities per candidate (`crop_probabilities`)."""

    def crop_probabilities(self, frame_bgr: np.ndarray, candidates: Sequence) -> np.ndarray:
        raise NotImplementedError

    def classify(self, frame_bgr: np.ndarray, candidates: Iterable) -> list[tuple[int, float]]:
        candidates = list(candidates)
        return answers(self.crop_probabilities(frame_bgr, candidates)) if candidates else []


class PipClassifier(_CandidateClassifier):
    """The network: three conv(3×3)+ReLU+maxpool stages, a hidden dense layer, 7 outputs (0 and 1–6), run
    by ONNX Runtime. The file carries its softmax temperature, input size and crop context."""

    def __init__(self, path: str | Path = MODEL_PATH):
        self._net = open_network(path, "models/train_pips_classifier.py")
        facts = self._net.metadata
        try:
            self.temperature = float(facts["temperature"])
            self.input_px = int(facts["input_px"])
            self.context = float(facts["context"])
        except (KeyError, ValueError) as error:
            raise ValueError(f"{path} lacks the classifier's temperature, input_px and context "
                             f"(models/train_pips_classifier.py writes them): {error}") from error

    def logits(self, normalised: np.ndarray) -> np.ndarray:
        """Raw scores (n, 7) for normalised crops (n, 3, h, w)."""
        return self._net(normalised)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """(n, 7) calibrated class probabilities for uint8 BGR crops (n, input_px, input_px, 3); column 0 is
        "not a die's top face", columns 1–6 the values."""
        if len(crops) == 0:
            return np.zeros((0, 7), np.float32)
        z = self.logits(normalise(crops)) / self.temperature
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(axis=1, keepdims=True)

    def crops(self, frame_bgr: np.ndarray, candidates: Sequence) -> np.ndarray:
        """The crops this network reads, one per candidate."""
        return cut_crops(frame_bgr, [c.center for c in candidates], [c.size for c in candidates],
                         self.input_px, self.context)

    def crop_probabilities(self, frame_bgr: np.ndarray, candidates: Sequence) -> np.ndarray:
        return self.probabilities(self.crops(frame_bgr, candidates))


def answers(p: np.ndarray) -> list[tuple[int, float]]:
    """`(value, confidence)` per row of class probabilities: NOT_A_FACE when that is at least
    NOT_A_FACE_FROM likely, else the likeliest value."""
    best = p[:, 1:].argmax(axis=1) + 1
    return [(NOT_A_FACE, float(p[i, NOT_A_FACE])) if p[i, NOT_A_FACE] >= NOT_A_FACE_FROM
            else (int(v), float(p[i, v])) for i, v in enumerate(best)]


class PanelClassifier(_CandidateClassifier):
    """The first network reads every candidate; the ones it calls a face less surely than `below` are read
    by the others too, from the same crops, and the networks' probabilities are averaged.

    Networks trained apart take different side faces, specks and printed labels for dice more often than the
    same ones: on the dev photos rescaled, relit or compressed, two networks made fewer than half the first
    one's extra dice on matteop65 and two thirds on nell-byler, and read as many dice right
    (models/pips-classifier.md, "The panel"). Faces the first network is sure of are not read again, which
    keeps the cost down, and what it turns down stays down."""

    def __init__(self, first: PipClassifier, others: Sequence[PipClassifier], below: float = PANEL_BELOW):
        for other in others:
            if (other.input_px, other.context) != (first.input_px, first.context):
                raise ValueError(f"a panel's networks read the same crops: {other.input_px} px at {other.context} "
                                 f"face sides against {first.input_px} px at {first.context}")
        self.first, self.others, self.below = first, list(others), below

    def crop_probabilities(self, frame_bgr: np.ndarray, candidates: Sequence) -> np.ndarray:
        crops = self.first.crops(frame_bgr, candidates)
        p = self.first.probabilities(crops)
        faces = [i for i, (value, confidence) in enumerate(answers(p))
                 if value != NOT_A_FACE and confidence < self.below]
        if faces and self.others:
            again = sum(other.probabilities(crops[faces]) for other in self.others)
            p[faces] = (p[faces] + again) / (1 + len(self.others))
        return p


class CloseLookClassifier(_CandidateClassifier):
    """The quick network reads every candidate; the values it reads less surely than `below` are read again
    by the close-look network from a sharper crop (48 px: the pips of dark, smoky dice are 2–3 px in the
    quick crop), whose answer replaces the quick one and may be "not a face". What the quick network turned
    down stays down: re-reading those added extra dice on the dev split. With `red_look`, the values the
    close look is still unsure of may be confirmed through a red filter (`red_look.py`)."""

    def __init__(self, quick: _CandidateClassifier, close: PipClassifier, below: float = CLOSE_LOOK_BELOW,
                 red_look: bool = True):
        self.quick, self.close, self.below, self.red_look = quick, close, below, red_look

    def crop_probabilities(self, frame_bgr: np.ndarray, candidates: Sequence) -> np.ndarray:
        p = self.quick.crop_probabilities(frame_bgr, candidates)
        unsure = [i for i, (value, confidence) in enumerate(answers(p))
                  if value != NOT_A_FACE and confidence < self.below]
        if unsure:
            crops = self.close.crops(frame_bgr, [candidates[i] for i in unsure])
            close = self.close.probabilities(crops)
            if self.red_look:
                close = confirm_through_red(self.close.probabilities, crops, close, self.below, NOT_A_FACE_FROM)
            p[unsure] = close
        return p


@functools.lru_cache(maxsize=4)
def load_classifier(path: str | Path = MODEL_PATH) -> PipClassifier:
    return PipClassifier(path)


@functools.lru_cache(maxsize=2)
def load_panel(path: str | Path = MODEL_PATH, others: tuple[str | Path, ...] = PANEL_PATHS) -> PanelClassifier:
    return PanelClassifier(load_classifier(path), [load_classifier(other) for other in others])


@functools.lru_cache(maxsize=2)
def load_close_look(path: str | Path = MODEL_PATH, close_path: str | Path = CLOSE_LOOK_PATH,
                    others: tuple[str | Path, ...] = PANEL_PATHS, red_look: bool = True) -> CloseLookClassifier:
    return CloseLookClassifier(load_panel(path, others), load_classifier(close_path), red_look=red_look)


def classify_dice(frame_bgr: np.ndarray, candidates: Iterable, close_look: bool = True) -> list[tuple[int, float]]:
    """`(value, confidence)` per candidate, in order: value 1–6, or 0 when the crop is not a die's top
    face (when at least NOT_A_FACE_FROM likely, which keeps extra dice rare). All crops of the frame go
    through the quick networks in one batch each; with `close_look`, the values they are unsure of go
    through the close-look network in another."""
    return (load_close_look() if close_look else load_panel()).classify(frame_bgr, candidates)
