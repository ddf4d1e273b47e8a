"""A phone's Wi-Fi drops and comes back: its event stream's connection goes silent (no close is ever seen).
The server sends a keepalive every few seconds; the page never notices that they stopped coming, shows "live",
and shows the old turn for ever (until a person reloads). A tap there is refused as stale, and the page still
does not catch up."""
from tests.waiting import came, wait_for
from tests.web.stalled_relay import Relay
from tests.web.test_browser import VIEWPORTS, browser, new_page, open_page  # noqa: F401 (browser: a fixture)

START = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def open_through(browser, relay):
    page = new_page(browser, VIEWPORTS["phone"])
    page.goto(f"http://127.0.0.1:{relay.port}/")
    page.wait_for_selector("#link.on")
    return page


def caught_up(page, seconds) -> bool:
    """Whether the page shows Ada's roll within `seconds`."""
    return came(lambda: page.evaluate("window.companionView.game.history_count === 1"), seconds, every=0.2)


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
        shown = caught_up(page, 20)
        assert shown or page.text_content("#link") != "live", \
            "20 s without a keepalive, and the page still says 'live' while showing the turn before Ada's roll"
        assert shown, "the page never catches up after the network came back"
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
        assert caught_up(page, 20), \
            "'look again' — but the page still shows the game before the tap was refused"
    finally:
        page.close()
        relay.close()


def test_a_tap_again_after_a_lost_request_is_sent(browser, served, service):
    """A tap whose request is lost on the way (the Wi-Fi dropped while it was sent: the same silent connection
    tests/web/stalled_relay.py models for the stream) never answers. Before d270d3b the child tapped again and the
    move was played; now `sending` holds the step until the first fetch ends (minutes, for a dead TCP connection),
    and every tap on that step is dropped without a word."""
    base, _ = served()
    table = service.table
    assert table.request({"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    assert table.request({"do": "dice", "values": [1, 2, 3, 4]}).ok
    page, errors = open_page(browser, base, "phone")
    held = []

    def lose_the_first(route):
        if not held:
            held.append(route)  # never answered: the connection it went on is dead
        else:
            route.continue_()

    try:
        page.route("**/api/command", lose_the_first)
        page.wait_for_selector("#moves button.move")
        page.locator("#moves button.move").first.click()
        page.wait_for_timeout(1500)  # nothing happens: the child taps again
        page.locator("#moves button.move").first.click()
        wait_for(lambda: len(table.view()["game"]["history"]) == 2 or not page.is_hidden("#toast"),
                 "the second tap to be played or refused with a word (it was dropped without one)")
    finally:
        page.close()


def test_a_lost_health_request_does_not_end_the_stream_check(browser, served, service):
    """checkStream awaits /api/health with no time limit, and schedules its next look only after the answer. When
    the Wi-Fi drops, the browser's pooled keep-alive connections die as silently as the stream's; the health request
    sent on one never answers, so checkStream never runs again and the page stays on the old turn for good (the very
    case d270d3b means to fix)."""
    base, _ = served(keepalive=1.0)
    relay = Relay(int(base.rsplit(":", 1)[1]))
    table = service.table
    assert table.request(START).ok
    page = open_through(browser, relay)
    lost = []

    def lose_the_first(route):
        if not lost:
            lost.append(route)  # sent on a pooled connection that died with the Wi-Fi: no answer, ever
        else:
            route.continue_()

    try:
        page.route("**/api/health", lose_the_first)
        page.wait_for_function("window.companionView.game.history_count === 0")
        relay.drop_network()
        assert table.request({"do": "dice", "values": [1, 2, 3, 4]}).ok
        assert caught_up(page, 35), \
            "one unanswered /api/health stopped checkStream for good: the page never catches up"
    finally:
        page.close()
        relay.close()
