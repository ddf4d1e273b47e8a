"""The page for a keyboard or screen-reader user, a colour-blind child and a grandparent with large text: where the
focus goes after a move, what the status region says, the names of the entry buttons, the pieces on the boards,
and the sizes that follow the browser's font size. Real Chromium, as in test_browser."""
from __future__ import annotations

import re

import pytest

from companion.events import CameraHealth
from tests.waiting import wait_for
from tests.web.test_browser import browser, new_page  # noqa: F401  (the shared Chromium fixture)
from tests.web.test_page_long_moves import PLAYERS, at_consolation, at_hits, placed, request

pytestmark = pytest.mark.browser
NARROW = {"width": 320, "height": 640}

LIVE = """() => [...document.querySelectorAll('[role=status],[role=alert],[aria-live]')]
           .filter((n) => !n.closest('[hidden]')).map((n) => n.textContent.trim()).join(' | ')"""
FOCUSED = """() => { const a = document.activeElement;
  return a === document.body || !a ? 'BODY' : (a.closest('[id]') || a).id + ' ' + a.textContent.trim(); }"""
FOCUS_IN_LIVE_REGION = """() => Boolean(document.activeElement.closest('[role=status],[role=alert],[aria-live]'))"""


def open_page(browser, base, ready="#link.on"):  # noqa: F811
    page = new_page(browser, NARROW)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_selector(ready)
    return page, errors


def version(page):
    return int(page.evaluate("window.companionView.version"))


ROOT_FONT_SIZE = "parseFloat(getComputedStyle(document.documentElement).fontSize)"


def wait_new(page, before):
    wait_for(lambda: version(page) > before, "a new view on the page")


def watch_live_regions(page):
    """Every text a live region takes from now on, as a screen reader would be told it."""
    page.evaluate("""() => { window.spoken = [];
        for (const node of document.querySelectorAll('[role=status],[role=alert],[aria-live]')) {
          new MutationObserver(() => window.spoken.push(node.textContent.trim()))
            .observe(node, {childList: true, characterData: true, subtree: true}); } }""")


# -- focus and the status region ---------------------------------------------------------------------------
def test_after_a_move_played_by_keyboard_the_next_tab_reaches_the_next_steps_controls(browser, served, service):
    base, _ = served()
    at_consolation(service.table)  # Ben places a consolation obstacle; then Ada rolls 5 dice
    page, errors = open_page(browser, base, "#moves .move-group button")
    try:
        page.locator("#moves .move-group button").nth(2).focus()
        before = version(page)
        page.keyboard.press("Enter")
        wait_new(page, before)
        page.wait_for_selector("#chance-faces button")
        after_move = page.evaluate(FOCUSED)
        assert not page.evaluate(FOCUS_IN_LIVE_REGION), "the focus in a live region: the turn would be read twice"
        page.keyboard.press("Tab")
        after_tab = page.evaluate(FOCUSED)
        assert after_tab.startswith("chance-faces"), (
            f"after the move the focus is on {after_move!r}; the next Tab goes to {after_tab!r}, past Ada's dice")
        assert errors == []
    finally:
        page.close()


def test_the_turn_is_said_once_by_the_focus_not_again_by_the_status_region(browser, served, service):
    base, _ = served()
    at_consolation(service.table)
    page, errors = open_page(browser, base, "#moves .move-group button")
    try:
        watch_live_regions(page)
        page.locator("#moves .move-group button").nth(2).focus()
        before = version(page)
        page.keyboard.press("Enter")
        wait_new(page, before)
        page.wait_for_selector("#chance-faces button")
        name = page.evaluate("""() => { const a = document.activeElement;
            if (a === document.body) return 'the page';
            const d = a.getAttribute('aria-describedby');
            return a.textContent + ' ' + (d ? document.getElementById(d).textContent : ''); }""")
        assert "Ada" in name, f"the focus lands on {name!r}, which does not say whose roll it is"
        assert not [s for s in page.evaluate("window.spoken") if "Ada" in s], "the turn is read out a second time"
        before = version(page)
        request(service.table, {"do": "dice", "values": [6, 5, 4, 3, 3]})  # Ada's roll, entered on another phone
        wait_new(page, before)
        page.wait_for_function("window.spoken.some((s) => s.includes('Ada'))")
        assert errors == []
    finally:
        page.close()


