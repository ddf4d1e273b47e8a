"""Matterhorn rules, one behaviour at a time, with the rulebook's examples."""
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.api import CHANCE, TERMINAL, BadConfig, IllegalAction
from companion.games.matterhorn import GAME
from companion.games.matterhorn.actions import (ClimbSummit, Eliminate, EndMoves, MoveClimber, NoObstacle,
                                                PlaceClimber, PlaceObstacle, PlaceToken, ReclaimObstacle,
                                                RemoveObstacle, Roll, RollAgain, SetupRoll, Stop)
from companion.games.matterhorn.board import default_board

NAMES = ["Ada", "Ben", "Cleo", "Dan"]
CIRCLES = {5: 3, 6: 4, 7: 5, 8: 6, 9: 7, 10: 8, 11: 9, 12: 10}


def position(players=2, climbers=None, tokens=None, phase="roll", player=0, supply=None, used_lines=(),
             dice_in_play=5, roll=None, line=None, moves_left=0, variants=None):
    """A state in the middle of a game, built through the public JSON form. `tokens` maps a line to its
    row: '.' free, 'o' obstacle, 'A' action token of this turn."""
    data = GAME.new_state(NAMES[:players], variants).to_json()
    data["climbers"] = climbers or [[[12, 2 * p + 1], [12, 2 * p + 2]] for p in range(players)]
    for token_line, marks in (tokens or {}).items():
        data["tokens"][str(token_line)] = marks
    placed = sum(row.count("o") + row.count("A") for row in data["tokens"].values())
    data.update(phase=phase, player=player, supply=40 - placed if supply is None else supply)
    data["setup"] = {"rollers": [], "rolls": [], "place_order": list(range(players)), "placed": players}
    data["turn"] = {"dice_in_play": dice_in_play, "eliminated": [6] * (5 - dice_in_play),
                    "roll": None if roll is None else list(roll), "line": line, "used_lines": list(used_lines),
                    "moves_left": moves_left}
    return GAME.state_from_json(json.loads(json.dumps(data)))


def row(line, marks=""):
    """A row of `line` with the given marks at the start, free after."""
    return marks + "." * (CIRCLES[line] - len(marks))


def kinds(state):
    return {a.kind for a in state.legal_actions()}


def apply_all(state, *actions):
    for action in actions:
        state.apply(action)
    return state


# -- set-up -----------------------------------------------------------------------------------------------

def test_highest_die_places_first_then_anticlockwise_and_the_last_to_place_starts():
    state = GAME.new_state(NAMES[:4])
    assert state.current_player() == CHANCE
    assert "Ada: roll one die" in state.prompt()
    apply_all(state, SetupRoll(2), SetupRoll(3), SetupRoll(6), SetupRoll(1))
    order = []
    while state.phase == "setup_place":
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [2, 2, 1, 1, 0, 0, 3, 3]
    assert state.current_player() == CHANCE and state.player == 3  # Dan placed last, so Dan starts
    apply_all(state, Roll((1, 1, 1, 1, 1)), NoObstacle())  # a lost turn
    assert state.player == 0  # then clockwise


def test_a_tie_for_the_highest_die_rerolls_among_the_tied_only():
    state = GAME.new_state(NAMES[:3])
    apply_all(state, SetupRoll(2), SetupRoll(5), SetupRoll(5))
    assert state.phase == "setup_roll" and state.chance_request().count == 1
    assert state.prompt().startswith("Ben: roll one die again (tie)")
    state.apply(SetupRoll(3))
    assert state.prompt().startswith("Cleo: roll one die again")
    state.apply(SetupRoll(4))
    assert state.phase == "setup_place" and state.current_player() == 2


def test_when_every_player_ties_all_roll_again_and_are_told_why():
    state = apply_all(GAME.new_state(NAMES[:2]), SetupRoll(4))
    assert state.prompt().startswith("Ben: roll one die to decide")
    state.apply(SetupRoll(4))
    assert state.prompt().startswith("Ada: roll one die again (tie)")
    state.apply(SetupRoll(2))
    assert state.prompt().startswith("Ben: roll one die again (tie)")
    assert GAME.state_from_json(state.to_json()).prompt() == state.prompt(), "a restored game says it too"
    state.undo()
    assert state.prompt().startswith("Ada: roll one die again (tie)")
    state.undo()
    assert state.prompt().startswith("Ben: roll one die to decide"), "undone, the tie is gone"
    apply_all(state, SetupRoll(4), SetupRoll(5), SetupRoll(1))
    assert state.phase == "setup_place" and state.current_player() == 0


