"""Every action a Matterhorn board allows, made once per board and kept by cell, so listing the legal
actions of a state is picking from tuples: a random 4-player game lists them about 1,500 times.

Actions hold only lines and circles, so the same objects serve every state on a board of that shape.
"""
from __future__ import annotations

from dataclasses import dataclass

from .actions import (ClimbSummit, MoveClimber, PlaceClimber, PlaceObstacle, PlaceToken, ReclaimObstacle,
                      RemoveObstacle)
from .board import Board
from .dice import LINES

MAX_CLIMBERS = 8  # two for each of at most four players

Steps = tuple[tuple[tuple[int, MoveClimber], ...], ...]
"""For one climber, by the cell it stands on: (cell it may step to, the move there), in adjacency order."""


@dataclass(frozen=True)
class ActionTables:
    own_steps: tuple[Steps, ...]
    """By climber k (2 * player + 0 or 1): its owner's moves (up, beside, down)."""
    push_steps: tuple[Steps, ...]
    """By climber k: an opponent's moves of it (up or beside)."""
    summit: tuple[ClimbSummit, ...]
    """By climber k: the climb to the summit."""
    top_cells: int
    """Cells below this index are on line 5, the line below the summit."""
    remove: tuple[RemoveObstacle, ...]
    reclaim: tuple[ReclaimObstacle, ...]
    place_obstacle: tuple[PlaceObstacle, ...]
    place_token: tuple[PlaceToken, ...]
    place_climber: tuple[PlaceClimber, ...]
    """By cell (only the cells of line 12 are ever used)."""


_BY_SHAPE: dict[tuple[int, ...], ActionTables] = {}


def tables_for(board: Board) -> ActionTables:
    """The tables of boards with these circles per line (built on first use)."""
    shape = tuple(board.circles_per_line[line] for line in LINES)
    tables = _BY_SHAPE.get(shape)
    if tables is None:
        if len(_BY_SHAPE) >= 16:
            _BY_SHAPE.clear()
        tables = _BY_SHAPE[shape] = _build(board)
    return tables


def _build(board: Board) -> ActionTables:
    where = board.where

    def steps(adjacent: tuple[tuple[int, ...], ...], k: int) -> Steps:
        return tuple(tuple((to, MoveClimber(k // 2, k % 2, *where[to])) for to in adjacent[at]) for at in range(board.size))

    return ActionTables(
        own_steps=tuple(steps(board.own_steps, k) for k in range(MAX_CLIMBERS)),
        push_steps=tuple(steps(board.push_steps, k) for k in range(MAX_CLIMBERS)),
        summit=tuple(ClimbSummit(k % 2) for k in range(MAX_CLIMBERS)),
        top_cells=board.circles_per_line[LINES[0]],
        remove=tuple(RemoveObstacle(*at) for at in where),
        reclaim=tuple(ReclaimObstacle(*at) for at in where),
        place_obstacle=tuple(PlaceObstacle(*at) for at in where),
        place_token=tuple(PlaceToken(circle) for _, circle in where),
        place_climber=tuple(PlaceClimber(circle) for _, circle in where),
    )
