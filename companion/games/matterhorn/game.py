"""The Matterhorn entry point the registry finds: players, variants and the board file in, a state out."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..api import BadConfig, Game, Player, Variant
from .actions import CODEC
from .board import load_matterhorn_board
from .dice import LINES
from .state import MatterhornState


class MatterhornGame(Game):
    name = "matterhorn"
    title = "Matterhorn"
    min_players = 2
    max_players = 4
    variants = (Variant("two_action_summit",
                        "the summit takes 2 actions from line 5, so a bonus move can't reach it"),)
    actions = CODEC

    def new_state(self, players: Iterable[Player | str], variants: Mapping[str, Any] | None = None,
                  board: Mapping[str, Any] | None = None) -> MatterhornState:
        players = self.check_players(players)
        chosen = self.check_variants(variants)
        layout = load_matterhorn_board(board)
        bottom = layout.circles_per_line[LINES[-1]]
        if bottom < 2 * len(players):
            raise BadConfig(f"line {LINES[-1]} has {bottom} circles, too few for the {2 * len(players)} climbers "
                            f"of {len(players)} players")
        return MatterhornState(players, chosen["two_action_summit"], layout)

    def state_from_json(self, data: Mapping[str, Any]) -> MatterhornState:
        if data.get("game") != self.name:
            raise BadConfig(f"not a Matterhorn state: game is {data.get('game')!r}")
        return MatterhornState._from_data(data)


GAME = MatterhornGame()