def test_both_climbers_go_on_free_circles_of_line_12():
    state = apply_all(GAME.new_state(NAMES[:2]), SetupRoll(6), SetupRoll(1))
    assert state.legal_actions() == [PlaceClimber(c) for c in range(1, 11)]
    assert state.describe(PlaceClimber(3)) == "Place a climber on line 12, circle 3"
    state.apply(PlaceClimber(3))
    assert PlaceClimber(3) not in state.legal_actions()
    with pytest.raises(IllegalAction, match="cannot be played now"):
        state.apply(PlaceClimber(3))
    state.apply(PlaceClimber(10))
    assert state.current_player() == 1 and len(state.legal_actions()) == 8
    assert state.to_json()["climbers"][0] == [[12, 3], [12, 10]]


# -- rolling and eliminating -------------------------------------------------------------------------------

def test_rulebook_example_1_doubles_do_not_count_and_eliminating_changes_the_line():
    state = apply_all(position(), Roll((5, 5, 6, 1, 1)))
    choices = {a.dice: a.line for a in state.legal_actions()}
    assert choices[()] == 6  # 5+5+6+1+1 = 6: the two 5s and the two 1s do not count
    assert choices[(5,)] == 11  # one 5 eliminated: the double 1 still doesn't count
    assert choices[(1,)] == 7
    assert choices[(1, 5)] == 12
    assert sorted(set(choices.values())) == [5, 6, 7, 11, 12]
    assert state.describe(Eliminate((), 6)) == "Keep all dice: line 6"
    assert state.describe(Eliminate((1, 5), 12)) == "Eliminate 1 and 5: line 12"


def test_rulebook_example_2_eliminating_a_6_turns_18_into_12():
    state = apply_all(position(), Roll((5, 6, 1, 2, 4)))
    choices = {a.dice: a.line for a in state.legal_actions()}
    assert () not in choices  # 18 is above 12
    assert choices[(6,)] == 12


def test_eliminated_dice_stay_out_and_unused_duplicates_are_rolled_again():
    state = apply_all(position(), Roll((5, 5, 6, 1, 1)), Eliminate((5,), 11), PlaceToken(4), RollAgain())
    assert state.chance_request().count == 4  # 5, 6 and both 1s
    assert state.chance_request().prompt == "Ada: roll 4 dice"
    with pytest.raises(IllegalAction, match="expected 4 dice, got 5"):
        state.chance_action([1, 2, 3, 4, 5])
    apply_all(state, Roll((6, 6, 6, 2)), Eliminate((6, 6), 8), PlaceToken(1), RollAgain())
    assert state.chance_request().count == 2
    assert state.to_json()["turn"]["eliminated"] == [5, 6, 6]


def test_the_token_goes_on_a_free_circle_of_the_chosen_line():
    state = apply_all(position(tokens={6: "o.o."}), Roll((5, 5, 6, 1, 1)), Eliminate((), 6))
    assert state.legal_actions() == [PlaceToken(2), PlaceToken(4)]
    assert state.describe(PlaceToken(2)) == "Place your token on line 6, circle 2"
    state.apply(PlaceToken(4))
    assert state.to_json()["tokens"]["6"] == "o.oA"
    assert state.phase == "decide" and state.prompt() == "Ada: roll again or stop?"


@settings(max_examples=150, deadline=None)
@given(roll=st.lists(st.integers(1, 6), min_size=1, max_size=5),
       used=st.sets(st.sampled_from(range(5, 13)), max_size=7))
def test_the_choices_are_every_elimination_that_reaches_an_open_line(roll, used):
    tokens = {line: row(line, "A") for line in used}
    state = position(tokens=tokens, used_lines=sorted(used), dice_in_play=len(roll))
    state.apply(Roll(tuple(roll)))
    expected = set()
    for size in range(len(roll) + 1):
        for gone in itertools.combinations(range(len(roll)), size):
            kept = [v for i, v in enumerate(roll) if i not in gone]
            result = sum(v for v in kept if kept.count(v) == 1)
            if 5 <= result <= 12 and result not in used:
                expected.add((tuple(sorted(roll[i] for i in gone)), result))
    if expected:
        assert {(a.dice, a.line) for a in state.legal_actions()} == expected
    else:
        assert state.phase == "consolation"


def test_a_player_who_can_place_must_place():
    state = apply_all(position(), Roll((5, 5, 6, 1, 1)))
    assert kinds(state) == {"eliminate"}


