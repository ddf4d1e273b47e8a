"""`companion explain mountain-goats` and `companion odds mountain-goats`, checked against brute force
written here independently: labelled groupings instead of set partitions, subset sums for reachability."""
import itertools
import json
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.mountain_goats import GAME, Roll, odds_for_state
from companion.games.mountain_goats.odds import ranked_moves, token_chances

MOUNTAINS = range(5, 11)


@lru_cache(maxsize=None)
def dice_after_ones(roll):
    """All dice the roll may become: all but one of several 1s turned to any face."""
    ones = [i for i, d in enumerate(roll) if d == 1]
    out = {tuple(sorted(roll))}
    if len(ones) >= 2:
        for keep in ones:
            for faces in itertools.product(range(1, 7), repeat=len(ones) - 1):
                changed = list(roll)
                for i, face in zip([i for i in ones if i != keep], faces):
                    changed[i] = face
                out.add(tuple(sorted(changed)))
    return out


def brute_moves(roll, big_mountain):
    top = 24 if big_mountain else 10
    found = set()
    for dice in dice_after_ones(tuple(roll)):
        for labels in itertools.product(range(4), repeat=4):
            sums = [sum(d for d, l in zip(dice, labels) if l == g) for g in range(4) if g in labels]
            ordinary = [s for s in sums if 5 <= s <= 10]
            big = {s for s in sums if 11 <= s <= top}  # one goat per Big Mountain space
            found.add(tuple(sorted(ordinary + sorted(big))))
    return sorted(list(m) for m in found)


def brute_reachable(roll, total):
    return any(sum(subset) == total
               for dice in dice_after_ones(tuple(roll))
               for r in range(1, 5) for subset in itertools.combinations(dice, r))


