"""Magic Mountain in two teams for a whole family: the form lets each player pick a team (players side by side
need not type their names alternately), and the page names each player's team in the turn, the prompts, the
scores and the end."""
from __future__ import annotations

import json

import pytest

from .test_browser import SHOTS, browser, open_page  # noqa: F401  (the shared Chromium fixture)
from .test_odds_on_page import post

pytestmark = pytest.mark.browser


def fill_players(page, names):
    page.click("button[data-game='magic-mountain']")
    for _ in range(len(names) - 2):
        page.click("#add-player")
    rows = page.locator("#players li")
    for i, name in enumerate(names):
        rows.nth(i).locator("input.name").fill(name)
    page.select_option("#variant-mode", json.dumps("teams"))


def pick_teams(page, teams):
    rows = page.locator("#players li")
    for i, team in enumerate(teams):
        rows.nth(i).locator("select.team").select_option(str(team))


def test_a_family_side_by_side_picks_its_teams_and_sees_them(browser, served, service):  # noqa: F811
    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        fill_players(page, ["Ada", "Ben", "Cleo", "Dan"])
        assert page.locator("#players select.team:visible").count() == 4
        pick_teams(page, [0, 0, 1, 1])  # the parents against the children
        summary = page.locator("#team-summary")
        assert summary.locator("[data-team='0']").text_content() == "Team Student (plays first): Ada, Ben"
        assert summary.locator("[data-team='1']").text_content() == "Team Witch: Cleo, Dan"
        assert page.locator(".team-problem").count() == 0
        page.click("#add-player")  # a fifth player joins the team short of one, then leaves again
        assert page.locator("#players li").nth(4).locator("select.team").input_value() == "0"
        assert summary.locator("[data-team='0']").text_content() == "Team Student (plays first): Ada, Ben, Player 5"
        page.locator("#players li").nth(4).locator("button.remove").click()
        page.screenshot(path=str(SHOTS / "magic-mountain-teams-form-phone.png"), full_page=True)
        page.select_option("#variant-mode", json.dumps("cooperative"))
        assert page.locator("#players select.team:visible").count() == 0 and summary.is_hidden()
        page.select_option("#variant-mode", json.dumps("teams"))
        assert summary.locator("[data-team='0']").text_content() == "Team Student (plays first): Ada, Ben", "kept"
        page.click("#start-game")
        page.wait_for_selector("#live:not([hidden])")
        game = service.table.view()["game"]
        assert [p["name"] for p in game["players"]] == ["Ada", "Cleo", "Ben", "Dan"], "seated as the engine forms teams"
        assert game["teams"] == [{"name": "Team Student", "players": [0, 2]},
                                 {"name": "Team Witch", "players": [1, 3]}]
        assert "Ada (Team Student): draw a ball" in page.text_content("#prompt")
        rows = page.locator("#scores tbody tr").all_text_contents()
        assert [row.split(" · ")[1].rstrip("0123456789") for row in rows] == [
            "Team Student", "Team Witch", "Team Student", "Team Witch"]
        assert errors == []
    finally:
        page.close()


def test_teams_that_do_not_fit_are_said_and_not_started(browser, served, service):  # noqa: F811
    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        fill_players(page, ["Ada", "Ben", "Cleo", "Dan", "Eve"])
        pick_teams(page, [1, 1, 1, 0, 0])
        problem = page.locator("#team-summary .team-problem")
        assert problem.text_content() == ("With 5 players the teams are 3 players on Team Student and 2 on Team Witch "
                                          "(Team Student takes the odd one): move one player from Team Witch to "
                                          "Team Student.")
        page.click("#start-game")
        page.wait_for_selector("#toast:not([hidden])")
        assert "move one player from Team Witch" in page.text_content("#toast")
        assert service.table.view().get("game") is None
        page.locator("#players li").nth(0).locator("select.team").select_option("0")
        assert problem.count() == 0
        page.click("#start-game")
        page.wait_for_selector("#live:not([hidden])")
        players = [p["name"] for p in service.table.view()["game"]["players"]]
        assert players == ["Ada", "Ben", "Dan", "Cleo", "Eve"]
        assert errors == []
    finally:
        page.close()


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