def test_a_screen_reader_hears_whose_roll_it_is(browser, served, service):
    base, _ = served()
    request(service.table, {"do": "start", "game": "matterhorn", "players": PLAYERS})
    page, errors = open_page(browser, base, "#chance-faces button")
    try:
        first = page.evaluate(LIVE)
        assert "Ada" in first, first
        before = version(page)
        page.locator("#chance-faces button", has_text="3").click()  # Ada's start roll
        wait_new(page, before)
        second = page.evaluate(LIVE)
        assert "Ben" in second, (f"live regions before: {first!r}; after Ada's roll: {second!r} (the prompt "
                                 f"{page.text_content('#prompt')!r})")
        watch_live_regions(page)
        before = version(page)
        service.table.submit(CameraHealth(t=1, state="lost", message="camera check")).result(5)
        wait_new(page, before)
        page.wait_for_function("document.getElementById('health').textContent.includes('camera check')")
        assert page.evaluate("window.spoken") == [], "an unchanged turn is read out again"
        assert errors == []
    finally:
        page.close()


def test_the_odds_tip_is_not_read_out_on_every_turn(browser, served, service):
    base, _ = served()
    at_hits(service.table)
    page, errors = open_page(browser, base, "#tip:not([hidden])")
    try:
        live = page.evaluate(LIVE)
        assert "If the red ball hits" not in live and "Where each colour" not in live, live
        assert errors == []
    finally:
        page.close()


def test_banana_matchos_roll_is_headed_as_a_roll_not_what_happened(service):
    view = request(service.table, {"do": "start", "game": "banana-matcho", "players": PLAYERS})
    assert view["game"]["turn"] == "Ada and Ben: roll the dice", view["game"]["prompt"]


# -- the names of the dice and figures to tap ----------------------------------------------------------------
def test_tapped_values_are_named_apart_from_the_values_offered(browser, served, service):
    base, _ = served()
    at_hits(service.table)
    page, errors = open_page(browser, base, "#chance-faces button")
    try:
        page.locator("#chance-faces button", has_text="S2").click()
        snap = page.locator("#chance").aria_snapshot()
        names = re.findall(r'button "([^"]+)"', snap)
        twice = sorted({n for n in names if names.count(n) > 1})
        assert not twice, f"two buttons each named {twice}: one adds, one takes away: {snap}"
        assert "hit 1: Student 2, tap to take it away" in names, names
        assert "Student 1" in names and "Witch 1" in names, names
        assert re.search(r"S\W+Student.*W\W+Witch", page.text_content("#chance")), "S and W are not explained"
        assert errors == []
    finally:
        page.close()


def test_the_dice_not_tapped_yet_are_named_as_such(browser, served, service):
    base, _ = served()
    placed(service.table)  # Ben rolls five dice
    page, errors = open_page(browser, base, "#chance-faces button")
    try:
        page.locator("#chance-faces button", has_text="4").click()
        snap = page.locator("#chance-chosen").aria_snapshot()
        assert "?" not in snap and "die 2: not tapped yet" in snap, snap
        assert "die 1: 4, tap to take it away" in snap, snap
        assert errors == []
    finally:
        page.close()


# -- the boards without colour ---------------------------------------------------------------------------------
# The players' letters on the board, each with the font size (px) it is drawn at on the screen.
LETTERS_SHOWN = """() => { const svg = document.querySelector('#board svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')].filter((t) => ['A', 'B'].includes(t.textContent))
      .map((t) => [t.textContent, Math.round(Number(t.getAttribute('font-size')) * scale * 10) / 10]); }"""

