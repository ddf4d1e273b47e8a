"""Each game's main flow in a real Chromium (Playwright with Debian's chromium), on a phone and a desktop
viewport. Screenshots go to out/browser/ for a person to look at."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.events import DiceSettled, DieReading
from companion.web.stream import MAX_STREAMS_PER_DEVICE
from tests.waiting import wait_for
from tests.web.conftest import as_phones

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[2] / "out" / "browser"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 860}}
NARROW = {"width": 320, "height": 640}  # the narrowest phone
DOUBLE_TEXT = "html { font-size: 32px !important; }"  # 200 % text: the root font 32 px, Android's largest "font size"
GAMES = {"matterhorn": "Matterhorn", "mountain-goats": "Mountain Goats", "magic-mountain": "Magic Mountain",
         "banana-matcho": "Banana Matcho"}


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed (./dev test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
            "--disable-sync"])
        yield browser
        browser.close()


def new_page(browser, viewport):
    """A page whose Content-Security-Policy lets Playwright's wait_for_function evaluate its predicate text.
    The page itself evaluates none; test_security_audit runs it under its policy."""
    return browser.new_page(viewport=viewport, device_scale_factor=1, bypass_csp=True)


def open_page(browser, base, viewport, ready="#link.on", text=""):
    """The page on a screen (`viewport`: a name in VIEWPORTS, or a size), loaded until `ready` shows; `text`: a style
    its reader set (larger text). Returns (the page, the script errors it throws)."""
    page = new_page(browser, VIEWPORTS[viewport] if isinstance(viewport, str) else viewport)
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_selector(ready)
    if text:
        page.add_style_tag(content=text)
    return page, errors


def drawn(page) -> None:
    """Waits for two of the page's frames: what a new text size or screen measures again (fitToScreen, which a
    ResizeObserver runs) is through by then, however slow the machine, where a fixed 100 ms may not be."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def version(page) -> int:
    return int(page.evaluate("window.companionView.version"))


def start_game(page, game):
    page.click(f"button[data-game='{game}']")
    names = page.locator("#players input.name")
    names.nth(0).fill("Ada")
    names.nth(1).fill("Ben")
    page.click("#start-game")
    page.wait_for_selector("#live:not([hidden])")


def step(page) -> None:
    """One step as a person taps it: enter the outcome the game waits for, or take the first move."""
    before = version(page)
    if page.locator("#question:not([hidden]) button").count():
        page.locator("#question button").first.click()
    elif page.locator("#chance:not([hidden])").count():
        faces = page.locator("#chance-faces button")
        count = int(page.evaluate("window.companionView.game.chance.count"))
        kind = page.evaluate("window.companionView.game.chance.kind")
        picks = [0, 0, 0, 1, 2, 3, 6, 6, 7] if kind == "duel-dice" else [i % faces.count() for i in range(count or 1)]
        for i in picks:  # count 0: any number, in order
            faces.nth(i).click()
        if count != 1:
            page.click("#chance-send")
    else:
        page.locator("#moves button.move").first.click()
    # polled from here, not wait_for_function: the page runs under its policy
    wait_for(lambda: version(page) > before, "the tap to reach a new view")


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("game", GAMES)
def test_main_flow_of_each_game(browser, served, game, viewport):
    base, _ = served()
    page, errors = open_page(browser, base, viewport)
    try:
        start_game(page, game)
        assert page.text_content("#title") == GAMES[game]
        assert page.locator("#board svg").count() == 1
        for _ in range(6):
            if page.evaluate("window.companionView.game.over"):
                break
            step(page)
        steps = int(page.evaluate("window.companionView.game.history_count"))
        assert steps >= 1
        assert page.locator("#history li").count() == steps
        page.click("#undo")
        page.wait_for_function(f"window.companionView.game.history_count == {steps - 1}")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{game}-{viewport}.png"), full_page=True)
        assert errors == []
    finally:
        page.close()


def test_a_camera_reading_shows_and_a_misread_die_is_fixed_in_two_taps(browser, served, service):
    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        start_game(page, "mountain-goats")
        dice = tuple(DieReading(v, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.95) for v in (6, 2, 3, 4))
        service.table.submit(DiceSettled(t=1, dice=dice)).result(5)
        page.wait_for_selector("#reading:not([hidden])")
        assert page.locator("#reading-dice button").all_text_contents() == ["6", "2", "3", "4"]
        page.locator("#reading-dice button").nth(0).click()
        page.locator("#fix button", has_text="5").click()
        page.wait_for_function("window.companionView.game.last_reading.values[0] == 5")
        assert page.locator("#reading-dice button").all_text_contents() == ["5", "2", "3", "4"]
        page.screenshot(path=str(SHOTS / "fix-a-die-phone.png"), full_page=True)
        assert errors == []
    finally:
        page.close()


