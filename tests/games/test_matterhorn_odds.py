"""Matterhorn explain and odds: the CLI contracts, and every figure against an independent brute-force count
over all 6^n ordered rolls and every subset of dice (by position) to eliminate."""
import itertools
import json
import random
from fractions import Fraction
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.matterhorn import GAME, explain, odds_for_state, odds_queries
from companion.games.matterhorn.actions import Eliminate, PlaceToken, RemoveObstacle, Roll, RollAgain, Stop

LINES = set(range(5, 13))


def brute_results(roll):
    """(result, eliminated values) for every subset of dice positions to eliminate."""
    out = []
    for size in range(len(roll) + 1):
        for gone in itertools.combinations(range(len(roll)), size):
            kept = [v for i, v in enumerate(roll) if i not in gone]
            result = sum(v for v in kept if kept.count(v) == 1)
            out.append((result, tuple(sorted(roll[i] for i in gone))))
    return out


@lru_cache(maxsize=None)
def brute_reach(roll):
    return frozenset(result for result, _ in brute_results(roll) if result in LINES)


def brute_bust(count, blocked):
    busts = sum(1 for roll in itertools.product(range(1, 7), repeat=count) if not brute_reach(roll) - set(blocked))
    return Fraction(busts, 6 ** count)


# -- explain ----------------------------------------------------------------------------------------------

def test_explain_json_is_exactly_the_contract(run_cli):
    code, out, err = run_cli("explain", "matterhorn", "5", "5", "6", "1", "1", "--json")
    assert (code, out, err) == (0, '{"sum": 6, "reachable_lines": [5, 6, 7, 11, 12]}\n', "")


def test_explain_text_says_the_same_in_words(run_cli):
    code, out, _ = run_cli("explain", "matterhorn", "5", "6", "1", "2", "4")
    assert code == 0
    assert out == ("Sum: 18 (a value shown more than once does not count)\n"
                   "Lines reachable (eliminating any dice, or none): 5, 6, 7, 8, 9, 10, 11, 12\n")
    code, out, _ = run_cli("explain", "matterhorn", "1", "1", "1")
    assert out == ("Sum: 0 (a value shown more than once does not count)\n"
                   "Lines reachable (eliminating any dice, or none): none, this roll loses the turn\n")


@pytest.mark.parametrize("values, message", [
    ((), "Matterhorn rolls 1–5 dice, got 0"),
    (("1", "2", "3", "4", "5", "6"), "Matterhorn rolls 1–5 dice, got 6"),
    (("5", "7"), "a die shows 1–6, got 7"),
    (("5", "0"), "a die shows 1–6, got 0"),
    (("5", "five"), "a die shows a number 1–6, got 'five'"),
    (("2.5",), "a die shows a number 1–6, got '2.5'"),
])
def test_explain_bad_input_is_one_line_and_exit_2(run_cli, values, message):
    code, out, err = run_cli("explain", "matterhorn", *values)
    assert code == 2 and out == ""
    assert err == f"companion explain: {message}\n"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5))
def test_explain_matches_brute_force(roll):
    result = explain([str(v) for v in roll])
    assert result["sum"] == sum(v for v in roll if roll.count(v) == 1)
    assert result["reachable_lines"] == sorted(brute_reach(tuple(roll)))


# -- odds: the bust chance of the next roll ---------------------------------------------------------------

