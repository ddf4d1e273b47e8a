"""The Matterhorn board: the pyramid of circles, lines 12 (bottom) to 5 (top), then the summit.

Circles are numbered 1, 2, ... from the left on each line; inside the engine each circle is one cell index.
Adjacency is the pyramid of the board data (each line offset by half a circle): circle i of a line touches
circles i-1 and i+1 of its own line ("beside"), circles i-1 and i of the line above and circles i and i+1 of
the line below, where those circles exist. Every circle of line 5 touches the summit above it. The rule is
symmetric for any number of circles per line, so an edited board file keeps a consistent board.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

from ..boarddata import Fields, load_board
from .dice import LINES

SUMMIT = -1
"""Where a climber on the summit stands (the summit holds any number of climbers)."""
OFF_BOARD = -2
"""Where a climber stands before it is placed on line 12."""


@dataclass(frozen=True)
class Board:
    circles_per_line: Mapping[int, int]
    tokens: int
    first_cell: dict[int, int] = field(init=False, repr=False, compare=False)
    cell_line: tuple[int, ...] = field(init=False, repr=False, compare=False)
    cell_circle: tuple[int, ...] = field(init=False, repr=False, compare=False)
    up: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    beside: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    down: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    where: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    own_steps: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    push_steps: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    spans: tuple[tuple[int, int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        first, cell_line, cell_circle = {}, [], []
        for line in LINES:
            first[line] = len(cell_line)
            for circle in range(1, self.circles_per_line[line] + 1):
                cell_line.append(line)
                cell_circle.append(circle)
        set_ = object.__setattr__
        set_(self, "first_cell", first)
        set_(self, "cell_line", tuple(cell_line))
        set_(self, "cell_circle", tuple(cell_circle))
        up, beside, down = [], [], []
        for line, circle in zip(cell_line, cell_circle):
            up.append((SUMMIT,) if line == LINES[0] else self._existing(line - 1, (circle - 1, circle)))
            beside.append(self._existing(line, (circle - 1, circle + 1)))
            down.append(() if line == LINES[-1] else self._existing(line + 1, (circle, circle + 1)))
        set_(self, "up", tuple(up))
        set_(self, "beside", tuple(beside))
        set_(self, "down", tuple(down))
        set_(self, "where", tuple(zip(cell_line, cell_circle)))
        set_(self, "own_steps", tuple(tuple(c for c in u + b + d if c >= 0) for u, b, d in zip(up, beside, down)))
        set_(self, "push_steps", tuple(tuple(c for c in u + b if c >= 0) for u, b in zip(up, beside)))
        set_(self, "spans", tuple((line, first[line], first[line] + self.circles_per_line[line]) for line in LINES))

    def _existing(self, line: int, circles: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(self.cell(line, c) for c in circles if 1 <= c <= self.circles_per_line[line])

    @property
    def size(self) -> int:
        return len(self.cell_line)

    def cell(self, line: int, circle: int) -> int:
        return self.first_cell[line] + circle - 1

    def cells_of(self, line: int) -> range:
        start = self.first_cell[line]
        return range(start, start + self.circles_per_line[line])

    def has_circle(self, line: Any, circle: Any) -> bool:
        return (isinstance(line, int) and isinstance(circle, int) and line in self.first_cell
                and 1 <= circle <= self.circles_per_line[line])

    def name(self, cell: int) -> str:
        if cell == SUMMIT:
            return "the summit"
        return f"line {self.cell_line[cell]}, circle {self.cell_circle[cell]}"

    def to_json(self) -> dict[str, Any]:
        return {"circles_per_line": {str(line): self.circles_per_line[line] for line in LINES}, "tokens": self.tokens}


def board_from_data(data: Mapping[str, Any], where: str = "matterhorn board") -> Board:
    fields = Fields(data, where)
    circles = fields.int_map("circles_per_line", list(LINES), lo=1, hi=30)
    tokens = fields.int("tokens", lo=1, hi=500)
    return Board(circles, tokens)


@lru_cache(maxsize=1)
def default_board() -> Board:
    return board_from_data(load_board("matterhorn"), "companion/games/data/matterhorn.json")


def load_matterhorn_board(override: Any = None) -> Board:
    """The shipped board, or `override` (a mapping or a path to a JSON file), validated."""
    if override is None:
        return default_board()
    if isinstance(override, Board):
        return override
    where = "matterhorn board" if isinstance(override, Mapping) else f"board file {override}"
    return board_from_data(load_board("matterhorn", override), where)
