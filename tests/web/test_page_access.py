"""The page for everyone at the table: keyboard and screen-reader users, a narrow phone (320 px), a child who
cannot tell two colours apart, a Pi without emoji fonts. Real Chromium, as in test_browser."""
from __future__ import annotations

import json
import re

import pytest

from companion.events import CameraHealth, DiceSettled, DieReading
from tests.web.test_browser import GAMES, browser, new_page, start_game, step, version  # noqa: F401 (browser: a fixture)

pytestmark = pytest.mark.browser

NARROW = {"width": 320, "height": 640}


def open_narrow(browser, base, clock=False):
    page = new_page(browser, NARROW)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    if clock:
        page.clock.install()
    page.goto(base + "/")
    page.wait_for_selector("#link.on")
    return page, errors


def focused(page):
    return page.evaluate("""() => { const a = document.activeElement;
        return a === document.body || !a ? null : {id: a.id, text: a.textContent, in: a.parentElement.id}; }""")


def redraw_from_the_table(page, service, t=1):
    """A new view that changes neither the turn nor the moves: the camera's health."""
    before = version(page)
    service.table.submit(CameraHealth(t=t, state="lost", message=f"camera check {t}")).result(5)
    page.wait_for_function(f"window.companionView.version > {before}")
    page.wait_for_function(f"document.getElementById('health').textContent.includes('camera check {t}')")


def no_horizontal_overflow(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], f"the page is {width} px wide at {NARROW['width']} px"


# -- 1. focus and live regions -----------------------------------------------------------------------------
def test_the_focused_button_keeps_the_focus_when_the_page_is_redrawn(browser, served, service):
    base, _ = served()
    page, errors = open_narrow(browser, base)
    try:
        start_game(page, "mountain-goats")
        face = page.locator("#chance-faces button", has_text="3")
        face.focus()
        page.keyboard.press("Enter")  # the page redraws the dice entry at once
        page.wait_for_function("document.querySelectorAll('#chance-chosen button').length === 1")
        assert focused(page) == {"id": "", "text": "3", "in": "chance-faces"}
        redraw_from_the_table(page, service, 1)
        assert focused(page) == {"id": "", "text": "3", "in": "chance-faces"}
        for _ in range(3):
            page.keyboard.press("Enter")
        page.wait_for_function("document.querySelectorAll('#chance-chosen button').length === 4")
        page.locator("#chance-send").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#moves button.move")
        second = page.locator("#moves button.move").nth(1)
        text = second.text_content()
        second.focus()
        redraw_from_the_table(page, service, 2)
        assert focused(page) == {"id": "", "text": text, "in": "moves"}
        assert errors == []
    finally:
        page.close()


def test_the_turn_and_the_connection_are_status_regions_read_out_only_when_they_change(browser, served, service):
    base, _ = served()
    page, errors = open_narrow(browser, base)
    try:
        start_game(page, "mountain-goats")
        assert page.get_attribute("#said", "role") == "status"  # the turn and the step, read out
        assert page.get_attribute("#tip", "aria-live") is None  # the odds are read where they stand, not each turn
        assert page.get_attribute("#link", "role") == "status"
        page.wait_for_selector("#tip:not([hidden])")  # the chances of the roll
        page.evaluate("""() => { window.changes = [];
            const watch = new MutationObserver((records) => records.forEach((r) => window.changes.push(r.target.id || r.target.parentElement.id)));
            for (const id of ['turn', 'said', 'link', 'tip']) watch.observe(document.getElementById(id),
                {childList: true, characterData: true, subtree: true}); }""")
        redraw_from_the_table(page, service)
        assert page.evaluate("window.changes") == [], "an unchanged turn, link or tip is not read out again"
        assert errors == []
    finally:
        page.close()


# -- 2. colours ----------------------------------------------------------------------------------------------
def colours_offered(page):
    return page.evaluate("""() => [...document.querySelectorAll('#players select.colour')].map((s) =>
        ({value: s.value, open: [...s.options].filter((o) => !o.disabled).map((o) => o.value)}))""")


