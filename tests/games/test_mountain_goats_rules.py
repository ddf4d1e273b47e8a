"""Mountain Goats rules, one rulebook sentence (or one documented reading) per test."""
import json

import pytest

from companion.games.api import CHANCE, TERMINAL, BadConfig, IllegalAction
from companion.games.mountain_goats import GAME, Move, Roll, explain
from companion.games.mountain_goats.state import ON_BIG



def new(players=2, big_mountain=False):
    return GAME.new_state(["Ada", "Ben", "Cleo", "Dan", "Eva"][:players], {"big_mountain": big_mountain})


def goat(state, player, mountain):
    return state.pos[player][mountain - 5]


def put(state, player, mountain, position):
    state.pos[player][mountain - 5] = position


def play(state, dice, steps=(), big=()):
    state.apply(Roll(tuple(dice)))
    state.apply(Move(tuple(steps), tuple(big)))


def plans(state, dice):
    state.apply(Roll(tuple(dice)))
    return {(a.steps, a.big) for a in state.legal_actions()}


def test_token_stacks_depend_on_the_player_count():
    assert new(4).tokens_left == [12, 11, 10, 9, 8, 7]
    assert new(5).tokens_left == [12, 11, 10, 9, 8, 7]
    assert new(3).tokens_left == [11, 10, 9, 8, 7, 6]
    assert new(2).tokens_left == [10, 9, 8, 7, 6, 5]
    assert new(2).bonus_left == [15, 12, 9, 6]


def test_a_turn_starts_with_four_dice():
    state = new()
    assert state.current_player() == CHANCE
    assert state.chance_request().count == 4 and state.chance_request().faces == (1, 2, 3, 4, 5, 6)
    assert state.chance_action(["6", 5, 4, 3]) == Roll((6, 5, 4, 3))
    with pytest.raises(IllegalAction, match="rolls 4 dice, got 5"):
        state.chance_action([1, 2, 3, 4, 5])
    with pytest.raises(IllegalAction, match="from 1 to 6, got 7"):
        state.chance_action([1, 2, 3, 7])
    with pytest.raises(IllegalAction, match="from 1 to 6"):
        state.apply(Roll((0, 2, 3, 4)))


def test_extra_ones_may_change_but_one_one_stays():
    # 1 6 6 6: a single 1 cannot change, so three 6-groups is the most
    assert [6, 6, 6] in explain(["1", "6", "6", "6"])["moves"]
    assert [5, 6, 6, 6] not in explain(["1", "6", "6", "6"])["moves"]
    # 1 1 6 6: the extra 1 becomes a 6 (or a 5) while the other 1 stays
    moves = explain(["1", "1", "6", "6"])["moves"]
    assert [6, 6, 6] in moves and [5, 6, 6] in moves
    # 1 1 1 1: one die always stays a 1, so no roll of four 1s makes four groups
    assert all(len(m) <= 3 for m in explain(["1", "1", "1", "1"])["moves"])
    assert [5, 6, 6] in explain(["1", "1", "1", "1"])["moves"]


def test_groups_outside_5_to_10_do_not_move():
    state = new()
    assert plans(state, (6, 6, 6, 6)) >= {((), ()), ((6,), ()), ((6, 6, 6, 6), ())}
    state.apply(Move((), ()))
    assert state.pos[0] == [0] * 6 and state.current == 1


def test_a_group_must_move_its_goat():
    # 1 2 2 5: every split has a group of 5 to 10, so passing is not offered
    state = new()
    options = plans(state, (1, 2, 2, 5))
    assert ((), ()) not in options and ((5, 5), ()) in options and ((10,), ()) in options
    with pytest.raises(IllegalAction, match="“No move: pass” cannot be played now"):
        state.apply(Move((), ()))


def test_two_groups_of_one_sum_move_twice_and_goats_share_spaces():
    state = new()
    play(state, (2, 3, 1, 4), steps=(5, 5))
    assert goat(state, 0, 5) == 2
    play(state, (5, 5, 1, 1), steps=(5, 5))
    assert goat(state, 1, 5) == 2 and goat(state, 0, 5) == 2


def test_reaching_the_summit_takes_a_token_and_sends_the_other_goat_home():
    state = new()
    put(state, 1, 10, 2)  # Ben stands on the summit of 10
    put(state, 0, 10, 1)
    play(state, (4, 6, 1, 2), steps=(10,))
    assert goat(state, 0, 10) == 2 and goat(state, 1, 10) == 0
    assert state.held[0][5] == 1 and state.tokens_left[5] == 4 and state.scores() == [10, 0]


def test_a_goat_on_its_summit_takes_a_token_instead_of_moving():
    state = new()
    put(state, 0, 9, 2)
    play(state, (4, 5, 3, 6), steps=(9, 9))
    assert goat(state, 0, 9) == 2 and state.held[0][4] == 2 and state.scores()[0] == 18


def test_no_token_is_taken_when_the_stack_is_empty_and_such_moves_are_one_plan():
    state = new()
    put(state, 0, 9, 2)
    state.tokens_left[4] = 0
    options = plans(state, (4, 5, 1, 2))
    assert ((9,), ()) not in options  # moving the goat on 9 changes nothing: the same effect as passing
    state.apply(Move((), ()))
    assert state.held[0][4] == 0


