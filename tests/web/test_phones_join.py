"""A phone that has not joined taps; the page asks for the join code and sends the tap again. The tap must
still be the one made on the game the phone showed, not on whatever the game became while the code was typed."""
from tests.web.test_browser import browser  # noqa: F401
import companion.web.joincode as joincode
from companion.web.joincode import JoinCodes, install

from tests.waiting import wait_for
from tests.web.test_browser import open_page

START = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def phone_not_joined(browser, served, service, tmp_path, monkeypatch, **served_options):  # noqa: F811
    """A game on, join codes required, and a page opened on a phone (not the Pi's own screen) that has not joined."""
    monkeypatch.setattr(joincode, "is_own_screen", lambda address: False)
    base, app = served(**served_options)
    codes = JoinCodes(tmp_path / "join")
    install(app, codes)
    assert service.table.request(START).ok
    page, errors = open_page(browser, base, "phone")
    return base, codes, page, errors


def roll_answering_the_prompt(page, asked: list, answers: list) -> None:
    """Tap Ada's roll; each prompt for the join code is noted in `asked` and answered with the next of
    `answers` (None, or none left: cancelled)."""
    def answer(dialog):
        asked.append(dialog.message)
        code = answers.pop(0) if answers else None
        dialog.accept(code) if code else dialog.dismiss()

    page.on("dialog", answer)
    page.wait_for_selector("#chance-faces button")
    for _ in range(4):
        page.locator("#chance-faces button").nth(0).click()
    page.click("#chance-send")


def test_a_tap_sent_again_after_the_join_code_is_refused_if_the_game_moved_on_meanwhile(browser, served, service,
                                                                                           tmp_path, monkeypatch):
    monkeypatch.setattr(joincode, "is_own_screen", lambda address: False)  # the browser is a phone, not the Pi
    base, app = served()
    codes = JoinCodes(tmp_path / "join")
    install(app, codes)
    table = service.table
    assert table.request(START).ok
    assert table.request({"do": "dice", "values": [1, 2, 3, 4]}).ok  # Ada's roll: the phone shows it
    page, errors = open_page(browser, base, "phone")
    try:
        page.wait_for_function("window.companionView.game.history_count === 1")

        def typing_the_code(dialog):
            # while the child types the code, Ada's move is tapped on Ben's (joined) phone
            assert table.request({"do": "play", "action": {"kind": "move", "steps": [], "big": []}}).ok
            page.wait_for_timeout(300)
            dialog.accept(codes.code)

        page.on("dialog", typing_the_code)
        page.click("#undo")  # meant: take back Ada's roll, the last step this phone shows
        page.locator("#toast:not([hidden]) #toast-text", has_text="moved on").wait_for()
        texts = [step["text"] for step in table.view()["game"]["history"]]
        assert len(texts) == 2, f"the undo tapped on Ada's roll took back Ben's phone's move instead: {texts}"
        assert page.is_visible("#toast") and "moved on" in page.text_content("#toast-text")
    finally:
        page.close()


def test_setting_the_tray_on_a_phone_that_has_not_joined_says_why_it_did_not_work(browser, served, service,
                                                                                   tmp_path, monkeypatch):
    """The refusal says "enter the join code" in its `error` field; the tray button shows `message` only: an
    empty red box, and no way to join from there."""
    monkeypatch.setattr(joincode, "is_own_screen", lambda address: False)

    class Camera:
        tray = None

        def latest_jpeg(self):
            return None

        def set_tray(self, box):
            self.tray = box

    service.camera = Camera()
    base, app = served()
    install(app, JoinCodes(tmp_path / "join"))
    page, errors = open_page(browser, base, "phone")
    try:
        page.on("dialog", lambda dialog: dialog.dismiss())
        page.click("#camera-box summary")
        page.fill("#tray", "10, 20, 300, 200")
        page.click("#tray-set")
        page.wait_for_selector("#toast:not([hidden])")
        assert "join" in page.text_content("#toast-text"), \
            f"the message shown: {page.text_content('#toast-text')!r}"
    finally:
        page.close()


