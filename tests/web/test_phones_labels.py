"""Moves that differ only at their end are drawn as a grid of short buttons under a heading ("Put the blue ball
in opening:" then 1 … 6). A screen reader going from button to button hears "1", "2", …: the buttons' names
should say the whole move."""
from tests.web.test_browser import browser  # noqa: F401
from tests.web.test_browser import open_page


def test_the_short_buttons_of_a_grid_of_moves_are_named_by_the_whole_move(browser, served, service):
    base, _ = served()
    table = service.table
    assert table.request({"do": "start", "game": "magic-mountain", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    assert table.request({"do": "dice", "values": ["blue"]}).ok  # the ball drawn: which opening?
    page, errors = open_page(browser, base, "phone")
    try:
        page.wait_for_selector("#moves.grid button.move")
        names = [page.locator("#moves button.move").nth(i).evaluate(
            "(b) => b.getAttribute('aria-label') || b.textContent") for i in range(page.locator("#moves button.move").count())]
        assert all("opening" in name for name in names), names
        assert page.get_by_role("button", name="Put the blue ball in opening 3").count() == 1
    finally:
        page.close()