def test_every_complete_set_takes_the_highest_bonus_left():
    state = new()
    state.held[0] = [1, 1, 1, 1, 1, 0]
    state.held[1] = [2, 2, 2, 2, 2, 1]
    state.bonus_held[1] = [15]
    state.bonus_left = [12, 9, 6]
    put(state, 0, 10, 1)
    play(state, (5, 5, 1, 2), steps=(10,))
    assert state.bonus_held[0] == [12] and state.bonus_left == [9, 6]
    put(state, 1, 10, 1)
    play(state, (5, 5, 1, 2), steps=(10,))  # Ben completes his second set: a bonus again
    assert state.bonus_held[1] == [15, 9] and state.bonus_left == [6]


def test_the_round_is_finished_after_three_mountains_run_out():
    state = new(3)
    state.tokens_left[:3] = [0, 0, 1]
    state.current = 1
    put(state, 1, 7, 2)
    play(state, (3, 4, 1, 1), steps=(7,))  # Ben takes the last 7: three mountains are empty
    assert state.end_reached() and state.current_player() == CHANCE and state.current == 2
    play(state, (2, 2, 2, 2))
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply(Roll((1, 2, 3, 4)))


def test_the_page_says_when_the_last_round_is_on_and_whose_turn_ends_the_game():
    """Rulebook: "When the bonus tokens run out, or the ordinary point tokens of THREE summits run out, the
    current round is played to its end and the game ends." Ada takes the last 7 token in a 3-player game: the
    page tells Ben and Cleo that this is the last round and that the game ends after Cleo's turn."""
    state = new(3)
    state.tokens_left[:3] = [0, 0, 1]
    put(state, 0, 7, 2)
    assert state.prompt() == "Ada: roll the four dice"
    state.apply(Roll((3, 4, 1, 1)))
    assert state.prompt() == "Ada: choose how to group 3, 4, 1, 1"
    state.apply(Move((7,)))
    assert state.prompt() == "Ben: roll the four dice (last round: the game ends after Cleo's turn)"
    state.apply(Roll((2, 2, 2, 2)))
    assert state.prompt() == "Ben: choose how to group 2, 2, 2, 2 (last round: the game ends after Cleo's turn)"
    state.apply(Move())
    assert state.chance_request().prompt == "Cleo: roll the four dice (last round: the game ends after this turn)"
    play(state, (2, 2, 2, 2))
    assert state.is_over() and state.prompt().startswith("Game over")


def test_the_game_ends_when_the_bonus_tokens_run_out():
    state = new(2)
    state.bonus_left = []
    play(state, (2, 2, 2, 2))
    assert not state.is_over()
    play(state, (2, 2, 2, 2))
    assert state.is_over()


def finished(state, held, summits):
    state.over = True
    for player, row in enumerate(held):
        state.held[player] = row
    for player, mountain in summits:
        put(state, player, mountain, state.summits[mountain - 5])
    return state


