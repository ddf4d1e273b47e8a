"""Who can have made the banana squeak legitimately, from what both sets of dice show at that moment."""
from __future__ import annotations

from typing import Literal, Sequence

from .combinations import MATCHO, check_matcho_faces, combination

Verdict = Literal["fruit", "matcho", "both", "neither"]


def arbitrate(fruit_faces: Sequence[str] | None, matcho_faces: Sequence[str] | None) -> Verdict:
    """"fruit": only the fruit roller holds a combination; "matcho": only the Matcho roller shows three
    Matchos; "both": either could have squeaked legitimately (the page must ask who was first);
    "neither": whoever squeaked calls "Continue" (the page must ask who squeaked). A side None shows no dice
    of this duel: it holds no combination.
    Raises BadFaces for anything but six fruit names and three Matcho faces ("matcho" or "blank")."""
    fruit_ok = fruit_faces is not None and combination(fruit_faces).value > 0
    matcho_ok = matcho_faces is not None and all(face == MATCHO for face in check_matcho_faces(matcho_faces))
    if fruit_ok and matcho_ok:
        return "both"
    if fruit_ok:
        return "fruit"
    return "matcho" if matcho_ok else "neither"
