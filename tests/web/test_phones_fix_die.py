"""A die of the roll just read is tapped to fix it; before the fix's face is tapped the game moves on (another
phone plays the move, the camera reads the next roll). The picked die and its faces stay open on the new roll,
and the next tap fixes a die of a roll nobody picked."""
from tests.web.test_browser import browser  # noqa: F401
from companion.events import DiceSettled, DieReading

from tests.web.test_browser import open_page

START = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def readings(values):
    return tuple(DieReading(v, (float(i), 0.0), (float(i), 0.0, i + 1.0, 1.0), 0.95) for i, v in enumerate(values))


def test_a_die_picked_on_a_roll_is_not_still_picked_on_the_next_roll(browser, served, service):
    base, _ = served()
    table = service.table
    assert table.request(START).ok
    page, errors = open_page(browser, base, "phone")
    try:
        table.submit(DiceSettled(t=1, dice=readings([6, 2, 3, 4]))).result(5)  # Ada's roll
        page.wait_for_selector("#reading:not([hidden])")
        page.locator("#reading-dice button").nth(0).click()  # "that 6 was a 5": the die is picked...
        page.wait_for_selector("#fix:not([hidden])")
        # ...and before the 5 is tapped, Ben's phone plays Ada's move and the camera reads Ben's roll
        assert table.request({"do": "play", "action": {"kind": "move", "steps": [], "big": []}}).ok
        table.submit(DiceSettled(t=2, dice=readings([1, 1, 5, 5]))).result(5)
        page.wait_for_function("window.companionView.game.last_reading.values[0] === 1")
        assert page.is_hidden("#fix"), "the faces to fix Ada's die are still open, under Ben's roll"
        assert page.locator("#reading-dice button[aria-pressed=true]").count() == 0, "Ben's first die shows as picked"
        assert errors == []
    finally:
        page.close()
