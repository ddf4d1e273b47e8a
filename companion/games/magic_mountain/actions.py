"""Magic Mountain's actions and chance outcomes."""
from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..api import Action, ActionCodec


@dataclasses.dataclass(frozen=True)
class DrawBall(Action):
    """Chance: the ball (will-o'-the-wisp) drawn from the bag."""

    kind: ClassVar[str] = "draw_ball"
    colour: str


@dataclasses.dataclass(frozen=True)
class ChooseOpening(Action):
    """The opening (1 at the left, 6 at the right) the ball is put into; the sensor kit's gate may report it."""

    kind: ClassVar[str] = "choose_opening"
    opening: int


@dataclasses.dataclass(frozen=True)
class Hits(Action):
    """Observed outcome: the figures the ball hit, in the order hit (a figure may appear twice); () for none."""

    kind: ClassVar[str] = "hits"
    figures: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class MoveOnMiss(Action):
    """After a ball that hit nothing: the chosen figure moves one space on."""

    kind: ClassVar[str] = "move_on_miss"
    figure: str


@dataclasses.dataclass(frozen=True)
class EndWithTitle(Action):
    """Flipped goal tile only: the players stop and take the title they hold."""

    kind: ClassVar[str] = "end_with_title"


ACTIONS = ActionCodec(DrawBall, ChooseOpening, Hits, MoveOnMiss, EndWithTitle)
