"""Mountain Goats: what `odds` and `explain` say when tokens are held and left, and the words of a move that
brings a goat back from the Big Mountain."""
import json

from companion.games.mountain_goats import GAME as MG, Roll, explain


def test_odds_tokens_left_is_what_lies_on_the_mountain_even_when_you_hold_some(run_cli):
    # --help: "--tokens-left M=K  tokens left on mountain M"; "--held M=K  tokens of mountain M you hold".
    # One 10-token is left on mountain 10, the player's goat is one space below its summit and holds one 10.
    # Any group of 10 puts the goat on the summit and takes that token (rulebook: "When a player moves a goat
    # onto a summit, they take a point token of that summit (if any are left)").
    code, out, err = run_cli("odds", "mountain-goats", "--goats", "10=1", "--tokens-left", "10=1",
                             "--held", "10=1", "--json")
    assert code == 0, err
    result = json.loads(out)
    can_move_10 = result["next_roll"]["mountains"]["10"]["rolls"]
    assert result["token_chances"]["10"]["rolls"] == can_move_10  # engine says 0 (it left 1 - 1 = 0 tokens)


def test_odds_ranked_moves_count_the_token_left_when_you_hold_some(run_cli):
    code, out, err = run_cli("odds", "mountain-goats", "--goats", "10=1", "--tokens-left", "10=1",
                             "--held", "10=1", "--roll", "4", "6", "1", "2", "--json")
    assert code == 0, err
    moves = {tuple(m["action"]["steps"]): m["points"] for m in json.loads(out)["moves"]}
    assert moves[(10,)] == 10  # engine says 0 points


def test_explain_big_mountain_never_puts_two_goats_on_one_space():
    # Rulebook (Big Mountain): "The space you move your goat to on the big mountain must be free: you cannot
    # displace another player's goat on this board" -- two goats cannot both go to space 12 in one turn.
    moves = explain(["6", "6", "6", "6"], big_mountain=True)["moves"]
    assert [12, 12] not in moves
    assert [11, 11] not in explain(["5", "5", "6", "6"], big_mountain=True)["moves"]


def test_a_return_and_climb_is_told_in_the_order_it_happens():
    from companion.games.mountain_goats import Move
    state = MG.new_state(["Ada", "Ben"], {"big_mountain": True})
    state.apply(Roll((6, 6, 5, 1)))
    state.apply(Move((6,), ((12, 7),)))        # Ada's 7 goat goes to Big Mountain space 12
    state.apply(Roll((1, 1, 1, 1)))
    state.apply(state.legal_actions()[0])      # Ben passes
    state.apply(Roll((3, 4, 2, 5)))            # two groups of 7: the first brings the goat back, the second climbs
    text = state.describe(Move((7, 7), ()))
    state.apply(Move((7, 7), ()))
    assert state.pos[0][2] == 1                # back at the foot, then one space up
    # now: "Move the goat on 7; bring the 7 goat back from the Big Mountain" (reads as climb, then leave the path)
    assert text.lower().index("bring the 7 goat back") < text.lower().index("move the goat on 7"), text
