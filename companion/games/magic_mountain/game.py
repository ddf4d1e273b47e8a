"""Magic Mountain's entry point: players, variants and the board set-up."""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..api import BadConfig, Game, Player, Variant
from .actions import ACTIONS
from .board import load_mountain
from .state import COOPERATIVE, TEAM_NAMES, TEAMS, TITLES, MagicMountainState


class MagicMountainGame(Game):
    name = "magic-mountain"
    title = "Magic Mountain"
    min_players = 1
    max_players = 6
    takes_pip_dice = False
    variants = (
        Variant("mode", "cooperative (standard goal tile); titles (flipped goal tile, Beginner to Grand Master); "
                "teams (Team Student against Team Witch, taking turns; unless each player picks a team, players "
                "1, 3, 5 are on Team Student)",
                COOPERATIVE, (COOPERATIVE, TITLES, TEAMS)),
        Variant("students_to_win", "co-operative only: students on the goal tile that win (easier: 2 or 3)",
                4, (2, 3, 4)),
    )
    teams = {"variant": "mode", "value": TEAMS, "names": list(TEAM_NAMES)}
    actions = ACTIONS

    def new_state(self, players: Iterable[Player | str], variants: Mapping[str, Any] | None = None,
                  board: Mapping[str, Any] | None = None) -> MagicMountainState:
        checked_players = self.check_players(players)
        checked = self.check_variants(variants)
        if checked["mode"] != COOPERATIVE and checked["students_to_win"] != 4:
            raise BadConfig(f"students_to_win {checked['students_to_win']} is for the co-operative game only, "
                            f"not mode {checked['mode']!r}")
        if checked["mode"] == TEAMS and len(checked_players) < 2:
            raise BadConfig("the teams mode takes two teams: at least two players, one for Team Student and one for "
                            f"Team Witch; got {len(checked_players)}")
        return MagicMountainState(checked_players, checked, load_mountain(board))

    def state_from_json(self, data: Mapping[str, Any]) -> MagicMountainState:
        return MagicMountainState._from_data(data)


GAME = MagicMountainGame()
