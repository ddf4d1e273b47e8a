"""The web side against the threat model of companion/web/security.py and joincode.py: watched by the home
network, changed only by the table's own screen and joined devices, never by a page on the internet (DNS
rebinding, cross-site requests, framing), and nothing a player types running or drawing on another phone."""
from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest

from companion.web import joincode
from companion.web.app import create_app
from companion.web.joincode import JoinCodes, install
from tests.web.test_browser import GAMES, browser, open_page, start_game, step  # noqa: F401 (browser: a fixture)

PHONE = {"REMOTE_ADDR": "192.168.1.20"}
START = {"do": "start", "game": "mountain-goats",
         "players": [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]}


@pytest.fixture
def joined_app(service, tmp_path):
    """(app, test client, codes): the app with the join code, as `companion serve` builds it."""
    now = [0.0]
    app = create_app(service)
    codes = JoinCodes(tmp_path / "join", clock=lambda: now[0])
    codes.now = now
    install(app, codes)
    yield app, app.test_client(), codes
    app.extensions["companion"]["stop"]()


def wrong_code(codes) -> str:
    return "000000" if codes.code != "000000" else "111111"


def raw(base: str, method: str, path: str, host: str, body: dict | None = None, headers: dict | None = None):
    """A request to a real server with the Host header a browser would send after a DNS rebinding."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    data = json.dumps(body).encode() if body is not None else None
    sent = {"Host": host, **(headers or {})}
    if data is not None:
        sent["Content-Type"] = "application/json"
    connection.request(method, path, body=data, headers=sent)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, text


# -- DNS rebinding: a name that is not the companion's ------------------------------------------------------------
def test_a_page_on_a_rebound_internet_name_can_neither_act_nor_read(served, service):
    """evil.example first resolves to the attacker, then to the Pi: the browser sends Host and Origin both
    evil.example, so the same-origin check alone lets it through, and on the Pi's own screen (loopback,
    always joined) it started a game and read the join code."""
    base, _ = served()
    port = urlsplit(base).port
    evil = f"evil.example:{port}"
    status, _ = raw(base, "POST", "/api/command", evil, START, {"Origin": f"http://{evil}"})
    assert status == 403
    assert service.table.view()["game"] is None
    status, text = raw(base, "GET", "/api/join", evil)
    assert status == 403 and "code" not in json.loads(text)
    status, _ = raw(base, "GET", "/api/state", f"evil.example.:{port}")  # the trailing-dot spelling
    assert status == 403


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "companion.local", "companion.local.", "raspberrypi",
                                  "192.168.1.40", "[::1]", "[fe80::1%25eth0]", "raspberrypi.lan", "pi.home.arpa",
                                  "raspberrypi.fritz.box"])
def test_the_companions_own_names_and_addresses_are_served(served, host):
    base, _ = served()
    port = urlsplit(base).port
    status, text = raw(base, "GET", "/api/health", f"{host}:{port}")
    assert status == 200, text
    status, _ = raw(base, "GET", "/api/health", host)  # port 80: no port in Host
    assert status == 200


def test_allow_outside_serves_any_name(service):
    app = create_app(service, allow_outside=True)
    assert app.test_client().get("/api/health", base_url="http://companion.example.org").status_code == 200
    app.extensions["companion"]["stop"]()


# -- the join code ------------------------------------------------------------------------------------------------
def test_a_code_typed_with_other_scripts_digits_is_just_wrong_not_a_crash(joined_app):
    app, client, codes = joined_app
    arabic = codes.code.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))  # the right code, other digits
    for entered in ("١٢٣٤٥٦", "¹²³⁴⁵⁶", arabic):
        refused = client.post("/api/join", json={"code": entered}, environ_base=PHONE)
        assert refused.status_code == 403, refused.get_data(as_text=True)
        linked = client.get("/join", query_string={"code": entered}, environ_base=PHONE)
        assert linked.status_code == 403
    assert len(codes._wrong["192.168.1.20"]) == 6, "each counts as a wrong guess"


def test_guessing_from_many_addresses_is_limited_across_the_network(joined_app):
    """The limit was per address only: a device on the network that takes many addresses (any IPv6 device
    has a /64 of them) could try all million codes."""
    app, client, codes = joined_app
    wrong = wrong_code(codes)
    answers = []
    for i in range(300):
        address = {"REMOTE_ADDR": f"2001:db8:1:2::{i:x}"}
        answers.append(client.post("/api/join", json={"code": wrong}, environ_base=address).status_code)
    assert answers.count(403) <= 100  # a million codes: years to try them
    assert answers[-1] == 429
    fresh = {"REMOTE_ADDR": "192.168.1.99"}
    assert client.post("/api/join", json={"code": codes.code}, environ_base=fresh).status_code == 429
    codes.now[0] = 3601.0  # an hour later, joining works again
    assert client.post("/api/join", json={"code": codes.code}, environ_base=fresh).status_code == 200


def test_the_guesses_remembered_do_not_grow_with_every_address_seen(joined_app):
    app, client, codes = joined_app
    for i in range(2000):
        client.get("/join?code=1", environ_base={"REMOTE_ADDR": f"fd00::{i:x}"})
    assert len(codes._wrong) <= 100


def test_a_cross_site_page_cannot_use_the_join_link(joined_app):
    """GET /join changes who may act: an <img> or a link on a page on the internet could sign a phone in with
    a code its author knows, or spend the network's guesses so that nobody can join."""
    app, client, codes = joined_app
    wrong = wrong_code(codes)
    for _ in range(joincode.MAX_WRONG_PER_MINUTE + 2):
        refused = client.get(f"/join?code={wrong}", environ_base=PHONE, headers={"Sec-Fetch-Site": "cross-site"})
        assert refused.status_code == 403
    forced = client.get(f"/join?code={codes.code}", environ_base=PHONE, headers={"Sec-Fetch-Site": "cross-site"})
    assert forced.status_code == 403 and "Set-Cookie" not in forced.headers
    old_browser = client.get(f"/join?code={codes.code}", environ_base=PHONE,
                             headers={"Referer": "http://evil.example/page"})
    assert old_browser.status_code == 403 and "Set-Cookie" not in old_browser.headers
    scanned = client.get(f"/join?code={codes.code}", environ_base=PHONE, headers={"Sec-Fetch-Site": "none"})
    assert scanned.status_code == 303 and "companion_join=" in scanned.headers["Set-Cookie"]


