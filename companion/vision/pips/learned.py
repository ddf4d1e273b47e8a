"""The learned pip reader: a detector finds every die's top face, a classifier reads each one.

    find_dice(frame_bgr) -> list[Candidate]                 (detector.py: centre, face size, score)
    classify_dice(frame_bgr, candidates) -> [(value, conf)]  (classifier.py: 1–6, or 0 for "not a die")

`LearnedPipReader.read(frame, tray)` joins them into `DieReading`s: candidates the classifier calls "not
a die's top face" are dropped, the rest are reported with the classifier's confidence, and `unsure`
when that is below `unsure_below` (the table then asks a person instead of guessing).

A die much closer to the camera than the detector was trained for gets too small a size: its crop shows
a few pips, not a face, and is turned down. So each turned-down candidate has a second look at
`SECOND_LOOK` times its size; what reads confidently as a face then is kept unless a die already read
lies within that larger face's side (the detector's two candidates on a 2's two pips are one die).

The detector's candidate on one of two dice lying flush can sit between them, sized for both, and is
turned down too. Dice in one frame are about one size, so each turned-down candidate about that size or
larger has re-centred looks: read again at the usual face size (the median of the dice read surely), at
its centre and `RECENTRE_SHIFT` of a face to each side; the surest that reads a face at least
`RECENTRE_SURE` is kept unless a die already read lies within `RECENTRE_APART` faces. Second and
re-centred looks go through the classifier in one batch.

Two dice lying flush can also make one peak between them, sized for one die, with only a shoulder where
the other die lies. So the heatmap's shoulders (`detector.shoulders`: hot cells without a peak of their
own) at least `SHOULDER_APART` usual faces from every die read are looked at too, at the usual size, and
kept when they read as a face at least `SHOULDER_SURE`.

A die at the top of the sizes the detector knows, or beyond them (a camera close over a small tray), can
come out as groups of its pips, each read as a die of its own (a 2 as a 1). So the detector also looks at
the frame shrunk twice as far (`PipDetector.find_maps_and_large`), where such a die is of a size it knows
well. A large face it finds there, not found at about its size already, is read with the others and kept
when it reads a face at least `LARGE_SURE`; it then stands for the smaller dice read inside it (within
half its size), unless one of those is at least `LARGE_GIVES_WAY` of its size: a die read at about the
right size already, and the large face its top and side faces together, as a tilted camera sees them.

A camera at an angle sees the side face below each die's top face; under a 1 that side face can read as a
clean face, so a die that `side_faces` finds suspect is read again `SIDE_FACE_LOOK` times wider, which
takes in the 1's pip, and dropped if that wider look calls it "not a top face".

A die's reported centre is its candidate's, but for a 1: its pip is the top face's centre (`pip_of_one`),
where a tilted camera puts the candidate's centre lower, between the top face and the side face below it.
The box stays the candidate's, around the whole die.
"""
from __future__ import annotations

import functools
from typing import Callable, Iterable, Sequence

import numpy as np

from ...events import DieReading
from ..tray import crop_to_tray
from . import side_faces
from .detector import SAME_DIE, Candidate, PipDetector, decode, find_dice, shoulders
from .pip_of_one import centre_of_one

__all__ = ["Candidate", "LearnedPipReader", "find_dice", "classify_dice"]

SECOND_LOOK = 2.0
SECOND_LOOK_SURE = 0.9  # a second look is kept only this confident (dev split: fewer extra dice, same right)
# Below this the reading is reported unsure and the table asks a person to tap the right face. Chosen on the
# dev split so that a silently wrong die is rare (nell-byler: 6.7% of dice at 0.4, 1.2% at 0.8, 0.4% at 0.85)
# at the price of asking more often (7% of its dice at 0.4, 26% at 0.85); matteop65 is the same up to 0.85.
UNSURE_BELOW = 0.85
NOT_A_DIE = 0
# Re-centred looks, chosen on the dev split and the scene sweep (companion.vision.evaluate_scenes): for turned-
# down candidates at least RECENTRE_FROM of the usual face size and detected at least RECENTRE_SCORE (below
# that the looks found no die on the dev split, and cost a classifier pass on most benchmark frames)
RECENTRE_FROM = 0.9
RECENTRE_SCORE = 0.4
RECENTRE_SHIFT = 0.25
RECENTRE_SURE = 0.9
RECENTRE_APART = 0.6
SHOULDER_APART = 0.75  # usual faces from every die read (dev split and scene sweep)
SHOULDER_SURE = 0.97  # dev split: at 0.9 a matteop65 photo gained an extra die, and 4 more labels read as dice
# Large faces (dev split; matteop65 at twice its size: 310 → 327 of 331 right, 8 → 1 silently wrong)
LARGE_SURE = 0.9
LARGE_FOUND_FROM = 0.7  # a candidate this much of a large face's size, where it lies, has found that die already
LARGE_GIVES_WAY = 0.65  # at 0.55, 5 more matteop65 dice at twice their size went wrong or unsure
SIDE_FACE_LOOK = 1.5  # dev split: the side faces under 1s read as no face, the dice in front kept their value

