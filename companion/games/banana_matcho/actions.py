"""Banana Matcho's actions: what the dice show (an observation), a squeak, and "keep rolling"."""
from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..api import Action, ActionCodec


@dataclasses.dataclass(frozen=True)
class DiceShowing(Action):
    """Observed: what the six fruit dice and the three Matcho dice show now; None leaves a set as it was."""

    kind: ClassVar[str] = "dice_showing"
    fruit: tuple[str, ...] | None = None
    matcho: tuple[str, ...] | None = None


@dataclasses.dataclass(frozen=True)
class Squeak(Action):
    """The banana squeaked first by the fruit roller (side "fruit") or the Matcho roller (side "matcho")."""

    kind: ClassVar[str] = "squeak"
    side: str


@dataclasses.dataclass(frozen=True)
class KeepRolling(Action):
    """Nobody squeaks yet: both roll on."""

    kind: ClassVar[str] = "keep_rolling"


ACTIONS = ActionCodec(DiceShowing, Squeak, KeepRolling)