def test_a_refused_request_shows_its_message(browser, served):
    base, _ = served()
    page, _ = open_page(browser, base, "desktop")
    try:
        start_game(page, "matterhorn")
        page.click("#new-game")
        page.click("button[data-game='matterhorn']")
        page.locator("#players li button").nth(0).click()  # remove a player: one is too few
        page.click("#start-game")
        page.wait_for_selector("#toast:not([hidden])")
        assert "players" in page.text_content("#toast")
        page.click("#add-player")
        page.locator("#players input.name").nth(1).fill("Cleo")
        page.click("#start-game")
        page.wait_for_selector("#live:not([hidden])")
        assert page.is_hidden("#toast"), "the message about the refused start is gone once the game starts"
    finally:
        page.close()


def test_unsure_dice_ask_the_page(browser, served, service):
    base, _ = served()
    page, _ = open_page(browser, base, "desktop")
    try:
        start_game(page, "mountain-goats")
        dice = tuple(DieReading(v, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.5, unsure=(v == 3)) for v in (6, 2, 3, 4))
        service.table.submit(DiceSettled(t=1, dice=dice)).result(5)
        page.wait_for_selector("#question:not([hidden])")
        assert "not sure about die 3" in page.text_content("#question")
        assert page.locator("#chance-chosen button").all_text_contents() == ["6", "2", "3", "4"]
        page.locator("#chance-chosen button").nth(2).click()
        page.locator("#chance-faces button", has_text="5").click()
        page.click("#chance-send")
        page.wait_for_function("window.companionView.question === null")
        assert page.evaluate("window.companionView.game.last_reading.values") == [6, 2, 4, 5]
        page.screenshot(path=str(SHOTS / "unsure-dice-desktop.png"), full_page=True)
    finally:
        page.close()


def test_a_roll_asked_about_hides_the_roll_before_and_marks_its_unsure_die(browser, served, service):
    """Ada's roll is played; Ben's is asked about. 'Just read (tap a die to fix it)' showed Ada's roll under
    the question, and a child's tap there took back her move. Five dice seen for a roll of four were
    prefilled as the first four, confirmed with one tap."""
    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        start_game(page, "mountain-goats")
        service.table.submit(DiceSettled(t=1, dice=readings([2, 3, 5, 6]))).result(5)  # Ada's
        page.wait_for_selector("#reading:not([hidden])")
        step(page)
        ben = tuple(DieReading(v, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.5, unsure=(i == 1)) for i, v in enumerate((4, 4, 2, 6)))
        service.table.submit(DiceSettled(t=2, dice=ben)).result(5)
        page.wait_for_selector("#question:not([hidden])")
        assert page.is_hidden("#reading"), "no roll before to tap while this one is asked about"
        marked = page.eval_on_selector_all("#chance-chosen button", "(bs) => bs.map((b) => b.classList.contains('unsure'))")
        assert marked == [False, True, False, False]
        service.table.submit(DiceSettled(t=3, dice=readings([1, 2, 3, 4, 5]))).result(5)
        page.wait_for_function("document.getElementById('question').textContent.includes('I see 5 dice')")
        assert page.locator("#chance-chosen button").count() == 0, "which die to leave out is for a person to say"
        assert page.is_disabled("#chance-send")
        assert errors == []
    finally:
        page.close()


def readings(values):
    return tuple(DieReading(v, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.95) for v in values)


def test_banana_matcho_a_squeak_both_sides_could_have_made_asks_who(browser, served, service):
    from companion.events import BananaSqueaked, ZoneState

    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        start_game(page, "banana-matcho")
        table = service.table
        table.submit(ZoneState(t=10, zone="fruit", dice=readings(["coconut"] * 3 + ["banana", "orange", "papaya"]))).result(5)
        table.submit(ZoneState(t=11, zone="matcho", dice=readings(["matcho"] * 3))).result(5)
        table.submit(ZoneState(t=99, zone="fruit", dice=readings(["banana"] * 6))).result(5)  # after the squeak
        table.submit(BananaSqueaked(t=20)).result(5)
        page.wait_for_selector("#question:not([hidden])")
        assert "Both sides have a combination" in page.text_content("#question")
        page.locator("#question button", has_text="The fruit roller").click()
        page.wait_for_function("window.companionView.question === null")
        history = page.evaluate("window.companionView.game.history.map(s => s.text)")
        assert any("three-of-a-kind" in text for text in history), history
        assert page.evaluate("window.companionView.game.scores") == [2, 0]
        page.screenshot(path=str(SHOTS / "banana-squeak-phone.png"), full_page=True)
        assert errors == []
    finally:
        page.close()


