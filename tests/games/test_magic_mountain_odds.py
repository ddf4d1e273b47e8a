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


@pytest.mark.parametrize("players, variants", [(2, None), (3, {"mode": "teams"}), (4, {"mode": "teams"}),
                                               (5, {"mode": "teams"}), (6, {"mode": "teams"})])
def test_targets_match_a_walk_down_the_path_in_random_positions(players, variants):
    """Also for team games of 3+ players, whose eight figures start elsewhere: the odds follow the figures and
    the bag, never whose turn it is."""
    rng = random.Random(3)
    checked = 0
    for seed in range(40):
        state = GAME.new_state(player_names(players), variants)
        for _ in range(rng.randrange(1, 80)):
            if state.is_over():
                break
            random_step(state, rng)
        result = odds_for_state(state)
        down = state.drawn + ([state.ball] if state.ball else [])
        expected = brute_next_ball(down) if len(down) < len(COLOURS) else brute_next_ball([])
        assert {row["colour"]: Fraction(row["chance"]) for row in result["next_ball"]} == expected
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


def _cli_args_for(state):
    """The command line that describes `state`: the balls down, the ball in play and where, every figure moved."""
    start = GAME.new_state(player_names(len(state.players)), state.variants).positions
    args = ["--drawn", ",".join(state.drawn), "--ball", state.ball] + (["--teams"] if state.mode == "teams" else [])
    if state.opening is not None:
        args += ["--opening", str(state.opening)]
    moved = [f"{f}={'goal' if p == state.board.goal else p}" for f, p in state.positions.items() if p != start[f]]
    return args + (["--figures", *moved] if moved else [])


@pytest.mark.parametrize("variants", [None, {"mode": "teams"}])
def test_cli_describes_a_ball_in_play_as_the_page_shows_it(run_cli, variants):
    """Whole random games, stopped with a ball drawn (in hand) or in an opening (on its way down): the command line
    answers the page's odds for that state, and says where the ball is. A team game's eight figures start on other
    spaces (--teams)."""
    rng = random.Random(11)
    seen = Counter()
    for _ in range(12):
        state = GAME.new_state(player_names(5 if variants else 3), variants)
        while not state.is_over():
            random_step(state, rng)
            if state.phase in ("opening", "hits") and rng.random() < 0.3:
                code, out, err = run_cli("odds", "magic-mountain", *_cli_args_for(state), "--json")
                assert code == 0, err
                result = json.loads(out)
                assert result.pop("opening") == state.opening
                assert result == odds_for_state(state)
                seen[state.phase] += 1
                seen["figures moved"] += any(f.startswith("--figures") for f in _cli_args_for(state))
    assert seen["opening"] >= 10 and seen["hits"] >= 10 and seen["figures moved"] >= 10


def test_cli_text_with_a_ball_in_play(run_cli):
    code, out, _ = run_cli("odds", "magic-mountain", "--drawn", "red", "--ball", "Blue", "--opening", "3",
                           "--figures", "S1=7", "W4=goal")
    lines = out.splitlines()
    assert code == 0
    assert lines[:3] == ["The blue ball is in play (in opening 3).",
                         "The ball after this one: yellow 1/3 (33.3%), purple 1/3 (33.3%), white 1/3 (33.3%)",
                         "Where the blue ball sends the first figure it hits:"]
    assert "Student 1 on space 7: blue → 13" in lines and not any(line.startswith("Witch 4") for line in lines)
    code, out, _ = run_cli("odds", "magic-mountain", "--ball", "white")
    assert code == 0 and out.splitlines()[0] == "The white ball is in play (drawn, not yet put in)."


@pytest.mark.parametrize("args, message", [
    (["--drawn", "red", "--ball", "red"], "--ball red and --drawn red: there is one red ball, and the ball in play "
                                          "is not down yet: leave red out of --drawn"),
    (["--ball", "green"], "unknown ball colour 'green'; the balls are red, yellow, blue, purple, white"),
    (["--opening", "2"], "--opening 2 needs --ball: which ball went in?"),
    (["--ball", "blue", "--opening", "7"], "the openings are numbered 1 to 6, got 7"),
    (["--figures", "X=5"], "expected FIGURE=SPACE like S1=7 or W2=goal, the figures being S1, S2, S3, S4, S5, S6, "
                           "W1, W2, W3, W4; got 'X=5'"),
    (["--figures", "S1=31"], "a figure stands on a space 1 to 30 or on the goal, got 'S1=31'"),
    (["--figures", "S1=3", "s1=4"], "--figures gives S1 twice (S1=3, s1=4); give it once"),
    (["--figures", "S1=5"], "space 5 holds S1 and S5: a space holds one figure"),
    (["--figures", "W1=goal", "W2=goal", "W3=goal"], "3 witches on the goal tile: that game is over"),
])
def test_cli_refuses_a_ball_or_figures_that_cannot_be(run_cli, args, message):
    code, out, err = run_cli("odds", "magic-mountain", *args, "--json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"companion odds: {message}"), err
