"""Long lists of moves on a 320 px phone: Matterhorn's consolation obstacle (48 circles and "Place no obstacle")
and its bonus move. The one move that reads differently ("Place no obstacle", "Skip the bonus move") comes first,
where a child sees it; the many alike ones are short buttons in a grid, each still named by its whole move for
a screen reader, and a tap on one plays that move; a move that ends the game comes after the grid. And a long
entry: Magic Mountain's figures a ball hit, tapped one by one, no longer offer a figure its taps have put on the
goal tile, nor any figure once the taps have decided the game."""
from __future__ import annotations

import copy

import pytest

from .test_browser import browser, new_page  # noqa: F401  (the shared Chromium fixture)

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}
PLAYERS = [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


def request(table, command):
    outcome = table.request(command)
    assert outcome.ok, outcome.message
    return table.view()


def phase(table):
    return table.view()["game"]["state"]["phase"]


def placed(table):
    """Matterhorn with the climbers placed (set-up rolls: Ada 6, Ben 1): Ben to roll."""
    request(table, {"do": "start", "game": "matterhorn", "players": PLAYERS})
    request(table, {"do": "dice", "values": [6]})
    request(table, {"do": "dice", "values": [1]})
    while phase(table) == "setup_place":
        request(table, {"do": "play", "action": table.view()["game"]["legal"][0]["action"]})


def at_consolation(table):
    """Ben's 1 1 1 1 1 reaches no line: the turn is lost, and a consolation obstacle may be placed."""
    placed(table)
    request(table, {"do": "dice", "values": [1, 1, 1, 1, 1]})
    assert phase(table) == "consolation"
    return table.view()


def at_bonus(table):
    """Ben's 3 and 6 set aside for line 12, where climbers stand: a bonus move waits."""
    placed(table)
    request(table, {"do": "dice", "values": [6, 5, 4, 3, 3]})
    view = request(table, {"do": "play", "action": {"kind": "eliminate", "dice": [3, 6], "line": 12}})
    request(table, {"do": "play", "action": view["game"]["legal"][0]["action"]})
    assert phase(table) == "bonus"
    return table.view()


def open_narrow(browser, base):  # noqa: F811
    page = new_page(browser, NARROW)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_selector("#link.on")  # the stream's first view drawn: the buttons are not replaced meanwhile
    page.wait_for_selector("#moves button.move")
    return page, errors


def top(page, locator):
    """How far down the page (px) a button starts."""
    return round(locator.evaluate("(b) => b.getBoundingClientRect().top + window.scrollY"))


def move_buttons(page):
    return page.locator("#moves button.move")


def test_place_no_obstacle_comes_first_and_the_circles_are_a_grid(browser, served, service):  # noqa: F811
    base, _ = served()
    state = at_consolation(service.table)
    texts = [m["text"] for m in state["game"]["legal"]]
    page, errors = open_narrow(browser, base)
    try:
        skip = page.get_by_role("button", name="Place no obstacle", exact=True)
        print(f"'Place no obstacle' starts {top(page, skip)} px down at 320 px")
        assert move_buttons(page).first.text_content() == "Place no obstacle"
        assert top(page, skip) < 2 * NARROW["height"], "no obstacle is far down the page"
        for text in texts:  # each circle's short button is named by its whole move
            assert page.get_by_role("button", name=text, exact=True).count() == 1, text
        last = page.get_by_role("button", name=texts[-2], exact=True)
        print(f"the last circle's button starts {top(page, last)} px down at 320 px")
        assert top(page, last) < 3 * NARROW["height"], "the circles are still a long list"
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], "the page scrolls sideways"
        boxes = [b.bounding_box() for b in move_buttons(page).all()]
        small = [box for box in boxes if box["width"] < 44 or box["height"] < 44]
        assert small == [], "a button is too small to tap"
        before = int(page.evaluate("window.companionView.version"))
        page.get_by_role("button", name="Place a consolation obstacle on line 10, circle 4", exact=True).click()
        page.wait_for_function(f"window.companionView.version > {before}")
        history = page.evaluate("window.companionView.game.history.map((h) => h.text)")
        assert history[-1] == "Place a consolation obstacle on line 10, circle 4"
        assert errors == []
    finally:
        page.close()


def test_skip_the_bonus_move_comes_first(browser, served, service):  # noqa: F811
    base, _ = served()
    state = at_bonus(service.table)
    page, errors = open_narrow(browser, base)
    try:
        skip = page.get_by_role("button", name="Skip the bonus move", exact=True)
        print(f"'Skip the bonus move' starts {top(page, skip)} px down at 320 px")
        assert move_buttons(page).first.text_content() == "Skip the bonus move"
        for move in state["game"]["legal"]:
            assert page.get_by_role("button", name=move["text"], exact=True).count() == 1, move["text"]
        assert errors == []
    finally:
        page.close()


def at_hits(table):
    """The red ball down through opening 1: which figures did it hit?"""
    request(table, {"do": "start", "game": "magic-mountain", "players": PLAYERS})
    request(table, {"do": "dice", "values": ["red"]})
    request(table, {"do": "play", "action": {"kind": "choose_opening", "opening": 1}})
    assert table.view()["game"]["chance"]["kind"] == "hits"


