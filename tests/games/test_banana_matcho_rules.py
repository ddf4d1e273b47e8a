"""Banana Matcho: duels, squeaks, Continue, the rotation of the dice, winning, and the rulebook's example."""
import json

import pytest

from companion.games.api import CHANCE, TERMINAL, BadConfig, IllegalAction
from companion.games.banana_matcho import GAME
from companion.games.banana_matcho.actions import DiceShowing, KeepRolling, Squeak

CO, ST, OR, BA, PI, PA = "coconut", "starfruit", "orange", "banana", "pineapple", "papaya"
NOTHING = (CO, CO, ST, ST, OR, BA)
M, B = "matcho", "blank"


def new(players=("Ada", "Ben", "Cleo"), **variants):
    return GAME.new_state(list(players), variants)


def test_setup_all_monkeys_on_the_start_and_the_first_duel():
    state = new()
    assert state.positions == [0, 0, 0]
    assert (state.fruit_roller, state.matcho_roller) == (0, 1)
    assert state.current_player() == CHANCE
    request = state.chance_request()
    assert request.kind == "duel-dice" and request.count == 9
    assert request.faces == (CO, ST, OR, BA, PI, PA, M, B)
    assert state.prompt() == "Ada rolls the fruit dice, Ben the Matcho dice: what do they show?"


def test_once_the_dice_are_seen_either_side_may_squeak_or_both_keep_rolling():
    state = new()
    state.apply(state.chance_action([CO, CO, CO, ST, ST, ST, M, B, B]))
    assert state.current_player() == 0
    assert state.legal_actions() == [Squeak("fruit"), Squeak("matcho"), KeepRolling()]
    assert state.prompt() == "Ada (fruit) against Ben (Matcho): who squeaks first?"
    assert state.describe(Squeak("fruit")) == "Ada squeaked with two-triples: climb 6"
    assert state.describe(Squeak("matcho")) == "Ben squeaked too early: Continue, one space down"
    assert state.describe(KeepRolling()) == "Nobody squeaks yet: keep rolling"
    state.apply(KeepRolling())
    assert state.current_player() == CHANCE


def test_rulebook_example_matcho_roller_squeaks_first_and_the_fruit_roller_goes_away_empty_handed():
    state = new()
    state.apply(DiceShowing((PI, PI, OR, BA, PA, ST), (M, B, B)))
    state.apply(KeepRolling())
    state.apply(DiceShowing((CO, CO, CO, PI, PI, ST)))
    state.apply(KeepRolling())
    state.apply(DiceShowing((CO, CO, CO, CO, ST, ST), (M, M, M)))
    assert state.verdict() == "both"
    assert state.describe(Squeak("fruit")) == "Ada squeaked with four-and-pair: climb 7"
    state.apply(Squeak("matcho"))
    assert state.positions == [0, 1, 0]
    assert (state.fruit_roller, state.matcho_roller) == (1, 2)


def test_rulebook_example_had_the_fruit_roller_squeaked_first_she_climbs_seven():
    state = new()
    state.apply(DiceShowing((CO, CO, CO, CO, ST, ST), (M, M, M)))
    state.apply(Squeak("fruit"))
    assert state.positions == [7, 0, 0]
    assert state.last_squeak == {"player": 0, "side": "fruit", "climbed": 7, "combination": "four-and-pair"}


def test_the_fruit_dice_pass_left_and_the_matcho_dice_to_that_players_left():
    state = new(players=("Ada", "Ben", "Cleo", "Dan"))
    roles = []
    for _ in range(5):
        roles.append((state.fruit_roller, state.matcho_roller))
        state.apply(DiceShowing(NOTHING, (M, M, M)))
        state.apply(Squeak("matcho"))
    assert roles == [(0, 1), (1, 2), (2, 3), (3, 0), (0, 1)]
    assert state.positions == [1, 2, 1, 1]  # Matcho rollers: Ben, Cleo, Dan, Ada, Ben


def test_two_players_swap_roles_every_duel():
    state = new(players=("Ada", "Ben"))
    state.apply(DiceShowing((CO,) * 6, (B, B, B)))
    state.apply(Squeak("fruit"))
    assert (state.fruit_roller, state.matcho_roller) == (1, 0)
    assert state.positions == [10, 0]


