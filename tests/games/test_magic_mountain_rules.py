"""Magic Mountain: every rule of the rulebook, its examples and its variants, on the default path.

The default path (rules/README.md): 30 spaces, colours repeating red, yellow, blue, purple, white from the
top, so red spaces are 1, 6, 11, 16, 21, 26; yellow 2, 7, 12, ...; purple 4, 9, 14, 19, 24, 29.
"""
import json

import pytest

from companion.events import BallEntered
from companion.games.api import CHANCE, TERMINAL, BadConfig, IllegalAction
from companion.games.magic_mountain import GAME, title_for
from companion.games.magic_mountain.actions import ChooseOpening, DrawBall, EndWithTitle, Hits, MoveOnMiss

GOAL = 31
COLOURS = ["red", "yellow", "blue", "purple", "white"]


def new(players=("Ada", "Ben"), **variants):
    return GAME.new_state(list(players), variants)


def ball_in(state, colour, opening=3):
    state.apply(DrawBall(colour))
    state.apply(ChooseOpening(opening))


def test_setup_students_on_the_first_six_spaces_witches_on_theirs():
    state = new()
    assert state.positions == {"S1": 1, "S2": 2, "S3": 3, "S4": 4, "S5": 5, "S6": 6,
                               "W1": 8, "W2": 11, "W3": 14, "W4": 17}
    assert state.current_player() == CHANCE
    request = state.chance_request()
    assert request.kind == "draw" and request.faces == tuple(COLOURS)
    assert state.prompt() == "Ada: draw a ball from the bag."


def test_after_the_draw_the_player_chooses_one_of_six_openings():
    state = new()
    state.apply(DrawBall("red"))
    assert state.current_player() == 0
    assert state.legal_actions() == [ChooseOpening(n) for n in range(1, 7)]
    assert state.describe(ChooseOpening(4)) == "Put the red ball in opening 4"
    assert state.prompt() == "Ada: which opening for the red ball?"


def test_ball_entered_from_the_sensor_gate_is_the_opening_action():
    state = new()
    state.apply(DrawBall("blue"))
    state.apply(state.opening_action(BallEntered(t=1, opening=5).opening))
    assert state.opening == 5 and state.phase == "hits"
    assert state.current_player() == CHANCE
    request = state.chance_request()
    assert request.kind == "hits" and set(request.faces) == set(state.positions)
    assert request.prompt == "The blue ball is down: which figures did it hit, in order? None if it hit nothing."


def test_rulebook_example_yellow_ball_hits_a_student_then_a_witch():
    state = new()
    ball_in(state, "yellow")
    state.apply(state.chance_action(["S3", "W1"]))
    # S3 from 3: yellow 7 is vacant. W1 from 8: yellow 12 is vacant.
    assert state.positions["S3"] == 7
    assert state.positions["W1"] == 12
    assert state.phase == "draw" and state.turn == 1


def test_a_hit_skips_occupied_spaces_of_the_colour():
    state = new()
    ball_in(state, "red")
    state.apply(Hits(("S1",)))
    # red spaces below 1: 6 (S6), 11 (W2) occupied, 16 vacant
    assert state.positions["S1"] == 16


def test_a_figure_may_be_hit_twice_by_the_same_ball():
    state = new()
    ball_in(state, "white")
    state.apply(Hits(("S2", "S2")))
    assert state.positions["S2"] == 15  # white: 5 (S5), then 10, then 15


def test_rulebook_example_no_space_of_the_colour_left_goes_to_the_goal_tile():
    state = new()
    state.positions["S1"] = 25  # purple spaces below 25: 29
    state.positions["S2"] = 29
    ball_in(state, "purple")
    state.apply(Hits(("S1",)))
    assert state.positions["S1"] == GOAL
    assert state.on_goal("S") == 1
    assert state.scores() == [1, 1]