# -- the three reasons a token can't be placed -------------------------------------------------------------

def test_a_result_outside_5_to_12_loses_the_turn():
    state = apply_all(position(), Roll((1, 1, 1, 1, 1)))
    assert state.phase == "consolation"


def test_a_line_already_used_this_turn_loses_the_turn():
    state = apply_all(position(), Roll((6, 6, 6, 6, 6)))
    assert state.legal_actions() == [Eliminate((6, 6, 6, 6), 6)]
    apply_all(state, Eliminate((6, 6, 6, 6), 6), PlaceToken(1), RollAgain())
    assert state.chance_request().count == 1
    state.apply(Roll((6,)))
    assert state.phase == "consolation"


def test_a_full_line_loses_the_turn():
    state = apply_all(position(tokens={5: "ooo"}), Roll((5, 5, 5, 5, 5)))
    assert state.phase == "consolation"
    state = apply_all(position(tokens={5: "oo."}), Roll((5, 5, 5, 5, 5)))
    assert state.phase == "choose"


def test_a_lost_turn_turns_actions_to_obstacles_and_allows_one_consolation_obstacle_off_the_used_lines():
    state = apply_all(position(), Roll((6, 6, 6, 6, 6)), Eliminate((6, 6, 6, 6), 6), PlaceToken(2), RollAgain(),
                      Roll((6,)))
    assert state.to_json()["tokens"]["6"] == ".o.."  # turned over at once
    assert state.prompt() == "Ada: the roll can't be placed, the turn is lost; place a consolation obstacle?"
    lines = {a.line for a in state.legal_actions() if isinstance(a, PlaceObstacle)}
    assert lines == {5, 7, 8, 9, 10, 11, 12}
    assert PlaceObstacle(12, 1) not in state.legal_actions()  # a climber stands there
    assert NoObstacle() in state.legal_actions()
    supply = state.to_json()["supply"]
    state.apply(PlaceObstacle(9, 4))
    data = state.to_json()
    assert data["tokens"]["9"] == "...o..." and data["supply"] == supply - 1
    assert data["player"] == 1 and data["phase"] == "roll" and data["turn"]["used_lines"] == []


# -- bonus moves ------------------------------------------------------------------------------------------

def test_a_token_on_a_line_with_any_climber_earns_a_bonus_move_that_stays_after_a_lost_turn():
    ben_on_9 = [[[12, 1], [12, 2]], [[9, 4], [12, 4]]]
    state = apply_all(position(climbers=ben_on_9), Roll((6, 3, 2, 2, 2)))  # 6+3 = 9
    apply_all(state, Eliminate((), 9), PlaceToken(1))
    assert state.phase == "bonus" and state.current_player() == 0
    assert state.describe(EndMoves()) == "Skip the bonus move"
    move = MoveClimber(0, 0, 11, 1)
    assert state.describe(move) == "Move your climber up from line 12, circle 1 to line 11, circle 1"
    state.apply(move)
    assert state.phase == "decide"
    apply_all(state, RollAgain(), Roll((1, 1, 1, 1, 1)), NoObstacle())
    assert state.to_json()["climbers"][0][0] == [11, 1]  # the bonus move is not undone


def test_own_climber_on_the_line_earns_a_bonus_move_and_an_empty_line_does_not():
    state = apply_all(position(), Roll((6, 6, 6, 6, 6)), Eliminate((6, 6, 6, 6), 6), PlaceToken(1))
    assert state.phase == "decide"
    state = apply_all(position(), Roll((6, 4, 2, 1, 1)), Eliminate((), 12), PlaceToken(9))
    assert state.phase == "bonus"


# -- stopping and moving ----------------------------------------------------------------------------------

def spent_turn(tokens_placed, **kwargs):
    """Ada has placed `tokens_placed` action tokens (lines 5, 6, ...) and stops."""
    used = list(range(5, 5 + tokens_placed))
    tokens = {line: row(line, "A") for line in used}
    tokens.update(kwargs.pop("tokens", {}))
    state = position(tokens=tokens, used_lines=used, phase="decide", **kwargs)
    assert state.describe(Stop()) == f"Stop and move: {tokens_placed} {'move' if tokens_placed == 1 else 'moves'}"
    state.apply(Stop())
    return state


def test_one_move_per_action_token_then_the_tokens_turn_over():
    state = spent_turn(2)
    assert state.prompt() == "Ada: 2 moves left"
    state.apply(MoveClimber(0, 0, 11, 1))
    assert state.prompt() == "Ada: 1 move left"
    state.apply(MoveClimber(0, 0, 10, 1))
    data = state.to_json()
    assert data["climbers"][0][0] == [10, 1]
    assert data["tokens"]["5"] == "o.." and data["tokens"]["6"] == "o..."
    assert data["player"] == 1


