"""`companion bench games`: legal actions of a state (target 1 ms median) and a whole random 4-player game
(target 50 ms median), for every game whose engine is present, and for the variants that change the work
(Mountain Goats with the Big Mountain)."""
from __future__ import annotations

import importlib
import random
import time

from ..bench import Benchmark, Result, summarise
from .api import CHANCE, State
from .registry import GAME_MODULES, get_game
from .simulate import play_random, player_names, random_step

GAMES_TIMED = 200
STATES_SAMPLED = 2000
VARIANTS_TIMED = {"mountain-goats": [("big-mountain", {"big_mountain": True})]}
"""Extra random-game lines: per game, (name suffix, variants)."""


def _available() -> list[str]:
    names = []
    for name, module in GAME_MODULES.items():
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def _players(name: str) -> list[str]:
    game = get_game(name)
    return player_names(max(game.min_players, min(4, game.max_players)))


def _decision_states(name: str, count: int) -> list[State]:
    """States where a player chooses, collected from seeded random games."""
    game = get_game(name)
    rng = random.Random(7)
    states: list[State] = []
    seed = 0
    while len(states) < count:
        state = game.new_state(_players(name))
        while not state.is_over() and len(states) < count:
            if state.current_player() != CHANCE:
                states.append(state.clone())
            random_step(state, rng)
        seed += 1
    return states


def _legal_actions(name: str) -> Result:
    samples = []
    for state in _decision_states(name, STATES_SAMPLED):
        start = time.perf_counter_ns()
        state.legal_actions()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return summarise(f"{name}/legal-actions", samples, 1.0, f"over {len(samples)} states from random 4-player games")


def _whole_game(name: str, label: str = "", variants: dict | None = None) -> Result:
    game = get_game(name)
    samples = []
    for seed in range(GAMES_TIMED):
        start = time.perf_counter_ns()
        play_random(game, _players(name), seed, variants)
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return summarise(f"{name}{label}/random-game", samples, 50.0,
                     f"{len(_players(name))} players, seeded random legal choices")


def benchmarks() -> list[Benchmark]:
    out = []
    for name in _available():
        out.append(Benchmark(f"{name}/legal-actions", lambda name=name: _legal_actions(name)))
        out.append(Benchmark(f"{name}/random-game", lambda name=name: _whole_game(name)))
        for suffix, variants in VARIANTS_TIMED.get(name, []):
            out.append(Benchmark(f"{name}+{suffix}/random-game",
                                 lambda name=name, suffix=suffix, variants=variants: _whole_game(name, f"+{suffix}", variants)))
    return out