Classify = Callable[[np.ndarray, Sequence[Candidate]], Sequence[tuple[int, float]]]


def classify_dice(frame_bgr: np.ndarray, candidates: Iterable[Candidate], close_look: bool = True) -> list[tuple[int, float]]:
    """The classifier's reading of each candidate (see companion.vision.pips.classifier)."""
    from .classifier import classify_dice as classify

    return classify(frame_bgr, list(candidates), close_look)


class LearnedPipReader:
    """Reads six-sided pip dice in a BGR frame with the learned detector and classifier (their networks
    run in ONNX Runtime, whose sessions may be shared between threads). `close_look=False` skips the
    classifier's second, sharper network: about 1.5 ms less per 1280×720 frame, for reading every frame
    rather than once per settled roll, at the price of more dice marked unsure."""

    kind = "pips"

    def __init__(self, unsure_below: float = UNSURE_BELOW, detector: PipDetector | None = None,
                 classify: Classify | None = None, close_look: bool = True):
        self.unsure_below = unsure_below
        self.detector = detector or PipDetector()
        self.classify = classify or functools.partial(classify_dice, close_look=close_look)

    def read(self, frame_bgr: np.ndarray, tray: tuple[int, int, int, int] | None = None) -> list[DieReading]:
        if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3:
            raise ValueError("expected a BGR image (height × width × 3)")
        cropped = crop_to_tray(frame_bgr, tray)
        if cropped is None:
            return []
        image, ox, oy = cropped
        maps, large = self._detect(image, frame_bgr.shape)
        candidates = decode(*maps, self.detector.threshold) if maps else self.detector.find(image, frame_bgr.shape)
        large = _not_found_yet(large, candidates)
        if not candidates and not large:
            return []
        answers = self._classify(image, candidates + large)
        kept = [(c, a) for c, a in zip(candidates, answers) if a[0] != NOT_A_DIE]
        turned_down = [c for c, (value, _) in zip(candidates, answers) if value == NOT_A_DIE]
        large_faces = [(c, a) for c, a in zip(large, answers[len(candidates):]) if a[0] != NOT_A_DIE and a[1] >= LARGE_SURE]
        kept += large_faces
        kept += self._found_by_looking_again(image, turned_down, kept, maps)
        kept = self._without_side_faces_of_ones(image, kept)
        kept = _large_faces_for_their_parts(kept, [c for c, _ in large_faces])
        readings = []
        for candidate, (value, confidence) in kept:
            x, y = candidate.center[0] + ox, candidate.center[1] + oy
            half = candidate.size / 2
            pip = centre_of_one(image, candidate.center, candidate.size) if value == 1 else None
            readings.append(DieReading(
                value=int(value),
                center=(float(x), float(y)) if pip is None else (pip[0] + ox, pip[1] + oy),
                box=(float(x - half), float(y - half), float(x + half), float(y + half)),
                confidence=float(confidence),
                unsure=float(confidence) < self.unsure_below,
            ))
        readings.sort(key=lambda r: (r.center[1], r.center[0]))
        return readings

    def _found_by_looking_again(self, image: np.ndarray, turned_down: list[Candidate], kept: list,
                                maps: tuple[np.ndarray, float, float] | None = None) -> list:
        """Dice among the turned-down candidates and the heatmap's shoulders, read again in one batch: second
        looks at twice the size, re-centred looks and shoulder looks at the frame's usual face size."""
        def lies_on_a_die(larger: Candidate, dice: list) -> bool:
            return any(_within(other, larger, larger.size) for other, _ in dice)

        second_looks = [Candidate(c.center, c.size * SECOND_LOOK, c.score) for c in turned_down]
        second_looks = [c for c in second_looks if not lies_on_a_die(c, kept)]
        usual = _usual_size(kept)
        recentred = _recentred_looks(turned_down, usual) if usual else []
        shoulder_looks = _shoulder_looks(maps, kept, usual) if usual and maps else []
        if not second_looks and not recentred and not shoulder_looks:
            return []
        answers = self._classify(image, second_looks + recentred + shoulder_looks)
        found: list = []
        for candidate, (value, confidence) in zip(second_looks, answers):
            if value != NOT_A_DIE and confidence >= SECOND_LOOK_SURE and not lies_on_a_die(candidate, kept + found):
                found.append((candidate, (value, confidence)))
        later = len(second_looks) + len(recentred)
        for looks, least, first in ((recentred, RECENTRE_SURE, len(second_looks)), (shoulder_looks, SHOULDER_SURE, later)):
            for look, (value, confidence) in sorted(zip(looks, answers[first:]), key=lambda look: -look[1][1]):
                if value == NOT_A_DIE or confidence < least:
                    continue
                if not any(_within(other, look, RECENTRE_APART * max(other.size, look.size)) for other, _ in kept + found):
                    found.append((look, (value, confidence)))
        return found

    def _without_side_faces_of_ones(self, image: np.ndarray, kept: list) -> list:
        suspects = side_faces.suspects(image, kept)
        if not suspects:
            return kept
        wider = [Candidate(kept[i][0].center, kept[i][0].size * SIDE_FACE_LOOK, kept[i][0].score) for i in suspects]
        dropped = {i for i, (value, _) in zip(suspects, self._classify(image, wider)) if value == NOT_A_DIE}
        return [k for i, k in enumerate(kept) if i not in dropped]

    def _detect(self, image: np.ndarray, frame_shape: tuple[int, ...]) -> tuple[tuple | None, list[Candidate]]:
        """The detector's maps and large faces; a detector without them (a fake) finds neither shoulders nor
        large faces."""
        if hasattr(self.detector, "find_maps_and_large"):
            return self.detector.find_maps_and_large(image, frame_shape)
        if hasattr(self.detector, "find_maps"):
            return self.detector.find_maps(image, frame_shape), []
        return None, []

    def _classify(self, image: np.ndarray, candidates: Sequence[Candidate]) -> Sequence[tuple[int, float]]:
        answers = self.classify(image, candidates)
        if len(answers) != len(candidates):
            raise RuntimeError(f"the classifier answered {len(answers)} times for {len(candidates)} candidates")
        return answers


