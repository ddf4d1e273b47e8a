"""A child taps a move twice in quick succession (a double tap, a finger that bounces). The game is right (the
second tap is refused: it carries the step the first one played), but the page then shows a red message saying
someone else played or the camera read a roll, and to look again: nobody else did anything."""
from tests.web.test_browser import browser  # noqa: F401
from tests.web.test_browser import open_page


def test_a_double_tap_on_a_move_plays_it_once_and_blames_nobody(browser, served, service):
    base, _ = served()
    table = service.table
    assert table.request({"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    assert table.request({"do": "dice", "values": [1, 2, 3, 4]}).ok
    page, errors = open_page(browser, base, "phone")
    try:
        page.wait_for_selector("#moves button.move")
        page.locator("#moves button.move").first.dblclick()
        page.wait_for_function("window.companionView.game.history_count === 2")
        page.wait_for_timeout(500)
        assert len(table.view()["game"]["history"]) == 2
        assert page.is_hidden("#toast"), f"the page says: {page.text_content('#toast-text')}"
    finally:
        page.close()
