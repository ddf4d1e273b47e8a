"""Matterhorn and Mountain Goats play exactly as they did when these fingerprints were recorded.

For seeds 0–199, every player count and every variant, a seeded random game (`play_random`) is hashed: the
whole action history as JSON, the final state's JSON, the scores and the winners. For seeds 0–19 a second
hash also takes, after every action, the legal actions in order, their descriptions and the prompt. Any
change to a legal list, its order, a text, the JSON or a result changes a hash, and the test names the
game, set-up and seed that differ.

CI checks every recorded seed; a quick local run (`COMPANION_PLAYOUTS=50`) checks the first 50 (and 20).
The expected hashes are in engine_fingerprints.json. Regenerate them only when a rule is meant to change:
`.venv/bin/python -m tests.games.test_engine_fingerprints --write`.
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from companion.games.api import State
from companion.games.registry import get_game
from companion.games.simulate import play_random, player_names

from .playouts import PLAYOUTS

SEEDS = range(200)
DETAILED_SEEDS = range(20)
EXPECTED_FILE = Path(__file__).with_name("engine_fingerprints.json")
CASES = ([("matterhorn", players, {"two_action_summit": summit}) for players in (2, 3, 4) for summit in (False, True)]
         + [("mountain-goats", players, {"big_mountain": big}) for players in (2, 3, 4, 5) for big in (False, True)])


def case_id(game: str, players: int, variants: dict) -> str:
    on = [name for name, value in variants.items() if value]
    return f"{game}/{players}p" + "".join(f"+{name}" for name in on)


def fingerprint(game_name: str, players: int, variants: dict, seed: int, detailed: bool = False) -> str:
    digest = hashlib.sha256()

    def record(state: State) -> None:
        legal = state.legal_actions()
        digest.update(repr([(a, state.describe(a)) for a in legal]).encode())
        digest.update(state.prompt().encode())

    game = get_game(game_name)
    state = play_random(game, player_names(players), seed, variants, after_each=record if detailed else None)
    final = {"history": [a.to_json() for a in state.history()], "state": state.to_json(),
             "scores": state.scores(), "winners": state.winners()}
    digest.update(json.dumps(final, sort_keys=True).encode())
    return digest.hexdigest()[:16]


def fingerprints(game: str, players: int, variants: dict) -> dict[str, list[str]]:
    return {"games": [fingerprint(game, players, variants, seed) for seed in SEEDS],
            "detailed": [fingerprint(game, players, variants, seed, detailed=True) for seed in DETAILED_SEEDS]}


def _differ(got: list[str], want: list[str]) -> list[int]:
    return [seed for seed, (a, b) in enumerate(zip(got, want)) if a != b]


@pytest.mark.parametrize("game,players,variants", CASES, ids=[case_id(*case) for case in CASES])
def test_random_games_play_exactly_as_recorded(game, players, variants):
    name = case_id(game, players, variants)
    expected = json.loads(EXPECTED_FILE.read_text())[name]
    assert len(expected["games"]) == len(SEEDS) and len(expected["detailed"]) == len(DETAILED_SEEDS)
    checked = min(PLAYOUTS, len(SEEDS))
    got = {"games": [fingerprint(game, players, variants, seed) for seed in SEEDS[:checked]],
           "detailed": [fingerprint(game, players, variants, seed, detailed=True) for seed in DETAILED_SEEDS[:checked]]}
    games, detailed = _differ(got["games"], expected["games"]), _differ(got["detailed"], expected["detailed"])
    assert not games, f"{name} plays differently from the recording for seeds {games}"
    assert not detailed, f"{name}: legal actions, texts or prompts differ from the recording for seeds {detailed}"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    table = {case_id(*case): fingerprints(*case) for case in CASES}
    EXPECTED_FILE.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {EXPECTED_FILE}")
