"""Inputs of the wrong type are refused with the engine's own errors, naming the problem, and change nothing.

Action JSON goes through each game's `ActionCodec`, which checks every field against its annotation and
raises BadAction; Python callers that build actions or pass observed values directly get IllegalAction from
`apply` / `chance_action`. Either way the state stays exactly as it was.
"""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.api import CHANCE, BadAction, GameError, IllegalAction
from companion.games.banana_matcho import GAME as BANANA
from companion.games.banana_matcho.actions import DiceShowing, KeepRolling, Squeak
from companion.games.magic_mountain import GAME as MAGIC
from companion.games.magic_mountain.actions import ChooseOpening, DrawBall, Hits, MoveOnMiss
from companion.games.matterhorn import GAME as MATTERHORN
from companion.games.matterhorn.actions import Eliminate, MoveClimber, PlaceToken, Roll as MRoll, SetupRoll
from companion.games.mountain_goats import GAME as GOATS, Move, Roll as GRoll
from companion.games.registry import get_game
from companion.games.simulate import play_random, random_step


def snapshot(state):
    return json.dumps(state.to_json(), sort_keys=True), [a.to_json() for a in state.history()]


def refused(state, action, error=IllegalAction, *words):
    """`action` is refused with `error` whose message holds `words`, and the state is unchanged."""
    before = snapshot(state)
    with pytest.raises(error) as caught:
        state.apply(action)
    for word in words:
        assert word in str(caught.value), str(caught.value)
    assert snapshot(state) == before
    return caught.value


def advance(state, until, seed=1, limit=2000):
    rng = random.Random(seed)
    for _ in range(limit):
        if until(state):
            return state
        random_step(state, rng)
    raise AssertionError("the state never got there")


# -- the codec: every field against its annotation ------------------------------------------------------------

BAD_JSON = [
    (MATTERHORN, {"kind": "setup_roll", "value": "5"}, "'value'", "'5'"),
    (MATTERHORN, {"kind": "setup_roll", "value": True}, "'value'", "True"),
    (MATTERHORN, {"kind": "setup_roll", "value": 5.0}, "'value'", "5.0"),
    (MATTERHORN, {"kind": "roll", "dice": ["3", "3", "3", "3", "3"]}, "'dice'", "'3'"),
    (MATTERHORN, {"kind": "roll", "dice": [1.0, 2, 3, 4, 6]}, "'dice'", "1.0"),
    (MATTERHORN, {"kind": "roll", "dice": "33333"}, "'dice'", "'33333'"),
    (MATTERHORN, {"kind": "roll", "dice": None}, "'dice'", "None"),
    (MATTERHORN, {"kind": "place_token", "circle": 3.0}, "'circle'", "3.0"),
    (MATTERHORN, {"kind": "place_token", "circle": True}, "'circle'", "True"),
    (MATTERHORN, {"kind": "move", "owner": 0, "climber": 0, "line": 11.0, "circle": 2}, "'line'", "11.0"),
    (MATTERHORN, {"kind": "eliminate", "dice": [[1]], "line": 7}, "'dice'", "[1]"),
    (GOATS, {"kind": "roll", "dice": ["3", "3", "4", "5"]}, "'dice'", "'3'"),
    (GOATS, {"kind": "move", "steps": [5.0]}, "'steps'", "5.0"),
    (GOATS, {"kind": "move", "steps": None}, "'steps'", "None"),
    (GOATS, {"kind": "move", "big": [[13, 5.0]]}, "'big'", "5.0"),
    (GOATS, {"kind": "move", "big": [[13, 5, 1]]}, "'big'", "13"),
    (GOATS, {"kind": "move", "big": [13, 5]}, "'big'", "13"),
    (MAGIC, {"kind": "hits", "figures": None}, "'figures'", "None"),
    (MAGIC, {"kind": "hits", "figures": 5}, "'figures'", "5"),
    (MAGIC, {"kind": "hits", "figures": [{}]}, "'figures'", "{}"),
    (MAGIC, {"kind": "hits", "figures": "S1"}, "'figures'", "'S1'"),
    (MAGIC, {"kind": "choose_opening", "opening": True}, "'opening'", "True"),
    (MAGIC, {"kind": "choose_opening", "opening": 1.0}, "'opening'", "1.0"),
    (MAGIC, {"kind": "draw_ball", "colour": 5}, "'colour'", "5"),
    (MAGIC, {"kind": "move_on_miss", "figure": ["W1"]}, "'figure'", "['W1']"),
    (BANANA, {"kind": "dice_showing", "fruit": 5}, "'fruit'", "5"),
    (BANANA, {"kind": "dice_showing", "matcho": 3}, "'matcho'", "3"),
    (BANANA, {"kind": "dice_showing", "fruit": ["banana"] * 5 + [1]}, "'fruit'", "1"),
    (BANANA, {"kind": "squeak", "side": 1}, "'side'", "1"),
]


