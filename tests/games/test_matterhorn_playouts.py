"""Seeded random Matterhorn games, every player count and variant, with the invariants checked after every
action; fewer games with the JSON round trip and undo of every state seen; hypothesis properties.

Uniformly random play is slow to finish a Matterhorn game (a climber moved at random goes down as often as
up: about 2000 actions make a 4-player game, 5000 a 2-player one), so the thousand games per player count
and variant lean their random choices towards climbing (companion.games.matterhorn.policy), and a
twentieth as many play uniformly."""
import json
import random
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from companion.games.api import CHANCE, TERMINAL, IllegalAction
from companion.games.matterhorn import GAME
from companion.games.matterhorn.actions import (ClimbSummit, Eliminate, EndMoves, MoveClimber, PlaceClimber,
                                                PlaceObstacle, PlaceToken, RemoveObstacle, Roll, RollAgain, Stop)
from companion.games.matterhorn.board import SUMMIT
from companion.games.matterhorn.state import ACTION_TOKEN, CLIMBER, EMPTY, OBSTACLE
from companion.games.matterhorn.policy import climbing_choice
from companion.games.simulate import play_random, player_names, random_step

from .playouts import PLAYOUTS

VARIANTS = [{"two_action_summit": False}, {"two_action_summit": True}]


def check_invariants(state):
    board, cells = state.board, state.cells
    counts = Counter(cells)
    assert 0 <= state.supply and counts[OBSTACLE] + counts[ACTION_TOKEN] + state.supply == board.tokens, \
        "the 40 tokens are conserved"
    placed = [(k, at) for k, at in enumerate(state.climbers) if at >= 0]
    assert all(cells[at] == CLIMBER + k for k, at in placed), "one piece per circle"
    assert len(counts) - len({EMPTY, OBSTACLE, ACTION_TOKEN} & counts.keys()) == len(placed)
    if counts[ACTION_TOKEN]:
        for line, start, end in board.spans:
            tokens = cells[start:end].count(ACTION_TOKEN)
            assert tokens <= 1 and (not tokens or line in state.used_lines), "one action token per used line"
    assert state.dice_in_play + len(state.eliminated) == 5 and state.dice_in_play >= 1
    climbers = state.climbers
    summits = [climbers[p:p + 2].count(SUMMIT) for p in range(0, len(climbers), 2)]
    assert state.scores() == summits
    if state.is_over():
        assert state.winners() == [state.player] and summits.count(2) == 1 and summits[state.player] == 2
    else:
        assert state.winners() == [] and 2 not in summits
        assert state.current_player() == CHANCE or state.legal_actions()
    if state.phase in ("roll", "reclaim") and not state.used_lines:
        for line, start, end in board.spans:
            row = cells[start:end]
            assert EMPTY in row or OBSTACLE not in row, f"full line {line} was not cleared"


@pytest.mark.parametrize("variants", VARIANTS, ids=["one-action-summit", "two-action-summit"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_invariants_and_end(players, variants):
    winners = set()
    for seed in range(PLAYOUTS):
        state = play_random(GAME, player_names(players), seed, variants, after_each=check_invariants,
                            policy=climbing_choice)
        assert state.current_player() == TERMINAL
        winners.update(state.winners())
    assert len(winners) > 1  # not always the same seat


@pytest.mark.parametrize("variants", VARIANTS, ids=["one-action-summit", "two-action-summit"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_uniformly_random_games_keep_the_invariants_and_end(players, variants):
    for seed in range(max(2, PLAYOUTS // 20)):
        state = play_random(GAME, player_names(players), seed, variants, after_each=check_invariants)
        assert state.current_player() == TERMINAL


def check_round_trip(state):
    data = state.to_json()
    twin = GAME.state_from_json(json.loads(json.dumps(data)))
    assert twin.to_json() == data
    assert twin.current_player() == state.current_player()
    assert twin.legal_actions() == state.legal_actions()
    assert [twin.describe(a) for a in twin.legal_actions()] == [state.describe(a) for a in state.legal_actions()]
    assert twin.prompt() == state.prompt()
    assert twin.chance_request() == state.chance_request()
    assert twin.scores() == state.scores() and twin.winners() == state.winners()


@pytest.mark.parametrize("players, variants", [(2, VARIANTS[1]), (3, VARIANTS[0]), (4, VARIANTS[1])])
def test_every_state_round_trips_through_json_and_undo_restores_the_previous_one(players, variants):
    rng = random.Random(players)
    state = GAME.new_state(player_names(players), variants)
    while not state.is_over():
        before = state.to_json()
        random_step(state, rng)
        check_round_trip(state)
        action = state.undo()
        assert state.to_json() == before
        state.apply(action)
        for line in state.describe_legal():
            assert line["text"] and GAME.action_from_json(line["action"]) in state.legal_actions()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 400), players=st.integers(2, 4))
def test_undoing_every_action_returns_to_the_start(seed, steps, players):
    rng = random.Random(seed)
    state = GAME.new_state(player_names(players))
    start = state.to_json()
    for _ in range(steps):
        if state.is_over():
            break
        random_step(state, rng)
    clone = state.clone()
    check_round_trip(clone)
    while state.history():
        state.undo()
    assert state.to_json() == start
    for action in clone.history():  # and redoing them arrives where the game was
        state.apply(action)
    assert state.to_json() == clone.to_json()


ODD_ACTIONS = [Roll((1, 2, 3)), Roll((7, 1, 1, 1, 1)), Eliminate((6,), 6), PlaceToken(11), PlaceClimber(0),
               MoveClimber(0, 0, 4, 1), MoveClimber(1, 1, 12, 11), ClimbSummit(1), RemoveObstacle(12, 1),
               PlaceObstacle(5, 4), EndMoves(), RollAgain(), Stop()]


def is_legal_now(state, action):
    """A player's legal action, or, where the state waits for dice, an outcome that fits the request."""
    if state.current_player() >= 0:
        return action in state.legal_actions()
    if state.current_player() != CHANCE:
        return False
    values = list(action.dice) if isinstance(action, Roll) else [getattr(action, "value", None)]
    try:
        return state.chance_action(values) == action
    except IllegalAction:
        return False


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), action=st.sampled_from(ODD_ACTIONS))
@example(seed=3486, steps=193, action=Roll((1, 2, 3)))  # a fitting roll where the state waits for three dice
def test_an_action_that_is_not_legal_is_refused_and_changes_nothing(seed, steps, action):
    rng = random.Random(seed)
    state = GAME.new_state(player_names(3))
    for _ in range(steps):
        if state.is_over():
            break
        random_step(state, rng)
    if is_legal_now(state, action):
        return
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert state.to_json() == before
