"""Magic Mountain's odds against an independent brute force, and `companion odds magic-mountain`."""
import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from companion.games.magic_mountain import GAME, odds_for_state
from companion.games.simulate import player_names, random_step

COLOURS = ["red", "yellow", "blue", "purple", "white"]


def brute_next_ball(drawn):
    """Every order in which the five balls can leave the bag, kept if it starts with `drawn`."""
    orders = [o for o in itertools.permutations(COLOURS) if list(o[: len(drawn)]) == drawn]
    counts = Counter(o[len(drawn)] for o in orders)
    return {c: Fraction(n, len(orders)) for c, n in counts.items()}


def brute_target(positions, figure, colour, path):
    """Walk down the path from the figure, one space at a time."""
    others = {p for f, p in positions.items() if f != figure}
    space = positions[figure] + 1
    while space <= len(path):
        if path[space - 1] == colour and space not in others:
            return space
        space += 1
    return "goal"


@pytest.mark.parametrize("drawn", [[], ["red"], ["white", "blue"], ["purple", "red", "yellow"], ["red", "blue", "white", "yellow"]])
def test_next_ball_matches_every_order_of_the_bag(run_cli, drawn):
    code, out, err = run_cli("odds", "magic-mountain", "--drawn", ",".join(drawn), "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    expected = brute_next_ball(drawn)
    got = {row["colour"]: Fraction(row["chance"]) for row in result["next_ball"]}
    assert got == expected
    assert result["bag"] == [c for c in COLOURS if c not in drawn]
    assert sum(got.values()) == 1


def test_targets_match_a_walk_down_the_path_in_random_positions():
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        state = GAME.new_state(player_names(2))
        for _ in range(rng.randrange(1, 80)):
            if state.is_over():
                break
            random_step(state, rng)
        result = odds_for_state(state)
        path = state.board.path
        for row in result["figures"]:
            for colour in COLOURS:
                assert row["targets"][colour] == brute_target(state.positions, row["figure"], colour, path)
                checked += 1
        on_path = {f for f, p in state.positions.items() if p != 31}
        assert {row["figure"] for row in result["figures"]} == on_path
    assert checked > 1000


def test_odds_for_state_with_a_ball_in_play_give_the_next_draw_after_it():
    state = GAME.new_state(["Ada"])
    state.apply(state.chance_action(["blue"]))
    result = odds_for_state(state)
    assert result["ball"] == "blue"
    assert [row["colour"] for row in result["next_ball"]] == ["red", "yellow", "purple", "white"]
    assert all(row["chance"] == "1/4" for row in result["next_ball"])


def test_cli_json_shape_from_the_start(run_cli):
    code, out, _ = run_cli("odds", "magic-mountain", "--drawn", "red,blue", "--json")
    result = json.loads(out)
    assert result["ball"] is None
    assert result["next_ball"][0] == {"colour": "yellow", "chance": "1/3", "probability": 0.333333}
    assert result["figures"][0] == {"figure": "S1", "name": "Student 1", "space": 1,
                                    "targets": {"red": 16, "yellow": 7, "blue": 13, "purple": 9, "white": 10}}


def test_cli_text(run_cli):
    code, out, _ = run_cli("odds", "magic-mountain", "--drawn", "red,blue,white,purple")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Next ball: yellow 1/1 (100.0%)"
    assert lines[-1] == "Witch 4 on space 17: red → 21, yellow → 22, blue → 18, purple → 19, white → 20"


@pytest.mark.parametrize("drawn, message", [
    ("green", "unknown ball colour 'green'; the balls are red, yellow, blue, purple, white"),
    ("red,red", "a ball can be drawn only once per bagful, got red, red"),
    ("red,blue,white,purple,yellow", "at most 4 balls can be down before the bag is refilled, got 5"),
])
def test_cli_bad_input_is_one_line_and_exit_2(run_cli, drawn, message):
    code, out, err = run_cli("odds", "magic-mountain", "--drawn", drawn, "--json")
    assert code == 2 and out == ""
    assert err == f"companion odds: {message}\n"


def test_explain_is_not_offered_for_magic_mountain(run_cli):
    code, _, err = run_cli("explain", "magic-mountain", "red")
    assert code == 2 and err == "companion explain: explain is not available for magic-mountain\n"
