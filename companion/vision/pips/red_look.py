"""A look through a red filter: the close look's crop of an unsurely read face, its red channel alone as grey.

Dice with red or pink pips on dark, smoky, blue or marbled bodies are the ones the colour networks read least
surely: in colour the pips are a dull red on a dull body, in grey the two are one level. Through a red
filter those pips turn bright on a dark body, the look the networks know best (light pips on a dark die).
The close-look network reads that view too, and its answer is taken only where it confirms the colour
reading: the same value, not "not a face", and surer than the colour reading. It never changes a value nor
turns a face down, so it can turn an unsure die sure, and nothing else.

It is asked only where the pips show at least as much through the filter as in grey (`shows_more_in_red`:
the red channel's spread over the crop's middle half at least its grey spread). Where they show less (white
pips on a red die, black on green) the red view is a poorer look than the colour one; on the repo's scenes,
asking it there too confirmed more wrong values, mostly at the steepest camera tilts
(models/pips-close-look.md, "Through a red filter").
"""
from __future__ import annotations

import numpy as np

GREY_WEIGHTS = np.array([0.114, 0.587, 0.299], np.float32)  # BGR → luma, as OpenCV's BGR2GRAY


def red_view(crops: np.ndarray) -> np.ndarray:
    """uint8 BGR crops (n, h, w, 3) with every channel set to the red one."""
    return np.repeat(crops[..., 2:3], 3, axis=3)


def shows_more_in_red(crops: np.ndarray) -> np.ndarray:
    """(n,) bool: whether each crop's middle half spreads at least as much in red as in grey."""
    n, h, w, _ = crops.shape
    middle = crops[:, h // 4:h - h // 4, w // 4:w - w // 4].reshape(n, -1, 3).astype(np.float32)
    return middle[..., 2].std(axis=1) >= (middle @ GREY_WEIGHTS).std(axis=1)


def confirm_through_red(probabilities_of, crops: np.ndarray, p: np.ndarray, below: float,
                        not_a_face_from: float) -> np.ndarray:
    """`p` (n, 7, column 0 "not a face"), with the rows read as a value less surely than `below` replaced by
    the red view's probabilities wherever those confirm the value more surely. `probabilities_of` reads
    uint8 BGR crops like `crops` (the network that gave `p`)."""
    values = p[:, 1:].argmax(axis=1) + 1
    confidence = p[np.arange(len(p)), values]
    unsure = np.flatnonzero((p[:, 0] < not_a_face_from) & (confidence < below))
    if len(unsure):
        unsure = unsure[shows_more_in_red(crops[unsure])]
    if not len(unsure):
        return p
    red = probabilities_of(red_view(crops[unsure]))
    red_values = red[:, 1:].argmax(axis=1) + 1
    confirms = ((red_values == values[unsure]) & (red[:, 0] < not_a_face_from)
                & (red[np.arange(len(red)), red_values] > confidence[unsure]))
    p = p.copy()
    p[unsure[confirms]] = red[confirms]
    return p
