"""The start screen's "pick up a game in progress" list, in a real Chromium: every unfinished game can be found
and told apart, however many newer ones were started and left."""
from __future__ import annotations

import pytest

from tests.web.test_browser import browser, new_page  # noqa: F401 (the module's browser fixture)

pytestmark = pytest.mark.browser

PLAYERS = [{"name": "Mum", "colour": "red"}, {"name": "Kid", "colour": "blue"}]


def start(table, game="matterhorn", rolls=()):
    assert table.request({"do": "start", "game": game, "players": PLAYERS}).ok
    for value in rolls:
        assert table.request({"do": "dice", "values": [value]}).ok
    return table.view()["game"]["id"]


def games_to_pick_up(browser, served):  # noqa: F811
    """A phone's page on New game, with its list of games to pick up."""
    base, _ = served()
    page = new_page(browser, {"width": 390, "height": 844})
    page.set_default_timeout(10000)
    page.goto(base + "/")
    page.wait_for_selector("#live:not([hidden])")
    page.click("#new-game")
    page.wait_for_selector("#resume-list li")
    return page


def test_a_paused_game_can_be_picked_up_after_many_newer_unfinished_games(browser, served, service):  # noqa: F811
    """Friday's game, then six games started and left at once, then five short games left unfinished, then the
    game in play: Friday's game is still offered, each row says how far it went and when, empty games are not
    offered, and picking Friday's game up brings it back."""
    table = service.table
    friday = start(table, rolls=[3])
    empty = [start(table) for _ in range(6)]
    short = [start(table, rolls=[value] * (i + 2)) for i, value in enumerate((1, 2, 4, 5, 6))]
    start(table, game="mountain-goats")
    page = games_to_pick_up(browser, served)
    keys = lambda: page.eval_on_selector_all("#resume-list button[data-key^='resume:']",  # noqa: E731
                                             "bs => bs.map(b => b.dataset.key)")
    if f"resume:{friday}" not in keys():
        page.click("#resume-more")
        page.wait_for_function(f"document.querySelector(\"[data-key='resume:{friday}']\")")
    shown = keys()
    assert sorted(shown) == sorted(f"resume:{game_id}" for game_id in [friday, *short]), shown
    assert not set(shown) & {f"resume:{game_id}" for game_id in empty}
    texts = page.locator("#resume-list button[data-key^='resume:']").all_inner_texts()
    assert len(set(texts)) == len(texts), f"rows that look the same: {texts}"
    assert all("step" in text and "played" in text for text in texts), texts
    page.click(f"[data-key='resume:{friday}']")
    page.wait_for_function(f"window.companionView.game && window.companionView.game.id === {friday}")
    page.close()


def test_a_game_picked_up_on_the_page_asks_its_squeak_question_again(browser, served, service):  # noqa: F811
    """Banana Matcho left with "who squeaked?" open for Mountain Goats: picked up from the list, the page asks it
    again, with the 9 dice to tap, and the squeak is scored on them."""
    from companion.events import BananaSqueaked

    table = service.table
    duel = ["coconut"] * 4 + ["papaya"] * 2 + ["matcho", "blank", "blank"]
    banana = start(table, game="banana-matcho")
    assert table.request({"do": "dice", "values": duel}).ok
    assert table.submit(BananaSqueaked(t=20)).result(5).ok
    start(table, game="mountain-goats")
    page = games_to_pick_up(browser, served)
    page.click(f"[data-key='resume:{banana}']")
    page.wait_for_selector("#question:not([hidden])")
    assert "tap the 9 dice below" in page.text_content("#question")
    faces = page.locator("#chance-faces button")
    for i in [0, 0, 0, 0, 5, 5, 6, 7, 7]:  # as test_squeak_after_typed_dice taps them
        faces.nth(i).click()
    page.click("#chance-send")
    page.wait_for_function("window.companionView.question === null")
    assert page.evaluate("window.companionView.game.scores") == [7, 0]
    page.close()