def test_a_ball_that_hits_nothing_lets_the_players_move_one_witch_one_space():
    state = new()
    ball_in(state, "red")
    state.apply(state.chance_action([]))
    assert state.phase == "miss" and state.current_player() == 0
    assert state.legal_actions() == [MoveOnMiss(w) for w in ("W1", "W2", "W3", "W4")]
    assert state.describe(MoveOnMiss("W2")) == "Move Witch 2 one space on, to space 12"
    assert state.prompt() == "The ball hit nothing: Ada, choose a witch to move one space on."
    state.apply(MoveOnMiss("W2"))
    assert state.positions["W2"] == 12
    assert state.phase == "draw" and state.turn == 1


def test_one_space_on_jumps_an_occupied_space_and_leaves_the_last_space_for_the_goal():
    state = new()
    state.positions.update({"W1": 28, "S1": 29, "W2": 30})
    ball_in(state, "red")
    state.apply(Hits(()))
    assert state.describe(MoveOnMiss("W1")) == "Move Witch 1 one space on, onto the goal tile"
    state.apply(MoveOnMiss("W1"))
    assert state.positions["W1"] == GOAL


def test_students_cannot_be_moved_after_a_miss():
    state = new()
    ball_in(state, "red")
    state.apply(Hits(()))
    assert state.legal_actions() == [MoveOnMiss(w) for w in ("W1", "W2", "W3", "W4")], "a miss moves a witch"
    before = state.to_json()
    with pytest.raises(IllegalAction, match=r"“Move Student 1 one space on, to space 7” cannot be played now"):
        state.apply(MoveOnMiss("S1"))
    assert state.to_json() == before


def test_the_bag_holds_five_balls_drawn_without_replacement_then_refilled():
    state = new(players=("Ada",))
    for i, colour in enumerate(["white", "red", "blue", "yellow"]):
        ball_in(state, colour)
        state.apply(Hits(("S6",)) if i % 2 else Hits(("S5",)))
    assert state.chance_request().faces == ("purple",)
    with pytest.raises(IllegalAction, match="the bag holds purple; 'red' is not in it"):
        state.chance_action(["red"])
    ball_in(state, "purple")
    state.apply(Hits(("S4",)))
    assert state.chance_request().faces == tuple(COLOURS)


def test_the_fourth_student_on_the_goal_tile_wins_at_once():
    state = new()
    for figure in ("S1", "S2", "S3"):
        state.positions[figure] = GOAL
    state.positions["S4"] = 30
    ball_in(state, "red")
    with pytest.raises(IllegalAction, match="the game ended with the hit of Student 4; Witch 1 cannot be hit after that"):
        state.chance_action(["S4", "W1"])
    state.apply(Hits(("S4",)))
    assert state.current_player() == TERMINAL
    assert state.winners() == [0, 1]
    assert state.scores() == [4, 4]
    assert state.prompt() == "You all win: 4 students reached Master Balduin."


def test_the_third_witch_on_the_goal_tile_loses():
    state = new()
    state.positions.update({"W1": GOAL, "W2": GOAL, "W3": 30})
    ball_in(state, "red")
    state.apply(Hits(()))
    state.apply(MoveOnMiss("W3"))
    assert state.is_over()
    assert state.winners() == []
    assert state.prompt() == "You all lose: 3 witches reached Master Balduin first."


def test_a_figure_on_the_goal_tile_cannot_be_hit():
    state = new()
    state.positions["S1"] = GOAL
    ball_in(state, "red")
    assert "S1" not in state.chance_request().faces
    with pytest.raises(IllegalAction, match="Student 1 is on the goal tile and cannot be hit"):
        state.chance_action(["S1"])


@pytest.mark.parametrize("target", [2, 3])
def test_easier_goals_win_with_two_or_three_students(target):
    state = new(students_to_win=target)
    for figure in ["S1", "S2", "S3"][: target - 1]:
        state.positions[figure] = GOAL
    state.positions["S6"] = 30
    ball_in(state, "yellow")
    state.apply(Hits(("S6",)))
    assert state.is_over() and state.winners() == [0, 1]