def test_explain_json_is_exactly_every_option(run_cli):
    code, out, err = run_cli("explain", "mountain-goats", "1", "1", "4", "6", "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert out == json.dumps({"moves": brute_moves((1, 1, 4, 6), False)}) + "\n"
    assert result["moves"][:3] == [[], [5], [5, 5, 6]]
    assert [5, 5] not in result["moves"] and [5, 5, 5] not in result["moves"]


def test_explain_with_the_big_mountain(run_cli):
    code, out, _ = run_cli("explain", "mountain-goats", "1", "1", "4", "6", "--big-mountain", "--json")
    moves = json.loads(out)["moves"]
    assert code == 0 and moves == brute_moves((1, 1, 4, 6), True)
    assert [] not in moves and [12] in moves and [5, 12] in moves and [17] in moves


@pytest.mark.parametrize("big_mountain", [False, True])
def test_explain_matches_brute_force_for_every_roll(big_mountain):
    from companion.games.mountain_goats import explain
    for roll in itertools.combinations_with_replacement(range(1, 7), 4):
        assert explain([str(d) for d in roll], big_mountain)["moves"] == brute_moves(roll, big_mountain), roll


def test_explain_text(run_cli):
    code, out, _ = run_cli("explain", "mountain-goats", "6", "6", "6", "6")
    assert code == 0
    assert out.splitlines() == ["4 different ways to move (group sums that move a goat):", "  no goat moves", "  6",
                                "  6, 6", "  6, 6, 6, 6"]


@pytest.mark.parametrize("args, message", [
    (["1", "2", "3"], "Mountain Goats rolls 4 dice, got 3"),
    (["1", "2", "3", "4", "5"], "Mountain Goats rolls 4 dice, got 5"),
    (["1", "2", "3", "7"], "a die shows a number from 1 to 6, got '7'"),
    (["1", "two", "3", "4"], "a die shows a number from 1 to 6, got 'two'"),
])
def test_explain_bad_input_is_one_line_and_exit_2(run_cli, args, message):
    code, out, err = run_cli("explain", "mountain-goats", *args, "--json")
    assert code == 2 and out == "" and err == f"companion explain: {message}\n"


def test_next_roll_odds_match_an_independent_count(run_cli):
    code, out, _ = run_cli("odds", "mountain-goats", "--json")
    result = json.loads(out)
    assert code == 0 and result["next_roll"]["rolls"] == 1296 and "big_mountain_spaces" not in result["next_roll"]
    rolls = list(itertools.product(range(1, 7), repeat=4))
    for m in MOUNTAINS:
        count = sum(brute_reachable(roll, m) for roll in rolls)
        assert result["next_roll"]["mountains"][str(m)] == {"rolls": count, "probability": count / 1296}
    assert result["next_roll"]["mountains"]["5"]["rolls"] > result["next_roll"]["mountains"]["10"]["rolls"] > 0


def test_next_roll_odds_with_the_big_mountain(run_cli):
    code, out, _ = run_cli("odds", "mountain-goats", "--big-mountain", "--json")
    result = json.loads(out)
    spaces = result["next_roll"]["big_mountain_spaces"]
    rolls = list(itertools.product(range(1, 7), repeat=4))
    for space in (11, 17, 23, 24):
        assert spaces[str(space)]["rolls"] == sum(brute_reachable(roll, space) for roll in rolls)
    assert spaces["24"]["rolls"] == 1  # only 6 6 6 6: a kept 1 caps the rest at 1 + 6 + 6 + 6
    assert set(spaces) == {str(s) for s in range(11, 25)}


def brute_most_groups(roll, total):
    best = 0
    for dice in dice_after_ones(tuple(roll)):
        for labels in itertools.product(range(4), repeat=4):
            best = max(best, sum(1 for g in set(labels) if sum(d for d, l in zip(dice, labels) if l == g) == total))
    return best


def test_token_chances_match_an_independent_count():
    state = GAME.new_state(["A", "B"])
    state.pos[0] = [1, 4, 0, 1, 2, 0]  # needs 5: 3 groups, 6: 1 (on the summit), 7: 3, 8: 2, 9: 1, 10: 2
    state.tokens_left[4] = 0  # no 9s left
    chances = token_chances(state, 0)
    needed = {5: 3, 6: 1, 7: 3, 8: 2, 10: 2}
    counts = {m: 0 for m in MOUNTAINS}
    any_count = 0
    for roll, weight in _multisets():
        hits = [m for m, need in needed.items() if brute_most_groups(roll, m) >= need]
        for m in hits:
            counts[m] += weight
        any_count += weight * bool(hits)
    for m in MOUNTAINS:
        assert chances[str(m)]["rolls"] == counts[m]
    assert chances["9"]["rolls"] == 0 and chances["any"]["rolls"] == any_count
    assert 0 < counts[10] < counts[6] < any_count < 1296


def _multisets():
    weights = {}
    for roll in itertools.product(range(1, 7), repeat=4):
        weights[tuple(sorted(roll))] = weights.get(tuple(sorted(roll)), 0) + 1
    return weights.items()


def test_odds_rank_a_roll_by_points_then_progress(run_cli):
    code, out, _ = run_cli("odds", "mountain-goats", "--roll", "1", "1", "4", "6", "--goats", "10=1", "6=3",
                           "--players", "2", "--json")
    result = json.loads(out)
    assert code == 0 and result["roll"] == [1, 1, 4, 6] and result["players"] == 2
    best = result["moves"][0]
    assert best["points"] == 16 and best["text"] == ("Move the goat on 6 to the summit: take a 6 token; "
                                                     "move the goat on 10 to the summit: take a 10 token")
    keys = [(-m["points"], -m["progress"]) for m in result["moves"]]
    assert keys == sorted(keys)
    assert len({m["text"] for m in result["moves"]}) == len(result["moves"])
    assert result["token_chances"]["10"]["rolls"] == result["next_roll"]["mountains"]["10"]["rolls"]


def test_odds_count_bonus_points_and_say_the_big_mountain_apart():
    state = GAME.new_state(["A", "B"], {"big_mountain": True})
    state.held[0] = [1, 1, 1, 1, 1, 0]
    state.pos[0][5] = 1
    state.apply(Roll((5, 5, 6, 6)))
    moves = odds_for_state(state)["moves"]
    # 5+5 takes the last summit of a set (10 and the 15 bonus); 6+6 would take the lead on the Big Mountain
    # (12 if the game ended now), but that is scored only at the end and space 12 can still be passed
    assert moves[0]["points"] == 10 + 15 and moves[0]["action"] == {"kind": "move", "steps": [6, 6, 10], "big": []}
    assert "big_mountain" not in moves[0]
    assert max(m["points"] for m in moves) == 10 + 15
    twelve = [m for m in moves if any(space == 12 for space, _ in m["action"]["big"])]
    assert twelve and all(m["points"] == (25 if 10 in m["action"]["steps"] else 0) for m in twelve)
    assert {m["big_mountain"]["if_ended_now"] for m in twelve} == {12}  # alone there if the game ended now
    assert {m["big_mountain"]["sure"] for m in twelve} == {0}  # but space 12 can still be passed


def test_odds_for_state_before_and_after_the_roll():
    state = GAME.new_state(["A", "B", "C"])
    before = odds_for_state(state)
    assert before["player"] == 0 and "token_chances" in before and "moves" not in before
    state.apply(Roll((2, 3, 4, 5)))
    after = odds_for_state(state)
    assert after["roll"] == [2, 3, 4, 5] and after["moves"] and json.loads(json.dumps(after)) == after


def test_odds_text(run_cli):
    code, out, _ = run_cli("odds", "mountain-goats", "--roll", "6", "6", "6", "6", "--big-mountain")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "Next roll (4 players, Big Mountain):"
    assert any(line.startswith("Roll 6 6 6 6:") for line in lines)
    assert any("Send the 5 goat to Big Mountain space 24" in line for line in lines)


def test_odds_text_says_the_chance_of_each_sum_not_of_a_move(run_cli):
    """A goat on the summit of 9 with its tokens gone cannot move nor win anything there: the 80.1 % of 9 is only
    the chance that the roll adds up to 9, and the column says so."""
    code, out, _ = run_cli("odds", "mountain-goats", "--goats", "9=2", "--tokens-left", "9=0")
    lines = out.splitlines()
    assert code == 0 and lines[1].split() == ["mountain", "rolls", "its", "number", "you", "take", "a", "token"]
    assert lines[6].split() == ["9", "80.1%", "0.0%"]
    assert "move" not in out


@pytest.mark.parametrize("args, message", [
    (["--roll", "1", "2", "3", "9"], "a die shows a number from 1 to 6, got '9'"),
    (["--goats", "5=9"], "mountain 5 has 4 spaces; a goat cannot stand on space 9"),
    (["--goats", "11=1"], "mountains are numbered 5 to 10"),
    (["--held", "10=9"], "you cannot hold 9 tokens of mountain 10"),
    (["--players", "7"], "invalid choice: 7"),
    (["--goats", "5=1", "5=2"], "--goats gives mountain 5 twice (5=1, 5=2)"),
    (["--tokens-left", "9=3", "9=1"], "--tokens-left gives mountain 9 twice (9=3, 9=1)"),
    (["--held", "6=1", "7=1", "6=2"], "--held gives mountain 6 twice (6=1, 6=2)"),
])
def test_odds_bad_input_is_one_line_and_exit_2(run_cli, args, message):
    code, out, err = run_cli("odds", "mountain-goats", *args, "--json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_odds_of_a_roll_count_the_bonus_token_still_in_the_supply(run_cli):
    """At the table the 15 is often gone: a set completed now takes the highest bonus left, here the 12."""
    args = ["--goats", "5=3", "--held", "6=1", "7=1", "8=1", "9=1", "10=1", "--roll", "5", "2", "2", "2", "--json"]
    code, out, _ = run_cli("odds", "mountain-goats", *args, "--bonus-left", "12", "9", "6")
    best = json.loads(out)["moves"][0]
    assert code == 0 and best["points"] == 5 + 12 and "take the 12 bonus token" in best["text"]
    code, out, _ = run_cli("odds", "mountain-goats", *args)
    assert code == 0 and json.loads(out)["moves"][0]["points"] == 5 + 15


@pytest.mark.parametrize("args, message", [
    (["--bonus-left", "15", "10"], "bonus tokens are 15, 12, 9, 6; got 10"),
    (["--bonus-left", "9", "9"], "--bonus-left gives the 9 twice"),
    (["--held", *[f"{m}=1" for m in range(5, 11)], "--bonus-left", "15", "12", "9", "6"],
     "your complete set of tokens took a bonus token, but --bonus-left leaves none taken"),
])
def test_odds_refuse_a_bonus_supply_that_cannot_be(run_cli, args, message):
    code, out, err = run_cli("odds", "mountain-goats", *args)
    assert code == 2 and out == "" and message in err


def _cli_args_for(state):
    """The command line that describes `state` to its player on turn ("You", the others numbered on from them)."""
    players = len(state.players)
    number = {(state.current + k) % players: k + 1 for k in range(players)}
    mine = state.current
    args = ["--big-mountain", "--players", str(players), "--bonus-left", *map(str, state.bonus_left),
            "--tokens-left", *[f"{m}={left}" for m, left in zip(MOUNTAINS, state.tokens_left)]]
    goats = [f"{m}={p}" for m, p in zip(MOUNTAINS, state.pos[mine]) if p >= 0]
    held = [f"{m}={n}" for m, n in zip(MOUNTAINS, state.held[mine])]
    big_goats = [f"{m}={space}" for space, (owner, m) in state.big.items() if owner == mine]
    others = [f"{space}={number[owner]}" for space, (owner, _) in state.big.items() if owner != mine]
    summits = [f"{m}={number[p]}" for p in range(players) if p != mine
               for m, at, top in zip(MOUNTAINS, state.pos[p], state.summits) if at == top]
    for option, values in (("--goats", goats), ("--held", held), ("--big-goats", big_goats), ("--others-big", others),
                           ("--others-summit", summits)):
        if values:
            args += [option, *values]
    return args, [number[p] - 1 for p in range(players)]


def _as_the_cli_names(state, moves, order):
    """The page's moves with the other players named as the command line numbers them ("player 2")."""
    out = []
    for move in moves:
        text = move["text"]
        for player, cli_index in enumerate(order):
            text = text.replace(f"{state.players[player].name}'s goat", f"player {cli_index + 1}'s goat")
        out.append({**move, "text": text})
    return out


def _big_mountain_games_in_play():
    """States met in whole random Big Mountain games: a player about to roll, goats on the Big Mountain."""
    import random

    from companion.games.simulate import random_step
    from companion.games.api import CHANCE
    found = []
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_state(["Ada", "Ben", "Cleo"][: 2 + seed % 2], {"big_mountain": True})
        while not state.is_over() and len(found) < 3 * (seed + 1):
            random_step(state, rng)
            if state.current_player() == CHANCE and len(state.big) >= 2 and rng.random() < 0.2:
                found.append(state.clone())
    return found


def _without_text(moves):
    """The moves' figures; their words name the other players as each side numbers them."""
    return [{k: v for k, v in move.items() if k != "text"} for move in moves]


def test_odds_describe_a_big_mountain_game_as_the_page_shows_it(run_cli):
    """Goats of every player on the Big Mountain: the command line answers what the page's odds say for the player
    on turn, before the roll and for a roll, with the Big Mountain points in the order it numbers the players."""
    import random
    rng = random.Random(7)
    states = _big_mountain_games_in_play()
    assert len(states) >= 10 and any(owner != s.current for s in states for owner, _ in s.big.values())
    for state in states:
        args, order = _cli_args_for(state)
        page = odds_for_state(state)
        code, out, err = run_cli("odds", "mountain-goats", *args, "--json")
        assert code == 0, err
        result = json.loads(out)
        assert result["next_roll"] == page["next_roll"] and result["token_chances"] == page["token_chances"]
        points = [0] * len(order)
        for player, cli_index in enumerate(order):
            points[cli_index] = page["big_mountain_points"][player]
        assert result["big_mountain_points"] == points
        roll = [rng.randint(1, 6) for _ in range(4)]
        rolled = state.clone()
        rolled.apply(Roll(tuple(roll)))
        code, out, err = run_cli("odds", "mountain-goats", *args, "--roll", *map(str, roll), "--json")
        assert code == 0, err
        page_moves = odds_for_state(rolled)["moves"]
        assert _without_text(json.loads(out)["moves"]) == _without_text(page_moves)


def _summits_held_in_play():
    """States met in whole random games, Big Mountain or not, with a player about to roll and another player's goat
    on a summit."""
    import random

    from companion.games.api import CHANCE
    from companion.games.simulate import random_step
    found = []
    for seed in range(8):
        rng = random.Random(seed)
        state = GAME.new_state(["Ada", "Ben", "Cleo", "Dan"][: 2 + seed % 3], {"big_mountain": seed % 2 == 1})
        while not state.is_over() and len(found) < 2 * (seed + 1):
            random_step(state, rng)
            if state.current_player() == CHANCE and rng.random() < 0.2 and any(
                    at == top for p, goats in enumerate(state.pos) if p != state.current
                    for at, top in zip(goats, state.summits)):
                found.append(state.clone())
    return found


def test_odds_say_whose_goat_goes_back_to_the_foot_as_the_page_does(run_cli):
    """Other players' goats on summits (--others-summit): the moves for a roll, their words included, are the
    page's, so "Ben's goat goes back to the foot" is said (as "player 2's goat ...") where the page says it."""
    states = _summits_held_in_play()
    knocks = 0
    for state in states:
        args, order = _cli_args_for(state)
        if not state.big_mountain:
            args = [a for a in args if a != "--big-mountain"]
        for roll in itertools.combinations_with_replacement(range(1, 7), 4):
            rolled = state.clone()
            rolled.apply(Roll(roll))
            page_moves = ranked_moves(rolled)  # what odds_for_state shows the page once the dice are read
            if not any("goes back to the foot" in move["text"] for move in page_moves):
                continue
            code, out, err = run_cli("odds", "mountain-goats", *args, "--roll", *map(str, roll), "--json")
            assert code == 0, err
            assert json.loads(out)["moves"] == _as_the_cli_names(state, page_moves, order), (args, roll)
            knocks += 1
            break
    assert knocks >= 5, f"only {knocks} of {len(states)} states had a roll that sends a goat back"


def test_odds_text_says_whose_goat_goes_back(run_cli):
    code, out, _ = run_cli("odds", "mountain-goats", "--players", "3", "--goats", "7=2", "--others-summit", "7=3",
                           "--roll", "3", "4", "3", "4")
    assert code == 0
    assert ("   14 points,  1 spaces: Move the goat on 7 to the summit: player 3's goat goes back to the foot, "
            "take two 7 tokens") in out.splitlines()


@pytest.mark.parametrize("args, message", [
    (["--others-summit", "7=1"], "--others-summit 7=1: the other players are 2 to 4; your own goats are given by "
                                 "--goats"),
    (["--players", "2", "--others-summit", "7=3"], "--others-summit 7=3: the other player is 2"),
    (["--others-summit", "7=2", "7=3"], "--others-summit gives mountain 7 twice (7=2, 7=3); give it once"),
    (["--goats", "7=3", "--others-summit", "7=2"],
     "a summit holds one goat: yours (--goats 7=3) and player 2's (--others-summit 7=2) cannot both stand on "
     "mountain 7's"),
    (["--others-summit", "4=2"], "mountains are numbered 5 to 10, got '4=2'"),
    (["--big-mountain", "--players", "2", "--others-summit", "5=2", "--others-big", *[f"{s}=2" for s in range(11, 17)]],
     "player 2 has 6 goats: --others-big puts more on the Big Mountain and its summits (--others-summit)"),
])
def test_odds_refuse_summit_goats_that_cannot_be(run_cli, args, message):
    code, out, err = run_cli("odds", "mountain-goats", *args, "--json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err


def test_odds_text_names_the_big_mountain_points(run_cli):
    code, out, _ = run_cli("odds", "mountain-goats", "--big-mountain", "--players", "3", "--big-goats", "9=20",
                           "--others-big", "22=2", "15=3")
    assert code == 0
    assert "  Big Mountain points if the game ended now: you 12, player 2 16, player 3 8" in out.splitlines()
    assert "20 0.0%" in out and "22 0.0%" in out and "15 0.0%" in out


@pytest.mark.parametrize("args, message", [
    (["--big-goats", "9=20"], "--big-goats 9=20 places goats on the Big Mountain: add --big-mountain"),
    (["--others-big", "18=2"], "--others-big 18=2 places goats on the Big Mountain: add --big-mountain"),
    (["--big-mountain", "--big-goats", "9=30"], "the Big Mountain's spaces are numbered 11 to 24, got '9=30'"),
    (["--big-mountain", "--big-goats", "4=20"], "mountains are numbered 5 to 10, got '4=20'"),
    (["--big-mountain", "--big-goats", "9=20", "9=21"], "--big-goats gives mountain 9 twice (9=20, 9=21)"),
    (["--big-mountain", "--big-goats", "9=20", "--others-big", "20=2"], "Big Mountain space 20 is given twice"),
    (["--big-mountain", "--goats", "9=1", "--big-goats", "9=20"],
     "your goat of mountain 9 cannot stand on its path (--goats 9=1) and on the Big Mountain (--big-goats 9=20)"),
    (["--big-mountain", "--others-big", "20=1"],
     "the other players are 2 to 4; your own goats are given by --big-goats"),
    (["--big-mountain", "--players", "2", "--others-big", "20=3"], "--others-big 20=3: the other player is 2"),
    (["--big-mountain", "--others-big", "x=2"], "expected SPACE=PLAYER like 18=2, got 'x=2'"),
    (["--big-mountain", "--players", "2", "--others-big", *[f"{s}=2" for s in range(11, 18)]],
     "player 2 has 6 goats: --others-big puts more on the Big Mountain"),
])
def test_odds_refuse_big_mountain_goats_that_cannot_be(run_cli, args, message):
    code, out, err = run_cli("odds", "mountain-goats", *args, "--json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err


def engine_big_spaces(roll, big_goats, others_big):
    """What the engine (and so the page) lets the player on turn do on the Big Mountain with this roll: the sets
    of spaces its plans send goats to."""
    from companion.games.mountain_goats.state import ON_BIG
    state = GAME.new_state(["You", "Ben", "Cleo", "Dana", "Eve"], {"big_mountain": True})
    for mountain, space in big_goats:
        state.pos[0][mountain - 5] = ON_BIG
        state.big[space] = (0, mountain)
    for space, player in others_big:
        goats = state.pos[player - 1]
        sent = goats.count(ON_BIG)
        goats[sent] = ON_BIG
        state.big[space] = (player - 1, 5 + sent)
    state.apply(Roll(tuple(roll)))
    return {frozenset(space for space, _ in plan.big) for plan in state.legal_actions()}


@st.composite
def big_mountain_boards(draw):
    """Your goats (mountain=space) and the other players' (space=player) on distinct Big Mountain spaces."""
    spaces = draw(st.lists(st.integers(11, 24), unique=True, max_size=8))
    mine = draw(st.integers(0, min(6, len(spaces))))
    mountains = draw(st.permutations(list(MOUNTAINS)))[:mine]
    others = [(space, draw(st.integers(2, 5))) for space in spaces[mine:]]
    return list(zip(mountains, spaces[:mine])), others


@settings(max_examples=150, deadline=None)
@given(roll=st.lists(st.integers(1, 6), min_size=4, max_size=4), board=big_mountain_boards())
def test_explain_on_a_board_sends_goats_where_the_engine_does(roll, board):
    from companion.games.mountain_goats import explain
    big_goats, others_big = board
    result = explain([str(d) for d in roll], True, big_goats=big_goats, others_big=others_big)
    explained = {frozenset(s for s in option if s > 10) for option in result["moves"]}
    engine = engine_big_spaces(roll, big_goats, others_big)
    assert explained <= engine
    assert set().union(*explained) == set().union(*engine)


def test_explain_a_roll_on_the_board_as_it_is(run_cli):
    code, out, _ = run_cli("explain", "mountain-goats", "6", "6", "5", "5", "--big-mountain", "--json")
    assert code == 0 and [5, 5, 12] in json.loads(out)["moves"] and [11] in json.loads(out)["moves"]
    code, out, err = run_cli("explain", "mountain-goats", "6", "6", "5", "5", "--big-mountain", "--others-big", "12=2",
                             "--big-goats", "5=11", "--json")
    moves = json.loads(out)["moves"]
    assert code == 0 and err == ""
    assert not any(12 in option for option in moves)  # Ben's goat holds 12
    assert [5, 6, 11] in moves  # the 5 brings your goat back from 11 first, so a 6 goat may take it
    assert [11] not in moves and [] in moves  # 5+6 and 5+6: your goat still stands on 11


@pytest.mark.parametrize("args, message", [
    (["--others-big", "12=2"], "--others-big 12=2 places goats on the Big Mountain: add --big-mountain"),
    (["--big-mountain", "--others-big", "12=6"], "--others-big 12=6: the other players are 2 to 5"),
    (["--big-mountain", "--others-big", "12=1"],
     "--others-big 12=1: the other players are 2 to 5; your own goats are given by --big-goats"),
    (["--big-mountain", "--big-goats", "7=12", "--others-big", "12=2"],
     "Big Mountain space 12 is given twice: a space holds one goat"),
    (["--big-mountain", "--big-goats", "7=12", "7=14"],
     "--big-goats gives mountain 7 twice (7=12, 7=14); give it once"),
    (["--big-mountain", "--big-goats", "7=25"], "argument --big-goats: the Big Mountain's spaces are numbered 11 "
                                                "to 24, got '7=25' (see `companion explain --help`)"),
])
def test_explain_bad_board_is_one_line_and_exit_2(run_cli, args, message):
    code, out, err = run_cli("explain", "mountain-goats", "6", "6", "5", "5", *args)
    assert code == 2 and out == "" and err == f"companion explain: {message}\n"


def test_big_mountain_board_is_refused_for_other_games(run_cli):
    code, out, err = run_cli("explain", "matterhorn", "6", "6", "5", "5", "1", "--others-big", "12=2")
    assert code == 2 and err == "companion explain: --others-big is for Mountain Goats, not Matterhorn\n"


@pytest.mark.parametrize("command, once, twice", [
    (["odds", "mountain-goats"], ["--goats", "5=1", "6=2"], ["--goats", "5=1", "--goats", "6=2"]),
    (["odds", "mountain-goats", "--big-mountain"], ["--big-goats", "6=11", "5=12"],
     ["--big-goats", "6=11", "--big-goats", "5=12"]),
    (["odds", "mountain-goats", "--players", "3"], ["--others-summit", "9=2", "10=3", "--held", "9=1", "10=2"],
     ["--others-summit", "9=2", "--others-summit", "10=3", "--held", "9=1", "--held", "10=2"]),
    (["odds", "mountain-goats"], ["--tokens-left", "5=3", "6=2"], ["--tokens-left", "5=3", "--tokens-left", "6=2"]),
    (["explain", "mountain-goats", "6", "5", "1", "1", "--big-mountain"], ["--others-big", "11=2", "12=3"],
     ["--others-big", "11=2", "--others-big", "12=3"]),
    (["odds", "magic-mountain"], ["--figures", "S1=3", "W1=20"], ["--figures", "S1=3", "--figures", "W1=20"]),
])
def test_an_option_given_twice_adds_to_it_as_one_list_would(run_cli, command, once, twice):
    """`--big-goats 6=11 --big-goats 5=12` kept only the last: the odds said You 15 for a board worth 27, and a
    space given in both was never caught as given twice."""
    assert run_cli(*command, *once, "--json") == run_cli(*command, *twice, "--json")
    code, _, err = run_cli(*command, *twice[:2], *twice[:2], "--json")
    assert code == 2 and "twice" in err, err


def test_a_goat_on_the_big_mountain_may_be_said_to_be_at_the_foot_of_its_path(run_cli):
    """Every goat given with --goats (those at the foot as 0, the default) and one of them on the Big Mountain:
    the goat on the Big Mountain comes back to the foot, so "--goats 7=0" agrees with it, and the odds are those
    without it. A goat up its path (7=2) cannot be on the Big Mountain as well."""
    goats = ["--big-mountain", "--roll", "3", "4", "5", "6", "--big-goats", "7=15", "--json", "--goats", "5=2"]
    code, said, err = run_cli("odds", "mountain-goats", *goats, "7=0")
    assert code == 0, err
    code, unsaid, err = run_cli("odds", "mountain-goats", *goats)
    assert code == 0 and json.loads(said) == json.loads(unsaid), err
    assert any("bring the 7 goat back from the Big Mountain to the foot" in move["text"]
               for move in json.loads(said)["moves"])
    code, _, err = run_cli("odds", "mountain-goats", *goats, "7=2")
    assert code == 2 and "your goat of mountain 7 cannot stand on its path (--goats 7=2)" in err