def test_odds_dice_json_is_the_contract_and_exact(run_cli):
    code, out, err = run_cli("odds", "matterhorn", "--dice", "4", "--blocked", "6,7,12", "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert list(result) == ["bust"]
    assert abs(result["bust"] - float(brute_bust(4, (6, 7, 12)))) < 1e-12
    code, out, _ = run_cli("odds", "matterhorn", "--dice", "4", "--blocked", "6,7,12")
    assert out == f"Chance that the next roll loses the turn: {100 * result['bust']:.2f}%\n"


@pytest.mark.parametrize("blocked", ["6,,7", "6,7,", ",6"])
def test_odds_refuse_an_empty_item_in_the_blocked_lines(run_cli, blocked):
    """A doubled or stray comma (a line number left out while typing) is said, not silently dropped."""
    code, out, err = run_cli("odds", "matterhorn", "--dice", "4", "--blocked", blocked)
    assert code != 0 and out == ""
    assert f"--blocked {blocked!r} has an empty item: write the lines as 6,7,12" in err, err


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
def test_bust_chance_matches_brute_force_for_every_dice_count(count):
    rng = random.Random(count)
    blocked_sets = [(), tuple(range(5, 13)), (5, 6, 7, 8, 9, 10, 11)]
    blocked_sets += [tuple(sorted(rng.sample(range(5, 13), rng.randint(1, 7)))) for _ in range(12)]
    from companion.games.matterhorn.odds import bust
    for blocked in blocked_sets:
        assert abs(bust(count, blocked) - float(brute_bust(count, blocked))) < 1e-12, blocked


def test_all_lines_blocked_always_busts_and_five_dice_with_none_blocked_rarely_do():
    from companion.games.matterhorn.odds import bust
    assert bust(5, tuple(range(5, 13))) == 1.0
    assert bust(5, ()) == float(brute_bust(5, ()))
    assert 0 < bust(5, ()) < 0.01


# -- odds: ranking the choices of a roll just read --------------------------------------------------------

def brute_ranking(roll, blocked):
    choices = {}
    for result, eliminated in brute_results(roll):
        if result in LINES and result not in blocked:
            left = len(roll) - len(eliminated)
            choices[(result, eliminated)] = brute_bust(left, tuple(blocked) + (result,)) if left else Fraction(1)
    return choices


@pytest.mark.parametrize("roll, blocked", [
    ((5, 5, 6, 1, 1), (6, 7, 12)),
    ((1, 2, 3, 4, 5), ()),
    ((6, 6, 5, 4, 4), (9,)),
    ((3, 3, 4), (5, 8)),
    ((3, 3, 3), (5, 8)),
    ((2, 3), ()),
])
def test_roll_ranking_matches_brute_force_best_first(run_cli, roll, blocked):
    args = ["odds", "matterhorn", "--roll", *map(str, roll), "--blocked", ",".join(map(str, blocked)), "--json"]
    code, out, err = run_cli(*args)
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["roll"] == list(roll) and result["blocked"] == sorted(blocked)
    expected = brute_ranking(roll, blocked)
    got = {(c["line"], tuple(c["eliminate"])): c for c in result["choices"]}
    assert set(got) == set(expected)
    for key, choice in got.items():
        assert abs(choice["bust_next"] - float(expected[key])) < 1e-12
        assert choice["dice_left"] == len(roll) - len(key[1])
    busts = [c["bust_next"] for c in result["choices"]]
    assert busts == sorted(busts)
    assert result["loses_turn"] is (not expected)


def test_roll_ranking_text_and_a_roll_that_loses_the_turn(run_cli):
    code, out, _ = run_cli("odds", "matterhorn", "--roll", "5", "5", "6", "1", "1", "--blocked", "6,7,12")
    assert out.splitlines()[:3] == [
        "Roll 5 5 6 1 1, lines blocked: 6, 7, 12",
        "Choices, best first (chance that the next roll then loses the turn):",
        f"  line 11: eliminate 5; 4 dice left, next roll loses {100 * float(brute_bust(4, (6, 7, 11, 12))):.2f}%",
    ]
    code, out, _ = run_cli("odds", "matterhorn", "--roll", "1", "1", "1", "--json")
    assert json.loads(out) == {"roll": [1, 1, 1], "blocked": [], "loses_turn": True, "choices": []}


@pytest.mark.parametrize("args, message", [
    (["--dice", "6"], "--dice takes a number of dice 1–5, got '6'"),
    (["--dice", "two"], "--dice takes a number of dice 1–5, got 'two'"),
    (["--dice", "3", "--blocked", "4,7"], "lines are numbered 5–12, got '4'"),
    (["--dice", "3", "--blocked", "6;7"], "lines are numbered 5–12, got '6;7'"),
    ([], "give --dice N (the next roll) or --roll VALUES (a roll just read)"),
    (["--roll", "1", "9"], "a die shows 1–6, got 9"),
    (["--roll", "1", "2", "--dice", "3"], "--dice 3 does not match the 2 dice of --roll"),
])
def test_odds_bad_input_is_one_line_and_exit_2(run_cli, args, message):
    code, out, err = run_cli("odds", "matterhorn", *args)
    assert code == 2 and out == ""
    assert err == f"companion odds: {message}\n"


def test_odds_unknown_option_is_one_line_and_exit_2(run_cli):
    code, out, err = run_cli("odds", "matterhorn", "--dice", "3", "--lines", "5")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "--lines" in err


# -- the live page ----------------------------------------------------------------------------------------

def test_odds_for_state_follow_the_turn():
    state = GAME.new_state(["Ada", "Ben"])
    assert odds_for_state(state) == {}  # set-up
    rng = random.Random(3)
    while state.phase != "roll":
        state.apply(state.sample_chance(rng) if state.current_player() < 0 else state.legal_actions()[0])
    assert odds_for_state(state) == {"player": state.player, "dice": 5, "blocked": [],
                                     "bust": float(brute_bust(5, ()))}
    state.apply(Roll((5, 5, 6, 1, 1)))
    shown = odds_for_state(state)
    assert shown["dice"] == 5 and shown["blocked"] == []
    assert [(c["line"], tuple(c["eliminate"])) for c in shown["choices"]][0] in brute_ranking((5, 5, 6, 1, 1), ())
    state.apply(Eliminate((5,), 11))
    state.apply(PlaceToken(1))
    state.apply(RollAgain())
    assert odds_for_state(state) == {"player": state.player, "dice": 4, "blocked": [11],
                                     "bust": float(brute_bust(4, (11,)))}


def test_odds_queries_run_and_answer():
    """The queries the benchmark times answer what the brute force counts."""
    answers = {name: query() for name, query in odds_queries()}
    assert answers["bust-5-dice-none-blocked"] == pytest.approx(float(brute_bust(5, ())), abs=1e-12)
    assert answers["bust-5-dice-7-blocked"] == pytest.approx(float(brute_bust(5, (5, 6, 7, 8, 9, 10, 11))), abs=1e-12)
    for name, roll, blocked in [("rank-roll-1-2-3-4-5", (1, 2, 3, 4, 5), ()),
                                ("rank-roll-6-5-4-3-2-3-blocked", (6, 5, 4, 3, 2), (6, 9, 12)),
                                ("cli-roll", (6, 5, 4, 2, 1), (7, 8))]:
        expected = brute_ranking(roll, blocked)
        got = {(c["line"], tuple(c["eliminate"])): c["bust_next"] for c in answers[name]["choices"]}
        assert expected and set(got) == set(expected), name
        assert all(abs(got[key] - float(expected[key])) < 1e-12 for key in got), name


def test_the_last_token_in_the_supply_shows_no_chance_for_a_roll_that_cannot_happen():
    """With one token left, whatever the choice, placing it empties the supply: the player can only stop."""
    data = GAME.new_state(["Ada", "Ben"]).to_json()
    data["tokens"]["9"] = "ooo...."
    data.update(phase="roll", player=0, supply=1)
    data["setup"] = {"rollers": [], "rolls": [], "place_order": [0, 1], "placed": 2}
    state = GAME.state_from_json(json.loads(json.dumps(data)))
    state.apply(Roll((5, 5, 6, 1, 1)))
    shown = odds_for_state(state)
    assert shown["choices"] and all(c["bust_next"] is None for c in shown["choices"])
    assert (shown["choices"][0]["line"], shown["choices"][0]["eliminate"]) == (6, []), "keep all dice ranks first"
    first = shown["choices"][0]
    state.apply(Eliminate(tuple(first["eliminate"]), first["line"]))
    state.apply(PlaceToken(1))
    assert state.legal_actions() == [Stop()], "no roll follows the last token"
    assert odds_for_state(state)["bust"] is None

    data["supply"] = 2
    state = GAME.state_from_json(json.loads(json.dumps(data)))
    state.apply(Roll((5, 5, 6, 1, 1)))
    assert all(isinstance(c["bust_next"], float) for c in odds_for_state(state)["choices"])


def test_the_last_token_on_a_climbers_line_keeps_its_chance_a_bonus_move_can_refill_the_supply():
    """A token on a line with a climber earns a bonus move, which may take an obstacle back into the supply:
    then the player can roll again, so that choice keeps the chance of its next roll."""
    data = GAME.new_state(["Ada", "Ben"]).to_json()
    data["climbers"] = [[[12, 1], [12, 2]], [[12, 3], [12, 4]]]
    data["tokens"]["9"] = "ooo...."
    data.update(phase="roll", player=0, supply=1)
    data["setup"] = {"rollers": [], "rolls": [], "place_order": [0, 1], "placed": 2}
    state = GAME.state_from_json(json.loads(json.dumps(data)))
    state.apply(Roll((5, 5, 6, 1, 1)))
    shown = {(c["line"], tuple(c["eliminate"])): c["bust_next"] for c in odds_for_state(state)["choices"]}
    expected = brute_ranking((5, 5, 6, 1, 1), ())
    assert {key for key, chance in shown.items() if chance is not None} == {k for k in expected if k[0] == 12}
    assert all(abs(shown[k] - float(expected[k])) < 1e-12 for k in expected if k[0] == 12)
    state.apply(Eliminate((1, 5), 12))
    state.apply(PlaceToken(5))
    state.apply(RemoveObstacle(9, 1))
    assert state.to_json()["supply"] == 1 and RollAgain() in state.legal_actions()
