"""320 px wide phone with its text set larger (here 130 %, the body's text at 23.4 px instead of 18 px; Android's
"font size" setting goes up to 200 %): the page must not get wider than the screen (a page that scrolls
sideways hides the half of what a child must tap, and drags around under a finger)."""
from tests.web.test_browser import browser  # noqa: F401
from tests.web.test_browser import new_page

PHONE = {"width": 320, "height": 640}
LARGER_TEXT = "body { font-size: 23.4px !important; }"


def overflow(page):
    return page.evaluate("""() => [...document.querySelectorAll('header *, main *')]
        .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 0.5
                       && !e.closest('details:not([open])'))
        .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} "${e.textContent.trim().slice(0, 20)}" `
                    + `reaches ${Math.round(e.getBoundingClientRect().right)} px`)""")


def test_the_header_saying_reconnecting_fits_a_320_px_phone_with_larger_text(browser, served, service):
    base, app = served()
    assert service.table.request({"do": "start", "game": "matterhorn", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    page = new_page(browser, PHONE)
    try:
        page.goto(base + "/")
        page.wait_for_selector("#link.on")
        page.add_style_tag(content=LARGER_TEXT)
        page.route("**/events", lambda route: route.abort())  # the Wi-Fi drops
        app.extensions["companion"]["broadcaster"].stop()
        page.wait_for_selector("#link.off")
        assert page.text_content("#link") == "reconnecting…"
        assert overflow(page) == [], "the page scrolls sideways"
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        page.close()


def test_the_players_form_fits_a_320_px_phone_with_larger_text(browser, served):
    """At 150 % text (27 px)."""
    base, _ = served()
    page = new_page(browser, PHONE)
    try:
        page.goto(base + "/")
        page.wait_for_selector("#link.on")
        page.add_style_tag(content="body { font-size: 27px !important; }")
        page.click("button[data-game='matterhorn']")
        page.click("#add-player")
        assert overflow(page) == [], "a player's ✕ lies off the screen"
        assert page.evaluate("document.documentElement.scrollWidth") <= 320
    finally:
        page.close()