@pytest.mark.parametrize("students, witches, level, name", [
    (4, 2, 1, "Beginner"), (5, 2, 2, "Student"), (6, 2, 3, "Graduate"), (6, 1, 4, "Master"),
    (6, 0, 5, "Grand Master"), (3, 0, 0, None), (6, 3, 0, None), (5, 0, 2, "Student"), (4, 0, 1, "Beginner"),
])
def test_the_five_titles_of_the_flipped_goal_tile(students, witches, level, name):
    assert title_for(students, witches) == (level, name)


def test_titles_game_offers_to_stop_once_a_title_is_held():
    state = new(mode="titles")
    for figure in ("S1", "S2", "S3"):
        state.positions[figure] = GOAL
    state.apply(DrawBall("red"))
    assert EndWithTitle() not in state.legal_actions()
    with pytest.raises(IllegalAction, match=r"^“Stop here \(no title yet\)” cannot be played now\. Ada: which opening"):
        state.apply(EndWithTitle())
    state.undo()
    state.positions["S4"] = GOAL
    state.positions["W1"] = GOAL
    state.apply(DrawBall("red"))
    assert state.describe(EndWithTitle()) == "Stop here with the title Beginner"
    state.apply(EndWithTitle())
    assert state.is_over()
    assert state.scores() == [1, 1] and state.winners() == [0, 1]
    assert state.prompt() == "4 students and 1 witch reached Master Balduin: the title Beginner (level 1)."


def test_titles_game_goes_on_after_the_fourth_student_and_ends_with_the_sixth():
    state = new(mode="titles")
    for figure in ("S1", "S2", "S3", "S4", "S5"):
        state.positions[figure] = GOAL
    ball_in(state, "red")
    state.apply(Hits(("S6",)))  # 6 -> 11 is W2's, 16 free
    assert not state.is_over()
    state.positions["S6"] = 30
    ball_in(state, "yellow")
    state.apply(Hits(("S6",)))
    assert state.is_over() and state.scores() == [5, 5]


def test_team_variant_setup_turns_and_misses():
    with pytest.raises(BadConfig, match="the teams mode takes two teams: at least two players"):
        new(players=("Ada",), mode="teams")
    state = new(players=("Team Student", "Team Witch"), mode="teams")
    assert state.positions == {"S1": 1, "S2": 3, "S3": 5, "S4": 7, "W1": 2, "W2": 4, "W3": 6, "W4": 8}
    ball_in(state, "red")
    state.apply(Hits(()))
    assert state.current_player() == 0
    assert state.legal_actions() == [MoveOnMiss(w) for w in ("W1", "W2", "W3", "W4")]
    state.apply(MoveOnMiss("W4"))
    assert state.positions["W4"] == 9
    ball_in(state, "blue")
    state.apply(Hits(()))
    assert state.current_player() == 1
    assert state.legal_actions() == [MoveOnMiss(s) for s in ("S1", "S2", "S3", "S4")]
    assert state.prompt() == "The ball hit nothing: Team Witch, choose one of Team Student's figures to move one space on."


def test_team_witch_wins_with_three_of_four_on_the_goal_tile():
    state = new(players=("Team Student", "Team Witch"), mode="teams")
    state.positions.update({"W1": GOAL, "W2": GOAL, "S1": GOAL, "S2": GOAL, "W3": 30})
    ball_in(state, "red")
    state.apply(Hits(("W3",)))
    assert state.is_over()
    assert state.winners() == [1] and state.scores() == [2, 3]
    assert state.prompt() == "Team Witch wins."


def _miss(state):
    """One turn whose ball hits nothing; the player on turn moves the first figure offered one space on."""
    player = state.turn
    ball_in(state, state.bag()[0])
    state.apply(Hits(()))
    offered = state.legal_actions()
    state.apply(offered[0])
    return player, offered[0].figure[0]


