"""The two actions of Mountain Goats: the chance outcome `Roll` and the player's whole plan `Move`."""
from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..api import Action


@dataclasses.dataclass(frozen=True)
class Roll(Action):
    """The chance outcome: the four dice as they show."""
    kind: ClassVar[str] = "roll"
    dice: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Move(Action):
    """The player's plan for the roll: `steps` are the acting groups of 5–10 (sorted mountain numbers, a
    mountain twice for two groups), `big` the Big Mountain moves as sorted (space, mountain left) pairs."""
    kind: ClassVar[str] = "move"
    steps: tuple[int, ...] = ()
    big: tuple[tuple[int, int], ...] = ()
