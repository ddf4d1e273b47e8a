"""The folded "Odds" box says each game's odds in sentences and small tables a family understands ("Chance that
your next roll (5 dice) loses the turn: less than 1%"), at 320 px too: no engine keys ("next roll: mountains:
10: rolls: 1030"), no underscores, no long decimals; an odds object of a shape the page does not know still
reads as plain lines, and the page goes on."""
from __future__ import annotations

import re

import pytest

from .test_browser import browser, new_page  # noqa: F401  (the shared Chromium fixture)
from .test_odds_on_page import matterhorn_to_first_roll, play, post, start

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}


def odds_box(browser, base):  # noqa: F811
    """The page at 320 px with the Odds box opened: (page, its text, its tables as rows of cell texts, errors)."""
    page = new_page(browser, NARROW)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_selector("#live:not([hidden])")
    if page.locator("#odds-box").is_hidden():
        return page, "", [], errors
    page.click("#odds-box summary")
    text = page.text_content("#odds")
    tables = page.evaluate("""() => [...document.querySelectorAll('#odds table')].map((t) =>
        [...t.querySelectorAll('tr')].map((r) => [...r.cells].map((c) => c.textContent.trim())))""")
    return page, text, tables, errors


def assert_plain(page, text, errors):
    assert text.strip(), "the Odds box is empty"
    assert "_" not in text, text
    assert not re.search(r"\d\.\d{3,}", text), f"raw decimals: {text}"
    assert not re.search(r"\b(probability|rolls|by_throw|next_ball|token_chances)\b", text), text
    assert page.locator("#odds ul.odds").count() == 0, "the odds are drawn as the engine's nested lists"
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], "the page scrolls sideways"
    assert errors == []


def test_matterhorn_odds_say_the_chance_to_lose_the_turn(browser, served):  # noqa: F811
    base, _ = served()
    matterhorn_to_first_roll(base)
    page, text, tables, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert "This roll: 4 4 6 4 2." in text
        assert tables[0][0] == ["Choice", "Dice left", "Chance the next roll loses the turn"]
        assert tables[0][1] == ["Keep all dice: line 8", "5", "less than 1%"]
        assert ["Eliminate 2, 4, 4 and 4: line 6", "1", "83%"] in tables[0]
        assert "Every line can still take a token." in text
    finally:
        page.close()


def test_matterhorn_odds_before_a_roll(browser, served):  # noqa: F811
    base, _ = served()
    start(base, "matterhorn")
    page, text, _, errors = odds_box(browser, base)  # the set-up: no odds yet, said so, not an empty box
    try:
        assert_plain(page, text, errors)
        assert text == "No odds for this step: they show during a turn, when there are dice to roll."
    finally:
        page.close()
    state = matterhorn_to_first_roll(base)
    state = post(base, {"do": "play", "action": {"kind": "eliminate", "dice": [2], "line": 6}})
    post(base, {"do": "play", "action": state["game"]["legal"][0]["action"]})  # the token on line 6
    page, text, _, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert "Chance that Ada's next roll (4 dice) loses the turn: 4% (about 1 in 28)." in text, \
            "every phone shows the box: it names the player on turn, not 'your'"
        assert "Lines that can't take a token this turn: 6." in text
    finally:
        page.close()


def test_mountain_goats_odds_say_each_mountains_chance(browser, served):  # noqa: F811
    base, _ = served()
    start(base, "mountain-goats")
    page, text, tables, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert "Ada's chance to win a token this turn: 4%." in text
        # the chance of a group of that sum, not that a goat moves: a goat on its summit does not
        assert tables[0][0] == ["Mountain", "Chance that Ada's next roll has dice adding up to its number",
                                "Chance to win its token this turn"]
        rows = page.evaluate("() => [...document.querySelectorAll('#tip tbody tr')].map((r) => r.cells[0].textContent)")
        assert rows == ["Rolls its number", "Wins a token"]
        assert ["Mountain 10", "79%", "1%"] in tables[0]
        assert ["Mountain 7", "78%", "no chance"] in tables[0]
    finally:
        page.close()
    post(base, {"do": "dice", "values": [5, 5, 5, 5]})
    page, text, tables, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert "This roll: 5 5 5 5." in text
        assert tables[0][1] == ["Move the goat on 10 to the summit: take a 10 token", "+10 points now, climbs 2 steps"]
    finally:
        page.close()


