"""Magic Mountain in two teams for a whole family: the page names each player's team in the turn, the prompts,
the scores, the history and the end."""
from __future__ import annotations

import json

import pytest

from .test_browser import SHOTS, browser, open_page  # noqa: F401  (the shared Chromium fixture)
from .test_odds_on_page import post

pytestmark = pytest.mark.browser


def play_to_the_end(base, game):
    """Every ball hits all the students still on the path, in order: Team Student wins."""
    for _ in range(200):
        if game["over"]:
            return game
        chance = game["chance"]
        if chance and chance["kind"] == "draw":
            game = post(base, {"do": "dice", "values": [chance["faces"][0]]})["game"]
        elif chance and chance["kind"] == "hits":
            game = post(base, {"do": "dice", "values": [f for f in chance["faces"] if f[0] == "S"]})["game"]
        else:
            game = post(base, {"do": "play", "action": game["legal"][0]["action"]})["game"]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("names", [["Ada", "Ben", "Cleo", "Dan"], ["Ada", "Ben", "Cleo", "Dan", "Eve"]])
def test_a_whole_team_game_over_http_names_the_teams_to_the_end(browser, served, names):  # noqa: F811
    base, _ = served()
    players = [{"name": n, "colour": c} for n, c in zip(names, ["red", "blue", "green", "yellow", "purple"])]
    state = post(base, {"do": "start", "game": "magic-mountain", "players": players, "variants": {"mode": "teams"}})
    game = state["game"]
    assert game["chance"]["prompt"] == "Ada (Team Student): draw a ball from the bag."
    game = post(base, {"do": "dice", "values": ["red"]})["game"]
    assert game["prompt"] == "Ada (Team Student): which opening for the red ball?"
    assert game["turn"] == "Ada's turn (Team Student)"
    game = post(base, {"do": "play", "action": game["legal"][0]["action"]})["game"]
    game = post(base, {"do": "dice", "values": []})["game"]
    assert game["prompt"] == "The ball hit nothing: Ada (Team Student), choose a witch to move one space on."
    game = post(base, {"do": "play", "action": game["legal"][0]["action"]})["game"]
    assert game["chance"]["prompt"] == "Ben (Team Witch): draw a ball from the bag."
    game = post(base, {"do": "dice", "values": ["blue"]})["game"]
    assert game["turn"] == "Ben's turn (Team Witch)"
    game = play_to_the_end(base, game)
    students = names[::2]
    assert game["prompt"] == f"Team Student wins: {', '.join(students[:-1])} and {students[-1]}."
    page, errors = open_page(browser, base, "phone", ready="#summary:not([hidden])")
    try:
        assert page.text_content("#summary h2") == f"🎉 {game['prompt'].replace('wins', 'won')[:-1]}!"
        rows = page.locator("#scores tbody tr")
        for i, name in enumerate(names):
            text = rows.nth(i).text_content()
            assert name in text and ("Team Student" if i % 2 == 0 else "Team Witch") in text
            assert ("(winner)" in text) == (i % 2 == 0)
        history = page.locator("#history li").all_text_contents()
        ben, cleo = ("Ben (Team Witch)", "Cleo (Team Student)")
        assert f"{ben}: Put the blue ball in opening 1" in history and f"{cleo}: Put the yellow ball in opening 1" in history
        page.screenshot(path=str(SHOTS / f"magic-mountain-teams-{len(names)}-end-phone.png"), full_page=True)
        assert errors == []
    finally:
        page.close()