def test_banana_matcho_a_squeak_with_a_die_not_read_is_judged_on_the_dice_tapped(browser, served, service):
    """Ben's third Matcho die is read unsure: the page offers only the fruit roller, whose dice were seen,
    and the family taps the nine dice as they lay; three Matchos, so Ben climbs."""
    from companion.events import BananaSqueaked, ZoneState

    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        start_game(page, "banana-matcho")
        table = service.table
        unsure = DieReading("matcho", (2.0, 0.0), (2.0, 0.0, 3.0, 1.0), 0.6, unsure=True)
        table.submit(ZoneState(t=10, zone="fruit", dice=readings(["coconut"] * 2 + ["starfruit"] * 2 + ["orange", "banana"]))).result(5)
        table.submit(ZoneState(t=11, zone="matcho", dice=readings(["matcho"] * 2) + (unsure,))).result(5)
        table.submit(BananaSqueaked(t=20)).result(5)
        page.wait_for_selector("#question:not([hidden])")
        assert "could not read one of the Matcho dice" in page.text_content("#question")
        assert page.locator("#question button").all_text_contents() == [
            "The fruit roller", "Nobody: it was knocked or squeezed, ignore it"]
        faces = page.locator("#chance-faces button")
        for i in [0, 0, 1, 1, 2, 3, 6, 6, 6]:  # coconut, coconut, starfruit, starfruit, orange, banana; 3 Matchos
            faces.nth(i).click()
        page.click("#chance-send")
        page.wait_for_function("window.companionView.question === null")
        assert page.evaluate("window.companionView.game.scores") == [0, 1]
        assert page.evaluate("window.companionView.game.history.at(-1).t") == 20, "the squeak's own time"
        assert errors == []
    finally:
        page.close()


def test_magic_mountain_the_gate_reports_the_opening(browser, served, service):
    from companion.events import BallEntered, BallLanded

    base, _ = served()
    page, errors = open_page(browser, base, "desktop")
    try:
        start_game(page, "magic-mountain")
        page.locator("#chance-faces button", has_text="red").click()
        page.wait_for_function("window.companionView.game.chance === null")
        service.table.submit(BallEntered(t=5, opening=4)).result(5)
        service.table.submit(BallLanded(t=6)).result(5)
        page.wait_for_function("window.companionView.game.chance && window.companionView.game.chance.kind === 'hits'")
        assert "opening 4" in page.evaluate("window.companionView.game.history.at(-1).text")
        # the landing's notice may come in the update after the one that asks for the hits
        page.wait_for_function("document.getElementById('prompt').textContent.includes('tap what it hit')")
        page.locator("#chance-faces button", has_text="S1").click()
        page.click("#chance-send")
        page.wait_for_function("window.companionView.game.chance && window.companionView.game.chance.kind === 'draw'")
        page.screenshot(path=str(SHOTS / "magic-mountain-gate-desktop.png"), full_page=True)
        assert errors == []
    finally:
        page.close()


def test_what_is_not_working_is_named_on_the_page(browser, served, service):
    from companion.events import CameraHealth, SensorHealth

    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        def pulled_out(event):
            raise OSError(5, "Input/output error")

        service.table.tap = pulled_out
        service.table.submit(CameraHealth(t=1, state="lost", message="cannot open USB camera 0: check the cable")).result(5)
        service.table.submit(SensorHealth(t=2, sensor="hub", state="disconnected", message="hub disconnected")).result(5)
        page.wait_for_function("document.querySelectorAll('#health .warn').length === 3")
        texts = page.locator("#health .warn").all_text_contents()
        assert sorted(texts) == ["Camera: cannot open USB camera 0: check the cable",
                                 "Recording: the recording stopped ([Errno 5] Input/output error); the game goes on",
                                 "Sensor: hub disconnected"]
        assert errors == []
    finally:
        page.close()


