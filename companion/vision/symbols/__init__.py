"""Banana Matcho's symbol dice: six fruit dice and three Matcho dice, taught from the box on the table.

`make_reader("fruit")` / `make_reader("matcho")` give a reader for the taught dice of one box:
`read(frame_bgr, tray=None) -> list[DieReading]` with value a fruit name, "matcho" or "blank". A die the
reader cannot tell is reported with unsure=True, never guessed.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ...events import DieReading
from .examples import Example
from .faces import FACES, FRUITS, MATCHO_FACES, faces_of
from .features import BLUR_VARIANTS, CROP_PX, body_tint, extract, motion_blurred
from .find import canonical_crop, find_dice
from .recognise import Recogniser
from .store import DamagedStore, TeachStore

__all__ = ["SymbolReader", "FruitReader", "MatchoReader", "make_reader", "get_reader", "NotTaught", "FACES", "FRUITS",
           "MATCHO_FACES"]


try:  # a reader that cannot be made is the pip reader engineer's UnknownReader, so `companion read` says why
    from ..readers import UnknownReader as _ReaderUnavailable
except ImportError:  # pragma: no cover - readers.py is part of the same package
    _ReaderUnavailable = ValueError  # type: ignore[misc,assignment]


# How far a die's body hue (ln B/G, ln R/G: features.body_tint) may lie from the nearest taught die's, and
# from the dice read with it in the zone. Measured on the held-out and development styles, light tinted +-5 %
# per channel both when taught and when read: real dice lay up to 0.104 from a taught body and 0.014 from their
# zone's dice (once 0.079: an extra "die" cut off a blurred row of touching dice); a skin blob of a die's size
# (a fingertip) lay 0.10 or more from the taught bodies, 93 % of them above 0.15, and every one was caught by
# one check or the other. A light 10-12 % warmer or cooler than when the dice were taught moves every body
# by up to 0.25 at once, so the dice of a colour group (two or more, each within BODY_FROM_ZONE of the next: a
# light whose colour drifts across the zone) holding a die read surely as a printed face (not blank) may lie
# up to BODY_FROM_TAUGHT_SHOWN from the taught bodies. Skin shows no fruit or monkey (no fingertip was read as
# one), so a hand, however it is cut into die-sized blobs, keeps the narrow limit.
BODY_FROM_TAUGHT = 0.15
BODY_FROM_TAUGHT_SHOWN = 0.30
BODY_FROM_ZONE = 0.06


class NotTaught(_ReaderUnavailable):
    """The dice of this kind have not been taught (fully) yet; the message says how to teach them."""


class SymbolReader:
    """Reads fruit or Matcho dice, from examples of every face (see `companion teach`)."""

    reads_moving_dice = True
    """Zones keep its readings of dice that moved as they are (`vision/die_motion.py`): the blurred examples
    find a moving die's face (98.7% of dice blurred 6-14 px right, none wrong: models/symbols-card.md), and in
    a Banana Matcho duel one side's dice are usually still rolling when the other side squeaks."""

    def __init__(self, kind: str, examples: dict[str, list[Example]]):
        faces = faces_of(kind)
        missing = [f for f in faces if not examples.get(f)]
        if missing:
            raise NotTaught(f"the {kind} dice are not taught yet: no examples of {', '.join(missing)}; "
                            f"run `companion teach {kind} --face {missing[0]} IMAGE...` "
                            f"or `companion teach {kind} --camera SOURCE`")
        self.kind = kind
        # Blurred copies of the examples let a die caught moving still find its face.
        blurred = {f: [extract(motion_blurred(e.crop, n, a)) for e in examples[f] for n, a in BLUR_VARIANTS]
                   for f in faces}
        self.recogniser = Recogniser({f: [extract(e.crop) for e in examples[f]] for f in faces}, blurred)
        self.side_hint = float(np.median([e.side for f in faces for e in examples[f]]))
        tints = [t for f in faces for e in examples[f] if (t := body_tint(e.crop)) is not None]
        self.taught_bodies = np.stack(tints) if tints else None  # None: all taught overexposed, hue unknown

    def read(self, frame_bgr: np.ndarray, tray: tuple[int, int, int, int] | None = None) -> list[DieReading]:
        dice = find_dice(frame_bgr, tray, self.side_hint)
        crops = [canonical_crop(frame_bgr, die, CROP_PX) for die in dice]
        decisions = [self.recogniser.decide(extract(crop)) for crop in crops]
        printed = [not d.unsure and d.face != "blank" for d in decisions]
        off_colour = self.off_colour([body_tint(crop) for crop in crops], printed)
        out = []
        for die, decision, odd in zip(dice, decisions, off_colour):
            out.append(DieReading(decision.face, die.center, die.box, round(decision.confidence, 3),
                                  decision.unsure or odd))
        return out

    def off_colour(self, bodies: list[np.ndarray | None], printed: list[bool] | None = None) -> list[bool]:
        """Which found "dice" are not of the taught dice's body colour: a fingertip or the heel of a hand
        over a die is a plain, die-sized blob, and the features (divided by the blob's own colour) would
        take it for a blank face. Outside the colour group of the most die-like one (one light, so alike:
        dice of one kind share their colour), or far from every taught body, it is unsure, not guessed.
        `printed`: which read a printed face surely; one in a group of two or more shows the light moved.
        A body whose hue could not be measured (overexposed) is judged by its face alone."""
        measured = [i for i, body in enumerate(bodies) if body is not None]
        odd = [False] * len(bodies)
        if not measured or self.taught_bodies is None:
            return odd
        found = np.stack([bodies[i] for i in measured])
        from_taught = np.linalg.norm(found[:, None, :] - self.taught_bodies[None, :, :], axis=2).min(axis=1)
        group = _colour_group(found, int(np.argmin(from_taught)))
        shown = len(group) >= 2 and printed is not None and any(printed[measured[j]] for j in group)
        limit = BODY_FROM_TAUGHT_SHOWN if shown else BODY_FROM_TAUGHT
        for j, (i, t) in enumerate(zip(measured, from_taught)):
            odd[i] = bool(j not in group or t > limit)
        return odd


def _colour_group(found: np.ndarray, seed: int) -> set[int]:
    """The dice alike in colour with found[seed]: each within BODY_FROM_ZONE of another in the group, so a light
    whose colour drifts across the zone keeps them together, while a blob of another colour stays out."""
    group, todo = {seed}, [seed]
    while todo:
        near = np.linalg.norm(found - found[todo.pop()], axis=1) <= BODY_FROM_ZONE
        new = [int(j) for j in np.flatnonzero(near) if int(j) not in group]
        group.update(new)
        todo.extend(new)
    return group


class FruitReader(SymbolReader):
    def __init__(self, examples: dict[str, list[Example]]):
        super().__init__("fruit", examples)


class MatchoReader(SymbolReader):
    def __init__(self, examples: dict[str, list[Example]]):
        super().__init__("matcho", examples)


def make_reader(kind: str, state_dir: str | Path | None = None, box: str = "default") -> SymbolReader:
    """The reader for the taught dice of `box` in the state directory (default: the companion's)."""
    if state_dir is None:
        from ...config import default_state_dir

        state_dir = default_state_dir()
    faces_of(kind)
    try:
        examples = TeachStore(state_dir, box).load(kind)
    except DamagedStore as exc:
        raise NotTaught(str(exc)) from None
    return SymbolReader(kind, examples)


def get_reader(kind: str, state_dir: str | Path | None = None, box: str = "default") -> SymbolReader:
    """The entry companion.vision.readers.get_reader uses for "fruit" and "matcho"."""
    return make_reader(kind, state_dir, box)