def test_a_group_of_four_plays_two_teams_that_take_turns_and_win_together():
    """Rulebook, Team Witch vs. Team Student: "Play as two teams ... Divide your group into two teams and choose
    who will play the witches and who will be students." "Team Student goes first." "If your will-o'-the-wisp
    doesn't hit any figures on its way down, you must move one of the opposing team's figures one space along
    the path towards the goal." "The team that moves three of their four figures on the goal tile first wins
    the game." A family of four plays two against two: Ada and Cleo the students, Ben and Dan the witches."""
    state = new(players=("Ada", "Ben", "Cleo", "Dan"), mode="teams")
    assert [_miss(state) for _ in range(6)] == [(0, "W"), (1, "S"), (2, "W"), (3, "S"), (0, "W"), (1, "S")]
    state.positions.update({"W1": GOAL, "W2": GOAL, "S1": GOAL, "W3": 30})
    assert state.turn == 2 and state.scores() == [1, 2, 1, 2]
    ball_in(state, state.bag()[0])  # from the last space, any colour's next space is the goal tile
    state.apply(Hits(("W3",)))
    assert state.is_over() and state.current_player() == TERMINAL
    assert state.winners() == [1, 3] and state.scores() == [1, 3, 1, 3]
    assert state.prompt() == "Team Witch wins: Ben and Dan."
    again = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json() and again.winners() == [1, 3]


def test_three_players_make_a_team_of_two_and_a_team_of_one_and_the_teams_still_alternate():
    """Rulebook: "Divide your group into two teams" ... "Team Student goes first": with three, Ada and Cleo are
    the students and Ben the witches alone; the teams take turns, so Ben plays every other turn and Ada and
    Cleo share the students' turns."""
    state = new(players=("Ada", "Ben", "Cleo"), mode="teams")
    assert [_miss(state)[0] for _ in range(8)] == [0, 1, 2, 1, 0, 1, 2, 1]
    state.undo()  # Ben's last miss is taken back: he moves a student again, the one that ends the game
    assert state.turn == 1 and state.phase == "miss"
    state.positions.update({"S1": GOAL, "S2": GOAL, "S3": 30, "S4": 30 - 5})
    state.apply(MoveOnMiss("S3"))
    assert state.is_over() and state.winners() == [0, 2] and state.scores() == [3, 0, 3]
    assert state.prompt() == "Team Student wins: Ada and Cleo."


def test_variants_that_do_not_combine_are_refused():
    with pytest.raises(BadConfig, match="students_to_win 2 is for the co-operative game only"):
        new(mode="titles", students_to_win=2)
    with pytest.raises(BadConfig, match="variant 'mode' takes one of"):
        new(mode="solo")
    with pytest.raises(BadConfig, match="takes 1–6 players, got 7"):
        new(players=[str(i) for i in range(7)])


def test_chance_action_errors_name_the_problem():
    state = new()
    with pytest.raises(IllegalAction, match="'green' is not in it"):
        state.chance_action(["green"])
    with pytest.raises(IllegalAction, match="a draw is one ball colour, got 2 values"):
        state.chance_action(["red", "blue"])
    ball_in(state, "red")
    with pytest.raises(IllegalAction, match="unknown figure 'S9'"):
        state.chance_action(["S9"])
    assert state.chance_action(["s1", " W2 ", "Witch  3"]) == Hits(("S1", "W2", "W3"))
    with pytest.raises(IllegalAction, match="waiting for the figures the red ball hit"):
        state.apply(DrawBall("red"))


def test_describe_texts_for_the_page():
    state = new()
    assert state.describe(DrawBall("red")) == "The red ball was drawn"
    assert state.describe(Hits(())) == "The ball hit nothing"
    assert state.describe(Hits(("S1", "W3"))) == "The ball hit Student 1, then Witch 3"


