"""Banana Matcho: the combination table, arbitration of a squeak, and `companion explain banana-matcho`."""
import itertools
import json
from collections import Counter

import pytest

from companion.games.banana_matcho import FRUITS, arbitrate, combination
from companion.games.banana_matcho.combinations import BadFaces

CO, ST, OR, BA, PI, PA = FRUITS

TABLE = [
    ([CO, CO, CO, ST, OR, BA], "three-of-a-kind", 2),
    ([CO, CO, CO, CO, ST, OR], "four-of-a-kind", 4),
    ([CO, CO, CO, CO, CO, ST], "five-of-a-kind", 8),
    ([PA] * 6, "six-of-a-kind", 10),
    ([CO, CO, CO, CO, ST, ST], "four-and-pair", 7),
    ([CO, CO, CO, ST, ST, ST], "two-triples", 6),
    ([CO, CO, ST, ST, OR, OR], "three-pairs", 5),
    ([CO, ST, OR, BA, PI, PA], "all-different", 12),
    ([CO, CO, CO, ST, ST, OR], "three-of-a-kind", 2),
    ([CO, CO, ST, ST, OR, BA], None, 0),
    ([CO, CO, ST, OR, BA, PI], None, 0),
]


@pytest.mark.parametrize("faces, name, value", TABLE)
def test_every_combination_of_the_table(faces, name, value):
    assert combination(faces).to_json() == {"combination": name, "value": value}
    assert combination(list(reversed(faces))).value == value


def test_rulebook_example_four_coconuts_and_two_star_fruits_are_worth_seven():
    assert combination([CO, ST, CO, CO, ST, CO]).value == 7
    assert combination([CO, CO, CO, CO, ST, ST]).name == "four-and-pair"


def _independent_value(faces):
    """The best of every combination whose description fits the counts, written from the rulebook's table."""
    counts = sorted(Counter(faces).values(), reverse=True)
    fits = [0]
    if counts[0] >= 3:
        fits.append(2)
    if counts[0] >= 4:
        fits.append(4)
    if counts[0] >= 5:
        fits.append(8)
    if counts[0] == 6:
        fits.append(10)
    if counts[:2] == [4, 2]:
        fits.append(7)
    if counts[:2] == [3, 3]:
        fits.append(6)
    if counts == [2, 2, 2]:
        fits.append(5)
    if len(counts) == 6:
        fits.append(12)
    return max(fits)


def test_every_roll_of_six_fruit_dice_against_an_independent_reading():
    seen = Counter()
    for faces in itertools.product(FRUITS, repeat=6):
        value = combination(faces).value
        assert value == _independent_value(faces)
        seen[value] += 1
    assert sum(seen.values()) == 6 ** 6
    assert seen[12] == 720 and seen[10] == 6 and seen[0] == 16200 + 10800


@pytest.mark.parametrize("fruit, matcho, verdict", [
    ([CO, CO, CO, ST, ST, ST], ["matcho", "matcho", "blank"], "fruit"),
    ([CO, CO, ST, ST, OR, BA], ["matcho", "matcho", "matcho"], "matcho"),
    ([CO, CO, CO, CO, ST, ST], ["matcho", "matcho", "matcho"], "both"),
    ([CO, CO, ST, ST, OR, BA], ["blank", "matcho", "blank"], "neither"),
])
def test_arbitrate_says_who_can_have_squeaked(fruit, matcho, verdict):
    assert arbitrate(fruit, matcho) == verdict


@pytest.mark.parametrize("fruit, matcho, message", [
    ([CO] * 5, ["blank"] * 3, "expected exactly 6 fruit names, got 5"),
    ([CO] * 5 + ["kiwi"], ["blank"] * 3, "unknown fruit 'kiwi'"),
    ([CO] * 6, ["blank"] * 2, "expected exactly 3 Matcho dice, got 2"),
    ([CO] * 6, ["blank", "blank", "banana"], "unknown Matcho face 'banana'"),
])
def test_arbitrate_refuses_bad_faces(fruit, matcho, message):
    with pytest.raises(BadFaces, match=message):
        arbitrate(fruit, matcho)


def test_explain_json_is_exactly_as_specified(run_cli):
    code, out, err = run_cli("explain", "banana-matcho", "coconut", "coconut", "coconut", "starfruit", "starfruit",
                             "starfruit", "--json")
    assert (code, out, err) == (0, '{"combination": "two-triples", "value": 6}\n', "")


def test_explain_json_without_a_combination(run_cli):
    code, out, _ = run_cli("explain", "banana-matcho", "coconut", "coconut", "starfruit", "starfruit", "orange",
                           "banana", "--json")
    assert out == '{"combination": null, "value": 0}\n'


def test_explain_text(run_cli):
    _, out, _ = run_cli("explain", "banana-matcho", "coconut", "coconut", "coconut", "coconut", "starfruit", "starfruit")
    assert out == "four-and-pair: worth 7 spaces.\n"
    _, out, _ = run_cli("explain", "banana-matcho", "coconut", "coconut", "starfruit", "starfruit", "orange", "banana")
    assert out == "No combination: worth 0. A squeak now would be a Continue (one space down).\n"


@pytest.mark.parametrize("values, message", [
    (["coconut"] * 5, "expected exactly 6 fruit names, got 5"),
    (["coconut"] * 7, "expected exactly 6 fruit names, got 7"),
    ([], "expected exactly 6 fruit names, got 0"),
    (["coconut"] * 5 + ["kiwi"], "unknown fruit 'kiwi'; the fruits are coconut, starfruit, orange, banana, pineapple, papaya"),
])
def test_explain_bad_input_is_one_line_and_exit_2(run_cli, values, message):
    code, out, err = run_cli("explain", "banana-matcho", *values, "--json")
    assert code == 2 and out == ""
    assert err == f"companion explain: {message}\n"


def test_explain_refuses_big_mountain(run_cli):
    code, _, err = run_cli("explain", "banana-matcho", *["papaya"] * 6, "--big-mountain")
    assert code == 2 and err == "companion explain: --big-mountain is for Mountain Goats, not Banana Matcho\n"
