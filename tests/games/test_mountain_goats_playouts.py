"""Seeded random Mountain Goats games with invariants after every action, JSON round trips, undo, and
hypothesis properties of the plans a roll allows."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from companion.games.api import CHANCE
from companion.games.mountain_goats import GAME, Roll, explain
from companion.games.mountain_goats.state import ON_BIG
from companion.games.simulate import play_random, player_names, random_step

from .playouts import PLAYOUTS

STACKS = {2: [10, 9, 8, 7, 6, 5], 3: [11, 10, 9, 8, 7, 6], 4: [12, 11, 10, 9, 8, 7], 5: [12, 11, 10, 9, 8, 7]}
BONUS = [15, 12, 9, 6]
SUMMITS = [4, 4, 3, 3, 2, 2]


def check_invariants(state):
    players = len(state.players)
    for i in range(6):
        assert state.tokens_left[i] + sum(row[i] for row in state.held) == STACKS[players][i]
        assert sum(1 for row in state.pos if row[i] == SUMMITS[i]) <= 1, "two goats on one summit"
    assert sorted(state.bonus_left + [b for row in state.bonus_held for b in row]) == sorted(BONUS)
    on_big = {(p, 5 + i) for p, row in enumerate(state.pos) for i, at in enumerate(row) if at == ON_BIG}
    assert set(state.big.values()) == on_big and len(state.big) == len(on_big)
    assert all(11 <= space <= 24 for space in state.big)
    for p, row in enumerate(state.pos):
        assert all(at == ON_BIG or 0 <= at <= top for at, top in zip(row, SUMMITS))
        assert len(state.bonus_held[p]) <= min(state.held[p])
    tokens = [sum(n * m for n, m in zip(row, range(5, 11))) + sum(b) for row, b in zip(state.held, state.bonus_held)]
    if state.is_over():
        assert state.scores() == [t + b for t, b in zip(tokens, state.big_mountain_points())]
        assert state.turns % players == 0, "everyone has the same number of turns"
        assert state.end_reached() and state.winners()
    else:
        assert state.scores() == tokens and state.winners() == []
    if not state.big_mountain:
        assert not state.big


def check_choices(state):
    if state.current_player() < 0:
        return
    actions = state.legal_actions()
    assert actions, "a player always has a plan, passing included when nothing acts"
    assert len(set(actions)) == len(actions)
    assert len({state.describe(a) for a in actions}) == len(actions)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_games_keep_the_rules(players):
    for seed in range(PLAYOUTS):
        end = play_random(GAME, player_names(players), seed, after_each=check_invariants)
        assert end.is_over()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_big_mountain_games_keep_the_rules(players):
    for seed in range(PLAYOUTS // 4):
        def after(state):
            check_invariants(state)
            check_choices(state)
        end = play_random(GAME, player_names(players), 1000 + seed, {"big_mountain": True}, after_each=after)
        assert end.is_over()


def round_trip(state):
    copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy.to_json() == state.to_json()
    assert copy.current_player() == state.current_player()
    assert copy.legal_actions() == state.legal_actions()
    assert [copy.describe(a) for a in copy.legal_actions()] == [state.describe(a) for a in state.legal_actions()]
    assert copy.prompt() == state.prompt() and copy.scores() == state.scores() and copy.winners() == state.winners()
    assert copy.chance_request() == state.chance_request()


@pytest.mark.parametrize("big_mountain", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_state_round_trips_through_json_and_undo_restores_it(players, big_mountain):
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.new_state(player_names(players), {"big_mountain": big_mountain})
        while not state.is_over():
            before = state.to_json()
            random_step(state, rng)
            round_trip(state)
            last = state.history()[-1]
            assert state.undo() == last
            assert state.to_json() == before
            state.apply(last)
            check_choices(state)
        round_trip(state)


def test_clone_is_independent_of_the_original():
    state = GAME.new_state(["A", "B"], {"big_mountain": True})
    state.apply(Roll((6, 6, 5, 6)))
    clone = state.clone()
    clone.apply(clone.legal_actions()[-1])
    assert state.current_player() == 0 and state.pos == [[0] * 6, [0] * 6]


def test_action_json_round_trip():
    state = GAME.new_state(["A", "B"], {"big_mountain": True})
    state.apply(Roll((6, 6, 5, 6)))
    for action in state.legal_actions():
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action


dice = st.lists(st.integers(1, 6), min_size=4, max_size=4)


@settings(max_examples=150, deadline=None)
@given(dice, st.booleans())
def test_explained_moves_are_sorted_distinct_and_in_range(roll, big_mountain):
    moves = explain([str(d) for d in roll], big_mountain)["moves"]
    assert moves == sorted(moves) and len({tuple(m) for m in moves}) == len(moves)
    top = 24 if big_mountain else 10
    for option in moves:
        assert option == sorted(option) and all(5 <= s <= top for s in option) and len(option) <= 4
        if roll.count(1) < 2:
            assert sum(option) <= sum(roll)
    for die in set(roll):  # each die on its own, the rest in one group, is always a split
        rest = sum(roll) - die
        expected = sorted(s for s in (die, rest) if 5 <= s <= top)
        assert expected in moves


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), dice, st.booleans())
def test_every_plan_uses_one_explained_split(seed, roll, big_mountain):
    """Each legal plan's acting groups are a choice of one split of the roll, mid-game too."""
    rng = random.Random(seed)
    state = GAME.new_state(["A", "B", "C"], {"big_mountain": big_mountain})
    for _ in range(rng.randrange(60)):
        if state.is_over():
            return
        random_step(state, rng)
    if state.current_player() != CHANCE:
        state.apply(rng.choice(state.legal_actions()))
    if state.is_over():
        return
    state.apply(Roll(tuple(roll)))
    splits = [sorted(m) for m in explain([str(d) for d in roll], big_mountain)["moves"]]
    for plan in state.legal_actions():
        used = list(plan.steps) + [space for space, _ in plan.big]
        assert any(all(used.count(s) <= split.count(s) for s in used) for split in splits), plan
    before = state.to_json()
    state.apply(rng.choice(state.legal_actions()))
    state.undo()
    assert state.to_json() == before