def test_the_start_form_offers_each_colour_to_one_player_only_and_the_scores_name_it(browser, served):
    base, _ = served()
    page, errors = open_narrow(browser, base)
    try:
        page.click("button[data-game='matterhorn']")
        page.click("#add-player")
        rows = colours_offered(page)
        chosen = [r["value"] for r in rows]
        assert len(set(chosen)) == 3
        for i, row in enumerate(rows):
            taken = set(chosen) - {row["value"]}
            assert not taken & set(row["open"]), f"player {i + 1} is offered a colour another player has"
        page.locator("#players select.colour").nth(1).select_option("purple")
        assert chosen[1] in colours_offered(page)[0]["open"], "a colour given up is free again"
        assert "purple" not in colours_offered(page)[0]["open"]
        page.get_by_role("button", name="Remove Player 3").click()
        assert chosen[2] in colours_offered(page)[0]["open"], "a removed player's colour is free again"
        start_game(page, "matterhorn")
        rows = page.locator("#scores tbody tr").all_text_contents()
        assert "Ada" in rows[0] and chosen[0] in rows[0]
        assert "Ben" in rows[1] and "purple" in rows[1]
        assert errors == []
    finally:
        page.close()


def test_a_colour_two_players_chose_is_refused_with_the_tables_message(browser, served):
    base, _ = served()
    page, errors = open_narrow(browser, base)
    try:
        page.click("button[data-game='mountain-goats']")
        page.locator("#players input.name").nth(0).fill("Ada")
        page.locator("#players input.name").nth(1).fill("Ben")
        page.evaluate("""() => { const s = document.querySelectorAll('#players select.colour');
            s[1].value = s[0].value; }""")  # as an old page would send it
        page.click("#start-game")
        page.wait_for_selector("#toast:not([hidden])")
        assert "Ada and Ben" in page.text_content("#toast")
        assert page.is_visible("#start")
    finally:
        page.close()


# -- 3. the message box ------------------------------------------------------------------------------------
def test_the_list_of_sensors_not_working_stays_open_while_the_table_plays_on(browser, served, service):
    """A person opens the list to see which sensors are out; the next roll or camera news must not fold it."""
    from companion.events import SensorHealth

    page, errors = open_narrow(browser, served()[0])
    try:
        for t, sensor in enumerate(("banana", "gate1", "gate2"), start=1):
            service.table.submit(SensorHealth(t=t, sensor=sensor, state="stuck", message=f"{sensor} is stuck")).result(5)
        page.wait_for_selector("#health details summary")
        page.click("#health details summary")
        assert page.evaluate("document.querySelector('#health details').open")
        redraw_from_the_table(page, service, t=4)
        assert page.evaluate("document.querySelector('#health details').open"), "another view folded the list"
        service.table.submit(SensorHealth(t=5, sensor="gate3", state="stuck", message="gate3 is stuck")).result(5)
        page.wait_for_function("document.querySelector('#health details summary').textContent.startsWith('4 sensors')")
        assert page.evaluate("document.querySelector('#health details').open"), "news of one more sensor folded it"
        assert errors == []
    finally:
        page.close()


def test_a_message_is_readable_at_320_px_and_stays_until_the_next_tap(browser, served):
    base, _ = served()
    page, errors = open_narrow(browser, base, clock=True)
    try:
        page.click("button[data-game='mountain-goats']")
        for _ in range(3):
            page.click("#add-player")
        page.click("#add-player")  # a sixth player: Mountain Goats takes at most 5
        page.wait_for_selector("#toast:not([hidden])")
        box = page.locator("#toast").bounding_box()
        assert box["width"] >= 280 and box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]
        page.clock.fast_forward("00:30")
        assert page.is_visible("#toast"), "no timer takes the message away before it is read"
        page.click("#title")
        assert page.is_hidden("#toast"), "the next tap puts it away"
        page.click("#add-player")
        page.wait_for_selector("#toast:not([hidden])")
        page.get_by_role("button", name="Close the message").click()
        assert page.is_hidden("#toast")
        assert errors == []
    finally:
        page.close()


# -- 4 and 5. contrast and touch targets -----------------------------------------------------------------------
CONTRAST = """() => {
  const rgba = (s) => { const m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const over = (top, under) => top.slice(0, 3).map((c, i) => c * top[3] + under[i] * (1 - top[3])).concat([1]);
  const background = (node) => {
    const layers = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] === 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const out = [];
  for (const node of document.querySelectorAll('body *')) {
    if (!node.getClientRects().length || node.closest(':disabled, svg, [hidden]')) continue;
    const own = [...node.childNodes].filter((c) => c.nodeType === 3 && c.textContent.trim()).map((c) => c.textContent).join('');
    if (!own) continue;
    const fg = over(rgba(getComputedStyle(node).color), background(node));
    const [a, b] = [lum(fg), lum(background(node))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) out.push(`${node.tagName}.${node.className} "${own.trim().slice(0, 30)}": ${ratio.toFixed(2)}`);
  }
  return out;
}"""