def test_own_climber_moves_to_adjacent_free_circles_above_below_and_beside():
    climbers = [[[9, 4], [12, 1]], [[8, 3], [12, 10]]]
    state = spent_turn(1, climbers=climbers, tokens={9: row(9, "..o")})
    targets = {(a.line, a.circle) for a in state.legal_actions() if isinstance(a, MoveClimber) and a.owner == 0
               and a.climber == 0}
    # above: 8/3 (Ben stands there) and 8/4; beside: 9/3 (an obstacle) and 9/5; below: 10/4 and 10/5
    assert targets == {(8, 4), (9, 5), (10, 4), (10, 5)}


def test_an_opponent_moves_one_step_sideways_or_up_never_down_never_to_the_summit():
    climbers = [[[12, 1], [12, 2]], [[9, 4], [5, 2]]]
    state = spent_turn(1, climbers=climbers)
    ben = {(a.climber, a.line, a.circle) for a in state.legal_actions() if isinstance(a, MoveClimber)
           and a.owner == 1}
    assert ben == {(0, 8, 3), (0, 8, 4), (0, 9, 3), (0, 9, 5), (1, 5, 3)}  # 5/1 holds an action token
    assert state.describe(MoveClimber(1, 0, 8, 3)) == "Move Ben's climber up from line 9, circle 4 to line 8, circle 3"
    assert state.describe(MoveClimber(1, 0, 9, 5)) == ("Move Ben's climber sideways from line 9, circle 4 to "
                                                       "line 9, circle 5")


def test_removing_obstacles_and_combining_moves_freely():
    state = spent_turn(3, tokens={11: row(11, "oo")})
    assert RemoveObstacle(11, 1) in state.legal_actions()
    assert RemoveObstacle(5, 1) not in state.legal_actions()  # action side up: not an obstacle
    supply = state.to_json()["supply"]
    apply_all(state, RemoveObstacle(11, 1), MoveClimber(1, 0, 11, 3), MoveClimber(0, 0, 11, 1))
    data = state.to_json()
    assert data["supply"] == supply + 1 and data["tokens"]["11"] == "coc......"  # c: a climber
    assert data["climbers"] == [[[11, 1], [12, 2]], [[11, 3], [12, 4]]]


def test_moves_may_end_early():
    state = spent_turn(3)
    assert state.describe(EndMoves()) == "End your moves (3 unused)"
    state.apply(EndMoves())
    assert state.to_json()["player"] == 1


# -- end of the turn --------------------------------------------------------------------------------------

def test_a_full_line_is_cleared_only_at_the_end_of_the_turn():
    climbers = [[[5, 2], [12, 1]], [[12, 3], [12, 4]]]
    state = apply_all(position(climbers=climbers, tokens={5: "o.o"}), Roll((5, 5, 5, 5, 5)))
    assert state.phase == "consolation"  # 5/2 holds Ada's climber: line 5 has no free circle
    state = position(climbers=[[[6, 1], [12, 1]], [[12, 3], [12, 4]]], tokens={5: "o.o"})
    apply_all(state, Roll((5, 5, 5, 5, 5)), Eliminate((5, 5, 5, 5), 5), PlaceToken(2))
    assert state.to_json()["tokens"]["5"] == "oAo"  # full during the turn
    state.apply(Stop())
    assert state.to_json()["tokens"]["5"] == "oAo"
    supply = state.to_json()["supply"]
    state.apply(MoveClimber(0, 1, 11, 1))
    data = state.to_json()
    assert data["tokens"]["5"] == "..." and data["supply"] == supply + 3


def test_clearing_keeps_the_climbers_on_a_full_line():
    climbers = [[[5, 1], [12, 1]], [[12, 3], [12, 4]]]
    state = position(climbers=climbers, tokens={5: ".o."}, phase="consolation", supply=5)
    state.apply(PlaceObstacle(5, 3))
    data = state.to_json()
    assert data["tokens"]["5"] == "c.." and data["climbers"][0][0] == [5, 1]


# -- the summit -------------------------------------------------------------------------------------------

