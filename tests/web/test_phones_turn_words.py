"""At a roll, a draw or a ball rolling down, the turn's line said "Roll the dice", "Draw from the bag" or "What
happened?": nobody's name, and the scores marked nobody's turn, so every child at the table could think the dice
were theirs to roll. The line names who rolls or draws, and says what the table waits for when nobody does (the
figures a ball hit). Real Chromium, as in test_browser."""
from __future__ import annotations

import pytest

from .test_browser import browser, open_page, start_game, step  # noqa: F401  (the shared Chromium)

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 320, "height": 568}
TURN = """() => ({ turn: document.getElementById('turn').textContent,
                  bar: document.getElementById('turn-bar').textContent,
                  marked: [...document.querySelectorAll('#scores tr.current th')].map((th) => th.textContent) })"""


def turn_words(page) -> tuple[str, list[str]]:
    seen = page.evaluate(TURN)
    assert seen["bar"] == seen["turn"], "the line kept at the top says what the heading says"
    return seen["turn"], [m.split(" (")[0].lstrip("\u25B6\uFE0E ") for m in seen["marked"]]


def play_to(page, kind: str) -> None:
    """Tap on until the game waits for a chance outcome of `kind`."""
    for _ in range(12):
        chance = page.evaluate("window.companionView.game.chance")
        if chance and chance["kind"] == kind:
            return
        step(page)
    raise AssertionError(f"no {kind} step in 12 taps")


@pytest.mark.parametrize(("game", "first", "second"), [
    ("mountain-goats", "Ada: roll the dice", "Ben: roll the dice"),
    ("matterhorn", "Ada: roll the die", "Ben: roll the die"),
])
def test_a_roll_names_who_rolls(browser, served, game, first, second):
    base, _ = served()
    page, errors = open_page(browser, base, SMALL_PHONE)
    try:
        start_game(page, game)
        assert turn_words(page) == (first, ["Ada"])
        for _ in range(12):
            step(page)
            if page.evaluate("window.companionView.game.chance") and turn_words(page)[1] == ["Ben"]:
                break
        assert turn_words(page) == (second, ["Ben"])
        assert errors == []
    finally:
        page.close()


@pytest.mark.parametrize(("game", "waits_for", "words"), [
    ("magic-mountain", "draw", ("Ada: draw a ball from the bag", ["Ada"])),
    ("magic-mountain", "hits", ("Tap what the ball hit", [])),  # nobody makes what a ball hits
    ("banana-matcho", "duel-dice", ("Ada and Ben: roll the dice", ["Ada", "Ben"])),
])
def test_a_draw_a_duel_and_a_ball_rolling_down_say_who_makes_them_or_what_is_waited_for(browser, served, game,
                                                                                        waits_for, words):
    base, _ = served()
    page, errors = open_page(browser, base, SMALL_PHONE)
    try:
        start_game(page, game)
        play_to(page, waits_for)
        assert turn_words(page) == words
        assert errors == []
    finally:
        page.close()
