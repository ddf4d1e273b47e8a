"""A phone's Wi-Fi drops and comes back: its event stream's connection goes silent (no close is ever seen).
The server sends a keepalive every few seconds; the page never notices that they stopped coming, shows "live",
and shows the old turn for ever (until a person reloads). A tap there is refused as stale, and the page still
does not catch up."""
from tests.web.test_browser import browser  # noqa: F401
import time

from tests.web.test_browser import new_page, VIEWPORTS
from tests.web.stalled_relay import Relay

START = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def open_through(browser, relay):
    page = new_page(browser, VIEWPORTS["phone"])
    page.goto(f"http://127.0.0.1:{relay.port}/")
    page.wait_for_selector("#link.on")
    return page


def wait_for(page, predicate_js, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.evaluate(predicate_js):
            return True
        page.wait_for_timeout(200)
    return False


def test_a_page_whose_stream_went_silent_catches_up_once_the_network_is_back(browser, served, service):
    base, _ = served(keepalive=1.0)  # a keepalive every second: a silence of many seconds is no quiet table
    relay = Relay(int(base.rsplit(":", 1)[1]))
    table = service.table
    assert table.request(START).ok
    page = open_through(browser, relay)
    try:
        page.wait_for_function("window.companionView.game.history_count === 0")
        relay.drop_network()  # the stream stays open on the phone, and says nothing any more
        assert table.request({"do": "dice", "values": [1, 2, 3, 4]}).ok  # Ada rolls
        caught_up = wait_for(page, "window.companionView.game.history_count === 1", 20)
        assert caught_up or page.text_content("#link") != "live", \
            "20 s without a keepalive, and the page still says 'live' while showing the turn before Ada's roll"
        assert caught_up, "the page never catches up after the network came back"
    finally:
        page.close()
        relay.close()


def test_a_tap_refused_as_stale_brings_the_page_up_to_date(browser, served, service):
    base, _ = served()
    relay = Relay(int(base.rsplit(":", 1)[1]))
    table = service.table
    assert table.request(START).ok
    page = open_through(browser, relay)
    try:
        page.wait_for_function("window.companionView.game.history_count === 0")
        relay.drop_network()
        assert table.request({"do": "dice", "values": [1, 2, 3, 4]}).ok
        page.locator("#chance-faces button").nth(0).click()  # the child types a roll on the stale page
        for _ in range(3):
            page.locator("#chance-faces button").nth(1).click()
        page.click("#chance-send")
        page.wait_for_selector("#toast:not([hidden])")
        assert "moved on" in page.text_content("#toast-text")
        assert wait_for(page, "window.companionView.game.history_count === 1", 5), \
            "'look again' — but the page still shows the game before the tap was refused"
    finally:
        page.close()
        relay.close()
