"""A child on a small phone taps a die or a move low on the page, below the board: whose turn it is next must
still be on the screen without scrolling back up (the turn's heading had scrolled off the top after nearly every
tap), and what says it must never lie over what the child taps next; the next step's dice or choices, drawn
higher up than the move just tapped, come into view rather than stay above the screen. Real Chromium, as in
test_browser."""
from __future__ import annotations

import pytest

from .test_browser import DOUBLE_TEXT, browser, open_page, start_game, step  # noqa: F401  (the shared Chromium)

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 320, "height": 568}
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
    const above = action && action.getBoundingClientRect().bottom
        <= (bar && bar.getClientRects().length ? bar.getBoundingClientRect().bottom : 0);
    return { turn: heading.textContent, shown: shown ? shown.textContent : null, covered: !!covered, above: !!above,
             lines: shown && shown === bar ? Math.round(bar.getBoundingClientRect().height
                                               / parseFloat(getComputedStyle(bar).lineHeight)) : 1 }; }"""


@pytest.mark.parametrize("text", ["", DOUBLE_TEXT], ids=["normal-text", "double-text"])
@pytest.mark.parametrize("game", ["matterhorn", "mountain-goats", "magic-mountain", "banana-matcho"])
def test_whose_turn_stays_in_sight_after_each_tap_on_a_small_phone(browser, served, game, text):
    base, _ = served()
    page, errors = open_page(browser, base, SMALL_PHONE, text=text)
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
            assert not seen["above"], f"tap {tap + 1}: the next thing to tap is above the screen"
        assert errors == []
    finally:
        page.close()
