"""What the page advises for a Mountain Goats roll with the Big Mountain (odds.py's ranked moves and the words
odds.js puts on the move buttons). Big Mountain points are scored only at the end, by the rank of the goats
standing there, so a goat on a low space is "1st" only until someone sends a goat higher: the advice must not
sell that as points gained now, nor rank it above real climbs."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.games.mountain_goats import GAME, Roll, odds_for_state
from companion.games.mountain_goats.dice import ROLLS

ODDS_JS = Path(__file__).resolve().parents[2] / "companion" / "web" / "static" / "odds.js"
NAMES = ["Ada", "Ben", "Cy", "Di", "Ed"]


def rolled(players, dice, setup=None):
    state = GAME.new_state(NAMES[:players], {"big_mountain": True})
    if setup:
        setup(state)
    state.apply(Roll(tuple(dice)))
    return state


def sends_low(move):
    return any(space < 17 for space, _ in move["action"]["big"])


def test_points_are_what_the_score_gains_when_the_move_is_played():
    def spread(state):
        state.pos[0] = [4, 2, 0, 1, 0, 2]
        state.held[0] = [1, 1, 1, 1, 1, 0]
        state.big = {20: (1, 7), 13: (0, 9)}
        state.pos[0][4] = -1
    for players, dice, setup in [(3, (2, 3, 5, 6), None), (2, (5, 5, 6, 6), spread), (4, (6, 6, 6, 6), spread),
                                 (2, (4, 5, 6, 6), spread)]:
        state = rolled(players, dice, setup)
        plans = {json.dumps(p.to_json()): p for p in state.legal_actions()}
        for move in odds_for_state(state)["moves"]:
            after = state.clone()
            before = after.scores()[0]
            after.apply(plans[json.dumps(move["action"])])
            assert move["points"] == after.scores()[0] - before, (players, dice, move)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_first_roll_never_ranks_a_low_big_mountain_space_first(players):
    low_first = 0
    for dice, weight in ROLLS:
        top = odds_for_state(rolled(players, dice))["moves"][0]
        low_first += weight * sends_low(top)
    assert low_first == 0


def test_the_first_roll_2356_ranks_the_ordinary_climbs_first():
    moves = odds_for_state(rolled(3, (2, 3, 5, 6)))["moves"]
    assert not moves[0]["action"]["big"] and moves[0]["progress"] == 3
    eleven = next(m for m in moves if m["action"]["big"] == [[11, 5]] and not m["action"]["steps"])
    assert eleven["points"] == 0
    assert eleven["big_mountain"] == {"goats": [{"mountain": 5, "space": 11, "rank": 1, "points_now": 16, "sure": 0}],
                                      "if_ended_now": 16, "sure": 0}


def test_a_space_that_cannot_be_passed_counts_as_sure_points_below_tokens_but_ahead_of_climbs():
    def no_sixes_left(state):
        state.tokens_left[1] = 0
    moves = odds_for_state(rolled(2, (6, 6, 6, 6)))["moves"]  # 2 players: 12/8/4; 24 is 1st for good
    assert moves[0]["action"] == {"kind": "move", "steps": [6, 6, 6, 6], "big": []} and moves[0]["points"] == 6
    moves = odds_for_state(rolled(2, (6, 6, 6, 6), no_sixes_left))["moves"]
    top = moves[0]
    assert top["action"]["big"] and top["action"]["big"][0][0] == 24 and top["points"] == 0
    assert top["big_mountain"]["sure"] == 12 and top["big_mountain"]["if_ended_now"] == 12
    after_24 = next(m for m in moves if all(space != 24 for space, _ in m["action"]["big"]))
    assert after_24["action"]["steps"] == [6, 6, 6, 6] and after_24["progress"] == 4
    eighteen = next(m for m in moves if m["action"]["big"] and m["action"]["big"][0][0] == 18)
    assert eighteen["big_mountain"]["sure"] == 0


# -- the words on the page (odds.js run in node as the page runs it) ------------------------------------
def page_help(state):
    if shutil.which("node") is None:
        pytest.skip("node is not installed (./dev test installs it)")
    view = {"name": "mountain-goats", "players": [{"name": n} for n in NAMES[:len(state.players)]],
            "legal": state.describe_legal(), "odds": odds_for_state(state), "chance": None, "over": False}
    script = ("global.window = {}; require(process.argv[1]);"
              "const help = window.CompanionOdds.forGame(JSON.parse(require('fs').readFileSync(0, 'utf8')));"
              "console.log(JSON.stringify({foldAfter: help.foldAfter, moves: help.moves.map((e) => ({"
              "action: e.move.action, text: e.move.text, note: e.note ? e.note.text : null, best: !!e.best}))}));")
    done = subprocess.run(["node", "-e", script, str(ODDS_JS)], input=json.dumps(view), capture_output=True,
                          text=True, check=True, timeout=30)
    return json.loads(done.stdout)


def test_the_page_does_not_promise_points_for_a_big_mountain_standing():
    help = page_help(rolled(3, (2, 3, 5, 6)))
    shown = help["moves"][:help["foldAfter"]]
    assert not shown[0]["action"]["big"]
    for move in help["moves"]:
        if move["action"]["big"]:
            assert "point" not in move["note"].split("Big Mountain")[0], move  # no "+16 points" for a standing
            assert "Big Mountain: 1st for now (scored at the end)" in move["note"] or "Big Mountain: 2nd" in move["note"] \
                or "Big Mountain: 1st to stay" in move["note"], move
    assert not any(m["best"] and m["action"]["big"] for m in help["moves"])


def test_the_six_goats_that_could_go_to_one_space_are_one_entry_in_the_shown_moves():
    help = page_help(rolled(3, (2, 3, 5, 6)))
    shown = help["moves"][:help["foldAfter"]]
    kinds = [(tuple(m["action"]["steps"]), tuple(sorted(s for s, _ in m["action"]["big"]))) for m in shown]
    assert len(kinds) == len(set(kinds)), [m["text"] for m in shown]
    assert len(help["moves"]) == len(odds_for_state(rolled(3, (2, 3, 5, 6)))["moves"])  # all still there


def test_a_goat_sent_off_its_path_is_not_said_to_climb_minus_steps():
    def on_summit(state):
        state.pos[0][0] = state.summits[0]  # Ada's 5 goat on its summit
    help = page_help(rolled(2, (6, 6, 6, 6), on_summit))
    notes = {m["text"]: m["note"] for m in help["moves"]}
    assert not [n for n in notes.values() if "climbs -" in n or "climbs 0" in n]
    assert "gives up 4 steps" in notes["Send the 5 goat to Big Mountain space 12"]
    assert notes["Send the 5 goat to Big Mountain space 24"] == \
        "gives up 4 steps, Big Mountain: 1st to stay (12 points at the end)"
    assert notes["Move the goat on 6 to the summit: take a 6 token"] == "+6 points, climbs 4 steps"