def test_big_mountain_odds_name_the_spaces_and_points(browser, served):  # noqa: F811
    base, _ = served()
    players = [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    post(base, {"do": "start", "game": "mountain-goats", "players": players, "variants": {"big_mountain": True}})
    page, text, tables, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert ["Space 11", "71%"] in tables[1]
        assert ["Space 24", "less than 1%"] in tables[1]
        assert "Big Mountain points if the game ended now: Ada 0 and Ben 0." in text
    finally:
        page.close()


def test_big_mountain_odds_name_whose_roll_and_leave_out_a_taken_space(browser, served):  # noqa: F811
    """Every phone shows the box: the roll is the player's on turn, by name; a space another goat holds is 0%."""
    base, _ = served()
    players = [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    post(base, {"do": "start", "game": "mountain-goats", "players": players, "variants": {"big_mountain": True}})
    state = post(base, {"do": "dice", "values": [2, 3, 5, 6]})
    play(base, state, steps=[], big=[[11, 5]])
    page, text, tables, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        captions = page.evaluate("() => [...document.querySelectorAll('#odds caption')].map((c) => c.textContent)")
        assert captions[0] == "Ben's next roll"
        assert tables[0][0][1] == "Chance that Ben's next roll has dice adding up to its number"
        assert tables[1][0] == ["Space", "Chance that Ben's next roll can send a goat there"]
        assert ["Space 11", "0%"] in tables[1] and ["Space 12", "66%"] in tables[1]
    finally:
        page.close()


def test_banana_matcho_odds_say_who_is_close(browser, served):  # noqa: F811
    base, _ = served()
    start(base, "banana-matcho")
    fruit = ["coconut", "banana", "coconut", "banana", "banana", "pineapple"]
    post(base, {"do": "dice", "values": fruit + ["matcho", "matcho", "blank"]})
    page, text, tables, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert "Ada can make the banana squeak now." in text
        assert ("Ada's fruit dice: coconut, banana, coconut, banana, banana and pineapple. "
                "That is three of a kind, worth 2 spaces.") in text
        assert "Keeping the 3 banana dice and rolling the other 3 gives the best chance to do better: 44%." in text
        assert "Ben's Matcho dice: 2 of 3 show a Matcho." in text
        assert tables[0][1:] == [["1 throw", "17% (1 in 6)"], ["2 throws", "31%"], ["3 throws", "42%"]]
    finally:
        page.close()


def test_banana_matcho_odds_follow_the_dice_the_camera_reads(browser, served, service):  # noqa: F811
    """The odds box said the fruit dice were not rolled yet and nobody could squeak while the camera read a
    combination on each side."""
    from companion.events import DieReading, ZoneState

    def lying(zone, faces):
        dice = tuple(DieReading(f, (float(i), 0.0), (float(i), 0.0, i + 1.0, 1.0), 0.97) for i, f in enumerate(faces))
        service.table.submit(ZoneState(t=10**9, zone=zone, dice=dice)).result(5)

    base, _ = served()
    start(base, "banana-matcho")
    lying("fruit", ["coconut"] * 4 + ["starfruit"] * 2)
    lying("matcho", ["matcho"] * 3)
    page, text, _, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert "Both can make the banana squeak now: the first to squeak wins." in text
        assert "That is four and pair, worth 7 spaces." in text and "Ben's Matcho dice: all 3 show a Matcho!" in text
    finally:
        page.close()


def test_magic_mountain_odds_say_where_the_ball_sends_each_figure(browser, served):  # noqa: F811
    base, _ = served()
    start(base, "magic-mountain")
    page, text, tables, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert "The next ball out of the bag: red 20%, yellow 20%, blue 20%, purple 20% and white 20%." in text
        assert tables[0][0] == ["Figure", "Now on", "red ball", "yellow ball", "blue ball", "purple ball", "white ball"]
    finally:
        page.close()
    post(base, {"do": "dice", "values": ["yellow"]})
    page, text, tables, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert "The yellow ball is in play." in text
        assert "The ball after this one: red 25%, blue 25%, purple 25% and white 25%." in text
        assert ["Student 1", "space 1", "space 7"] in tables[0]
    finally:
        page.close()


@pytest.mark.parametrize("odds, expected", [
    ({"chance_of_rain": 0.123456, "next_thing": {"big_value": 3.14159, "rolls": 4, "probability": 0.5},
      "names": ["a_b", "c"]}, ["Chance of rain: 12%.", "Next thing: 50%.", "Names: a b, c."]),
    ({"error": "odds unavailable: KeyError('x')"}, ["The odds can't be worked out for this moment of the game."]),
])
def test_odds_of_a_shape_the_page_does_not_know_still_read_plainly(browser, served, monkeypatch,  # noqa: F811
                                                                   odds, expected):
    from companion.table import view

    monkeypatch.setattr(view, "_odds", lambda name, state: odds)
    base, _ = served()
    start(base, "mountain-goats")
    page, text, _, errors = odds_box(browser, base)
    try:
        assert_plain(page, text, errors)
        assert page.locator("#odds p").all_text_contents() == expected
        assert page.locator("#moves button.move").count() == 0 and page.locator("#chance-faces button").count() == 6
    finally:
        page.close()
