"""A tiny dice race implementing the game API, so the table is tested without depending on an engine.

Each turn the current player rolls two dice (a chance outcome), then moves forward by one die's value or
passes. The first to reach 12 wins.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar, Iterable, Mapping

from companion.games.api import (CHANCE, TERMINAL, Action, ActionCodec, ChanceRequest, Game, IllegalAction, Player,
                                 State, Variant)

GOAL = 12


@dataclasses.dataclass(frozen=True)
class Roll(Action):
    kind: ClassVar[str] = "roll"
    dice: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Move(Action):
    kind: ClassVar[str] = "move"
    steps: int


@dataclasses.dataclass(frozen=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"


class RaceState(State):
    game = "fake-race"

    def __init__(self, players: tuple[Player, ...]):
        super().__init__()
        self.players = players
        self.positions = [0] * len(players)
        self.turn = 0
        self.dice: tuple[int, ...] | None = None

    def current_player(self) -> int:
        if max(self.positions) >= GOAL:
            return TERMINAL
        return CHANCE if self.dice is None else self.turn

    def chance_request(self):
        if self.current_player() != CHANCE:
            return None
        return ChanceRequest("dice", 2, (1, 2, 3, 4, 5, 6), "Roll both dice")

    def chance_action(self, values):
        if self.current_player() != CHANCE:
            raise IllegalAction("not waiting for dice")
        if len(values) != 2 or any(v not in range(1, 7) for v in values):
            raise IllegalAction(f"two dice 1–6, got {values}")
        return Roll(tuple(values))

    def sample_chance(self, rng: random.Random) -> Action:
        return Roll((rng.randint(1, 6), rng.randint(1, 6)))

    def _check_chance(self, action: Action) -> None:
        self.chance_action(list(action.dice)) if isinstance(action, Roll) else (_ for _ in ()).throw(
            IllegalAction("waiting for a roll"))

    def legal_actions(self) -> list[Action]:
        if self.current_player() < 0:
            return []
        return [Move(s) for s in sorted(set(self.dice))] + [Pass()]

    def describe(self, action: Action) -> str:
        if isinstance(action, Roll):
            return f"Rolled {action.dice[0]} and {action.dice[1]}"
        if isinstance(action, Move):
            return f"Move {action.steps} forward"
        return "Pass"

    def prompt(self) -> str:
        return "Roll both dice" if self.dice is None else "Move or pass?"

    def _apply(self, action: Action) -> None:
        if isinstance(action, Roll):
            self.dice = action.dice
            return
        if isinstance(action, Move):
            self.positions[self.turn] += action.steps
        self.dice = None
        self.turn = (self.turn + 1) % len(self.players)

    def scores(self) -> list[int]:
        return list(self.positions)

    def winners(self) -> list[int]:
        return [i for i, p in enumerate(self.positions) if p >= GOAL]

    def _data(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players], "positions": self.positions, "turn": self.turn,
                "dice": list(self.dice) if self.dice else None}

    @classmethod
    def _from_data(cls, data: Mapping[str, Any]) -> "RaceState":
        state = cls(tuple(Player(**p) for p in data["players"]))
        state.positions = list(data["positions"])
        state.turn = data["turn"]
        state.dice = tuple(data["dice"]) if data["dice"] else None
        return state


class RaceGame(Game):
    name = "fake-race"
    title = "Fake Race"
    min_players = 2
    max_players = 4
    variants = (Variant("long", "play to 24"),)
    actions = ActionCodec(Roll, Move, Pass)

    def new_state(self, players: Iterable[Player | str], variants=None, board=None) -> State:
        self.check_variants(variants)
        return RaceState(self.check_players(players))

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return RaceState._from_data(data)


GAME = RaceGame()


def odds_for_state(state: RaceState) -> dict[str, Any]:
    return {"double": "1/6"}