def open_hits(browser, base):  # noqa: F811
    page = new_page(browser, NARROW)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_selector("#link.on")
    page.wait_for_selector("#chance-faces button")
    return page, errors


def faces(page):
    return page.locator("#chance-faces button").all_text_contents()


def test_a_figure_its_taps_put_on_the_goal_tile_is_no_longer_offered(browser, served, service):  # noqa: F811
    """Red spaces: 1, 6, 11, 16, 21, 26; Student 1 on 1 goes to 16 (6 and 11 are taken), 21, 26, then the goal."""
    base, _ = served()
    at_hits(service.table)
    page, errors = open_hits(browser, base)
    try:
        for _ in range(4):
            page.locator("#chance-faces button", has_text="S1").click()
        assert "S1" not in faces(page), "Student 1 is on the goal tile, and still offered"
        assert len(faces(page)) == 9
        page.locator("#chance-chosen button").first.click()  # one tap taken away: Student 1 is back on the path
        assert "S1" in faces(page)
        page.locator("#chance-faces button", has_text="S1").click()
        before = int(page.evaluate("window.companionView.version"))
        page.click("#chance-send")
        page.wait_for_function(f"window.companionView.version > {before}")
        history = page.evaluate("window.companionView.game.history.map((h) => h.text)")
        assert history[-1] == "The ball hit Student 1, then Student 1, then Student 1, then Student 1"
        assert errors == []
    finally:
        page.close()


def test_no_figure_is_offered_once_the_taps_decide_the_game(browser, served, service):  # noqa: F811
    """The engine refuses any hit after the one that ends the game ("the game ended with the hit of Student 6")."""
    base, _ = served()
    table = service.table
    request(table, {"do": "start", "game": "magic-mountain", "players": PLAYERS, "variants": {"students_to_win": 2}})
    request(table, {"do": "dice", "values": ["red"]})
    request(table, {"do": "play", "action": {"kind": "choose_opening", "opening": 1}})
    page, errors = open_hits(browser, base)
    try:
        for figure in ["S1"] * 4 + ["S6"] * 4:  # both students onto the goal tile: two students win
            page.locator("#chance-faces button", has_text=figure).click()
        assert faces(page) == [], "figures are offered after the game is decided; the game refuses them"
        assert not table.request({"do": "dice", "values": ["S1"] * 4 + ["S6"] * 4 + ["W1"]}).ok
        assert errors == []
    finally:
        page.close()


def hits_to_the_goal(state, figure):
    """How many hits of this ball take `figure` onto the goal tile."""
    for hits in range(1, 30):
        trial = copy.deepcopy(state)
        trial.apply(trial.chance_action([figure] * hits))
        if trial.positions[figure] == trial.board.goal:
            return hits
    raise AssertionError(f"no number of hits takes {figure} to the goal")


def test_stopping_with_a_title_comes_after_the_openings(browser, served, service):  # noqa: F811
    """Flipped goal tile: once the students hold a title, "Stop here with the title ..." ends the game. It must
    not be the first button, above the six openings the turn is normally played with."""
    base, _ = served()
    table = service.table
    request(table, {"do": "start", "game": "magic-mountain", "players": PLAYERS, "variants": {"mode": "titles"}})
    for student in ("S1", "S2", "S3", "S4"):  # four students onto the goal tile: the title Beginner
        request(table, {"do": "dice", "values": [table.game.state.bag()[0]]})
        request(table, {"do": "play", "action": {"kind": "choose_opening", "opening": 1}})
        request(table, {"do": "dice", "values": [student] * hits_to_the_goal(table.game.state, student)})
    view = request(table, {"do": "dice", "values": [table.game.state.bag()[0]]})
    stop = next(m["text"] for m in view["game"]["legal"] if m["action"]["kind"] == "end_with_title")
    page, errors = open_narrow(browser, base)
    try:
        texts = [b.get_attribute("aria-label") or b.text_content() for b in move_buttons(page).all()]
        assert texts[-1] == stop and texts[0] != stop, texts
        assert errors == []
    finally:
        page.close()


def test_show_all_moves_by_keyboard_puts_the_focus_on_the_first_move_it_showed(browser, served, service):  # noqa: F811
    """Mountain Goats with Big Mountain, 5 6 4 3: more moves than the list first shows. Enter on "Show all N
    moves" leaves the focus where the keyboard user goes on reading, as the resume list's "Show all" does."""
    base, _ = served()
    request(service.table, {"do": "start", "game": "mountain-goats", "players": PLAYERS,
                            "variants": {"big_mountain": True}})
    request(service.table, {"do": "dice", "values": [5, 6, 4, 3]})
    page, errors = open_narrow(browser, base)
    try:
        before = page.locator("#moves button.move").evaluate_all("(bs) => bs.map((b) => b.dataset.key)")
        page.focus("#moves button.more")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.querySelectorAll('#moves button.move').length > {len(before)}")
        focused = page.evaluate("document.activeElement.dataset.key")
        keys = move_buttons(page).evaluate_all("(bs) => bs.map((b) => b.dataset.key)")
        first_new = next(key for key in keys if key not in before)
        assert focused == first_new, f"the focus is on {focused!r}, not on {first_new!r}, the first move newly shown"
        assert errors == []
    finally:
        page.close()
