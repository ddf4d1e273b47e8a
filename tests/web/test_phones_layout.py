"""320 px wide phone with its text set larger (here 130 %, the body's text at 23.4 px instead of 18 px; Android's
"font size" setting goes up to 200 %): the page must not get wider than the screen (a page that scrolls
sideways hides the half of what a child must tap, and drags around under a finger)."""
from tests.web.test_browser import browser  # noqa: F401
from tests.web.test_browser import DOUBLE_TEXT, NARROW, open_page

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
    page, _ = open_page(browser, base, NARROW, text=LARGER_TEXT)
    try:
        page.route("**/events", lambda route: route.abort())  # the Wi-Fi drops
        app.extensions["companion"]["broadcaster"].stop()
        page.wait_for_selector("#link.off")
        assert page.text_content("#link") == "reconnecting…"
        assert overflow(page) == [], "the page scrolls sideways"
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    finally:
        page.close()


def test_the_players_form_fits_a_320_px_phone_with_larger_text(browser, served):
    """At 150 % text (27 px)."""
    base, _ = served()
    page, _ = open_page(browser, base, NARROW, text="body { font-size: 27px !important; }")
    try:
        page.click("button[data-game='matterhorn']")
        page.click("#add-player")
        assert overflow(page) == [], "a player's ✕ lies off the screen"
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    finally:
        page.close()


def test_the_players_names_and_numbers_show_whole_on_a_320_px_phone_with_double_text(browser, served):
    """At 200 % text (the root font 32 px): each name field still shows "Player 1" whole, and the list's numbers
    are not cut off at the screen's left edge."""
    base, _ = served()
    page, _ = open_page(browser, base, NARROW, text=DOUBLE_TEXT)
    try:
        page.click("button[data-game='matterhorn']")
        page.click("#add-player")
        fit = page.evaluate("""() => { const pen = document.createElement('canvas').getContext('2d');
            const list = document.getElementById('players'), style = getComputedStyle(list);
            pen.font = `${style.fontSize} ${style.fontFamily}`;
            const number = pen.measureText(`${list.children.length}. `).width;  // the marker: "3. "
            const room = parseFloat(style.paddingLeft) + list.getBoundingClientRect().left;
            return { number: Math.round(number), room,
                     fields: [...list.querySelectorAll('input.name')].map((f) => { const s = getComputedStyle(f);
                       pen.font = `${s.fontSize} ${s.fontFamily}`;
                       const inside = f.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
                       return Math.round(inside - pen.measureText(f.placeholder).width); }) }; }""")
        assert fit["number"] <= fit["room"], f"the players' numbers ({fit['number']} px) reach past the screen's edge"
        assert min(fit["fields"]) >= 0, f"'Player 1' is cut in its field by {-min(fit['fields'])} px"
        assert overflow(page) == [] and page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    finally:
        page.close()


def test_the_dice_places_hold_their_marks_with_room_on_a_320_px_phone_with_double_text(browser, served, service):
    """Banana Matcho's nine places to tap at 200 % text: each "?" and "M?" inside its dashed box with room to spare,
    not touching its sides."""
    base, _ = served()
    assert service.table.request({"do": "start", "game": "banana-matcho",
                                  "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    page, _ = open_page(browser, base, NARROW, "#chance-chosen .die", DOUBLE_TEXT)
    try:
        spilled = page.evaluate("""() => [...document.querySelectorAll('#chance-chosen .die')]
            .map((d) => [d.textContent, d.firstElementChild.getBoundingClientRect().width, d.clientWidth])
            .filter(([, mark, inside]) => mark + 8 > inside)
            .map(([t, mark, inside]) => `${t} ${mark} px in ${inside} px`)""")
        assert spilled == [], f"marks touching their die's sides: {spilled}"
    finally:
        page.close()


def test_the_team_pickers_fit_a_320_px_phone_with_double_text_and_show_their_team_whole(browser, served):
    """Magic Mountain in teams at 200 % text: each player's "Team Student" picker reached 20 px past the screen's
    edge, and the whole form scrolled sideways."""
    from tests.web.test_magic_mountain_teams import fill_players

    base, _ = served()
    page, _ = open_page(browser, base, NARROW, text=DOUBLE_TEXT)
    try:
        fill_players(page, ["Ada", "Ben", "Cleo", "Dan", "Eve"])
        assert overflow(page) == [], "a team picker lies past the screen's edge"
        assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
        cut = page.evaluate("""() => { const pen = document.createElement('canvas').getContext('2d');
            return [...document.querySelectorAll('#players select')].map((s) => { const style = getComputedStyle(s);
                pen.font = `${style.fontSize} ${style.fontFamily}`;
                const words = s.options[s.selectedIndex].text;
                const room = s.clientWidth - parseFloat(style.paddingLeft);
                return [words, Math.round(room - pen.measureText(words).width)];
            }).filter(([, room]) => room < 0); }""")
        assert cut == [], f"pickers too narrow for their words (px short): {cut}"
    finally:
        page.close()


def test_a_variants_tick_box_grows_with_the_text(browser, served):
    """Big Mountain's tick box stayed 19 px at 200 % text (sized in the browser's 13 px form font, not the page's),
    beside words twice that size: the box a child taps grows with the text as its words do."""
    base, _ = served()
    page, _ = open_page(browser, base, NARROW)
    try:
        page.click("button[data-game='mountain-goats']")
        box = "() => document.querySelector('.variant input[type=checkbox]').getBoundingClientRect().height"
        normal = page.evaluate(box)
        page.add_style_tag(content=DOUBLE_TEXT)
        larger = page.evaluate(box)
        assert normal >= 24 and larger >= 1.8 * normal, f"the tick box: {normal:.0f} px, {larger:.0f} px at double text"
        assert overflow(page) == []
    finally:
        page.close()