def test_one_action_from_line_5_to_the_summit_and_both_climbers_there_win():
    climbers = [[[5, 1], "summit"], [[12, 3], [12, 4]]]
    state = position(climbers=climbers, tokens={6: "A..."}, used_lines=[6], phase="decide")
    state.apply(Stop())
    assert state.describe(ClimbSummit(0)) == "Climb from line 5, circle 1 to the summit"
    state.apply(ClimbSummit(0))
    assert state.current_player() == TERMINAL and state.winners() == [0] and state.scores() == [2, 0]
    assert state.prompt() == "Ada has both climbers on the summit and wins!"
    assert state.to_json()["tokens"]["6"] == "o..."


def test_a_bonus_move_can_reach_the_summit_and_win_at_once():
    climbers = [[[5, 1], "summit"], [[12, 3], [12, 4]]]
    state = apply_all(position(climbers=climbers), Roll((5, 5, 5, 5, 5)), Eliminate((5, 5, 5, 5), 5),
                      PlaceToken(2))
    assert state.phase == "bonus" and ClimbSummit(0) in state.legal_actions()
    state.apply(ClimbSummit(0))
    assert state.is_over() and state.winners() == [0]


def test_two_action_summit_variant_costs_two_moves_and_no_bonus_move_reaches_it():
    climbers = [[[5, 1], [12, 1]], [[12, 3], [12, 4]]]
    variants = {"two_action_summit": True}
    state = apply_all(position(climbers=climbers, variants=variants), Roll((5, 5, 5, 5, 5)),
                      Eliminate((5, 5, 5, 5), 5), PlaceToken(2))
    assert state.phase == "bonus" and ClimbSummit(0) not in state.legal_actions()
    state.apply(EndMoves())
    state.apply(Stop())  # one token: one move, not enough
    assert ClimbSummit(0) not in state.legal_actions()
    state = position(climbers=climbers, variants=variants, tokens={6: "A...", 7: "A...."}, used_lines=[6, 7],
                     phase="decide")
    state.apply(Stop())
    assert state.describe(ClimbSummit(0)) == "Climb from line 5, circle 1 to the summit (2 moves)"
    state.apply(ClimbSummit(0))
    assert state.to_json()["climbers"][0][0] == "summit" and state.player == 1


def test_climbers_on_the_summit_stay_there():
    climbers = [["summit", [12, 1]], [[12, 3], [12, 4]]]
    state = spent_turn(1, climbers=climbers)
    assert all(not (isinstance(a, MoveClimber) and a.owner == 0 and a.climber == 0) for a in state.legal_actions())


# -- the shared supply of 40 tokens -----------------------------------------------------------------------

def test_a_token_described_before_its_line_is_chosen_names_no_line():
    assert position(phase="roll").describe(PlaceToken(3)) == "Place your token on circle 3"


def test_an_empty_supply_means_no_roll_and_a_turn_starting_empty_takes_an_obstacle_back():
    state = position(tokens={6: "A...", 9: "ooo...."}, used_lines=[6], phase="decide", supply=0)
    assert state.legal_actions() == [Stop()]
    assert state.prompt() == "Ada: the supply is empty; stop and move", "no 'roll again' that cannot be tapped"
    state.apply(Stop())
    state.apply(EndMoves())
    assert state.phase == "reclaim" and state.current_player() == 1
    assert state.prompt() == "Ben: the supply is empty; take one obstacle back before rolling"
    assert set(state.legal_actions()) == {ReclaimObstacle(6, 1), ReclaimObstacle(9, 1), ReclaimObstacle(9, 2),
                                          ReclaimObstacle(9, 3)}
    state.apply(ReclaimObstacle(9, 2))
    data = state.to_json()
    assert data["supply"] == 1 and data["tokens"]["9"] == "o.o...." and state.current_player() == CHANCE


def test_a_lost_turn_with_an_empty_supply_has_no_consolation_obstacle():
    state = apply_all(position(tokens={9: "ooo...."}, supply=1), Roll((1, 1, 1, 1, 1)))
    assert state.phase == "consolation"
    state = apply_all(position(tokens={6: "A..."}, used_lines=[6], phase="roll", supply=0, dice_in_play=4),
                      Roll((1, 1, 1, 1)))
    assert state.phase == "reclaim" and state.player == 1


# -- the board and its data file --------------------------------------------------------------------------

