"""A child on a small phone or the Pi's 800×480 touchscreen taps a die or a move low on the page, below the board:
whose turn it is next must still be on the screen without scrolling back up (the turn's heading had scrolled off
the top after nearly every tap), and what says it must never lie over what the child taps next nor over the
board kept beside the moves; the next step's dice or choices, drawn higher up than the move just tapped, come
into view rather than stay above the screen. Real Chromium, as in test_browser."""
from __future__ import annotations

import pytest

from .test_browser import DOUBLE_TEXT, browser, open_page, start_game, step  # noqa: F401  (the shared Chromium)

pytestmark = pytest.mark.browser

SCREENS = {"small-phone": {"width": 320, "height": 568}, "seven-inch": {"width": 800, "height": 480}}
# Whose turn the screen shows: the heading when it is on the screen, else the line kept at the top.
TURN_IN_SIGHT = """() => { const inside = (r) => r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
    const heading = document.getElementById('turn'), bar = document.getElementById('turn-bar');
    const shown = inside(heading.getBoundingClientRect()) ? heading
                  : bar && bar.getClientRects().length && inside(bar.getBoundingClientRect()) ? bar : null;
    const action = document.querySelector('#question:not([hidden]) button, #chance:not([hidden]) #chance-faces button,'
                                          + ' #moves button.move');
    const covered = bar && bar.getClientRects().length && action
        && action.getBoundingClientRect().top < bar.getBoundingClientRect().bottom - 1
        && action.getBoundingClientRect().bottom > 0;
    const board = document.querySelector('#board svg').getBoundingClientRect();
    const boardCovered = bar && bar.getClientRects().length && board.bottom > 0
        && board.top < bar.getBoundingClientRect().bottom - 1;
    const above = action && action.getBoundingClientRect().bottom
        <= (bar && bar.getClientRects().length ? bar.getBoundingClientRect().bottom : 0);
    return { turn: heading.textContent, shown: shown ? shown.textContent : null, covered: !!covered, above: !!above,
             boardCovered: !!boardCovered,
             lines: shown && shown === bar ? Math.round(bar.getBoundingClientRect().height
                                               / parseFloat(getComputedStyle(bar).lineHeight)) : 1 }; }"""


@pytest.mark.parametrize("text", ["", DOUBLE_TEXT], ids=["normal-text", "double-text"])
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("game", ["matterhorn", "mountain-goats", "magic-mountain", "banana-matcho"])
def test_whose_turn_stays_in_sight_after_each_tap(browser, served, game, screen, text):
    base, _ = served()
    page, errors = open_page(browser, base, SCREENS[screen], text=text)
    try:
        start_game(page, game)
        for tap in range(12):
            if page.evaluate("window.companionView.game.over"):
                break
            step(page)
            seen = page.evaluate(TURN_IN_SIGHT)
            assert seen["shown"] == seen["turn"], f"tap {tap + 1}: '{seen['turn']}' is off the screen"
            assert seen["lines"] <= 2, f"tap {tap + 1}: the turn's line takes {seen['lines']} lines"
            assert not seen["covered"], f"tap {tap + 1}: the turn's line lies over the next thing to tap"
            if screen == "seven-inch":
                assert not seen["boardCovered"], f"tap {tap + 1}: the turn's line lies over the board beside the moves"
            assert not seen["above"], f"tap {tap + 1}: the next thing to tap is above the screen"
        assert errors == []
    finally:
        page.close()


def test_a_long_team_turn_keeps_to_two_lines_at_the_top_of_a_small_phone(browser, served):
    """"Christopher's turn (Team Student)" at 200 % text took three lines at the top of a 320 px screen, a quarter
    of it, over the scores the child scrolled down to; so did "Maximiliana (Team Witch): draw a ball from the bag"."""
    from .test_magic_mountain_teams import fill_players

    base, _ = served()
    page, errors = open_page(browser, base, SCREENS["small-phone"], text=DOUBLE_TEXT)
    try:
        fill_players(page, ["Christopher", "Maximiliana", "Cleo", "Dan"])
        page.click("#start-game")
        page.wait_for_selector("#live:not([hidden])")
        lines = {}
        for _ in range(8):
            step(page)
            page.locator("#scores").scroll_into_view_if_needed()
            page.wait_for_selector("#turn-bar:not([hidden])")
            seen = page.evaluate(TURN_IN_SIGHT)
            assert seen["shown"] == seen["turn"]
            lines[seen["turn"]] = seen["lines"]
        assert "Christopher's turn (Team Student)" in lines and any("draw a ball" in t for t in lines), lines
        assert all(n <= 2 for n in lines.values()), f"lines the turn's line takes: {lines}"
        assert page.evaluate("document.scrollingElement.scrollWidth") <= SCREENS["small-phone"]["width"]
        assert errors == []
    finally:
        page.close()


