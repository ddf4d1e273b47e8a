"""Magic Mountain: seeded random playouts with invariants after every action, JSON round trips, undo, and
hypothesis properties of hits."""
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.api import CHANCE
from companion.games.magic_mountain import GAME
from companion.games.magic_mountain.actions import ChooseOpening, DrawBall, Hits
from companion.games.simulate import play_random, player_names, random_step

from .playouts import PLAYOUTS

GOAL = 31


class Invariants:
    """Checks after every action: figures only move down, one figure per space, the goal counts and the
    bag are consistent, scores follow the goal tile."""

    def __init__(self):
        self.previous = None

    def __call__(self, state):
        if self.previous is None:  # the first action is a draw: nobody has moved yet
            self.previous = dict(state.positions)
        on_path = [p for p in state.positions.values() if p != GOAL]
        assert len(on_path) == len(set(on_path)), state.positions
        assert all(1 <= p <= 30 for p in on_path)
        for figure, space in state.positions.items():
            assert space >= self.previous[figure], (figure, self.previous[figure], space)
        self.previous = dict(state.positions)
        students, witches = state.on_goal("S"), state.on_goal("W")
        assert witches <= 3 and students <= 6
        assert set(state.bag()) <= set(state.board.ball_colours)
        assert len(state.drawn) == len(set(state.drawn)) < 5
        if state.mode == "teams":
            assert state.scores() == [students, witches]
            assert students <= 3
        elif state.mode == "cooperative":
            assert state.scores() == [students] * len(state.players)
            assert students <= state.students_to_win


def _play(players, seed, variants=None):
    return play_random(GAME, players, seed, variants, after_each=Invariants())


@pytest.mark.parametrize("count", range(1, 7))
def test_cooperative_random_games_end_with_a_result(count):
    results = set()
    for seed in range(PLAYOUTS):
        state = _play(player_names(count), seed)
        assert state.is_over()
        won = state.on_goal("S") == 4
        assert won != (state.on_goal("W") == 3)
        assert state.winners() == (list(range(count)) if won else [])
        results.add(won)
    assert results == {True, False}


@pytest.mark.parametrize("variants", [{"students_to_win": 2}, {"students_to_win": 3}, {"mode": "titles"}])
def test_variant_random_games_end(variants):
    for seed in range(PLAYOUTS):
        state = _play(player_names(3), seed, variants)
        assert state.is_over()
        if variants.get("mode") == "titles":
            assert state.on_goal("W") == 3 or state.on_goal("S") == 6 or state.history()[-1].kind == "end_with_title"


def test_team_random_games_have_one_winning_team():
    winners = set()
    for seed in range(PLAYOUTS):
        state = _play(["Team Student", "Team Witch"], seed, {"mode": "teams"})
        assert max(state.scores()) == 3 and min(state.scores()) < 3
        winners.add(tuple(state.winners()))
    assert winners == {(0,), (1,)}


def _round_trip_equal(state):
    copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    assert copy.current_player() == state.current_player()
    assert copy.legal_actions() == state.legal_actions()
    assert [copy.describe(a) for a in copy.legal_actions()] == [state.describe(a) for a in state.legal_actions()]
    assert copy.prompt() == state.prompt()
    assert copy.chance_request() == state.chance_request()
    assert copy.scores() == state.scores() and copy.winners() == state.winners()


@pytest.mark.parametrize("variants, players", [({}, 4), ({"mode": "titles"}, 2), ({"mode": "teams"}, 2),
                                              ({"mode": "teams"}, 5)])
def test_every_state_round_trips_through_json_and_undo_restores_it(variants, players):
    for seed in range(25):
        rng = random.Random(seed)
        state = GAME.new_state(player_names(players), variants)
        while not state.is_over():
            before = state.to_json()
            random_step(state, rng)
            action = state.history()[-1]
            assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
            _round_trip_equal(state)
            after = state.to_json()
            assert state.undo() == action
            assert state.to_json() == before
            state.apply(action)
            assert state.to_json() == after


def _state_before_hits(seed, colour):
    """A random mid-game state, just before the hits of a ball of `colour`."""
    rng = random.Random(seed)
    state = GAME.new_state(player_names(3))
    for _ in range(rng.randrange(0, 60)):
        if state.is_over() or state.phase == "draw" and colour not in state.bag():
            break
        random_step(state, rng)
    while state.phase != "draw" and not state.is_over():
        random_step(state, rng)
    if state.is_over():
        state = GAME.new_state(player_names(3))
    state.drawn = []
    state.apply(DrawBall(colour))
    state.apply(ChooseOpening(1))
    return state


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10_000), colour=st.sampled_from(["red", "yellow", "blue", "purple", "white"]),
       picks=st.lists(st.integers(0, 9), min_size=1, max_size=5))
def test_a_hit_sends_a_figure_to_the_next_vacant_space_of_the_ball_colour(seed, colour, picks):
    state = _state_before_hits(seed, colour)
    for pick in picks:
        if state.is_over():
            break
        on_path = state.figures_on_path()
        figure = on_path[pick % len(on_path)]
        start = state.positions[figure]
        occupied = {p for f, p in state.positions.items() if f != figure}
        state.apply(Hits((figure,)))
        end = state.positions[figure]
        assert end > start, "a hit moves the figure on, up the path"
        skipped = [s for s in range(start + 1, min(end, 31)) if state.board.path[s - 1] == colour]
        assert all(s in occupied for s in skipped)
        assert end == GOAL or (state.board.path[end - 1] == colour and end not in occupied)
        if not state.is_over():  # the turn moved on: the next hit comes from another ball of the same colour
            state.drawn = []
            state.apply(DrawBall(colour))
            state.apply(ChooseOpening(2))


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_sampled_hits_are_always_accepted_by_the_engine(seed):
    rng = random.Random(seed)
    state = GAME.new_state(player_names(2))
    while not state.is_over():
        if state.current_player() == CHANCE:
            outcome = state.sample_chance(rng)
            state._check_chance(outcome)
            values = [outcome.colour] if isinstance(outcome, DrawBall) else list(outcome.figures)
            assert state.chance_action(values) == outcome
        random_step(state, rng)