def _not_found_yet(large: list[Candidate], candidates: list[Candidate]) -> list[Candidate]:
    """The large faces without a candidate of about their size (LARGE_FOUND_FROM) within SAME_DIE of their size."""
    return [c for c in large if not any(other.size >= LARGE_FOUND_FROM * c.size and _within(other, c, SAME_DIE * c.size)
                                        for other in candidates)]


def _large_faces_for_their_parts(kept: list, large: list[Candidate]) -> list:
    """`kept` with each large face standing for the smaller dice read within half its size, or dropped where one
    of those is at least LARGE_GIVES_WAY of its size."""
    if not large:
        return kept
    large_ids = {id(c) for c in large}
    dropped: set[int] = set()
    for at, (face, _) in enumerate(kept):
        if id(face) not in large_ids:
            continue
        inside = [i for i, (c, _) in enumerate(kept) if id(c) not in large_ids and _within(c, face, face.size / 2)]
        if any(kept[i][0].size >= LARGE_GIVES_WAY * face.size for i in inside):
            dropped.add(at)
        else:
            dropped.update(inside)
    return [k for i, k in enumerate(kept) if i not in dropped]


def _usual_size(kept: list) -> float | None:
    """The frame's usual face size: the median of the dice read surely (None without one)."""
    sure_sizes = [c.size for c, (_, confidence) in kept if confidence >= RECENTRE_SURE]
    return float(np.median(sure_sizes)) if sure_sizes else None


def _recentred_looks(turned_down: list[Candidate], usual: float) -> list[Candidate]:
    """Each turned-down candidate about the frame's usual face size or larger, and detected at least
    RECENTRE_SCORE, looked at with that size at its centre and RECENTRE_SHIFT of a face to each side."""
    step = RECENTRE_SHIFT * usual
    return [Candidate((c.center[0] + dx * step, c.center[1] + dy * step), usual, c.score)
            for c in turned_down if c.size >= RECENTRE_FROM * usual and c.score >= RECENTRE_SCORE
            for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))]


def _shoulder_looks(maps: tuple[np.ndarray, float, float], kept: list, usual: float) -> list[Candidate]:
    """The heatmap's shoulders at least SHOULDER_APART usual faces from every die read and from each other,
    at the usual size."""
    return [Candidate(spot.center, usual, spot.score)
            for spot in shoulders(*maps, apart=SHOULDER_APART * usual, away_from=[c.center for c, _ in kept])]


def _within(a: Candidate, b: Candidate, distance: float) -> bool:
    return (a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2 < distance ** 2