TARGETS = """() => {
  const out = [];
  for (const node of document.querySelectorAll('button, select, input, summary')) {
    if (!node.getClientRects().length) continue;
    const target = node.type === 'checkbox' && node.closest('label') ? node.closest('label') : node;
    const box = target.getBoundingClientRect();
    if (box.height < 44 || box.width < 44) out.push(`${node.tagName}#${node.id}.${node.className}: ${box.width}x${box.height}`);
  }
  return out;
}"""


def test_text_is_readable_against_its_background(browser, served):
    base, _ = served()
    page, errors = open_narrow(browser, base)
    try:
        page.evaluate("document.getElementById('link').className = 'link'")  # as it is while it connects
        assert page.evaluate(CONTRAST) == []
        page.click("button[data-game='matterhorn']")
        assert page.evaluate(CONTRAST) == []
        start_game(page, "matterhorn")
        step(page)
        page.click("#odds-box summary")
        assert page.evaluate(CONTRAST) == []
        assert errors == []
    finally:
        page.close()


def test_the_stars_on_the_matterhorn_board_are_readable():
    import re

    from companion.web.boards import matterhorn

    state = {"board": {"circles_per_line": {"5": 2, "6": 3}}, "tokens": {"5": "A.", "6": "..."}, "climbers": []}
    drawn = matterhorn(state, [])
    ground, star = re.search(r'<circle[^>]*fill="(#\w+)"[^>]*/><text[^>]*fill="(#\w+)"[^>]*>★', drawn).groups()

    def luminance(colour):
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted([luminance(ground), luminance(star)], reverse=True)
    assert (light + 0.05) / (dark + 0.05) >= 4.5


def test_every_control_is_at_least_44_px(browser, served):
    base, _ = served()
    page, errors = open_narrow(browser, base)
    try:
        page.click("#camera-box summary")
        page.click("button[data-game='mountain-goats']")  # its variant is a checkbox
        assert page.evaluate(TARGETS) == []
        page.click("button[data-game='magic-mountain']")  # and a choice
        assert page.evaluate(TARGETS) == []
        start_game(page, "matterhorn")
        step(page)
        assert page.evaluate(TARGETS) == []
        assert errors == []
    finally:
        page.close()


# -- 6. names, states and roles for a screen reader ---------------------------------------------------------------
def test_toggles_say_whether_they_are_on_and_player_rows_are_named(browser, served, service):
    base, _ = served()
    page, errors = open_narrow(browser, base)
    try:
        page.click("button[data-game='mountain-goats']")
        pressed = page.evaluate("[...document.querySelectorAll('#game-choice button')].map((b) => [b.dataset.game, b.getAttribute('aria-pressed')])")
        assert dict(pressed) == {name: "true" if name == "mountain-goats" else "false" for name in dict(pressed)}
        page.click("#add-player")
        for name in ("Player 1's name", "Player 2's colour", "Remove Player 3"):
            assert page.get_by_label(name, exact=True).count() == 1, name
        page.get_by_role("button", name="Remove Player 2").click()
        assert page.get_by_role("button", name="Remove Player 2").count() == 1, "the rows are numbered again"
        assert page.get_by_role("button", name="Remove Player 3").count() == 0
        page.locator("#players input.name").nth(1).fill("Ben")
        page.locator("#players input.name").nth(0).fill("Ada")
        page.click("#start-game")
        page.wait_for_selector("#live:not([hidden])")
        dice = tuple(DieReading(v, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.95) for v in (6, 2, 3, 4))
        service.table.submit(DiceSettled(t=1, dice=dice)).result(5)  # the camera read Ada's roll: now she moves
        page.wait_for_selector("#reading:not([hidden])")
        assert page.locator("#scores th").count() >= 2
        current = page.locator("#scores tr[aria-current]")
        assert current.count() == 1 and "Ada" in current.text_content()
        first = page.locator("#reading-dice button").nth(0)
        assert first.get_attribute("aria-pressed") == "false"
        first.click()
        assert page.locator("#reading-dice button").nth(0).get_attribute("aria-pressed") == "true"
        assert errors == []
    finally:
        page.close()