def test_a_wrong_join_code_is_said_to_be_wrong(browser, served, service, tmp_path, monkeypatch):
    """The page asks for the code, the child types it wrong: the answer "That is not the join code" is shown
    for an instant and replaced by the first refusal, "enter the join code" (which the child just did); after
    ten wrong codes, "wait a minute" is hidden the same way."""
    base, codes, page, errors = phone_not_joined(browser, served, service, tmp_path, monkeypatch)
    try:
        wrong = "000000" if codes.code != "000000" else "111111"
        page.on("dialog", lambda dialog: dialog.accept(wrong))
        page.wait_for_selector("#chance-faces button")
        for _ in range(4):
            page.locator("#chance-faces button").nth(0).click()
        page.click("#chance-send")
        page.wait_for_selector("#toast:not([hidden])")
        page.wait_for_timeout(300)
        assert "not the join code" in page.text_content("#toast-text"), page.text_content("#toast-text")
    finally:
        page.close()


def test_a_cancelled_join_code_prompt_leaves_a_button_to_join_and_the_words_say_where_the_code_is(
        browser, served, service, tmp_path, monkeypatch):
    """The child taps, the page asks for the code, the child has not got it yet and cancels: the page keeps a
    "Join" button to try again once they have it, and no message sends a family to a log it cannot see."""
    base, codes, page, errors = phone_not_joined(browser, served, service, tmp_path, monkeypatch)
    try:
        asked, answers = [], [None]  # the first prompt cancelled
        roll_answering_the_prompt(page, asked, answers)
        page.wait_for_selector("#toast:not([hidden])")
        said = asked + [page.text_content("#toast-text")]
        join = page.get_by_role("button", name="Join to play")
        assert join.is_visible(), f"after the prompt was cancelled the page has no button to join: {said}"
        answers.extend(["000000" if codes.code != "000000" else "111111", codes.code])
        join.click()
        page.wait_for_selector("#toast:not([hidden])")
        refused = page.text_content("#toast-text")
        assert "not the join code" in refused and "log" not in refused and "Join to play" in refused, refused
        join.click()
        page.wait_for_selector("#join", state="hidden")
        page.click("#chance-send")  # the dice tapped before are still there: sent now without a prompt
        page.wait_for_function("window.companionView.game.history_count === 1")
        assert len(asked) == 3 and not [s for s in asked if "log" in s], asked
        assert errors == []
    finally:
        page.close()


def test_a_phone_signed_out_by_a_new_code_gets_the_join_button_back(browser, served, service, tmp_path, monkeypatch):
    """The phone had joined; a new join code signs every device out. Its next tap asks for the code; cancelled,
    the page shows the "Join to play" button it hid when the phone joined."""
    base, codes, page, errors = phone_not_joined(browser, served, service, tmp_path, monkeypatch)
    try:
        answers = [codes.code]
        page.on("dialog", lambda dialog: dialog.accept(answers.pop(0)) if answers else dialog.dismiss())
        page.click("#join")
        page.wait_for_selector("#join", state="hidden")
        codes.rotate()
        for _ in range(4):  # Ada's roll: refused, the code asked for, the prompt cancelled
            page.locator("#chance-faces button").nth(0).click()
        page.click("#chance-send")
        page.wait_for_selector("#toast:not([hidden])")
        assert page.is_visible("#join"), "signed out, the page has no button to join again"
        assert errors == []
    finally:
        page.close()


def test_after_joining_by_keyboard_the_focus_goes_to_the_game_not_nowhere(browser, served, service, tmp_path,
                                                                          monkeypatch):
    """The "Join to play" button disappears once the phone joined: the focus must not vanish with it (a keyboard or
    screen-reader user would start again from the top of the page)."""
    base, codes, page, errors = phone_not_joined(browser, served, service, tmp_path, monkeypatch)
    try:
        page.on("dialog", lambda dialog: dialog.accept(codes.code))
        page.focus("#join")
        page.keyboard.press("Enter")
        page.wait_for_selector("#join", state="hidden")
        focused = page.evaluate("document.activeElement === document.body ? 'nothing' : document.activeElement.id")
        assert focused == "turn", f"after joining the focus is on {focused}"
        assert errors == []
    finally:
        page.close()