def test_the_boards_pieces_say_whose_they_are_without_colour(browser, served, service):
    base, _ = served()
    placed(service.table)
    page, errors = open_page(browser, base, "#board svg")
    try:
        label = page.get_attribute("#board svg", "aria-label")
        assert re.search(r"Ada \(red\): line \d+ circle \d+ and line \d+ circle \d+", label), label
        assert re.search(r"Ben \(blue\): line \d+ circle \d+ and line \d+ circle \d+", label), label
        letters = page.evaluate(LETTERS_SHOWN)
        assert sorted(t for t, _ in letters) == ["A", "A", "B", "B"], letters
        assert min(px for _, px in letters) >= 9, f"the letters are too small to read at 320 px: {letters}"
        assert errors == []
    finally:
        page.close()


@pytest.mark.parametrize("game", ["mountain-goats", "banana-matcho"])
def test_the_goats_and_monkeys_carry_readable_initials_at_320_px(browser, served, service, game):
    base, _ = served()
    request(service.table, {"do": "start", "game": game, "players": PLAYERS})
    page, errors = open_page(browser, base, "#board svg")
    try:
        label = page.get_attribute("#board svg", "aria-label")
        assert "Ada (red)" in label and "Ben (blue)" in label, label
        letters = [px for _, px in page.evaluate(LETTERS_SHOWN)]
        assert len(letters) >= 2 and min(letters) >= 9, f"the initials' font is {letters} px at 320 px"
        assert errors == []
    finally:
        page.close()


# -- sizes ---------------------------------------------------------------------------------------------------
def test_the_page_follows_the_browsers_font_size(browser, served, service):
    base, _ = served()
    request(service.table, {"do": "start", "game": "matterhorn", "players": PLAYERS})
    page, errors = open_page(browser, base, "#prompt")
    try:
        size = "parseFloat(getComputedStyle(document.querySelector('#prompt')).fontSize)"
        normal = page.evaluate(size)
        assert round(normal, 1) == 18.7, "the default size is as before"
        page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 24}})
        wait_for(lambda: page.evaluate(ROOT_FONT_SIZE) == 24, "the page's root font size to follow the browser's 24 px")
        larger = page.evaluate(size)
        assert larger > normal * 1.3, f"the browser's font size 16 -> 24 px: the prompt {normal} -> {larger} px"
    finally:
        page.close()


def test_the_opened_camera_box_fits_a_320_px_phone_with_larger_text(browser, served):  # noqa: F811
    base, _ = served()
    page, errors = open_page(browser, base)
    try:
        page.add_style_tag(content="body { font-size: 27px !important; }")
        page.click("#camera-box summary")
        page.wait_for_selector("#tray")
        right = page.evaluate("Math.round(document.getElementById('tray').getBoundingClientRect().right)")
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, (
            f"the tray field reaches {right} px on a 320 px screen: the page scrolls sideways")
    finally:
        page.close()


def test_the_join_page_declares_its_language(service, tmp_path, monkeypatch):
    import companion.web.joincode as joincode
    from companion.web.app import create_app

    monkeypatch.setattr(joincode, "is_own_screen", lambda address: False)
    app = create_app(service)
    joincode.install(app, joincode.JoinCodes(tmp_path / "join"))
    page = app.test_client().get("/join?code=000000", headers={"Sec-Fetch-Site": "none"}).get_data(as_text=True)
    assert re.search(r"<html[^>]*\blang=en", page), page


# Every word and number on the board, with the font size (px) it is drawn at on the screen.
TEXTS_SHOWN = """() => { const svg = document.querySelector('#board svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')]
      .map((t) => [t.textContent, Math.round(Number(t.getAttribute('font-size')) * scale * 10) / 10]); }"""


