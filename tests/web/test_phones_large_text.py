"""A 320 px phone at 200 % text (the root font 32 px, as Android's largest "font size"): the board's numbers and
initials grow with the text (the SVG board drew them at ~9 px whatever the text size), and a board then wider
than the screen says so and scrolls in its own box, never the page; the tip and odds tables fit the screen
(each row a card of "column: value") instead of hiding columns off its edge. Real Chromium, as in test_browser."""
from __future__ import annotations

import pytest

from .test_browser import DOUBLE_TEXT, NARROW, browser, drawn, open_page  # noqa: F401  (the shared Chromium fixture)
from .test_page_long_moves import PLAYERS, request

pytestmark = pytest.mark.browser

BOARD = "#board svg"  # the page is loaded once its board is drawn
GAMES = ["matterhorn", "mountain-goats", "magic-mountain", "banana-matcho"]

# Every word and number on the board with the size (px) it is drawn at on the screen.
BOARD_TEXTS = """() => [...document.querySelectorAll('#board svg text')]
    .map((t) => [t.textContent, Number(t.getAttribute('font-size')) * t.getScreenCTM().a])"""
BOARD_HINT_SHOWN = """() => { const box = document.getElementById('board');
    const hint = document.getElementById('board-hint');
    return { wider: box.scrollWidth > box.clientWidth + 1,
             hint: hint.getClientRects().length ? hint.textContent : '' }; }"""
# Each table shown in the tip or the odds box that is wider than its box: [where, its width, the box's width].
TABLES_CUT = """() => [...document.querySelectorAll('#tip table, #odds table')].filter((t) => t.getClientRects().length)
    .map((t) => [t.closest('[id]').id, Math.round(t.scrollWidth), Math.round(t.parentElement.clientWidth)])
    .filter(([, wide, room]) => wide > room + 1)"""


def at_normal_and_double_text(page, script):
    """What `script` measures on the page at its normal text, then at double text."""
    normal = page.evaluate(script)
    page.add_style_tag(content=DOUBLE_TEXT)
    drawn(page)
    return normal, page.evaluate(script)


@pytest.mark.parametrize("game", GAMES)
def test_the_boards_words_grow_with_double_text_and_the_board_says_it_scrolls(browser, served, service, game):
    base, _ = served()
    request(service.table, {"do": "start", "game": game, "players": PLAYERS})
    page, errors = open_page(browser, base, NARROW, BOARD)
    try:
        normal, larger = at_normal_and_double_text(page, BOARD_TEXTS)
        assert [words for words, _ in larger] == [words for words, _ in normal]
        small = [(words, round(px, 1)) for (words, px), (_, before) in zip(larger, normal) if px < 1.8 * before]
        assert not small, f"{game}: board words that did not grow with the text: {small[:6]}"
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], "the page scrolls sideways"
        shown = page.evaluate(BOARD_HINT_SHOWN)
        assert not shown["wider"] or "sideways" in shown["hint"], f"{game}: a board wider than the screen, unsaid"
        assert errors == []
    finally:
        page.close()


def test_the_board_is_as_before_at_normal_text(browser, served, service):  # noqa: F811
    base, _ = served()
    request(service.table, {"do": "start", "game": "matterhorn", "players": PLAYERS})
    page, errors = open_page(browser, base, NARROW, BOARD)
    try:
        assert page.evaluate("document.querySelector('#board svg').getBoundingClientRect().width") == 292
        assert page.evaluate(BOARD_HINT_SHOWN) == {"wider": False, "hint": ""}
    finally:
        page.close()


@pytest.mark.parametrize("game", ["mountain-goats", "magic-mountain"])
@pytest.mark.parametrize("text", ["normal", "double"])
def test_the_tip_and_odds_tables_fit_the_screen(browser, served, service, game, text):
    """Mountain Goats' mountains and Magic Mountain's colours, in the tip and the odds box: every column on the
    screen, each value still named by its column."""
    base, _ = served()
    request(service.table, {"do": "start", "game": game, "players": PLAYERS})
    page, errors = open_page(browser, base, NARROW, BOARD)
    try:
        if text == "double":
            page.add_style_tag(content=DOUBLE_TEXT)
        page.click("#odds-box summary")
        if page.locator("#tip summary").count():
            page.click("#tip summary")
        drawn(page)
        assert page.locator("#tip table").count() == 1 and page.locator("#odds table").count() >= 1
        assert page.evaluate(TABLES_CUT) == [], f"{game}: tables wider than the screen"
        labels = page.evaluate("""() => [...document.querySelectorAll('#tip td:not(:first-child)')].map((c) =>
            getComputedStyle(c, '::before').content + ' ' + c.textContent)""")
        if page.locator("#tip .cards").count():
            assert all(label.startswith('"') for label in labels), f"values without their column: {labels[:4]}"
        chances = page.evaluate("""() => [...document.querySelectorAll('#tip thead small')].map((s) =>
            [s.textContent, s.closest('thead').getBoundingClientRect().height > 10
                            && s.getBoundingClientRect().right <= innerWidth])""")
        assert all(seen for _, seen in chances), f"each ball's chance, off the screen: {chances}"
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
        assert errors == []
    finally:
        page.close()