@pytest.mark.parametrize("game,data,field,given", BAD_JSON, ids=[f"{g.name}:{json.dumps(d)}" for g, d, *_ in BAD_JSON])
def test_the_codec_refuses_a_field_of_the_wrong_type_naming_field_and_value(game, data, field, given):
    with pytest.raises(BadAction) as caught:
        game.action_from_json(data)
    message = str(caught.value)
    assert field in message and given in message and data["kind"] in message, message


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)
KINDS = st.sampled_from(sorted({kind for game in (MATTERHORN, GOATS, MAGIC, BANANA) for kind in game.actions.classes}))


@settings(max_examples=300, deadline=None)
@given(game=st.sampled_from([MATTERHORN, GOATS, MAGIC, BANANA]), kind=JSON | KINDS,
       fields=st.dictionaries(st.text(max_size=8) | st.sampled_from(["dice", "steps", "big", "figures", "fruit"]),
                              JSON, max_size=3))
def test_any_json_a_phone_sends_as_an_action_is_decoded_or_refused_by_name(game, kind, fields):
    """{"kind": ["move"]} reached a dict lookup and came back to the phone as "internal error: TypeError:
    unhashable type: 'list'"."""
    try:
        game.action_from_json({**fields, "kind": kind})
    except BadAction:
        pass


@pytest.mark.parametrize("name", ["matterhorn", "mountain-goats", "magic-mountain", "banana-matcho"])
def test_the_codec_still_takes_every_action_of_a_played_game(name):
    game = get_game(name)
    state = play_random(game, ["Ada", "Ben"], seed=3, variants={"big_mountain": True} if name == "mountain-goats" else None)
    for action in state.history():
        assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_the_codec_allows_none_where_the_annotation_allows_it_and_defaults_stay():
    assert BANANA.action_from_json({"kind": "dice_showing", "fruit": None, "matcho": ["blank"] * 3}) == \
        DiceShowing(None, ("blank",) * 3)
    assert GOATS.action_from_json({"kind": "move"}) == Move()
    assert MAGIC.action_from_json({"kind": "hits", "figures": []}) == Hits(())


# -- Matterhorn ---------------------------------------------------------------------------------------------

def test_matterhorn_a_setup_roll_typed_as_text_is_refused_and_changes_nothing():
    state = MATTERHORN.new_state(["Ada", "Ben"])
    state.apply(SetupRoll(4))
    for bad in ("5", 5.0, True, None, [5]):
        refused(state, SetupRoll(bad), IllegalAction, "a die shows 1–6", repr(bad))
    assert state.setup_rolls == (4,)
    state.apply(SetupRoll(2))  # the set-up goes on
    assert state.phase == "setup_place"


@pytest.mark.parametrize("dice", [("3", "3", "3", "3", "3"), (1.0, 2, 3, 4, 6), (True, 2, 3, 4, 6), ([1], 2, 3, 4, 5),
                                  (None, 2, 3, 4, 5)])
def test_matterhorn_a_roll_of_wrongly_typed_dice_is_refused_and_changes_nothing(dice):
    state = advance(MATTERHORN.new_state(["Ada", "Ben"]), lambda s: s.phase == "roll")
    refused(state, MRoll(dice), IllegalAction, "a die shows 1–6")
    assert state.roll is None
    state.apply(MRoll((1, 2, 3, 4, 6)))


def test_matterhorn_a_circle_or_line_of_the_wrong_type_is_refused_though_it_compares_equal():
    state = advance(MATTERHORN.new_state(["Ada", "Ben"]), lambda s: s.phase == "place")
    circle = state.legal_actions()[0].circle
    refused(state, PlaceToken(float(circle)), IllegalAction, "circle", repr(float(circle)))
    state = advance(MATTERHORN.new_state(["Ada", "Ben"]),
                    lambda s: s.phase in ("moves", "bonus") and any(isinstance(a, MoveClimber) for a in s.legal_actions()))
    move = next(a for a in state.legal_actions() if isinstance(a, MoveClimber))
    refused(state, MoveClimber(move.owner, move.climber, float(move.line), move.circle), IllegalAction, "line")
    state = advance(MATTERHORN.new_state(["Ada", "Ben"]), lambda s: s.phase == "choose")
    option = state.legal_actions()[0]
    refused(state, Eliminate(tuple(float(d) for d in option.dice), option.line) if option.dice
            else Eliminate((), float(option.line)), IllegalAction)