@pytest.mark.parametrize("game", ["matterhorn", "mountain-goats", "magic-mountain", "banana-matcho"])
def test_the_boards_words_are_readable_at_320_px(browser, served, service, game):
    base, _ = served()
    request(service.table, {"do": "start", "game": game, "players": PLAYERS})
    page, errors = open_page(browser, base, "#board svg")
    try:
        small = [(words, px) for words, px in page.evaluate(TEXTS_SHOWN) if px < 9]
        assert not small, f"{game}: words under 9 px on a 320 px phone: {small[:8]}"
        assert errors == []
    finally:
        page.close()


def test_six_monkeys_on_the_start_keep_readable_initials_at_320_px(browser, served, service):  # noqa: F811
    """The smaller monkeys drawn when five or six share a space still carry initials of 9 px or more."""
    six = [{"name": n, "colour": c} for n, c in zip(["Ada", "Ben", "Cy", "Dan", "Eve", "Fay"],
                                                    ["red", "blue", "green", "yellow", "purple", "orange"])]
    base, _ = served()
    request(service.table, {"do": "start", "game": "banana-matcho", "players": six})
    page, errors = open_page(browser, base, "#board svg")
    try:
        shown = page.evaluate(TEXTS_SHOWN)
        assert sorted(words for words, _ in shown if words and words in "ABCDEF") == list("ABCDEF")
        small = [(words, px) for words, px in shown if px < 9]
        assert not small, f"words under 9 px on a 320 px phone: {small[:8]}"
        assert errors == []
    finally:
        page.close()


def test_the_big_mountain_boards_words_are_readable_at_320_px(browser, served, service):  # noqa: F811
    """Mountain Goats with the Big Mountain: its spaces, the tokens left and the goats' initials, 9 px or more."""
    base, _ = served()
    request(service.table, {"do": "start", "game": "mountain-goats", "players": PLAYERS,
                            "variants": {"big_mountain": True}})
    page, errors = open_page(browser, base, "#board svg")
    try:
        small = [(words, px) for words, px in page.evaluate(TEXTS_SHOWN) if px < 9]
        assert not small, f"words under 9 px on a 320 px phone: {small[:8]}"
        assert errors == []
    finally:
        page.close()


# Each space's number (or word) on the Banana Matcho tree that a monkey's disc covers: [words, monkey's letter].
NUMBERS_COVERED = """() => { const svg = document.querySelector('#board svg');
    const texts = [...svg.querySelectorAll('text')];
    const monkeys = [...svg.querySelectorAll('circle')].filter((c) => Number(c.getAttribute('r')) < 15);
    const covered = [];
    for (const t of texts.filter((t) => /^(\\d+|Start|Fruit)$/.test(t.textContent))) {
      const b = t.getBBox();
      for (const m of monkeys) {
        const [x, y, r] = ['cx', 'cy', 'r'].map((a) => Number(m.getAttribute(a)));
        const dx = Math.max(b.x - x, 0, x - (b.x + b.width)), dy = Math.max(b.y - y, 0, y - (b.y + b.height));
        if (dx * dx + dy * dy < r * r) covered.push([t.textContent, m.nextElementSibling.textContent]);
      }
    }
    return covered; }"""


@pytest.mark.parametrize("players", [2, 4, 5, 6])
def test_monkeys_on_one_space_leave_its_word_readable(browser, served, service, players):  # noqa: F811
    crowd = [{"name": n, "colour": c} for n, c in zip(["Ada", "Ben", "Cy", "Dan", "Eve", "Fay"],
                                                      ["red", "blue", "green", "yellow", "purple", "orange"])]
    base, _ = served()
    request(service.table, {"do": "start", "game": "banana-matcho", "players": crowd[:players]})
    page, errors = open_page(browser, base, "#board svg")
    try:
        covered = page.evaluate(NUMBERS_COVERED)
        assert covered == [], f"{players} monkeys on the start: the space's word is covered by {covered}"
        assert errors == []
    finally:
        page.close()