SCORES_TOP = "Math.round(document.getElementById('scores').getBoundingClientRect().top)"
STEP_ABOVE = """() => [...document.querySelectorAll('#chance:not([hidden]) #chance-faces button, #moves button.move')]
                    .every((b) => b.getBoundingClientRect().bottom <= 0)"""


def another_phone_plays(service) -> None:
    """A step tapped on another phone at the table: the roll the game waits for, or its first move."""
    shown = service.table.view()
    game = shown["game"]
    command = ({"do": "dice", "values": [game["chance"]["faces"][0]] * (game["chance"]["count"] or 1)}
               if game["chance"] else {"do": "play", "action": game["legal"][0]["action"]})
    assert service.table.request({**command, "seen": shown["step"]}).ok


@pytest.mark.parametrize("text", ["", DOUBLE_TEXT], ids=["normal-text", "double-text"])
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("game", ["matterhorn", "mountain-goats"])
def test_a_child_reading_the_scores_stays_there_when_another_phone_plays(browser, served, service, game, screen,
                                                                          text):
    """Every step another phone tapped pulled this phone back up to the next step's dice or moves: a child reading
    the scores, or the odds, lower on the page lost their place at each tap at the table."""
    base, _ = served()
    page, errors = open_page(browser, base, SCREENS[screen], text=text)
    try:
        start_game(page, game)
        page.locator("#history-box summary").click()  # its steps make the page long enough to scroll away from the step
        away = 0
        for tap in range(8):
            page.evaluate("window.scrollTo(0, scrollY + document.getElementById('scores').getBoundingClientRect().top"
                          " - 60)")
            where = page.evaluate(SCORES_TOP)
            before = int(page.evaluate("window.companionView.version"))
            step_above = page.evaluate(STEP_ABOVE)
            another_phone_plays(service)
            page.wait_for_function(f"window.companionView.version > {before}")
            if step_above:  # the child scrolled away from the step (on a short page the step is in sight)
                away += 1
                moved = page.evaluate(SCORES_TOP) - where  # a pixel: the browser keeping its place to a fraction
                assert abs(moved) <= 1, f"step {tap + 1} of another phone moved the scores by {moved} px"
        assert away >= 3
        assert errors == []
    finally:
        page.close()


TAP_NOT_PLAYED = {
    "refused": lambda route: route.fulfill(status=400, content_type="application/json",
                                           body='{"ok": false, "message": "not now"}'),
    "lost-on-the-network": lambda route: route.abort(),
}


@pytest.mark.parametrize("answer", TAP_NOT_PLAYED)
def test_a_tap_not_played_does_not_make_the_next_step_of_another_phone_this_ones_to_follow(browser, served, service,
                                                                                          answer):
    """A tap the table refused, or one lost on the network, left the page waiting to follow 'its' next step: the
    child scrolled on to the scores, another phone played, and the page pulled the child back up."""
    base, _ = served()
    page, errors = open_page(browser, base, SCREENS["small-phone"], text=DOUBLE_TEXT)
    try:
        start_game(page, "mountain-goats")
        step(page)
        page.route("**/api/command", TAP_NOT_PLAYED[answer])
        page.locator("#moves button.move").first.click()
        page.wait_for_selector("#toast:not([hidden])")
        page.unroute("**/api/command")
        page.evaluate("document.getElementById('history-box').open = true")  # the toast may lie over its summary
        page.evaluate("window.scrollTo(0, scrollY + document.getElementById('scores').getBoundingClientRect().top - 60)")
        assert page.evaluate(STEP_ABOVE), "the child scrolled away from the step"
        where = page.evaluate(SCORES_TOP)
        before = int(page.evaluate("window.companionView.version"))
        another_phone_plays(service)
        page.wait_for_function(f"window.companionView.version > {before}")
        moved = page.evaluate(SCORES_TOP) - where
        assert abs(moved) <= 1, f"another phone's step moved the scores by {moved} px"
        assert errors == []
    finally:
        page.close()
