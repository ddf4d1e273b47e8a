"""Banana Matcho's exact odds against independent brute-force counts, and `companion odds banana-matcho`."""
import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.banana_matcho import FRUITS, GAME, combination, odds_for_state
from companion.games.banana_matcho.actions import DiceShowing
from companion.games.banana_matcho.odds import improve_chance

CO, ST, OR, BA, PI, PA = FRUITS


def brute_matcho(matchos, throws, monkey_faces):
    """Every sequence of faces the re-rolled dice can show, die by die and throw by throw (faces 0–5, the
    first `monkey_faces` of them monkeys), each sequence weighted by its chance; a die showing a monkey is
    kept and no longer rolled."""

    def walk(blanks, throws_left):
        if blanks == 0:
            return Fraction(1)
        if throws_left == 0:
            return Fraction(0)
        rolls = list(itertools.product(range(6), repeat=blanks))
        return sum(walk(sum(1 for f in faces if f >= monkey_faces), throws_left - 1) for faces in rolls) / len(rolls)

    return walk(3 - matchos, throws)


@pytest.mark.parametrize("matchos, throws, monkey_faces", [
    (0, 1, 1), (0, 2, 1), (0, 2, 2), (1, 3, 1), (1, 3, 2), (2, 4, 1), (2, 1, 2), (3, 2, 1), (2, 5, 2),
])
def test_matcho_odds_match_every_sequence_of_throws(run_cli, matchos, throws, monkey_faces):
    code, out, err = run_cli("odds", "banana-matcho", "--matchos", str(matchos), "--throws", str(throws),
                             "--monkey-faces", str(monkey_faces), "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert Fraction(result["chance"]) == brute_matcho(matchos, throws, monkey_faces)
    assert [Fraction(row["chance"]) for row in result["by_throw"]] == [
        brute_matcho(matchos, k, monkey_faces) for k in range(1, throws + 1)]


@pytest.mark.parametrize("matchos, monkey_faces", [(0, 1), (1, 2), (2, 1)])
def test_matcho_odds_over_many_throws_match_independent_dice(run_cli, matchos, monkey_faces):
    """Each blank die independently turns within n throws with chance 1 - (1 - p)**n."""
    code, out, err = run_cli("odds", "banana-matcho", "--matchos", str(matchos), "--throws", "12",
                             "--monkey-faces", str(monkey_faces), "--json")
    assert code == 0, err
    p = Fraction(monkey_faces, 6)
    by_throw = json.loads(out)["by_throw"]
    assert [row["throws"] for row in by_throw] == list(range(1, 13))
    for row in by_throw:
        assert Fraction(row["chance"]) == (1 - (1 - p) ** row["throws"]) ** (3 - matchos)


def test_matcho_odds_exact_json(run_cli):
    _, out, _ = run_cli("odds", "banana-matcho", "--matchos", "1", "--throws", "3", "--json")
    assert json.loads(out) == {
        "matchos": 1, "throws": 3, "monkey_faces": 1, "chance": "8281/46656", "probability": 0.177491,
        "by_throw": [{"throws": 1, "chance": "1/36", "probability": 0.027778},
                     {"throws": 2, "chance": "121/1296", "probability": 0.093364},
                     {"throws": 3, "chance": "8281/46656", "probability": 0.177491}]}


def brute_fruit(faces, keep):
    """Every re-roll of the dice not kept, face by face."""
    current = combination(faces).value
    rerolled = [i for i in range(6) if i not in keep]
    values = Counter()
    for new in itertools.product(FRUITS, repeat=len(rerolled)):
        roll = list(faces)
        for index, face in zip(rerolled, new):
            roll[index] = face
        values[combination(roll).value] += 1
    total = 6 ** len(rerolled)
    better = Fraction(sum(n for v, n in values.items() if v > current), total)
    return better, {v: Fraction(n, total) for v, n in values.items()}


@pytest.mark.parametrize("faces, keep", [
    ([CO, CO, CO, ST, OR, BA], [0, 1, 2]),
    ([CO, CO, ST, ST, OR, BA], [0, 1, 2, 3]),
    ([CO, ST, OR, BA, PI, PI], [0, 1, 2, 3, 4]),
    ([CO, CO, CO, CO, ST, OR], [0, 1, 2, 3]),
    ([CO, CO, ST, OR, BA, PA], []),
    ([PA] * 6, [0, 1, 2, 3, 4, 5]),
    ([CO, CO, CO, ST, ST, ST], [5, 1]),
])
def test_fruit_odds_match_every_re_roll(run_cli, faces, keep):
    code, out, err = run_cli("odds", "banana-matcho", "--fruit", *faces, "--keep", ",".join(map(str, keep)), "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    better, values = brute_fruit(faces, keep)
    assert Fraction(result["improve"]["chance"]) == better
    assert {row["value"]: Fraction(row["chance"]) for row in result["outcomes"]} == values
    assert result["rerolled"] == 6 - len(keep) and result["keep"] == sorted(keep)


def test_fruit_odds_exact_json(run_cli):
    _, out, _ = run_cli("odds", "banana-matcho", "--fruit", CO, CO, CO, ST, OR, BA, "--keep", "0,1,2", "--json")
    result = json.loads(out)
    assert result["current"] == {"combination": "three-of-a-kind", "value": 2}
    assert result["improve"] == {"chance": "4/9", "probability": 0.444444}
    assert result["outcomes"][0] == {"combination": "six-of-a-kind", "value": 10, "chance": "1/216", "probability": 0.00463}


def test_fruit_odds_text(run_cli):
    _, out, _ = run_cli("odds", "banana-matcho", "--fruit", CO, CO, CO, ST, OR, BA, "--keep", "0,1,2")
    assert out.splitlines()[0] == "Now: three-of-a-kind (2). Re-rolling 3 dice improves it with chance 4/9 (44.44%)."
    assert out.splitlines()[1] == "  six-of-a-kind (10): 1/216 (0.46%)"


def test_matcho_odds_text(run_cli):
    _, out, _ = run_cli("odds", "banana-matcho", "--matchos", "2", "--throws", "2", "--monkey-faces", "2")
    assert out == ("From 2 Matcho(s), 2 monkey face(s) per die:\n"
                   "  three Matchos within 1 throw(s): 1/3 (33.33%)\n"
                   "  three Matchos within 2 throw(s): 5/9 (55.56%)\n")


@pytest.mark.parametrize("args, message", [
    ([], "give either --matchos N (the Matcho roller) or --fruit with six fruits (the fruit roller)"),
    (["--matchos", "1", "--fruit", *[CO] * 6], "give either --matchos N"),
    (["--matchos", "4"], "Matchos showing must be 0–3, got 4"),
    (["--matchos", "1", "--throws", "0"], "throws must be 1–100, got 0"),
    (["--fruit", CO, CO], "expected exactly 6 fruit names, got 2"),
    (["--fruit", *[CO] * 5, "kiwi"], "unknown fruit 'kiwi'"),
    (["--fruit", *[CO] * 6, "--keep", "0,6"], "--keep takes dice indices 0–5, got 6"),
    (["--fruit", *[CO] * 6, "--keep", "1,1"], "--keep names a die twice: [1, 1]"),
    (["--fruit", *[CO] * 6, "--keep", "a,b"], "--keep takes dice indices like 0,1,2, got 'a,b'"),
    (["--matchos", "1", "--keep", "0,1"], "--keep is for the fruit dice: give it with --fruit"),
    (["--fruit", *[CO] * 6, "--throws", "3"], "--throws is for the Matcho dice: give it with --matchos"),
])
def test_bad_odds_input_is_one_line_and_exit_2(run_cli, args, message):
    code, out, err = run_cli("odds", "banana-matcho", *args, "--json")
    assert code == 2 and out == ""
    assert err.startswith(f"companion odds: {message}") and err.count("\n") == 1


def test_bad_monkey_faces_is_refused_by_the_parser(run_cli):
    code, _, err = run_cli("odds", "banana-matcho", "--matchos", "1", "--monkey-faces", "3")
    assert code == 2 and err.count("\n") == 1 and "--monkey-faces" in err


def test_odds_for_state_give_both_rollers_their_chances():
    state = GAME.new_state(["Ada", "Ben", "Cleo"], {"monkey_faces": 2})
    state.apply(DiceShowing((CO, CO, CO, ST, OR, BA), ("matcho", "blank", "blank")))
    result = odds_for_state(state)
    assert (result["fruit_roller"], result["matcho_roller"], result["verdict"]) == (0, 1, "fruit")
    assert result["fruit"]["current"] == {"combination": "three-of-a-kind", "value": 2}
    assert [row["chance"] for row in result["matcho"]["by_throw"]] == ["1/9", "25/81", "361/729"]
    keep = result["fruit"]["best_keep"]
    best = Fraction(result["fruit"]["improve"]["chance"])
    # the best keep is the best of every subset of dice, counted by brute force
    faces = state.fruit
    every = [brute_fruit(faces, list(subset))[0] for r in range(7) for subset in itertools.combinations(range(6), r)]
    assert best == max(every) and brute_fruit(faces, keep)[0] == best


def test_odds_for_state_before_the_fruit_dice_are_seen():
    state = GAME.new_state(["Ada", "Ben"])
    result = odds_for_state(state)
    assert result["fruit"] is None and result["verdict"] == "neither"
    assert result["matcho"]["by_throw"][0]["chance"] == "1/216"


@settings(max_examples=40, deadline=None)
@given(faces=st.lists(st.sampled_from(FRUITS), min_size=6, max_size=6),
       keep=st.sets(st.integers(0, 5), min_size=2))
def test_fruit_odds_of_any_roll_and_keep_match_the_brute_force(faces, keep):
    better, values = brute_fruit(faces, sorted(keep))
    current, chance, outcomes = improve_chance(faces, sorted(keep))
    assert chance == better and dict(outcomes) == values and current == combination(faces)


def test_matcho_odds_text_never_says_100_percent_for_a_chance_short_of_sure(run_cli):
    code, out, _ = run_cli("odds", "banana-matcho", "--matchos", "0", "--throws", "70")
    assert code == 0
    lines = out.splitlines()
    assert "100.00%" not in out
    assert lines[-1].endswith(": more than 99.99%")
    _, sure, _ = run_cli("odds", "banana-matcho", "--matchos", "3")
    assert sure.splitlines()[-1].endswith("1/1 (100.00%)")


def test_matcho_odds_json_never_rounds_a_chance_short_of_sure_to_1(run_cli):
    code, out, _ = run_cli("odds", "banana-matcho", "--matchos", "0", "--throws", "100", "--monkey-faces", "2",
                           "--json")
    result = json.loads(out)
    assert code == 0 and Fraction(result["chance"]) < 1
    assert all(row["probability"] < 1 for row in result["by_throw"])
    assert result["probability"] < 1 and result["probability"] > 0.999999
