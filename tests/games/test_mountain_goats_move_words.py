"""The words on a Mountain Goats move button are all a family has to move the real goats and take the real
tokens by, so they say, in the order it happens, what to do by hand (rulebook: "When a player moves a goat onto
a summit, they take a point token of that summit (if any are left), and if another player's goat was already on
the summit, it is sent back to the start of that mountain's path"; a goat already on its summit still takes a
token; a completed set takes the highest bonus token; Big Mountain goats leave and come back to a path)."""
import random
import re

import pytest

from companion.games.mountain_goats import GAME, Move, Roll
from companion.games.mountain_goats.state import ON_BIG
from companion.games.simulate import player_names, random_step

from .playouts import PLAYOUTS

NINE, TEN = 4, 5  # indexes of mountains 9 and 10 (summits 2 spaces up)


def roll_and_move(state, dice, steps, big=()):
    """Roll `dice`, then play the legal plan with these groups; the words its button showed."""
    state.apply(Roll(dice))
    move = next(a for a in state.legal_actions() if a.steps == steps and a.big == big)
    text = state.describe(move)
    state.apply(move)
    return text


def words_for(state, steps, big=()):
    move = next(a for a in state.legal_actions() if a.steps == steps and a.big == big)
    return state.describe(move)


def test_a_goat_reaching_a_taken_summit_says_whose_goat_goes_back_and_which_token_is_taken():
    state = GAME.new_state(["Ada", "Ben"])
    assert roll_and_move(state, (4, 5, 2, 2), (9,)) == "Move the goat on 9 to space 1"
    roll_and_move(state, (4, 5, 2, 2), (9,))
    assert roll_and_move(state, (4, 5, 2, 2), (9,)) == "Move the goat on 9 to the summit: take a 9 token"
    text = roll_and_move(state, (4, 5, 2, 2), (9,))
    assert text == "Move the goat on 9 to the summit: Ada's goat goes back to the foot, take a 9 token"
    assert state.pos[0][NINE] == 0 and state.pos[1][NINE] == 2 and state.held[1][NINE] == 1


def test_a_goat_already_on_its_summit_stays_and_still_takes_a_token():
    state = GAME.new_state(["Ada", "Ben"])
    roll_and_move(state, (4, 5, 2, 2), (9,))
    roll_and_move(state, (2, 2, 2, 2), ())
    roll_and_move(state, (4, 5, 2, 2), (9,))
    roll_and_move(state, (2, 2, 2, 2), ())
    assert roll_and_move(state, (4, 5, 2, 2), (9,)) == "The goat on 9 stays on the summit: take a 9 token"
    assert state.held[0][NINE] == 2


def test_two_groups_that_reach_the_summit_take_two_tokens():
    state = GAME.new_state(["Ada", "Ben"])
    roll_and_move(state, (4, 5, 2, 2), (9,))
    roll_and_move(state, (2, 2, 2, 2), ())
    assert roll_and_move(state, (4, 5, 3, 6), (9, 9)) == "Move the goat on 9 to the summit: take two 9 tokens"
    assert state.held[0][NINE] == 2


def test_an_empty_token_stack_is_named_so_nobody_looks_for_a_token():
    state = GAME.new_state(["Ada", "Ben"])
    state.pos[0][NINE] = 1
    state.tokens_left[NINE] = 0
    state.apply(Roll((4, 5, 2, 2)))
    assert words_for(state, (9,)) == "Move the goat on 9 to the summit: no 9 tokens left"


def test_a_completed_set_says_which_bonus_token_to_take():
    state = GAME.new_state(["Ada", "Ben"])
    state.held[0] = [1, 1, 1, 1, 1, 0]
    state.tokens_left = [left - held for left, held in zip(state.tokens_left, state.held[0])]
    state.pos[0][TEN] = 1
    text = roll_and_move(state, (4, 6, 2, 2), (10,))
    assert text == "Move the goat on 10 to the summit: take a 10 token; take the 15 bonus token"
    assert state.bonus_held[0] == [15]


