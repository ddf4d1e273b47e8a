"""Banana Matcho's wonder tree as data (companion/games/data/banana-matcho.json), validated on load."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..boarddata import Fields, load_board

GAME_NAME = "banana-matcho"


def load_top_space(override: Mapping[str, Any] | str | Path | None = None) -> int:
    """The fruit basket's space (30 by default); the start space is 0. BadConfig names a bad field."""
    if override is None:
        where = f"companion/games/data/{GAME_NAME}.json"
    elif isinstance(override, Mapping):
        where = f"{GAME_NAME} board data"
    else:
        where = str(override)
    return Fields(load_board(GAME_NAME, override), where).int("top_space", 2, 200)