def test_a_fruit_squeak_without_a_combination_is_a_continue_one_space_down():
    state = new()
    state.positions[0] = 5
    state.apply(DiceShowing(NOTHING, (M, M, B)))
    state.apply(Squeak("fruit"))
    assert state.positions == [4, 0, 0]
    assert (state.fruit_roller, state.matcho_roller) == (0, 1)  # the duel goes on
    assert state.current_player() == CHANCE
    assert state.fruit == NOTHING  # the dice lie as they were until new ones are seen


def test_a_continue_never_goes_below_the_start_space():
    state = new()
    state.apply(DiceShowing(NOTHING, (B, B, B)))
    state.apply(Squeak("fruit"))
    assert state.positions == [0, 0, 0]


def test_a_matcho_squeak_without_three_matchos_is_a_continue_too():
    state = new()
    state.positions[1] = 3
    state.apply(DiceShowing((CO,) * 6, (M, M, B)))
    state.apply(Squeak("matcho"))
    assert state.positions == [0, 2, 0]
    assert state.last_squeak == {"player": 1, "side": "matcho", "climbed": 0, "combination": None}


def test_a_squeak_before_any_dice_were_seen_is_a_continue():
    state = new()
    state.positions[0] = 2
    assert state.verdict() == "neither"
    state.apply(Squeak("fruit"))
    assert state.positions[0] == 1


def test_dice_readings_are_taken_at_any_moment_of_a_duel():
    state = new()
    state.apply(state.chance_action([PI, PI, OR, BA, PA, ST]))
    assert state.matcho is None and state.verdict() == "neither"
    state.apply(state.chance_action([M, B, M]))  # a Matcho reading arrives while the players decide
    state.apply(state.chance_action(["Star Fruit", ST, ST, CO, CO, CO]))
    assert state.fruit == (ST, ST, ST, CO, CO, CO) and state.matcho == (M, B, M)
    assert state.verdict() == "fruit"


@pytest.mark.parametrize("values, message", [
    ([CO] * 5, r"expected 9 dice \(6 fruit, 3 Matcho\), 6 fruit dice or 3 Matcho dice; got 5"),
    ([CO] * 5 + ["kiwi"], "unknown fruit 'kiwi'"),
    ([M, M, "banana"], "unknown Matcho face 'banana'"),
    ([CO] * 6 + [M, M, CO], "unknown Matcho face 'coconut'"),
])
def test_bad_readings_are_refused_naming_the_problem(values, message):
    with pytest.raises(IllegalAction, match=message):
        new().chance_action(values)


def test_bad_actions_are_refused():
    state = new()
    with pytest.raises(IllegalAction, match="a squeak comes from side 'fruit' or 'matcho', got 'left'"):
        state.apply(Squeak("left"))
    with pytest.raises(IllegalAction, match="the dice are already rolling"):
        state.apply(KeepRolling())
    with pytest.raises(IllegalAction, match="fruit faces must be written as"):
        state.apply(DiceShowing(("Coconut",) * 6))
    with pytest.raises(IllegalAction, match="needs the fruit dice, the Matcho dice or both"):
        state.apply(DiceShowing())


def test_the_first_monkey_on_the_fruit_basket_wins():
    state = new()
    state.positions[0] = 25
    state.apply(DiceShowing((CO, ST, OR, BA, PI, PA), (B, B, B)))
    state.apply(Squeak("fruit"))
    assert state.positions == [30, 0, 0]  # 25 + 12 stops on the basket
    assert state.current_player() == TERMINAL
    assert state.winners() == [0] and state.scores() == [30, 0, 0]
    assert state.prompt() == "Ada's monkey reached the fruit basket and wins!"
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(DiceShowing(NOTHING))


def test_three_matchos_are_worth_one_space_even_to_the_top():
    state = new(players=("Ada", "Ben"))
    state.positions[1] = 29
    state.apply(DiceShowing(NOTHING, (M, M, M)))
    state.apply(Squeak("matcho"))
    assert state.winners() == [1]


