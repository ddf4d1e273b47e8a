"""Banana Matcho: seeded random playouts with invariants after every action, JSON round trips, undo, and
hypothesis properties of squeaks."""
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.banana_matcho import FRUITS, GAME, arbitrate, combination
from companion.games.banana_matcho.actions import DiceShowing, Squeak
from companion.games.simulate import play_random, player_names, random_step

from .playouts import PLAYOUTS


class Invariants:
    """After every action: monkeys on the tree, at most one on the basket, roles are neighbours, a squeak
    moved exactly the squeaker by the rule, nobody else."""

    def __init__(self):
        self.previous = None

    def __call__(self, state):
        n = len(state.players)
        assert all(0 <= p <= 30 for p in state.positions)
        assert sum(p == 30 for p in state.positions) <= 1
        assert state.matcho_roller == (state.fruit_roller + 1) % n
        assert state.scores() == state.positions
        action = state.history()[-1]
        if self.previous is not None:
            before_positions, before_roller, before_fruit, before_matcho = self.previous
            moved = [i for i in range(n) if state.positions[i] != before_positions[i]]
            if isinstance(action, Squeak):
                squeaker = before_roller if action.side == "fruit" else (before_roller + 1) % n
                assert set(moved) <= {squeaker}
                delta = state.positions[squeaker] - before_positions[squeaker]
                legit = (combination(before_fruit).value > 0 if action.side == "fruit" and before_fruit
                         else action.side == "matcho" and before_matcho == ("matcho",) * 3)
                if legit:
                    assert delta > 0 and state.fruit_roller == (before_roller + 1) % n
                else:
                    assert delta in (-1, 0) and state.fruit_roller == before_roller
            else:
                assert moved == []
        self.previous = (list(state.positions), state.fruit_roller, state.fruit, state.matcho)


@pytest.mark.parametrize("count", range(2, 7))
def test_random_games_end_with_one_monkey_on_the_basket(count):
    winners = set()
    for seed in range(PLAYOUTS):
        state = play_random(GAME, player_names(count), seed, after_each=Invariants())
        assert state.is_over() and len(state.winners()) == 1
        winners.add(state.winners()[0])
    assert winners == set(range(count))


def test_random_games_with_two_monkey_faces_end():
    for seed in range(PLAYOUTS):
        state = play_random(GAME, player_names(4), seed, {"monkey_faces": 2}, after_each=Invariants())
        assert state.positions[state.winners()[0]] == 30


@pytest.mark.parametrize("count, faces", [(2, 1), (4, 2), (6, 1)])
def test_every_state_round_trips_through_json_and_undo_restores_it(count, faces):
    for seed in range(8):
        rng = random.Random(seed)
        state = GAME.new_state(player_names(count), {"monkey_faces": faces})
        while not state.is_over():
            before = state.to_json()
            random_step(state, rng)
            action = state.history()[-1]
            assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
            copy = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
            assert copy.to_json() == state.to_json()
            assert copy.current_player() == state.current_player()
            assert copy.legal_actions() == state.legal_actions()
            assert [copy.describe(a) for a in copy.legal_actions()] == [state.describe(a) for a in state.legal_actions()]
            assert copy.prompt() == state.prompt() and copy.chance_request() == state.chance_request()
            after = state.to_json()
            assert state.undo() == action
            assert state.to_json() == before
            state.apply(action)
            assert state.to_json() == after


fruit_faces = st.lists(st.sampled_from(FRUITS), min_size=6, max_size=6)
matcho_faces = st.lists(st.sampled_from(["matcho", "blank"]), min_size=3, max_size=3)


@settings(max_examples=300, deadline=None)
@given(fruit=fruit_faces, matcho=matcho_faces, side=st.sampled_from(["fruit", "matcho"]),
       start=st.lists(st.integers(0, 29), min_size=3, max_size=3))
def test_a_squeak_is_judged_as_arbitrate_says(fruit, matcho, side, start):
    state = GAME.new_state(["Ada", "Ben", "Cleo"])
    state.positions = list(start)
    state.apply(DiceShowing(tuple(fruit), tuple(matcho)))
    verdict = arbitrate(fruit, matcho)
    player = 0 if side == "fruit" else 1
    state.apply(Squeak(side))
    legit = verdict in (side, "both")
    if legit:
        climb = combination(fruit).value if side == "fruit" else 1
        assert state.positions[player] == min(30, start[player] + climb)
        assert state.fruit_roller == 1 and state.fruit is None
    else:
        assert state.positions[player] == max(0, start[player] - 1)
        assert state.fruit_roller == 0 and state.fruit == tuple(fruit)
    assert state.positions[2] == start[2] and state.positions[1 - player] == start[1 - player]


@settings(max_examples=200, deadline=None)
@given(fruit=fruit_faces, matcho=matcho_faces)
def test_arbitrate_is_consistent_with_the_combination_table(fruit, matcho):
    verdict = arbitrate(fruit, matcho)
    fruit_ok = combination(fruit).value > 0
    matcho_ok = matcho.count("matcho") == 3
    assert verdict == {(True, True): "both", (True, False): "fruit", (False, True): "matcho",
                       (False, False): "neither"}[(fruit_ok, matcho_ok)]
    assert arbitrate(list(reversed(fruit)), list(reversed(matcho))) == verdict