def test_bad_board_file_is_refused_with_field_and_value(tmp_path):
    good = GAME.new_state(["Ada"]).board.to_json()
    bad = dict(good, path=good["path"][:-1] + ["green"])
    with pytest.raises(BadConfig, match=r"field 'path\[29\]' must be one of the ball colours .* got 'green'"):
        GAME.new_state(["Ada"], board=bad)
    file = tmp_path / "mm.json"
    file.write_text(json.dumps(dict(good, witch_spaces=[8, 11, 14, 40])))
    with pytest.raises(BadConfig, match=r"mm.json: field 'witch_spaces\[3\]' must be between 1 and 30, got 40"):
        GAME.new_state(["Ada"], board=str(file))
    with pytest.raises(BadConfig, match="field 'witch_spaces' must not share a space with student_spaces, got \\[6\\]"):
        GAME.new_state(["Ada"], board=dict(good, witch_spaces=[6, 11, 14, 17]))


def test_a_board_file_with_capitalised_colour_names_draws_balls_as_the_shipped_one():
    """The data file invites editing; "Red" or " Blue " in it used to make a bag no draw from the page or the
    sensors matched: every ball refused."""
    good = GAME.new_state(["Ada"]).board.to_json()
    edited = dict(good, ball_colours=[f" {c.capitalize()}" for c in good["ball_colours"]],
                  path=[c.upper() for c in good["path"]])
    state = GAME.new_state(["Ada"], board=edited)
    assert state.board.ball_colours == tuple(good["ball_colours"]) and state.board.path == tuple(good["path"])
    face = state.chance_request().faces[0]
    state.apply(state.chance_action([face]))
    assert state.current_player() == 0


def test_colour_names_that_differ_only_in_case_or_are_not_names_are_refused():
    good = GAME.new_state(["Ada"]).board.to_json()
    with pytest.raises(BadConfig, match=r"field 'ball_colours' must not repeat a colour \(names are read in lower "
                                        r"case\), got \['red', 'Red'\]"):
        GAME.new_state(["Ada"], board=dict(good, ball_colours=["red", "Red"], path=["red"] * 30))
    with pytest.raises(BadConfig, match=r"field 'path\[3\]' must be one of the ball colours .* got 7"):
        GAME.new_state(["Ada"], board=dict(good, path=good["path"][:3] + [7] + good["path"][4:]))


def test_a_custom_path_is_used_and_survives_the_json_round_trip():
    good = GAME.new_state(["Ada"]).board.to_json()
    custom = dict(good, path=["red", "blue"] * 10, ball_colours=["red", "blue"], openings=4)
    state = GAME.new_state(["Ada"], board=custom)
    assert state.chance_request().faces == ("red", "blue")
    state.apply(DrawBall("blue"))
    assert len(state.legal_actions()) == 4
    copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json() and copy.legal_actions() == state.legal_actions()


def test_sensor_events_become_actions_for_the_live_table():
    from companion.events import BallLanded

    state = new()
    with pytest.raises(IllegalAction, match="a ball entered opening 2, but its colour is not entered yet"):
        state.event_action(BallEntered(t=1, opening=2))
    state.apply(DrawBall("purple"))
    action = state.event_action(BallEntered(t=2, opening=2))
    assert action == ChooseOpening(2)
    state.apply(action)
    assert state.event_action(BallLanded(t=3)) is None
    assert state.chance_request().kind == "hits"
    with pytest.raises(IllegalAction, match="no drawn ball waits for an opening"):
        state.event_action(BallEntered(t=4, opening=1))


@pytest.mark.parametrize("names", [("Ada", "Ben", "Cleo", "Dan"), ("Ada", "Ben", "Cleo", "Dan", "Eve")])
def test_a_team_game_of_many_names_each_players_team_in_the_prompts(names):
    state = new(players=names, mode="teams")
    assert state.teams() == [{"name": "Team Student", "players": list(range(0, len(names), 2))},
                             {"name": "Team Witch", "players": list(range(1, len(names), 2))}]
    assert state.prompt() == "Ada (Team Student): draw a ball from the bag."
    ball_in(state, "red")
    state.apply(Hits(()))
    state.apply(state.legal_actions()[0])
    assert state.chance_request().prompt == "Ben (Team Witch): draw a ball from the bag."
    assert new(players=names).teams() is None and new(players=names).prompt() == "Ada: draw a ball from the bag."