def test_board_adjacency_is_the_documented_pyramid():
    board = default_board()
    assert {line: board.circles_per_line[line] for line in CIRCLES} == CIRCLES

    def names(cells):
        return sorted(board.where[c] if c >= 0 else "summit" for c in cells)
    nine_four = board.cell(9, 4)
    assert names(board.up[nine_four]) == [(8, 3), (8, 4)]
    assert names(board.beside[nine_four]) == [(9, 3), (9, 5)]
    assert names(board.down[nine_four]) == [(10, 4), (10, 5)]
    assert names(board.up[board.cell(12, 1)]) == [(11, 1)]
    assert names(board.up[board.cell(12, 10)]) == [(11, 9)]
    assert names(board.up[board.cell(5, 2)]) == ["summit"]
    for cell in range(board.size):
        for other in board.up[cell]:
            if other >= 0:
                assert cell in board.down[other]
        for other in board.beside[cell]:
            assert cell in board.beside[other]


def test_a_bad_board_file_names_the_field_and_the_value(tmp_path):
    path = tmp_path / "matterhorn.json"
    path.write_text(json.dumps({"circles_per_line": {**{str(k): v for k, v in CIRCLES.items()}, "7": 0},
                                "tokens": 40}))
    with pytest.raises(BadConfig, match=r"field 'circles_per_line.7' must be between 1 and 30, got 0"):
        GAME.new_state(NAMES[:2], board=path)
    path.write_text(json.dumps({"circles_per_line": {str(k): v for k, v in CIRCLES.items()}, "tokens": "forty"}))
    with pytest.raises(BadConfig, match=r"field 'tokens' must be a whole number, got 'forty'"):
        GAME.new_state(NAMES[:2], board=path)
    with pytest.raises(BadConfig, match=r"line 12 has 6 circles, too few for the 8 climbers of 4 players"):
        GAME.new_state(NAMES, board={"circles_per_line": {**{str(k): v for k, v in CIRCLES.items()}, "12": 6},
                                     "tokens": 40})


def test_players_and_variants_are_checked():
    with pytest.raises(BadConfig, match="2–4 players, got 5"):
        GAME.new_state(NAMES + ["Eva"])
    with pytest.raises(BadConfig, match="unknown variant 'fast'"):
        GAME.new_state(NAMES[:2], {"fast": True})


# -- chance outcomes from the camera or a person -----------------------------------------------------------

def test_chance_action_turns_readings_into_a_roll_and_names_bad_readings():
    state = position()
    assert state.chance_request().to_json() == {"kind": "dice", "count": 5, "faces": [1, 2, 3, 4, 5, 6],
                                                "prompt": "Ada: roll 5 dice"}
    assert state.chance_action([5, "5", 6, 1, 1]) == Roll((5, 5, 6, 1, 1))
    with pytest.raises(IllegalAction, match="a die shows 1–6, got 7"):
        state.chance_action([5, 5, 6, 1, 7])
    with pytest.raises(IllegalAction, match="expected 5 dice, got 3"):
        state.chance_action([5, 5, 6])
    with pytest.raises(IllegalAction, match="cannot be played now. .*roll"):
        state.apply(RollAgain())
    with pytest.raises(IllegalAction, match="expected 5 dice"):
        state.apply(Roll((1, 2)))
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(Roll((1, 2, 3, 4, 0)))
    assert state.to_json() == before


def test_illegal_actions_name_the_action_and_leave_the_state_unchanged():
    state = apply_all(position(), Roll((5, 5, 6, 1, 1)))
    before = state.to_json()
    with pytest.raises(IllegalAction, match="“Eliminate 6: line 10” cannot be played now"):
        state.apply(Eliminate((6,), 10))
    assert state.to_json() == before


def test_undo_takes_back_one_action_at_a_time():
    state = position()
    snapshots = [state.to_json()]
    for action in (Roll((5, 5, 6, 1, 1)), Eliminate((5,), 11), PlaceToken(2), RollAgain()):
        state.apply(action)
        snapshots.append(state.to_json())
    for expected in reversed(snapshots[:-1]):
        state.undo()
        assert state.to_json() == expected


def test_a_malformed_state_is_refused_with_a_message_naming_the_problem():
    with pytest.raises(BadConfig, match="not a Matterhorn state: the field 'players' is missing"):
        GAME.state_from_json({"game": "matterhorn"})
    with pytest.raises(BadConfig, match="game is 'chess'"):
        GAME.state_from_json({"game": "chess"})
    data = position().to_json()
    data["tokens"]["5"] = "...."
    with pytest.raises(BadConfig, match=r"tokens of line 5 must have 3 circles, got '....'"):
        GAME.state_from_json(data)
    data = position().to_json()
    data["phase"] = "dance"
    with pytest.raises(BadConfig, match="unknown phase 'dance'"):
        GAME.state_from_json(data)
