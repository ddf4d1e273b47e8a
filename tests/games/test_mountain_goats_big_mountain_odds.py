"""The page's Big Mountain table ("Chance that your next roll can send a goat there") says what the player on
turn can do: a space another goat stands on cannot be reached (the rulebook: it must be free), and the chances
are the share of the 1296 rolls for which the engine offers a plan putting a goat there."""
from companion.games.mountain_goats import GAME, Roll, odds_for_state
from companion.games.mountain_goats.dice import ROLLS
from companion.games.mountain_goats.state import ON_BIG


def play(state, dice, big):
    """Roll `dice` for the player on turn and play the plan whose Big Mountain moves are `big`."""
    state.apply(Roll(dice=dice))
    plan = next(a for a in state.legal_actions() if a.big == big and not a.steps)
    state.apply(plan)


def engine_rolls_reaching(state, space):
    count = 0
    for dice, weight in ROLLS:
        after = state.clone()
        after.apply(Roll(dice=dice))
        count += weight * any(space == s for plan in after.legal_actions() for s, _ in plan.big)
    return count


def big_spaces(state):
    return {int(s): c["rolls"] for s, c in odds_for_state(state)["next_roll"]["big_mountain_spaces"].items()}


def test_a_space_another_players_goat_holds_cannot_be_reached():
    state = GAME.new_state(["Ada", "Ben"], {"big_mountain": True})
    play(state, (2, 3, 5, 6), ((11, 5),))  # Ada's goat of mountain 5 goes to space 11
    assert state.current == 1
    spaces = big_spaces(state)
    assert spaces[11] == 0
    assert spaces[11] == engine_rolls_reaching(state, 11)
    assert spaces[12] == engine_rolls_reaching(state, 12) > 0


def test_a_space_the_players_own_goat_holds_needs_it_to_come_back_first():
    state = GAME.new_state(["Ada", "Ben"], {"big_mountain": True})
    play(state, (2, 3, 5, 6), ((11, 5),))
    play(state, (1, 2, 3, 4), ())
    assert state.current == 0 and state.pos[0][0] == ON_BIG
    spaces = big_spaces(state)
    assert 0 < spaces[11] == engine_rolls_reaching(state, 11)