# Matterhorn's free circles, line by line from the left: [line's circles, [the number drawn in each, its px]].
CIRCLE_NUMBERS = """() => { const svg = document.querySelector('#board svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll('text')];
    const lines = new Map();
    for (const c of svg.querySelectorAll('circle[r="19.0"]')) {
      const y = c.getAttribute('cy');
      lines.set(y, [...(lines.get(y) || []), c]);
    }
    return [...lines.values()].map((cs) => cs.sort((a, b) => a.cx.baseVal.value - b.cx.baseVal.value).map((c, i) => {
      if (c.getAttribute('fill') !== '#fff') return [i + 1, 'taken'];
      const inside = texts.find((t) => t.getAttribute('x') === c.getAttribute('cx')
        && Math.abs(t.y.baseVal[0].value - c.cy.baseVal.value) < 19);
      return [i + 1, inside ? inside.textContent : null,
              inside ? Math.round(Number(inside.getAttribute('font-size')) * scale * 10) / 10 : null];
    })); }"""


def test_matterhorns_board_numbers_its_circles_as_the_moves_count_them(browser, served, service):  # noqa: F811
    """The moves say "line 12, circle 3": the board shows which circle that is, each free circle numbered from the
    left of its line, and its spoken name says so."""
    base, _ = served()
    placed(service.table)
    page, errors = open_page(browser, base, "#board svg")
    try:
        lines = page.evaluate(CIRCLE_NUMBERS)
        free = [c for line in lines for c in line if c[1] != "taken"]
        assert len(lines) == 8 and len(free) == 52 - 4, lines
        wrong = [c for c in free if c[1] != str(c[0])]
        assert not wrong, f"free circles without their number from the left: {wrong[:6]}"
        assert min(px for _, _, px in free) >= 9, f"circle numbers under 9 px at 320 px: {free[:6]}"
        assert "counted from the left" in page.get_attribute("#board svg", "aria-label")
        assert errors == []
    finally:
        page.close()


# The contrast of the border of each element `selector` picks against its inside and the page around it.
BORDER_CONTRAST = """(selector) => {
    const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
    const lum = (c) => { const [r, g, b] = rgb(c).slice(0, 3).map((v) => v / 255)
      .map((v) => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const behind = (node) => { for (let n = node; n; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor; if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; }
      return 'rgb(255, 255, 255)'; };
    return [...document.querySelectorAll(selector)].map((d) => {
      const border = getComputedStyle(d).borderTopColor;
      const worst = Math.min(ratio(border, behind(d)), ratio(border, behind(d.parentElement)));
      return Math.round(worst * 100) / 100; }); }"""


@pytest.mark.parametrize("game", ["matterhorn", "banana-matcho"])
def test_an_empty_die_places_border_stands_out_3_to_1(browser, served, service, game):  # noqa: F811
    """WCAG 1.4.11: the dashed outline that shows a die still to tap is a component's edge, 3:1 or more."""
    base, _ = served()
    if game == "matterhorn":
        placed(service.table)  # Ben rolls five dice
    else:
        request(service.table, {"do": "start", "game": game, "players": PLAYERS})
    page, errors = open_page(browser, base, "#chance-faces button")
    try:
        if game == "matterhorn":
            page.locator("#chance-faces button", has_text="4").click()
        ratios = page.evaluate(BORDER_CONTRAST, ".die.empty")
        assert ratios and min(ratios) >= 3, f"{game}: the empty places' borders stand out only {ratios}:1"
        assert errors == []
    finally:
        page.close()


# Two monkeys' discs that cover each other: [letter, letter].
MONKEYS_OVERLAPPING = """() => { const monkeys = [...document.querySelectorAll('#board svg circle')]
      .filter((c) => Number(c.getAttribute('r')) < 15)
      .map((c) => [c.nextElementSibling.textContent, ...['cx', 'cy', 'r'].map((a) => Number(c.getAttribute(a)))]);
    return monkeys.flatMap(([a, x, y, r], i) => monkeys.slice(i + 1)
      .filter(([, u, v, s]) => Math.hypot(u - x, v - y) < r + s - 0.5).map(([b]) => [a, b])); }"""