def test_a_forwarded_for_header_does_not_make_a_phone_the_tables_own_screen(joined_app):
    app, client, codes = joined_app
    refused = client.post("/api/command", json=START, environ_base=PHONE,
                          headers={"X-Forwarded-For": "127.0.0.1", "X-Real-IP": "127.0.0.1"})
    assert refused.status_code == 403 and refused.get_json()["join"] is True


# -- headers ------------------------------------------------------------------------------------------------------
def test_the_page_cannot_be_framed_sniffed_or_leak_its_address(joined_app):
    app, client, codes = joined_app
    for path in ("/", "/api/state", "/join?code=1"):
        response = client.get(path, environ_base=PHONE)
        policy = response.headers.get("Content-Security-Policy", "")
        assert "frame-ancestors 'none'" in policy, path
        assert "script-src 'self'" in policy and "object-src 'none'" in policy
        assert "unsafe-eval" not in policy and "unsafe-inline" not in policy, "the page evaluates no text"
        assert response.headers.get("X-Frame-Options") == "DENY"
        assert response.headers.get("X-Content-Type-Options") == "nosniff"
        assert response.headers.get("Referrer-Policy") in ("same-origin", "no-referrer")


def test_the_join_code_is_never_cached(joined_app):
    app, client, codes = joined_app
    for path in ("/api/join", "/api/join/qr"):
        response = client.get(path, base_url="http://192.168.1.40:8080")  # the table's own screen gets the code
        assert response.status_code == 200
        assert "no-store" in response.headers.get("Cache-Control", ""), path
    assert codes.code in client.get("/api/join").get_data(as_text=True)


# -- bodies and ids -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("body", ["[" * 8000, '{"do": "resume", "game_id": ' + "9" * 5000 + "}"])
def test_a_body_too_deep_or_a_number_too_long_is_a_400_not_a_crash(joined_app, body):
    app, client, codes = joined_app
    assert client.post("/api/command", json=START).status_code == 200
    before = client.get("/api/state").get_json()["game"]
    for path, sender in (("/api/command", {}), ("/api/join", PHONE)):  # the own screen plays; a phone joins
        response = client.post(path, data=body, content_type="application/json", environ_base=sender)
        assert response.status_code == 400, (path, response.get_data(as_text=True))
    assert client.get("/api/state").get_json()["game"] == before


def test_a_game_number_too_big_for_the_journal_is_not_found(joined_app):
    app, client, codes = joined_app
    response = client.get("/api/history/99999999999999999999999")
    assert response.status_code == 404 and response.get_json()["ok"] is False
    assert client.post("/api/command", json={"do": "resume", "game_id": 2 ** 70}).status_code == 400


