"""The four games by their command-line names, imported only when asked for."""
from __future__ import annotations

import importlib
from types import ModuleType

from .api import Game, GameError

GAME_MODULES = {
    "matterhorn": "companion.games.matterhorn",
    "mountain-goats": "companion.games.mountain_goats",
    "magic-mountain": "companion.games.magic_mountain",
    "banana-matcho": "companion.games.banana_matcho",
}


class UnknownGame(GameError):
    pass


def game_module(name: str) -> ModuleType:
    try:
        module_name = GAME_MODULES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; choose one of: {', '.join(GAME_MODULES)}") from None
    return importlib.import_module(module_name)


def get_game(name: str) -> Game:
    return game_module(name).GAME


def all_games() -> list[Game]:
    return [get_game(name) for name in GAME_MODULES]
