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
from .features import BLUR_VARIANTS, CROP_PX, extract, motion_blurred
from .find import canonical_crop, find_dice
from .recognise import Recogniser
from .store import DamagedStore, TeachStore

__all__ = ["SymbolReader", "FruitReader", "MatchoReader", "make_reader", "get_reader", "NotTaught", "FACES", "FRUITS",
           "MATCHO_FACES"]


try:  # a reader that cannot be made is the pip reader engineer's UnknownReader, so `companion read` says why
    from ..readers import UnknownReader as _ReaderUnavailable
except ImportError:  # pragma: no cover - readers.py is part of the same package
    _ReaderUnavailable = ValueError  # type: ignore[misc,assignment]


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

    def read(self, frame_bgr: np.ndarray, tray: tuple[int, int, int, int] | None = None) -> list[DieReading]:
        out = []
        for die in find_dice(frame_bgr, tray, self.side_hint):
            decision = self.recogniser.decide(extract(canonical_crop(frame_bgr, die, CROP_PX)))
            out.append(DieReading(decision.face, die.center, die.box, round(decision.confidence, 3),
                                  decision.unsure))
        return out


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
