"""Banana Matcho's entry point: players, the Matcho dice variant and the wonder tree."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..api import Game, Player, Variant
from .actions import ACTIONS
from .board import load_top_space
from .state import BananaMatchoState


class BananaMatchoGame(Game):
    name = "banana-matcho"
    title = "Banana Matcho"
    min_players = 2
    max_players = 6
    takes_pip_dice = False
    reads_dice_zones = True
    variants = (
        Variant("monkey_faces", "monkey faces on each Matcho die (boxes differ: one, or two)", 1, (1, 2)),
    )
    actions = ACTIONS

    def new_state(self, players: Iterable[Player | str], variants: Mapping[str, Any] | None = None,
                  board: Mapping[str, Any] | None = None) -> BananaMatchoState:
        return BananaMatchoState(self.check_players(players), self.check_variants(variants), load_top_space(board))

    def state_from_json(self, data: Mapping[str, Any]) -> BananaMatchoState:
        return BananaMatchoState._from_data(data)


GAME = BananaMatchoGame()
