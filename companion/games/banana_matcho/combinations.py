"""Banana Matcho's dice faces and the combination table of the rulebook.

The value of six fruit dice is the best combination they show; none is worth 0. Three Matchos are worth
one space. Only the pattern of counts matters (which fruit makes a triple does not), so the table is keyed
by the counts of the fruits shown, largest first.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Iterable, Sequence

from ..api import GameError

FRUITS = ("coconut", "starfruit", "orange", "banana", "pineapple", "papaya")
MATCHO, BLANK = "matcho", "blank"
MATCHO_FACES = (MATCHO, BLANK)
FRUIT_DICE, MATCHO_DICE = 6, 3
THREE_MATCHOS_VALUE = 1

# counts of the fruits shown, largest first -> (combination, value): the best combination in that pattern
_BEST_BY_PATTERN: dict[tuple[int, ...], tuple[str, int]] = {
    (6,): ("six-of-a-kind", 10),
    (5, 1): ("five-of-a-kind", 8),
    (4, 2): ("four-and-pair", 7),
    (4, 1, 1): ("four-of-a-kind", 4),
    (3, 3): ("two-triples", 6),
    (3, 2, 1): ("three-of-a-kind", 2),
    (3, 1, 1, 1): ("three-of-a-kind", 2),
    (2, 2, 2): ("three-pairs", 5),
    (1, 1, 1, 1, 1, 1): ("all-different", 12),
}

# the rulebook's table, in its order
COMBINATION_VALUES = {
    "three-of-a-kind": 2,
    "four-of-a-kind": 4,
    "five-of-a-kind": 8,
    "six-of-a-kind": 10,
    "four-and-pair": 7,
    "two-triples": 6,
    "three-pairs": 5,
    "all-different": 12,
}
NAME_BY_VALUE = {value: name for name, value in COMBINATION_VALUES.items()}


class BadFaces(GameError):
    """Dice values that are not six fruit names, or not three Matcho faces."""


@dataclasses.dataclass(frozen=True)
class Combination:
    name: str | None
    value: int

    def to_json(self) -> dict[str, object]:
        return {"combination": self.name, "value": self.value}


NO_COMBINATION = Combination(None, 0)


def pattern_of(counts: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted((c for c in counts if c), reverse=True))


def combination_of_pattern(pattern: tuple[int, ...]) -> Combination:
    best = _BEST_BY_PATTERN.get(pattern)
    return Combination(*best) if best else NO_COMBINATION


def combination(fruit_faces: Sequence[str]) -> Combination:
    """The best combination six fruit faces show (checked: exactly six known fruit names)."""
    faces = check_fruit_faces(fruit_faces)
    return combination_of_pattern(pattern_of(Counter(faces).values()))


def normalise_fruit(value: object) -> str:
    text = str(value).strip().lower().replace(" ", "").replace("-", "").replace("_", "")
    if text not in FRUITS:
        raise BadFaces(f"unknown fruit {value!r}; the fruits are {', '.join(FRUITS)}")
    return text


def check_fruit_faces(values: Sequence[object]) -> tuple[str, ...]:
    if len(values) != FRUIT_DICE:
        raise BadFaces(f"expected exactly {FRUIT_DICE} fruit names, got {len(values)}")
    return tuple(normalise_fruit(v) for v in values)


def normalise_matcho(value: object) -> str:
    text = str(value).strip().lower()
    if text in ("monkey", "banana-matcho"):
        text = MATCHO
    if text not in MATCHO_FACES:
        raise BadFaces(f"unknown Matcho face {value!r}; a Matcho die shows {MATCHO} or {BLANK}")
    return text


def check_matcho_faces(values: Sequence[object]) -> tuple[str, ...]:
    if len(values) != MATCHO_DICE:
        raise BadFaces(f"expected exactly {MATCHO_DICE} Matcho dice, got {len(values)}")
    return tuple(normalise_matcho(v) for v in values)