def test_a_missing_gpio_library_and_an_outdated_hub_are_said_once_not_counted_as_sensors(browser, served, service):
    """Without lgpio the page said "8 sensors are not working" with what to install under each; a hub on firmware
    1.0.0 (which can keep a released banana pressed) was not shown at all."""
    from companion.events import SensorHealth

    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    outdated = ("the hub runs firmware 1.0.0, older than the 1.0.1 this companion ships: its sensors work, but "
                "firmware before 1.0.1 can keep a released banana pressed: copy this companion's firmware to the Pico")
    try:
        said = [SensorHealth(t=1, sensor="hub", state="outdated", message=outdated),
                SensorHealth(t=2, sensor="gpio", state="error", message="gpiozero has no GPIO library to use: "
                                                                         "sudo apt install python3-lgpio"),
                SensorHealth(t=3, sensor="banana", state="error",
                             message="the banana (GPIO17, pin 11) not opened: no GPIO library, see gpio"),
                SensorHealth(t=4, sensor="gate1", state="error",
                             message="gate 1 (GPIO5, pin 29) not opened: no GPIO library, see gpio")]
        for event in said:
            service.table.submit(event).result(5)
        page.wait_for_function("document.querySelectorAll('#health .warn').length === 3")
        assert page.locator("#health > p.warn").all_text_contents() == [
            f"Sensor hub: {outdated}", "GPIO: gpiozero has no GPIO library to use: sudo apt install python3-lgpio"]
        assert page.locator("#health summary").text_content() == "2 sensors are not working — tap what happens instead"
        assert errors == []
    finally:
        page.close()