def test_a_phone_signed_out_by_a_new_code_does_not_show_the_old_code_at_its_foot(
        browser, served, service, tmp_path, monkeypatch):
    """The prompt sends people to "the foot of the page on a phone that already plays": a phone signed out by a
    new join code (a restart that lost join.json) must not show the old, refused code there. And the very first
    phone of a companion with no screen is told where that code is: the service's log, journalctl."""
    base, codes, page, errors = phone_not_joined(browser, served, service, tmp_path, monkeypatch)
    try:
        old, asked, answers = codes.code, [], [codes.code]
        page.on("dialog", lambda d: (asked.append(d.message), d.accept(answers.pop(0)) if answers else d.dismiss()))
        page.click("#join")
        page.wait_for_selector("#join", state="hidden")
        page.wait_for_selector("#share-join:not([hidden])")
        assert page.text_content("#join-code") == old
        while codes.rotate() == old:
            pass
        for _ in range(4):
            page.locator("#chance-faces button").nth(0).click()
        page.click("#chance-send")
        page.wait_for_selector("#toast:not([hidden])")
        assert "foot of the page" in asked[-1] and "journalctl -u companion" in asked[-1], asked
        shown = page.text_content("#join-code") if page.is_visible("#share-join") else None
        assert shown in (None, codes.code), f"the page's foot still shows the old code {shown}, now {codes.code}"
        assert errors == []
    finally:
        page.close()


def test_an_idle_phone_does_not_keep_showing_a_join_code_that_no_longer_works(
        browser, served, service, tmp_path, monkeypatch):
    """A restart that lost join.json makes a new code: a joined phone that never taps meanwhile asks again when its
    stream reconnects, and stops showing the old, refused code at its foot (where the prompt sends people)."""
    base, codes, page, errors = phone_not_joined(browser, served, service, tmp_path, monkeypatch,
                                                 stream_lifetime=1.0, keepalive=0.3)  # reopened, as after a restart
    try:
        old = codes.code
        page.on("dialog", lambda d: d.accept(old))
        page.click("#join")
        page.wait_for_selector("#share-join:not([hidden])")
        while codes.rotate() == old:
            pass
        # the game moves on (the table's own screen plays): this phone hears it, but never taps
        assert service.table.request({"do": "dice", "values": [1, 1, 3, 4]}).ok
        page.wait_for_function("() => document.getElementById('prompt').textContent.includes('group')")

        def foot() -> str | None:
            return page.text_content("#join-code") if page.is_visible("#share-join") else None

        wait_for(lambda: foot() in (None, codes.code),  # once the page's stream reconnected (every second here)
                 f"the foot to stop showing the old code {old}; the code is now {codes.code}")
    finally:
        page.close()


def test_the_page_asks_for_the_code_in_the_servers_words(browser, served, service, tmp_path, monkeypatch):  # noqa: F811
    """The words about joining were written twice, in joincode.py (the refusals) and in app.js (the prompt), and
    could drift apart: the page now takes them from the server. Changed there, the prompt, the button and the
    refusal all say the new words."""
    monkeypatch.setattr(joincode, "WHERE_THE_CODE_IS", "It is on the fridge.")
    monkeypatch.setattr(joincode, "JOIN_BUTTON", "Join the table")
    base, codes, page, errors = phone_not_joined(browser, served, service, tmp_path, monkeypatch)
    try:
        asked, answers = [], [None, "000000" if codes.code != "000000" else "111111"]  # cancelled, then wrong
        roll_answering_the_prompt(page, asked, answers)
        join = page.get_by_role("button", name="Join the table")
        join.wait_for()
        join.click()
        page.wait_for_selector("#toast:not([hidden])")
        page.wait_for_function("document.querySelector('#toast-text').textContent.includes('fridge')")
        assert asked == [f"Enter the {joincode.CODE_DIGITS}-digit join code. It is on the fridge."] * 2, asked
        assert page.text_content("#toast-text") == ("That is not the join code. It is on the fridge. Then tap "
                                                    "\"Join the table\" again.")
        assert errors == []
    finally:
        page.close()
