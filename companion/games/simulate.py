"""Seeded random playouts: every chance outcome drawn by `state.sample_chance(rng)`, every choice a random
legal action. For property tests, benchmarks and demo sessions; the engines themselves never roll.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Mapping

from .api import CHANCE, Action, Game, Player, State


class PlayoutTooLong(RuntimeError):
    pass


Policy = Callable[[State, random.Random], Action]


def uniform_choice(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def random_step(state: State, rng: random.Random, policy: Policy = uniform_choice) -> None:
    if state.current_player() == CHANCE:
        state.apply(state.sample_chance(rng))
    else:
        state.apply(policy(state, rng))


def play_random(game: Game, players: Iterable[Player | str], seed: int, variants: Mapping[str, Any] | None = None,
                max_actions: int = 100_000, after_each: Callable[[State], None] | None = None,
                policy: Policy = uniform_choice) -> State:
    """Play one whole game with seeded random choices (uniform unless `policy` leans them);
    `after_each(state)` runs after every action."""
    rng = random.Random(seed)
    state = game.new_state(players, variants)
    for _ in range(max_actions):
        if state.is_over():
            return state
        random_step(state, rng, policy)
        if after_each is not None:
            after_each(state)
    raise PlayoutTooLong(f"{game.name} did not end within {max_actions} actions (seed {seed})")


def player_names(count: int) -> list[str]:
    """`count` names, so that a game given too many players says how many it was given."""
    names = ["Ada", "Ben", "Cleo", "Dan", "Eva", "Finn"]
    return names[:count] + [f"Player {n}" for n in range(len(names) + 1, count + 1)]