def test_matterhorn_place_token_true_is_refused_on_circle_1():
    state = advance(MATTERHORN.new_state(["Ada", "Ben"]),
                    lambda s: s.phase == "place" and PlaceToken(1) in s.legal_actions(), seed=2)
    refused(state, PlaceToken(True), IllegalAction, "circle", "True")
    refused(state, PlaceToken(1.0), IllegalAction, "circle", "1.0")
    state.apply(PlaceToken(1))
    assert state.history()[-1].to_json() == {"kind": "place_token", "circle": 1}


# -- Mountain Goats -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dice", [("3", "3", "4", "5"), (1.0, 2, 3, 4), [1, 2, 3, 4], (True, 2, 3, 4), ({}, 2, 3, 4)])
def test_mountain_goats_a_roll_of_wrongly_typed_dice_is_refused_and_changes_nothing(dice):
    state = GOATS.new_state(["Ada", "Ben"])
    refused(state, GRoll(dice), IllegalAction)
    assert state.dice is None
    state.apply(GRoll((1, 2, 3, 4)))


def test_mountain_goats_a_plan_of_floats_is_refused_though_it_compares_equal():
    state = GOATS.new_state(["Ada", "Ben"], {"big_mountain": True})
    state.apply(GRoll((1, 4, 2, 3)))
    plan = next(a for a in state.legal_actions() if a.steps)
    refused(state, Move(tuple(float(m) for m in plan.steps), plan.big), IllegalAction, "steps")
    state = advance(GOATS.new_state(["Ada", "Ben"], {"big_mountain": True}),
                    lambda s: s.current_player() != CHANCE and any(a.big for a in s.legal_actions()))
    plan = next(a for a in state.legal_actions() if a.big)
    refused(state, Move(plan.steps, tuple((s, float(m)) for s, m in plan.big)), IllegalAction, "big")


# -- Magic Mountain -----------------------------------------------------------------------------------------

def magic_in_hits():
    state = MAGIC.new_state(["Ada"])
    state.apply(DrawBall("red"))
    state.apply(ChooseOpening(3))
    return state


@pytest.mark.parametrize("figures", [None, 5, ({},), "S1", (["S1"],)])
def test_magic_mountain_malformed_hits_are_refused_not_crashed(figures):
    state = magic_in_hits()
    refused(state, Hits(figures), IllegalAction, "figures")


@pytest.mark.parametrize("opening", [True, 1.0])
def test_magic_mountain_an_opening_that_only_compares_equal_is_refused(opening):
    state = MAGIC.new_state(["Ada"])
    state.apply(DrawBall("red"))
    refused(state, ChooseOpening(opening), IllegalAction, "opening", repr(opening))
    state.apply(ChooseOpening(1))
    assert state.to_json()["opening"] == 1 and type(state.opening) is int


# -- Banana Matcho ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("action", [DiceShowing(fruit=5), DiceShowing(matcho=3), DiceShowing(fruit="banana"),
                                    DiceShowing(fruit=["banana"] * 6), DiceShowing(matcho=["blank"] * 3)])
def test_banana_matcho_a_reading_of_the_wrong_type_is_refused(action):
    state = BANANA.new_state(["Ada", "Ben"])
    refused(state, action, IllegalAction)


def test_banana_matcho_a_squeak_from_an_unhashable_side_is_refused():
    state = BANANA.new_state(["Ada", "Ben"])
    state.apply(DiceShowing(("banana",) * 6, ("blank",) * 3))
    refused(state, Squeak(["fruit"]), IllegalAction)
    state.apply(KeepRolling())


# -- chance_action from Python callers ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["matterhorn", "mountain-goats", "magic-mountain", "banana-matcho"])
@pytest.mark.parametrize("values", [None, 5, 1.5, object()])
def test_chance_action_refuses_values_that_are_not_a_list(name, values):
    state = get_game(name).new_state(["Ada", "Ben"])
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.chance_action(values)
    assert snapshot(state) == before


def test_chance_action_still_reads_dice_typed_as_digits():
    state = MATTERHORN.new_state(["Ada", "Ben"])
    assert state.chance_action(["5"]) == SetupRoll(5)
    goats = GOATS.new_state(["Ada", "Ben"])
    assert goats.chance_action(["1", 2, "3", 4]) == GRoll((1, 2, 3, 4))


@pytest.mark.parametrize("values", [[{}], [["S1"]], [None]])
def test_magic_mountain_chance_action_refuses_odd_hits(values):
    state = magic_in_hits()
    with pytest.raises(GameError):
        state.chance_action(values)