def test_the_banana_matcho_zones_trouble_is_told_only_where_banana_matcho_is_played_or_picked(browser, served, service):
    """camera.zones set for another camera size: the page told every Matterhorn family that zones they never use
    "lie outside the camera's picture" and "squeaks are asked on the page"."""
    from companion.events import SensorHealth

    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    zones_said = "the zone fruit (0,0,760,500) lies outside the camera's 640x480 picture and read nothing"
    try:
        service.table.submit(SensorHealth(t=1, sensor="dice zones", state="error", message=zones_said)).result(5)
        page.wait_for_function("'sensor:dice zones' in window.companionView.health")
        assert page.locator("#health .warn").count() == 0, "no game picked yet"
        page.click("button[data-game='banana-matcho']")
        assert page.locator("#health .warn").all_text_contents() == [f"Sensor: {zones_said}"]
        start_game(page, "matterhorn")
        assert page.locator("#health .warn").count() == 0, "Matterhorn does not read the zones"
        assert service.table.request({"do": "end"}).ok
        assert service.table.request({"do": "start", "game": "banana-matcho",
                                      "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
        page.wait_for_function("document.querySelectorAll('#health .warn').length === 1")
        assert page.locator("#health .warn").all_text_contents() == [f"Sensor: {zones_said}"]
        assert errors == []
    finally:
        page.close()


def test_the_camera_view_shows_the_tray_in_use_and_sets_another(browser, served, service):
    class Camera:
        tray = (10, 20, 300, 200)

        def latest_jpeg(self):
            return None

        def set_tray(self, box):
            self.tray = box

    service.camera = Camera()
    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        page.click("#camera-box summary")
        page.wait_for_function("document.querySelector('#tray').value === '10, 20, 300, 200'")
        page.fill("#tray", "12, 24, 600, 400")
        page.click("#tray-set")
        page.wait_for_selector("text=Tray set.")
        assert service.camera.tray == (12, 24, 600, 400)
        page.click("#camera-box summary")
        page.click("#camera-box summary")
        page.wait_for_function("document.querySelector('#tray').value === '12, 24, 600, 400'")
        assert errors == []
    finally:
        page.close()


def test_a_tap_that_arrives_after_another_phone_played_is_refused_and_plays_nothing(browser, served, service):
    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        start_game(page, "mountain-goats")
        step(page)
        step(page)
        steps = len(service.table.view()["game"]["history"])

        def other_phone_first(route):
            assert service.table.request({"do": "undo"}).ok  # Ben's phone undid a moment earlier
            route.continue_()

        page.route("**/api/command", other_phone_first)
        page.click("#undo")
        page.wait_for_selector("#toast:not([hidden])")
        said = page.text_content("#toast-text")  # the table's words, said as a sentence (test_refused_words)
        assert said.startswith("The game moved on before your tap arrived") and said.endswith("."), said
        assert len(service.table.view()["game"]["history"]) == steps - 1, "one undo, not two"
        page.unroute("**/api/command")
        page.wait_for_function(f"window.companionView.game.history_count === {steps - 1}")
        page.click("#undo")
        page.wait_for_function(f"window.companionView.game.history_count === {steps - 2}")
        assert errors == []
    finally:
        page.close()


def test_an_open_page_follows_the_game_after_the_service_restarts(browser, tmp_path):
    """The view's version counts again from 0 in a new run; an open page must not take the new views for
    old ones and freeze on the last turn it saw."""
    import json
    import urllib.request

    from tests.web.conftest import CompanionProcess

    companion = CompanionProcess(tmp_path)
    serve = companion.start
    service = serve()
    base = companion.base

    def post(command):
        request = urllib.request.Request(base + "/api/command", data=json.dumps(command).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.load(reply)["state"]

    page = None
    try:
        post({"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]})
        for _ in range(3):
            post({"do": "dice", "values": [1, 2, 3, 4]})
            post({"do": "play", "action": {"kind": "move", "steps": [], "big": []}})
        page, errors = open_page(browser, base, "phone")
        page.wait_for_function("window.companionView.game.history_count === 6")
        service.terminate()
        service.wait(20)
        service = serve()
        post({"do": "dice", "values": [6, 6, 5, 5]})
        page.wait_for_function("window.companionView.game.history_count === 7", timeout=20_000)
        assert errors == []
    finally:
        if page is not None:
            page.close()
        service.terminate()
        service.wait(20)


def test_new_game_can_go_back_to_the_game_in_play_and_a_game_opens_at_its_top(browser, served):
    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        start_game(page, "mountain-goats")
        assert page.evaluate("window.scrollY") == 0, "the turn is in view once the game starts"
        step(page)
        page.click("#new-game")
        page.wait_for_selector("#start:not([hidden])")
        page.click("#back-to-game")
        page.wait_for_selector("#live:not([hidden])")
        assert page.evaluate("window.companionView.game.history_count") == 1
        assert page.is_hidden("#start") and errors == []
    finally:
        page.close()


def test_banana_matcho_fruit_and_matcho_faces_keep_to_their_own_dice(browser, served):
    base, _ = served()
    page, errors = open_page(browser, base, "phone")
    try:
        start_game(page, "banana-matcho")
        faces = page.locator("#chance-faces button")

        def tap(name):
            faces.filter(has_text=name).first.click()

        def shown():
            return page.locator("#chance-chosen .die").all_text_contents()

        tap("matcho")  # a Matcho face first: it goes to the Matcho dice, not to the first fruit die
        assert shown() == ["?"] * 6 + ["matcho", "M?", "M?"]
        for fruit in ["coconut"] * 4 + ["banana"] * 2:
            tap(fruit)
        tap("papaya")  # a seventh fruit has no place
        assert "fruit dice are all tapped" in page.text_content("#toast")
        page.locator("#chance-chosen button.die").nth(1).click()  # change the second fruit die
        tap("papaya")
        tap("blank")
        tap("matcho")
        assert shown() == ["coconut", "papaya", "coconut", "coconut", "banana", "banana", "matcho", "blank", "matcho"]
        page.click("#chance-send")
        page.wait_for_function("window.companionView.game.history_count === 1")
        assert errors == []
    finally:
        page.close()


def test_a_page_opened_while_the_companion_cannot_answer_loads_the_games_once_it_can(browser, served):
    base, _ = served()
    page = new_page(browser, VIEWPORTS["phone"])
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.route("**/api/games", lambda route: route.abort())  # the Pi restarting as the phone opens the page
        page.goto(base + "/")
        page.wait_for_selector("#link.on")
        page.wait_for_timeout(300)
        assert page.locator("button[data-game]").count() == 0
        page.unroute("**/api/games")
        page.wait_for_selector("button[data-game='matterhorn']", timeout=10_000)
        assert errors == [], "a request that cannot be answered is no error on the page"
    finally:
        page.close()


@pytest.mark.parametrize("code", [None, "586430", "999999"], ids=["as made", "586430", "999999"])
def test_the_tables_own_screen_shows_the_join_code_and_its_qr_code(browser, served, tmp_path, code):
    """The QR code scans, whatever the code: with the quiet zone of two modules it had, 5 of 40 random codes
    (586430 and 999999 among them) were not found in the screenshot at all."""
    from companion.web.joincode import JoinCodes, install

    import cv2
    import numpy as np

    base, app = served()
    codes = JoinCodes(tmp_path / "join")
    if code is not None:
        codes.code = code
    install(app, codes)
    app.config["PAGE_URLS"] = ["http://companion.local:8080/", "http://192.168.1.40:8080/"]
    page, errors = open_page(browser, base, "phone")
    try:
        page.wait_for_selector("#share-join:not([hidden])")
        assert page.locator("#join-code").inner_text() == codes.code
        page.wait_for_function("document.getElementById('join-qr').complete")
        drawn = page.evaluate("document.getElementById('join-qr').naturalWidth")
        assert drawn >= 100, "the QR code image is drawn, not a broken image"
        shot = cv2.imdecode(np.frombuffer(page.locator("#join-qr").screenshot(), np.uint8), cv2.IMREAD_COLOR)
        scanned, _, _ = cv2.QRCodeDetector().detectAndDecode(shot)
        assert scanned == f"http://192.168.1.40:8080/join?code={codes.code}", \
            "the table's own screen (127.0.0.1) shows an address the other phones can open"
        assert errors == []
    finally:
        page.close()


def test_a_page_renews_its_stream_without_showing_reconnecting(browser, served, service):
    base, _ = served(stream_lifetime=0.5, keepalive=0.05)
    page, errors = open_page(browser, base, "phone")
    try:
        page.evaluate("""() => { window.linkSaid = [];
            new MutationObserver(() => window.linkSaid.push(document.getElementById('link').textContent))
              .observe(document.getElementById('link'), { childList: true, characterData: true, subtree: true }); }""")
        page.wait_for_timeout(2000)  # several streams' lifetimes
        start_game(page, "matterhorn")
        assert "reconnecting…" not in page.evaluate("window.linkSaid")
        assert errors == []
    finally:
        page.close()


def test_a_page_refused_for_too_many_pages_connects_once_one_closes(browser, served):
    base, _ = served(max_streams=1)
    first, _ = open_page(browser, base, "phone")
    second = new_page(browser, VIEWPORTS["phone"])
    try:
        second.goto(base + "/")
        second.wait_for_selector("#link.off")
        first.close()
        second.wait_for_selector("#link.on", timeout=20_000)
    finally:
        second.close()


def test_a_phones_pages_past_its_few_live_ones_wait_for_their_reader_not_take_each_others_place(browser, served):
    """One phone holds a few live pages: a page opened past them (a QR code scanned again and again) goes live and
    its oldest stops. The stopped page reconnected by itself in 2 s and took the next one's place, and so on round
    the phone's pages, every page flickering "reconnecting…". It now waits for a tap (or to be looked at again)."""
    base, app = served(max_streams=16)
    app.wsgi_app = as_phones(app.wsgi_app)
    phone = browser.new_context(viewport=VIEWPORTS["phone"], device_scale_factor=1, bypass_csp=True,
                                extra_http_headers={"X-Phone": "192.168.1.66"})
    try:
        pages = []
        for _ in range(MAX_STREAMS_PER_DEVICE + 1):
            page = phone.new_page()
            page.goto(base + "/")
            page.wait_for_selector("#link.on")
            page.evaluate("""() => { window.linkSaid = [];
                new MutationObserver(() => window.linkSaid.push(document.getElementById('link').textContent))
                  .observe(document.getElementById('link'), { childList: true, characterData: true, subtree: true });
            }""")
            pages.append(page)
        oldest, newest = pages[0], pages[1:]
        oldest.wait_for_selector("#link.off")
        oldest.wait_for_timeout(6000)  # three times the stream's retry time
        assert oldest.locator("#link").text_content() == "not live: tap the page"
        for page in newest:
            assert page.locator("#link").text_content() == "live", page.evaluate("window.linkSaid")
            assert "reconnecting…" not in page.evaluate("window.linkSaid")
        oldest.mouse.click(5, 300)
        oldest.wait_for_selector("#link.on")
        newest[0].wait_for_selector("#link.off")
        assert all(page.locator("#link").text_content() == "live" for page in newest[1:])
    finally:
        phone.close()


def test_a_request_the_web_server_itself_refuses_is_named_not_called_unreachable(browser, served):
    """The web server answers a request too large (over 16 kB: a pasted text) in plain text, not in the app's
    JSON: the page read that as the companion being unreachable, and said "Is it still on?" of a running Pi."""
    base, _ = served()
    page, _ = open_page(browser, base, "desktop")
    try:
        page.route("**/api/command", lambda route: route.fulfill(
            status=413, content_type="text/plain", body="Request Entity Too Large"))
        page.click("button[data-game='matterhorn']")
        page.click("#start-game")
        page.wait_for_selector("#toast:not([hidden])")
        said = page.text_content("#toast")
        assert "413" in said and "cannot be reached" not in said, said
    finally:
        page.close()