def test_goats_sent_to_and_brought_back_from_the_big_mountain_say_so():
    state = GAME.new_state(["Ada", "Ben"], {"big_mountain": True})
    text = roll_and_move(state, (6, 6, 5, 1), (6,), ((12, 7),))
    assert text == "Move the goat on 6 to space 1; send the 7 goat to Big Mountain space 12"
    roll_and_move(state, (1, 1, 1, 1), ())
    state.apply(Roll((3, 4, 2, 5)))  # two groups of 7: using either to bring the goat back is Ada's choice
    assert words_for(state, (7,)) == "Bring the 7 goat back from the Big Mountain to the foot"
    assert words_for(state, (7, 7)) == ("Bring the 7 goat back from the Big Mountain to the foot; "
                                        "move the goat on 7 to space 1")


def test_a_goat_leaving_its_summit_for_the_big_mountain_frees_the_summit():
    state = GAME.new_state(["Ada", "Ben"], {"big_mountain": True})
    state.pos[0][NINE] = 2
    state.apply(Roll((6, 6, 2, 2)))
    assert words_for(state, (), ((12, 9),)) == "Send the 9 goat to Big Mountain space 12"


def test_words_stay_short_for_common_moves():
    state = GAME.new_state(["Ada", "Ben"])
    state.pos[0] = [3, 3, 2, 2, 2, 1]
    state.pos[1] = [4, 4, 3, 3, 0, 2]
    state.apply(Roll((4, 6, 2, 2)))
    texts = [state.describe(a) for a in state.legal_actions()]
    assert "Move the goat on 10 to the summit: Ben's goat goes back to the foot, take a 10 token" in texts
    assert all(len(t) <= 90 for t in texts if t.count(";") == 0), texts


# -- every legal plan of random games -----------------------------------------------------------------

def told(text):
    """What the words promise: tokens per mountain, goats sent back to the foot, bonus tokens."""
    tokens = {}
    for count, mountain in re.findall(r"take (a|an|two|three|four) (\d+) tokens?", text):
        tokens[int(mountain)] = {"a": 1, "an": 1, "two": 2, "three": 3, "four": 4}[count]
    knocked = set(re.findall(r"(\w+)'s goat goes back to the foot", text))
    bonus = [int(v) for v in re.findall(r"(\d+)(?: and (\d+))? bonus tokens?", text)[0] if v] if "bonus" in text else []
    return tokens, knocked, bonus


def check_words(state, rng):
    """Every plan's words are its own, describing leaves the state as it was, and the words of the plan
    played say what it changed."""
    moves = state.legal_actions()
    before = (state.to_json(), list(moves))
    texts = [state.describe(m) for m in moves]
    assert (state.to_json(), state.legal_actions()) == before
    assert all(a is b for a, b in zip(state.legal_actions(), moves))
    assert len(set(texts)) == len(texts), [t for t in texts if texts.count(t) > 1]
    pick = rng.randrange(len(moves))
    player, names = state.current, [p.name for p in state.players]
    held, bonus, pos = [row[:] for row in state.held], state.bonus_held[player][:], [r[:] for r in state.pos]
    state.apply(moves[pick])
    tokens, knocked, bonus_told = told(texts[pick])
    taken = {5 + i: n - o for i, (n, o) in enumerate(zip(state.held[player], held[player])) if n != o}
    assert taken == tokens, texts[pick]
    sent_back = {names[p] for p in range(len(names)) if p != player
                 for i in range(6) if pos[p][i] > 0 and state.pos[p][i] == 0}
    assert sent_back == knocked, texts[pick]
    assert state.bonus_held[player][len(bonus):] == bonus_told, texts[pick]
    for i, (old, new) in enumerate(zip(pos[player], state.pos[player])):
        m = 5 + i
        if new == ON_BIG and old != ON_BIG:
            assert f"send the {m} goat to big mountain" in texts[pick].lower()
        if old == ON_BIG and new != ON_BIG:
            assert f"bring the {m} goat back from the big mountain" in texts[pick].lower()


@pytest.mark.parametrize("big_mountain", [False, True])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_give_every_plan_its_own_true_words(players, big_mountain):
    for seed in range(max(2, PLAYOUTS // 100)):
        rng = random.Random(seed)
        state = GAME.new_state(player_names(players), {"big_mountain": big_mountain})
        while not state.is_over():
            if state.dice is None:
                random_step(state, rng)
            else:
                check_words(state, rng)