# -- what players type -------------------------------------------------------------------------------------------------
def test_the_boards_draw_hostile_text_as_text():
    from companion.web import boards

    evil = '"><script>alert(1)</script><img src=x onerror=alert(1)>'
    players = [{"name": evil, "colour": evil}, {"name": evil, "colour": "red"}]
    drawn = [
        boards.render({"name": "magic-mountain", "title": evil, "players": players,
                       "state": {"board": {"path": ["red", evil, "blue"]}, "ball": evil, "opening": 1,
                                 "positions": {evil: 1, "W" + evil: "goal"}}}),
        boards.render({"name": "mountain-goats", "players": players,
                       "state": {"board": {"spaces": {"5": 2}}, "goats": [[1], [0]], "tokens_left": [evil]}}),
        boards.render({"name": "no-such-game", "title": evil, "players": players, "state": {}}),
    ]
    for svg in drawn:
        assert "<script" not in svg and "<img" not in svg


def test_a_name_that_turns_the_text_around_is_refused_in_words_and_real_names_play(served, service):
    """U+202E in "Ben" turned the rest of his row around on every phone ("(eulb) neB") and the turn line with it.
    The refusal names the name as it reads and what to do, not only the code point a child cannot act on.
    Real names keep their joiners: a family emoji, a Persian name, Scotland's flag."""
    base, _ = served()
    port = urlsplit(base).port
    for name, seen in (("\u202eBen", "Ben"), ("\u2067Ada\u2069", "Ada"), ("Cy\u202d", "Cy")):
        status, text = raw(base, "POST", "/api/command", f"127.0.0.1:{port}",
                           {**START, "players": [{"name": name}, {"name": "Dee"}]})
        assert status == 400, name
        message = json.loads(text)["message"]
        assert message.startswith(f'the name "{seen}" has a hidden character in it that turns the text around on '
                                  "every phone (it comes along when a name is pasted): type the name in instead (U+"), \
            message
        assert service.table.view()["game"] is None
    kept = ["Ada \U0001F469\u200d\U0001F467", "\u0645\u06cc\u200c\u0631\u0627", "\U0001F3F4\U000E0067\U000E0062"
            "\U000E0073\U000E0063\U000E0074\U000E007F", "\u0639\u0644\u064a"]
    status, text = raw(base, "POST", "/api/command", f"127.0.0.1:{port}",
                       {**START, "game": "matterhorn", "players": [{"name": name} for name in kept]})
    assert status == 200, text
    assert [p["name"] for p in service.table.view()["game"]["players"]] == kept
    assert [[p["name"] for p in row["setup"]["players"]] for row in service.journal.games()] == [kept]


def test_a_name_pasted_with_invisible_characters_starts_the_game_without_them(served, service):
    """A name pasted from a contact list brings a byte order mark, a soft hyphen or a direction mark along: they
    were refused with their code points ("U+200E"), which nobody at the table can act on. They change nothing
    in how the name reads: the game starts, with the names as they read."""
    base, _ = served()
    pasted = ["\ufeffAda", "Ben\u200e", "Cy\u00adra", "\u0639\u0644\u064a\u200f"]
    status, text = raw(base, "POST", "/api/command", f"127.0.0.1:{urlsplit(base).port}",
                       {**START, "game": "matterhorn", "players": [{"name": name} for name in pasted]})
    assert status == 200, text
    names = ["Ada", "Ben", "Cyra", "\u0639\u0644\u064a"]
    assert [p["name"] for p in service.table.view()["game"]["players"]] == names
    assert [[p["name"] for p in row["setup"]["players"]] for row in service.journal.games()] == [names]
    status, text = raw(base, "POST", "/api/command", f"127.0.0.1:{urlsplit(base).port}",
                       {**START, "players": [{"name": "\ufeff\u200e"}, {"name": "Ben"}]})
    assert status == 400 and json.loads(text)["message"] == "each player's name has 1–24 letters"


def test_resuming_a_game_number_too_big_for_the_journal_is_no_such_game(served, service):
    """A number past SQLite's integers came back as "internal error: OverflowError: Python int too large to
    convert to SQLite INTEGER"."""
    base, _ = served()
    host = f"127.0.0.1:{urlsplit(base).port}"
    raw(base, "POST", "/api/command", host, START)
    before = service.table.view()
    for number in (2 ** 63, -2 ** 63 - 1, 10 ** 30):
        status, text = raw(base, "POST", "/api/command", host, {"do": "resume", "game_id": number})
        assert status == 400
        assert json.loads(text)["message"] == f"there is no game number {number}"
    assert service.table.view()["step"] == before["step"] and service.table.view()["game"]["id"] == 1