def test_the_seven_inch_screen_keeps_the_whole_board_beside_the_moves_at_double_text(browser, served, service):
    """800×480 (the Pi's touchscreen, a phone held sideways): the board stays whole in its column, where it stays
    in view beside the moves; grown wider it would be cut, and grown taller than the screen never seen whole."""
    base, _ = served()
    request(service.table, {"do": "start", "game": "magic-mountain", "players": PLAYERS})
    page, _ = open_page(browser, base, {"width": 800, "height": 480}, BOARD, DOUBLE_TEXT)
    try:
        drawn(page)
        assert page.evaluate(BOARD_HINT_SHOWN) == {"wider": False, "hint": ""}
        assert page.evaluate("document.querySelector('#board svg').getBoundingClientRect().height") <= 480 - 118
    finally:
        page.close()


# Sizes set in px on the page, measured at normal and at double text: each player's colour dot, and how many of
# the history's lines (in its font sizes) its box shows before it scrolls.
SIZES = """() => { const history = getComputedStyle(document.getElementById('history'));
    return { dot: document.querySelector('#scores .dot').getBoundingClientRect().height,
             lines: parseFloat(history.maxHeight) / parseFloat(history.fontSize) }; }"""


def test_the_colour_dots_and_the_historys_lines_follow_the_text_size(browser, served, service):
    base, _ = served()
    request(service.table, {"do": "start", "game": "matterhorn", "players": PLAYERS})
    page, errors = open_page(browser, base, NARROW, BOARD)
    try:
        normal, larger = at_normal_and_double_text(page, SIZES)
        assert larger["dot"] >= 1.8 * normal["dot"], f"the colour dots: {normal['dot']} -> {larger['dot']} px"
        assert larger["lines"] >= 0.9 * normal["lines"], (
            f"the history holds {normal['lines']:.1f} text heights at normal text, {larger['lines']:.1f} at double")
        assert errors == []
    finally:
        page.close()


def test_a_long_name_in_the_turn_heading_keeps_the_page_within_the_screen(browser, served, service):
    """'Christopher's turn' at double text: the name is one word wider than a 320 px screen at the heading's size;
    it made the whole page scroll sideways."""
    base, _ = served()
    players = [{"name": "Christopher", "colour": "red"}, {"name": "Maximiliana", "colour": "blue"}]
    request(service.table, {"do": "start", "game": "mountain-goats", "players": players})
    request(service.table, {"do": "dice", "values": [1, 1, 3, 4]})
    page, errors = open_page(browser, base, NARROW, BOARD)
    try:
        page.add_style_tag(content=DOUBLE_TEXT)
        drawn(page)
        assert page.text_content("#turn") == "Christopher's turn"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW["width"], f"the page is {width} px wide: it scrolls sideways"
        lines = page.evaluate("""() => { const turn = document.getElementById('turn');
            const style = getComputedStyle(turn);
            const line = parseFloat(style.lineHeight) || 1.25 * parseFloat(style.fontSize);
            return Math.round(turn.getBoundingClientRect().height / line); }""")
        assert lines <= 2, f"'Christopher's turn' broken over {lines} lines"
        assert errors == []
    finally:
        page.close()


def test_a_long_one_word_name_in_the_scores_keeps_the_page_within_the_screen(browser, served, service):
    """'GrandpaJoseph' at double text: a table cell's narrowest width ignored the page's word breaking, so the
    scores table pushed the score off a 320 px screen and the page scrolled sideways."""
    base, _ = served()
    players = [{"name": "GrandpaJoseph", "colour": "red"}, {"name": "Ada", "colour": "blue"}]
    request(service.table, {"do": "start", "game": "matterhorn", "players": players})
    page, errors = open_page(browser, base, NARROW, BOARD)
    try:
        page.add_style_tag(content=DOUBLE_TEXT)
        drawn(page)
        right = page.evaluate("() => Math.round(document.querySelector('#scores').getBoundingClientRect().right)")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROW["width"] and right <= NARROW["width"], \
            f"the scores table ends at {right} px, the page is {width} px wide"
        assert errors == []
    finally:
        page.close()


@pytest.mark.parametrize("game", ["matterhorn", "mountain-goats"])
def test_a_tablets_board_that_nearly_fits_is_not_made_to_scroll_at_double_text(browser, served, service, game):
    """A 1024x768 tablet at 200% text: the board was widened past its 564 px box by 12 px, so it scrolled and the
    page said "Swipe the board sideways" for a board that is, to the eye, whole."""
    base, _ = served()
    request(service.table, {"do": "start", "game": game, "players": PLAYERS})
    page, _ = open_page(browser, base, {"width": 1024, "height": 768}, BOARD, DOUBLE_TEXT)
    try:
        drawn(page)
        wide, room = page.evaluate("() => [document.getElementById('board').scrollWidth,"
                                   " document.getElementById('board').clientWidth]")
        hint = page.is_visible("#board-hint")
        assert wide <= room + 1 or wide > 1.1 * room, f"the board scrolls by {wide - room} px (hint shown: {hint})"
    finally:
        page.close()
