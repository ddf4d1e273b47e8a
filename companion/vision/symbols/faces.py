"""The faces of Banana Matcho's symbol dice, by kind of die."""
from __future__ import annotations

FRUITS = ("coconut", "starfruit", "orange", "banana", "pineapple", "papaya")
MATCHO_FACES = ("matcho", "blank")
FACES: dict[str, tuple[str, ...]] = {"fruit": FRUITS, "matcho": MATCHO_FACES}
KINDS = tuple(FACES)


class UnknownFace(ValueError):
    pass


def faces_of(kind: str) -> tuple[str, ...]:
    if kind not in FACES:
        raise UnknownFace(f"unknown kind of symbol die {kind!r}; choose fruit or matcho")
    return FACES[kind]


def check_face(kind: str, face: str) -> str:
    faces = faces_of(kind)
    if face not in faces:
        raise UnknownFace(f"{face!r} is not a face of the {kind} dice; the faces are: {', '.join(faces)}")
    return face
