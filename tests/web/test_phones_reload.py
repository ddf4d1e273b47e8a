"""A phone reloads the page while its player is tapping the dice in: a tab the phone dropped while the family
looked something up, a pull down to refresh. The dice tapped so far were lost, and a child had to tap all nine
Banana Matcho dice again. They are kept for that same roll, and only for it."""
from tests.web.test_browser import browser  # noqa: F401

from tests.web.test_browser import open_page

START = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def chosen(page) -> list[str]:
    return page.locator("#chance-chosen button").all_text_contents()


def test_dice_half_tapped_are_still_there_after_a_reload_and_not_on_the_next_roll(browser, served, service):
    base, _ = served()
    table = service.table
    assert table.request(START).ok
    page, errors = open_page(browser, base, "phone")
    try:
        page.wait_for_selector("#chance:not([hidden])")
        faces = page.locator("#chance-faces button")
        faces.nth(5).click()
        faces.nth(2).click()
        assert chosen(page) == ["6", "3"]
        page.reload()
        page.wait_for_selector("#link.on")
        page.wait_for_selector("#chance:not([hidden])")
        assert chosen(page) == ["6", "3"], "the two dice tapped before the reload are gone"
        assert table.request({"do": "dice", "values": [6, 3, 1, 1]}).ok  # typed on Ben's phone meanwhile
        assert table.request({"do": "play", "action": {"kind": "move", "steps": [], "big": []}}).ok
        page.wait_for_function("window.companionView.game.history_count === 2")
        assert chosen(page) == [], "Ben's roll starts with none tapped"
        page.reload()
        page.wait_for_selector("#link.on")
        page.wait_for_selector("#chance:not([hidden])")
        assert chosen(page) == []
        assert errors == []
    finally:
        page.close()
