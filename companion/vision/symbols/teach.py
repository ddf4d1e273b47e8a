"""Teaching the dice of the box on the table: examples from photos, checks, and the store update.

Every teach is all or nothing: the new examples are checked (a die in every photo, the new face not
looking like another taught face) before the store is written, and the write is atomic, so a refused
teach leaves what was taught before exactly as it was.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Iterable, Iterator

import numpy as np

from .examples import Example
from .faces import check_face, faces_of
from .features import CROP_PX, extract
from .find import canonical_crop, find_dice
from .recognise import Recogniser
from .store import TeachStore

# Two faces are "confused" when many of their examples are nearer an example of the other face than any
# other example of their own: the same face shown twice does that for about half of its examples, two
# different faces (development styles, varied light) for none. Faces with one example each are compared
# by how far apart they are against how much examples of one face vary (same face: below 1; different
# faces: 2 or more).
CONFUSED_SHARE = 0.25
CONFUSED_FACTOR = 1.5
# A new example nearer another face's examples than half its distance to its own face's is a die that
# was left on another face.
STRAY_FACTOR = 0.5


class TeachError(ValueError):
    """Bad teach data: the message says what is wrong and what to do; nothing was changed."""


def examples_from_image(image: np.ndarray, tray=None) -> list[Example]:
    return [Example(canonical_crop(image, die, CROP_PX), die.side) for die in find_dice(image, tray)]


def missing_faces(kind: str, examples: dict[str, list[Example]]) -> list[str]:
    return [face for face in faces_of(kind) if not examples.get(face)]


def confused_faces(examples: dict[str, list[Example]]) -> list[tuple[str, str]]:
    """Pairs of taught faces whose examples are too alike to tell apart."""
    taught = {face: [extract(e.crop) for e in found] for face, found in examples.items() if found}
    if len(taught) < 2:
        return []
    rec = Recogniser(taught)
    d = rec.example_distances()
    np.fill_diagonal(d, np.inf)
    labels = rec.labels
    out = []
    for i, a in enumerate(rec.faces):
        for j in range(i + 1, len(rec.faces)):
            pair = np.flatnonzero((labels == i) | (labels == j))
            own = [k for k in pair if (labels == labels[k]).sum() >= 2]
            if own:
                strays = sum(d[k, pair][labels[pair] != labels[k]].min() < d[k, pair][labels[pair] == labels[k]].min()
                             for k in own)
                confused = strays / len(own) >= CONFUSED_SHARE
            else:
                confused = d[np.ix_(labels == i, labels == j)].min() < CONFUSED_FACTOR * rec.spread
            if confused:
                out.append((a, rec.faces[j]))
    return out


def _strays(examples: dict[str, list[Example]], face: str, new: int) -> list[tuple[int, str]]:
    """New examples of `face` (the last `new`) that are far nearer another taught face than their own:
    a die left on another face in a teach photo. Returns (index among the new, the face it shows)."""
    taught = {f: [extract(e.crop) for e in found] for f, found in examples.items() if found}
    if len(taught) < 2 or len(taught[face]) < 2:
        return []
    rec = Recogniser(taught)
    d = rec.example_distances()
    np.fill_diagonal(d, np.inf)
    own = rec.faces.index(face)
    rows = np.flatnonzero(rec.labels == own)[-new:]
    out = []
    for k, row in enumerate(rows):
        same = d[row, rec.labels == own].min()
        others = np.where(rec.labels != own, d[row], np.inf)
        if others.min() < STRAY_FACTOR * same:
            out.append((k, rec.faces[rec.labels[int(np.argmin(others))]]))
    return out


@dataclasses.dataclass
class TeachReport:
    kind: str
    face: str
    added: int
    examples: dict[str, int]
    missing: list[str]

    def lines(self) -> list[str]:
        out = [f"taught {self.kind} face {self.face!r}: {self.added} example(s)"]
        out.append("taught so far: " + ", ".join(f"{f} ({n})" for f, n in self.examples.items()))
        if self.missing:
            out.append(f"still to teach: {', '.join(self.missing)}")
        else:
            out.append(f"all {self.kind} faces taught: the companion can read these dice")
        return out


def teach_face(store: TeachStore, kind: str, face: str, images: Iterable[tuple[str, np.ndarray]],
               add: bool = False) -> TeachReport:
    """Teach `face` from photos (name, image), each showing one or more dice with that face up.

    Re-teaching a face replaces its examples, unless `add`.
    """
    check_face(kind, face)
    new: list[Example] = []
    sources: list[str] = []
    for name, image in images:
        found = examples_from_image(image)
        if not found:
            raise TeachError(f"no die found in {name}: put the die on the tray, {face} face up, in good light; "
                             "nothing was changed")
        new += found
        sources += [name] * len(found)
    if not new:
        raise TeachError(f"no photos of the {face} face given; nothing was changed")
    examples = store.load(kind)
    examples[face] = (examples.get(face, []) if add else []) + new
    for index, other in _strays(examples, face, len(new)):
        raise TeachError(f"a die in {sources[index]} shows the {other} face, not {face}: turn every die to "
                         f"{face} and teach it again; nothing was changed")
    for a, b in confused_faces(examples):
        if face in (a, b):
            other = b if a == face else a
            raise TeachError(f"the {face} examples look too much like the {other} examples to tell apart — "
                             f"was the {face} face really up? Re-teach {face} (or {other}); nothing was changed")
    store.save(kind, examples)
    return TeachReport(kind, face, len(new), {f: len(examples[f]) for f in faces_of(kind) if examples.get(f)},
                       missing_faces(kind, examples))


def teach_interactive(store: TeachStore, kind: str, frames: Iterator[np.ndarray], ask: Callable[[str], str],
                      say: Callable[[str], None], shots: int = 1, faces: list[str] | None = None) -> list[str]:
    """Walk through the faces: ask for each, take `shots` frames, teach it; returns the faces still missing.

    A refused face (no die, looks like another face) is asked for again; answering "s" skips it.
    """
    for face in faces or list(faces_of(kind)):
        while True:
            answer = ask(f"Show the {face} face on every {kind} die you have on the tray, then press Enter "
                         f"(s to skip): ").strip().lower()
            if answer == "s":
                say(f"skipped {face}")
                break
            shots_taken = [(f"camera frame {k + 1}", next(frames)) for k in range(shots)]
            try:
                report = teach_face(store, kind, face, shots_taken)
            except TeachError as exc:
                say(str(exc))
                continue
            say(report.lines()[0])
            break
    missing = missing_faces(kind, store.load(kind))
    say(f"still to teach: {', '.join(missing)}" if missing else f"all {kind} faces taught")
    return missing
