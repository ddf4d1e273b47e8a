"""A roll is asked about ("I am not sure about die 3") and its dice are shown to confirm; the dice are thrown
again (a bump, a re-roll) and the camera asks about the new roll, with the same words. The page keeps showing
the first roll's dice, and one tap on Confirm plays them for the new roll."""
from tests.web.test_browser import browser  # noqa: F401
from companion.events import DiceSettled, DieReading

from tests.web.test_browser import open_page

START = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def unsure_third(values):
    return tuple(DieReading(v, (float(i), 0.0), (float(i), 0.0, i + 1.0, 1.0), 0.5, unsure=(i == 2))
                 for i, v in enumerate(values))


def test_a_new_roll_asked_about_with_the_same_words_shows_its_own_dice(browser, served, service):
    base, _ = served()
    table = service.table
    assert table.request(START).ok
    page, errors = open_page(browser, base, "phone")
    try:
        table.submit(DiceSettled(t=1, dice=unsure_third([6, 2, 3, 4]))).result(5)
        page.wait_for_selector("#question:not([hidden])")
        assert page.locator("#chance-chosen button").all_text_contents() == ["6", "2", "3", "4"]
        table.submit(DiceSettled(t=2, dice=unsure_third([1, 5, 3, 2]))).result(5)  # thrown again
        page.wait_for_function("window.companionView.question.reading.values[0] === 1")
        shown = page.locator("#chance-chosen button").all_text_contents()
        assert shown == ["1", "5", "3", "2"], f"the tray shows 1 5 3 2; the page offers {shown} to confirm"
        assert errors == []
    finally:
        page.close()