def test_undo_takes_a_squeak_back():
    state = new()
    state.apply(DiceShowing((CO,) * 6, (B, B, B)))
    before = state.to_json()
    state.apply(Squeak("fruit"))
    state.undo()
    assert state.to_json() == before


def test_json_round_trip_keeps_the_duel():
    state = new(monkey_faces=2)
    state.apply(DiceShowing((CO, CO, CO, CO, ST, ST), (M, B, M)))
    copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    assert copy.legal_actions() == state.legal_actions()
    assert [copy.describe(a) for a in copy.legal_actions()] == [state.describe(a) for a in state.legal_actions()]
    assert copy.monkey_faces == 2


def test_player_count_and_variant_are_checked():
    with pytest.raises(BadConfig, match="takes 2–6 players, got 1"):
        new(players=("Ada",))
    with pytest.raises(BadConfig, match=r"variant 'monkey_faces' takes one of \[1, 2\], got 3"):
        new(monkey_faces=3)


def test_the_tree_is_data_and_a_bad_file_names_the_field(tmp_path):
    state = GAME.new_state(["Ada", "Ben"], board={"top_space": 12})
    state.apply(DiceShowing((CO, ST, OR, BA, PI, PA), (B, B, B)))
    state.apply(Squeak("fruit"))
    assert state.winners() == [0]
    file = tmp_path / "tree.json"
    file.write_text('{"top_space": "thirty"}')
    with pytest.raises(BadConfig, match=r"tree.json: field 'top_space' must be a whole number, got 'thirty'"):
        GAME.new_state(["Ada", "Ben"], board=str(file))
    with pytest.raises(BadConfig, match="field 'top_space' is missing"):
        GAME.new_state(["Ada", "Ben"], board={})


def _zone(zone, values, unsure=False):
    from companion.events import DieReading, ZoneState

    return ZoneState(t=1, zone=zone, dice=tuple(DieReading(v, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.9, unsure) for v in values))


def test_camera_zone_readings_become_dice_showings_when_they_change():
    state = new()
    action = state.event_action(_zone("fruit", [CO, CO, CO, CO, ST, ST]))
    assert action == DiceShowing(fruit=(CO, CO, CO, CO, ST, ST))
    state.apply(action)
    assert state.event_action(_zone("fruit", [CO, CO, CO, CO, ST, ST])) is None  # nothing changed
    assert state.event_action(_zone("fruit", [CO, CO, CO, CO, ST])) is None  # a die still rolling
    assert state.event_action(_zone("fruit", [CO, CO, CO, CO, ST, OR], unsure=True)) is None
    assert state.event_action(_zone("matcho", [M, B, M])) == DiceShowing(matcho=(M, B, M))


def test_a_squeak_event_is_given_to_the_only_legitimate_side_else_the_page_asks():
    from companion.events import BananaSqueaked

    state = new()
    squeak = BananaSqueaked(t=5)
    assert state.event_action(squeak) is None  # neither: ask who squeaked (a Continue)
    state.apply(DiceShowing((CO, CO, CO, ST, OR, BA), (M, B, B)))
    assert state.event_action(squeak) == Squeak("fruit")
    state.apply(DiceShowing((CO, CO, ST, ST, OR, BA), (M, M, M)))
    assert state.event_action(squeak) == Squeak("matcho")
    state.apply(DiceShowing((CO, CO, CO, ST, ST, ST)))
    assert state.verdict() == "both" and state.event_action(squeak) is None  # both: ask who was first


def test_the_duel_begins_with_the_game_and_after_each_squeak_that_climbs_not_after_a_continue():
    state = new(("Ada", "Ben"))
    assert state.duel_began() == 0
    state.apply(DiceShowing(NOTHING, (M, M, M)))
    state.apply(Squeak("matcho"))
    assert state.duel_began() == 2, "Ben's climb ended the first duel"
    state.apply(DiceShowing(NOTHING, (M, M, M)))
    state.apply(Squeak("fruit"))  # Ben, fruit roller now, with nothing: Continue
    state.apply(DiceShowing(NOTHING))
    assert state.duel_began() == 2, "a Continue goes on with the same duel"
    state.undo(), state.undo(), state.undo()
    state.undo()
    assert state.duel_began() == 0, "the climb undone: the first duel again"