EMOJI_SHOWN = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    if ([...n.textContent].some((c) => c.codePointAt(0) >= 0x1F000) && !n.parentElement.closest('[aria-hidden=true]')) out.push(n.textContent);
  }
  for (const node of document.querySelectorAll('#live *')) {
    for (const pseudo of ['::before', '::after']) {
      const content = getComputedStyle(node, pseudo).content;
      if ([...content].some((c) => c.codePointAt(0) >= 0x1F000)) out.push(node.tagName + pseudo + content);
    }
  }
  return out;
}"""


def test_the_scores_show_each_player_in_the_colour_the_board_paints_them(browser, served, service):
    """A game started from the command line or an old recording may name no colour, or one the board has no
    paint for: the scores then show the colour the board gave that player, never another player's."""
    players = [{"name": "Ada"}, {"name": "Ben", "colour": "red"}, {"name": "Cleo", "colour": "teal"}]
    assert service.table.request({"do": "start", "game": "mountain-goats", "players": players}).ok
    page, errors = open_narrow(browser, served()[0])
    try:
        page.wait_for_selector("#scores tbody tr")
        board = page.evaluate("""() => [...document.querySelectorAll('#board svg [fill]')].map((n) => n.getAttribute('fill'))""")
        shown = page.evaluate("""() => [...document.querySelectorAll('#scores tbody tr')].map((row) => ({
            dot: getComputedStyle(row.querySelector('.dot')).backgroundColor,
            name: row.querySelector('.colour-name').textContent}))""")
        assert [s["name"] for s in shown][1] == " (red)"
        assert len({s["dot"] for s in shown}) == 3, shown
        assert shown[0]["name"] != " (red)" and "teal" not in shown[2]["name"], shown
        for row in shown:
            r, g, b = (int(v) for v in re.findall(r"\d+", row["dot"])[:3])
            assert f"#{r:02x}{g:02x}{b:02x}" in board, (row, "is not a colour the board paints")
        assert errors == []
    finally:
        page.close()


def test_the_winner_is_said_in_words_and_emoji_are_decoration(browser, served, service):
    base, _ = served()
    assert service.table.request({"do": "start", "game": "mountain-goats",
                                  "players": [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]}).ok
    view = service.table.view()
    view["game"].update(over=True, winners=[1], scores=[12, 31], chance=None, legal=[])
    view["version"] += 1
    page = new_page(browser, NARROW)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:  # the page is told the game is over: a finished game, without playing one to its end
        page.route("**/events", lambda route: route.fulfill(status=200, content_type="text/event-stream",
                                                              body=f"retry: 60000\nevent: state\ndata: {json.dumps(view)}\n\n"))
        page.goto(base + "/")
        page.wait_for_selector("#summary:not([hidden])")
        assert "Ben won" in page.text_content("#summary")
        winner = page.locator("#scores tbody tr").nth(1)
        assert "(winner)" in winner.text_content()
        assert "(winner)" not in page.locator("#scores tbody tr").nth(0).text_content()
        assert page.evaluate(EMOJI_SHOWN) == []
        assert errors == []
    finally:
        page.close()


# -- 7. nothing wider than a small phone -----------------------------------------------------------------------------
def test_each_games_main_flow_fits_320_px(browser, served):
    base, _ = served()
    for game in GAMES:  # each on a page of its own, with as many players as the game takes
        page, errors = open_narrow(browser, base)
        try:
            if page.is_visible("#new-game"):  # the game the page before started
                page.click("#new-game")
            page.click(f"button[data-game='{game}']")
            for _ in range(4):
                page.click("#add-player")
            no_horizontal_overflow(page)
            start_game(page, game)
            no_horizontal_overflow(page)
            for _ in range(8):
                if page.evaluate("window.companionView.game.over"):
                    break
                step(page)
                for folded in page.locator("#tip details:not([open]) summary").all():
                    folded.click()
                no_horizontal_overflow(page)
            assert errors == [], game
        finally:
            page.close()


def test_whose_turn_it_is_in_the_scores_is_told_by_more_than_a_pale_colour(browser, served, service):
    """The row of the player whose turn it is differed from the others only by its light blue: on a washed-out
    7-inch screen, or to a child who does not see that blue, no row stood out. It now carries a ▶ too."""
    players = [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    assert service.table.request({"do": "start", "game": "mountain-goats", "players": players}).ok
    assert service.table.request({"do": "dice", "values": [1, 1, 3, 4]}).ok  # Ada's roll: she moves now
    page, errors = open_narrow(browser, served()[0])
    try:
        page.add_style_tag(content="#scores tr { background: none !important; }")  # what a colour does not tell
        marks = page.evaluate("""() => [...document.querySelectorAll('#scores tbody th')].map((th) => {
            const mark = th.querySelector('.turn-mark');
            const box = mark ? mark.getBoundingClientRect() : null;
            return box && box.width > 0 && box.right <= innerWidth ? th.innerText.trim().slice(0, 6) : ''; })""")
        # U+FE0E asks for the text arrow, not a phone's coloured emoji button
        assert marks[0].startswith("\u25b6\ufe0e") and marks[0].endswith("Ada") and marks[1] == "", marks
        assert errors == []
    finally:
        page.close()