def test_a_die_typed_with_thousands_of_spaces_is_refused_not_sent_to_every_phone_for_ever(served, service):
    """"   …1" is a 1 to the engine; the typed text was kept as it came, in the journal and in every page's view
    (the last roll and the history): four such dice made each update to every phone 30 kB larger."""
    base, _ = served()
    host = f"127.0.0.1:{urlsplit(base).port}"
    raw(base, "POST", "/api/command", host, START)
    padded = [" " * 3000 + str(face) for face in (1, 2, 3, 4)]
    status, text = raw(base, "POST", "/api/command", host, {"do": "dice", "values": padded})
    assert status == 400
    message = json.loads(text)["message"]
    assert message.startswith("a die is a number or a name of at most 40 characters") and len(message) < 200
    assert service.table.view()["game"]["history"] == []
    assert raw(base, "POST", "/api/command", host, {"do": "dice", "values": [" 1", "2", 3, 4]})[0] == 200
    status, text = raw(base, "POST", "/api/command", host, {"do": "correct", "index": 0, "value": " " * 3000 + "6"})
    assert status == 400 and json.loads(text)["message"].startswith("a die is a number or a name of at most 40")
    assert service.table.view()["game"]["last_reading"]["values"] == [" 1", "2", 3, 4]
    assert raw(base, "POST", "/api/command", host, {"do": "correct", "index": 0, "value": "6"})[0] == 200
    assert len(json.dumps(service.table.view())) < 20_000


def test_the_join_pages_message_is_escaped(joined_app):
    app, client, codes = joined_app
    page = client.get("/join", query_string={"code": "<script>alert(1)</script>"}, environ_base=PHONE)
    assert page.status_code == 403 and "<script>" not in page.get_data(as_text=True)


# -- in a real browser ------------------------------------------------------------------------------------------------

@pytest.mark.browser
def test_a_colour_sent_as_css_cannot_cover_another_phones_page(browser, served, service):
    """The table takes any short word as a colour; the page put it in a style attribute, so a player's
    "0;position:fixed;inset:0" laid an invisible layer over every phone's page and swallowed every tap."""
    base, _ = served()
    overlay = {**START, "players": [{"name": "Ada", "colour": "0;position:fixed;inset:0"},
                                    {"name": "Ben", "colour": "x;background:url(/leak)"}]}
    assert service.table.request(overlay).ok
    page, errors = open_page(browser, base, "phone")
    try:
        page.wait_for_selector("#scores .dot")
        styles = page.eval_on_selector_all("#scores .dot", """(dots) => dots.map((d) => {
            const s = getComputedStyle(d); return [s.position, s.backgroundImage]; })""")
        assert all(style == ["static", "none"] for style in styles), styles
        on_top = page.evaluate("""() => { const undo = document.getElementById('undo');
            undo.scrollIntoView({block: 'center'}); const b = undo.getBoundingClientRect();
            return document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2).id; }""")
        assert on_top == "undo", "nothing lies over the undo button"
        assert errors == []
    finally:
        page.close()


@pytest.mark.browser
def test_the_page_works_under_its_content_security_policy(browser, served):
    base, _ = served()
    page = browser.new_page(viewport={"width": 390, "height": 844})  # not new_page: under the page's own policy
    refused = []
    page.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(base + "/")
        page.wait_for_selector("#link.on")
        painted = []
        for game in GAMES:
            if page.is_visible("#new-game"):
                page.click("#new-game")
            start_game(page, game)
            for _ in range(3):
                if not page.evaluate("window.companionView.game.over"):
                    step(page)
            for folded in page.locator("#tip details:not([open]) summary").all():
                folded.click()  # Magic Mountain's table of colours
            balls = page.eval_on_selector_all("#tip .ball", "(bs) => bs.map((b) => getComputedStyle(b).backgroundColor)")
            assert "rgba(0, 0, 0, 0)" not in balls, "each ball is painted"
            painted.extend(balls)
            if page.is_visible("#odds-box summary"):
                page.click("#odds-box summary")
        assert page.locator("#board svg").count() == 1
        assert painted, "Magic Mountain's tip shows its balls"
        page.click("#camera-box summary")
        dot = page.evaluate("getComputedStyle(document.querySelector('#scores .dot')).backgroundColor")
        assert dot != "rgba(0, 0, 0, 0)", "the players' colours are painted"
        assert refused == [] and errors == []
    finally:
        page.close()


def test_a_name_of_the_home_network_set_in_the_settings_is_served_and_others_are_told_how(service):
    from companion.web.security import extra_names

    app = create_app(service, names=extra_names("pi.myhome.example, Companion.Example.NET."))
    client = app.test_client()
    assert client.get("/api/health", base_url="http://pi.myhome.example:8080").status_code == 200
    assert client.get("/api/health", base_url="http://companion.example.net").status_code == 200
    refused = client.get("/api/health", base_url="http://evil.example")
    assert refused.status_code == 403 and "add it to the setting security.names" in refused.get_json()["message"]
    app.extensions["companion"]["stop"]()