def test_most_points_wins():
    state = finished(new(), [[1, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], [])
    assert state.scores() == [5, 6] and state.winners() == [1]
    assert "Ben wins" in state.prompt()


def test_a_tie_goes_to_most_goats_on_summits():
    state = finished(new(), [[0, 1, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], [(0, 5), (0, 6), (1, 10)])
    assert state.winners() == [0]


def test_then_to_the_goat_on_the_highest_summit():
    state = finished(new(), [[0, 1, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], [(0, 5), (0, 9), (1, 10), (1, 6)])
    assert state.winners() == [1]


def test_players_still_tied_share_the_win():
    state = finished(new(), [[0, 1, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0]], [])
    assert state.winners() == [0, 1] and "share the win" in state.prompt()


# -- Big Mountain --------------------------------------------------------------------------------
def test_big_mountain_rulebook_example_scores_16_and_8():
    state = new(2, big_mountain=True)
    state.big = {23: (0, 5), 16: (0, 6), 21: (1, 7)}
    put(state, 0, 5, ON_BIG)
    put(state, 0, 6, ON_BIG)
    put(state, 1, 7, ON_BIG)
    assert state.big_mountain_points() == [16, 8]
    assert state.scores() == [0, 0]  # scored at the end
    state.over = True
    assert state.scores() == [16, 8] and state.winners() == [0]


@pytest.mark.parametrize("players, points", [(3, [16, 12, 8, 4]), (4, [15, 12, 9, 6, 3]), (5, [18, 15, 12, 9, 6, 3])])
def test_big_mountain_points_by_player_count(players, points):
    state = new(players, big_mountain=True)
    for rank, space in enumerate(range(24, 24 - len(points) - 1, -1)):
        state.big[space] = (rank % players, 5 + rank % 6)
    expected = [0] * players
    for rank, value in enumerate(points):
        expected[rank % players] += value
    assert state.big_mountain_points() == expected


def test_a_sum_of_11_to_24_sends_a_goat_of_the_players_choice_to_that_space():
    state = new(2, big_mountain=True)
    put(state, 0, 8, 2)
    options = plans(state, (6, 6, 5, 6))
    assert ((), ((23, 8),)) in options and ((), ((23, 5),)) in options and ((), ()) in options
    assert ((), ((11, 9), (12, 8))) in options  # 6+6 and 5+6: two goats, two spaces
    assert state.describe(Move((), ((23, 8),))) == "Send the 8 goat to Big Mountain space 23"
    state.apply(Move((), ((23, 8),)))
    assert goat(state, 0, 8) == ON_BIG and state.big == {23: (0, 8)}


def test_no_sum_above_10_acts_without_the_expansion():
    state = new(2)
    # 5+6 and 6+6 move nothing; three 6-groups would leave the 5 alone, and it moves
    assert plans(state, (6, 6, 5, 6)) == {((), ()), ((5,), ()), ((6,), ()), ((6, 6), ()), ((5, 6), ()),
                                          ((5, 6, 6, 6), ())}


def test_a_big_mountain_space_must_be_free():
    state = new(2, big_mountain=True)
    state.big = {23: (1, 9)}
    put(state, 1, 9, ON_BIG)
    options = plans(state, (6, 6, 5, 6))
    assert not any(space == 23 for _, big in options for space, _ in big)
    assert any(space == 12 for _, big in options for space, _ in big)


def test_a_space_left_by_a_goat_coming_back_is_free_for_another_goat_in_the_same_turn():
    """The 5–10 groups resolve first: bringing the 5 goat back from space 11 frees 11 for the 7 goat."""
    state = new(2, big_mountain=True)
    put(state, 0, 5, ON_BIG)
    state.big = {11: (0, 5)}
    options = plans(state, (4, 1, 5, 6))
    assert ((5,), ((11, 7),)) in options
    assert ((5,), ((11, 5),)) not in options, "the same goat back where it was is no move at all"
    state.apply(Move((5,), ((11, 7),)))
    assert state.big == {11: (0, 7)} and goat(state, 0, 5) == 0 and goat(state, 0, 7) == ON_BIG


def test_a_space_another_players_goat_holds_stays_taken_whatever_comes_back():
    state = new(2, big_mountain=True)
    put(state, 0, 5, ON_BIG)
    put(state, 1, 6, ON_BIG)
    state.big = {12: (0, 5), 11: (1, 6)}
    options = plans(state, (4, 1, 5, 6))
    assert not any(space == 11 for _, big in options for space, _ in big)


def test_a_goat_comes_back_to_the_foot_of_the_mountain_it_left_when_its_sum_is_used():
    state = new(2, big_mountain=True)
    put(state, 0, 7, ON_BIG)
    state.big = {20: (0, 7)}
    options = plans(state, (3, 4, 3, 4))
    assert ((7, 7), ()) in options  # back, then one space up
    assert ((), ()) in options  # coming back is a choice
    assert state.describe(Move((7, 7), ())) == ("Bring the 7 goat back from the Big Mountain to the foot; "
                                                "move the goat on 7 to space 1")
    state.apply(Move((7, 7), ()))
    assert goat(state, 0, 7) == 1 and state.big == {}


def test_the_game_must_still_end_with_the_expansion():
    from companion.games.simulate import play_random
    ended = play_random(GAME, ["Ada", "Ben", "Cleo"], seed=3, variants={"big_mountain": True})
    assert ended.is_over() and ended.turns % 3 == 0


# -- the board file ------------------------------------------------------------------------------
def board_data():
    return json.loads(open("companion/games/data/mountain-goats.json", encoding="utf-8").read())


def test_a_bad_board_file_names_the_field_and_the_value(tmp_path):
    data = board_data()
    data["spaces"]["7"] = 0
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    from companion.games.mountain_goats.board import load
    with pytest.raises(BadConfig, match=r"bad.json: field 'spaces.7' must be between 1 and 20, got 0"):
        load(str(path))
    data = board_data()
    data["tokens_fewer"]["2"] = 8
    with pytest.raises(BadConfig, match=r"tokens_fewer.2.*takes 8 tokens from mountain 10, which has only 7"):
        GAME.new_state(["A", "B"], board=data)
    data = board_data()
    data["bonus_tokns"] = [1]
    with pytest.raises(BadConfig, match=r"'bonus_tokns' is not a known field"):
        GAME.new_state(["A", "B"], board=data)
    data = board_data()
    del data["big_mountain_points"]["5"]
    with pytest.raises(BadConfig, match=r"big_mountain_points"):
        GAME.new_state(["A", "B"], board=data)


def test_an_edited_board_changes_the_game():
    data = board_data()
    data["spaces"]["10"] = 3
    state = GAME.new_state(["A", "B"], board=data)
    assert state.summits[5] == 3
    assert GAME.state_from_json(json.loads(json.dumps(state.to_json()))).summits[5] == 3


def test_player_counts():
    with pytest.raises(BadConfig, match="2–5 players, got 6"):
        GAME.new_state(["A", "B", "C", "D", "E", "F"])
    with pytest.raises(BadConfig, match="unknown variant"):
        GAME.new_state(["A", "B"], {"giant": True})
