"""The Mountain Goats box as numbers: path lengths, token stacks, bonus tokens, Big Mountain points.

Read from companion/games/data/mountain-goats.json (or an override) and validated: a bad value raises
BadConfig naming the field and the value.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from ..boarddata import Fields, load_board
from .dice import MOUNTAINS

GAME_NAME = "mountain-goats"
PLAYER_COUNTS = (2, 3, 4, 5)
KNOWN_FIELDS = {"about", "spaces", "tokens_4_players", "tokens_fewer", "bonus_tokens", "big_mountain_points"}


@dataclasses.dataclass(frozen=True)
class Board:
    spaces: dict[int, int]
    tokens_4_players: dict[int, int]
    tokens_fewer: dict[int, int]
    bonus_tokens: tuple[int, ...]
    big_mountain_points: dict[int, tuple[int, ...]]
    raw: Mapping[str, Any]

    def tokens(self, players: int) -> list[int]:
        """The token stack of each mountain 5–10 for this many players."""
        return [self.tokens_4_players[m] - self.tokens_fewer[players] for m in MOUNTAINS]

    def summit(self, mountain: int) -> int:
        return self.spaces[mountain]


def parse_board(data: Mapping[str, Any], where: str) -> Board:
    fields = Fields(data, where)
    unknown = sorted(set(data) - KNOWN_FIELDS)
    if unknown:
        raise fields.fail(unknown[0], f"is not a known field; known: {', '.join(sorted(KNOWN_FIELDS))}")
    spaces = fields.int_map("spaces", list(MOUNTAINS), 1, 20)
    tokens = fields.int_map("tokens_4_players", list(MOUNTAINS), 0, 50)
    fewer = fields.int_map("tokens_fewer", list(PLAYER_COUNTS), 0, 50)
    for count, less in fewer.items():
        for mountain, stack in tokens.items():
            if less > stack:
                raise fields.fail(f"tokens_fewer.{count}",
                                  f"takes {less} tokens from mountain {mountain}, which has only {stack}")
    bonus = fields.list("bonus_tokens", 0, 20)
    bonus = tuple(sorted((fields.check_int(f"bonus_tokens[{i}]", v, 0, 100) for i, v in enumerate(bonus)), reverse=True))
    points_data = fields.get("big_mountain_points")
    if not isinstance(points_data, dict) or set(points_data) != {str(n) for n in PLAYER_COUNTS}:
        raise fields.fail("big_mountain_points", f"must be an object with the keys 2, 3, 4 and 5, got {points_data!r}")
    points = {}
    for count in PLAYER_COUNTS:
        name = f"big_mountain_points.{count}"
        values = points_data[str(count)]
        if not isinstance(values, list) or not values:
            raise fields.fail(name, f"must be a non-empty list of points, got {values!r}")
        points[count] = tuple(fields.check_int(f"{name}[{i}]", v, 0, 100) for i, v in enumerate(values))
    return Board(spaces, tokens, fewer, bonus, points, dict(data))


def load(override: Mapping[str, Any] | str | None = None) -> Board:
    where = "board" if isinstance(override, Mapping) else str(override or f"companion/games/data/{GAME_NAME}.json")
    return parse_board(load_board(GAME_NAME, override), where)