@pytest.mark.parametrize("spaces", [[12, 12], [7, 7, 7], [12, 12, 12, 12], [5, 6, 6, 6, 11, 12], [29, 30, 30]])
def test_monkeys_on_numbered_spaces_cover_neither_the_number_nor_each_other(browser, spaces):  # noqa: F811
    from companion.web.boards import render

    players = [{"name": n} for n in ["Ada", "Ben", "Cy", "Dan", "Eve", "Fay"][:len(spaces)]]
    board = render({"name": "banana-matcho", "players": players,
                    "state": {"board": {"top_space": 30}, "positions": spaces}})
    page = new_page(browser, NARROW)
    try:
        page.set_content(f'<div id="board" style="width: 292px">{board}</div>')
        assert page.evaluate(NUMBERS_COVERED) == [], f"monkeys on {spaces} cover a space's number"
        assert page.evaluate(MONKEYS_OVERLAPPING) == [], f"monkeys on {spaces} cover each other"
    finally:
        page.close()


def test_the_player_name_fields_border_stands_out_3_to_1(browser, served):  # noqa: F811
    """WCAG 1.4.11: the outline of the field a child types a name in is the field's only edge on the page."""
    base, _ = served()
    page, errors = open_page(browser, base)
    try:
        page.click("button[data-game='matterhorn']")
        ratios = page.evaluate(BORDER_CONTRAST, "#players input.name")
        assert ratios and min(ratios) >= 3, f"the name fields' borders stand out only {ratios}:1"
        assert errors == []
    finally:
        page.close()


# The words of the page's title broken across two lines ("Matterhor" / "n").
TITLE_WORDS_BROKEN = """(title) => { const h1 = document.getElementById('title'); h1.textContent = title;
    const node = h1.firstChild; const broken = []; let at = 0;
    for (const word of title.split(' ')) {
      const range = document.createRange(); range.setStart(node, at); range.setEnd(node, at + word.length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(word);
      at += word.length + 1;
    }
    return broken; }"""


def test_each_games_title_keeps_its_words_whole_at_320_px_with_double_text(browser, served):  # noqa: F811
    from tests.web.test_browser import GAMES

    base, _ = served()
    page, errors = open_page(browser, base)
    try:
        page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 32}})
        wait_for(lambda: page.evaluate(ROOT_FONT_SIZE) == 32, "the page's root font size to follow the browser's 32 px")
        broken = {title: page.evaluate(TITLE_WORDS_BROKEN, title) for title in [*GAMES.values(), "The companion"]}
        assert not any(broken.values()), f"at 200 % text the title breaks inside a word: {broken}"
        size = page.evaluate("parseFloat(getComputedStyle(document.getElementById('title')).fontSize)")
        assert size >= 32, f"the title ({size} px) is smaller than the text a person asked for"
        assert errors == []
    finally:
        page.close()


# Magic Mountain's space numbers that a figure's shape (a student's disc, a witch's triangle) covers: [space, shape].
SPACES_COVERED = """() => { const svg = document.querySelector('#board svg');
    const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    const shapes = [...svg.querySelectorAll('polygon, circle')].filter((s) => s.getBBox().y > 60);
    return [...svg.querySelectorAll('text')].filter((t) => /^\\d+$/.test(t.textContent) && t.getBBox().y > 60)
      .flatMap((t) => shapes.filter((s) => meets(t.getBBox(), s.getBBox()))
        .map((s) => [t.textContent, s.tagName + ' ' + s.nextElementSibling.textContent])); }"""


def test_magic_mountains_figures_leave_their_spaces_numbers_readable(browser, served, service):  # noqa: F811
    base, _ = served()
    request(service.table, {"do": "start", "game": "magic-mountain", "players": PLAYERS})
    page, errors = open_page(browser, base, "#board svg")
    try:
        covered = page.evaluate(SPACES_COVERED)
        assert covered == [], f"figures cover their spaces' numbers: {covered}"
        assert errors == []
    finally:
        page.close()
