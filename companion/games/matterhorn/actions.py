"""The actions of Matterhorn, chance outcomes included. Circles are named by line and circle number
(1 from the left), the summit by its own action."""
from __future__ import annotations

from dataclasses import dataclass

from ..api import Action, ActionCodec


@dataclass(frozen=True)
class SetupRoll(Action):
    """Chance: the one die a player rolls to decide who places climbers first."""
    kind = "setup_roll"
    value: int


@dataclass(frozen=True)
class PlaceClimber(Action):
    kind = "place_climber"
    circle: int


@dataclass(frozen=True)
class Roll(Action):
    """Chance: the dice still in play, as they show."""
    kind = "roll"
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Eliminate(Action):
    """Set aside these dice (sorted values; empty: keep them all) for the rest of the turn, so the dice
    left add up to `line`."""
    kind = "eliminate"
    dice: tuple[int, ...]
    line: int


@dataclass(frozen=True)
class PlaceToken(Action):
    """Put an action token on this circle of the line just chosen."""
    kind = "place_token"
    circle: int


@dataclass(frozen=True)
class MoveClimber(Action):
    """Move climber `climber` (0 or 1) of player `owner` to a circle."""
    kind = "move"
    owner: int
    climber: int
    line: int
    circle: int


@dataclass(frozen=True)
class ClimbSummit(Action):
    kind = "summit"
    climber: int


@dataclass(frozen=True)
class RemoveObstacle(Action):
    kind = "remove_obstacle"
    line: int
    circle: int


@dataclass(frozen=True)
class EndMoves(Action):
    """Leave the remaining moves (or the bonus move) unused."""
    kind = "end_moves"


@dataclass(frozen=True)
class RollAgain(Action):
    kind = "roll_again"


@dataclass(frozen=True)
class Stop(Action):
    kind = "stop"


@dataclass(frozen=True)
class PlaceObstacle(Action):
    """The consolation obstacle after a lost turn."""
    kind = "place_obstacle"
    line: int
    circle: int


@dataclass(frozen=True)
class NoObstacle(Action):
    kind = "no_obstacle"


@dataclass(frozen=True)
class ReclaimObstacle(Action):
    """With the supply empty at the start of a turn: take this obstacle back into the supply."""
    kind = "reclaim"
    line: int
    circle: int


CODEC = ActionCodec(SetupRoll, PlaceClimber, Roll, Eliminate, PlaceToken, MoveClimber, ClimbSummit,
                    RemoveObstacle, EndMoves, RollAgain, Stop, PlaceObstacle, NoObstacle, ReclaimObstacle)
