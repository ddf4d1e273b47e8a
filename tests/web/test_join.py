"""Only the table drives the game, on the real page: a phone without the join code watches but cannot
start, play or undo; with the code it can; a forged cross-site POST is refused even from a joined phone."""
from companion.web.app import create_app
from companion.web.joincode import JoinCodes, install

PHONE = {"REMOTE_ADDR": "192.168.1.20"}
START = {"do": "start", "game": "mountain-goats",
         "players": [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]}


def make_client(service, tmp_path):
    app = create_app(service)
    codes = JoinCodes(tmp_path / "join")
    install(app, codes)
    return app, app.test_client(), codes


def test_a_phone_without_the_code_cannot_change_the_game(service, tmp_path):
    app, client, codes = make_client(service, tmp_path)
    before = client.get("/api/state", environ_base=PHONE).get_json()
    for body in (START, {"do": "undo"}, {"do": "end"}):
        refused = client.post("/api/command", json=body, environ_base=PHONE)
        assert refused.status_code == 403 and refused.get_json()["join"] is True
    assert client.post("/api/tray", json={"tray": "auto"}, environ_base=PHONE).status_code == 403
    assert client.get("/api/state", environ_base=PHONE).get_json()["game"] == before["game"] is None
    app.extensions["companion"]["stop"]()


def test_with_the_code_the_phone_plays_and_a_forged_cross_site_post_is_still_refused(service, tmp_path):
    app, client, codes = make_client(service, tmp_path)
    assert client.post("/api/join", json={"code": codes.code}, environ_base=PHONE).status_code == 200
    started = client.post("/api/command", json=START, environ_base=PHONE)
    assert started.status_code == 200 and started.get_json()["state"]["game"]["name"] == "mountain-goats"
    forged = client.post("/api/command", json={"do": "end"}, environ_base=PHONE,
                         headers={"Origin": "http://evil.example"})
    assert forged.status_code == 403 and "cross-site" in forged.get_json()["message"]
    assert client.get("/api/state", environ_base=PHONE).get_json()["game"]["name"] == "mountain-goats"
    app.extensions["companion"]["stop"]()


def test_the_page_never_offers_a_loopback_address_to_other_phones(service, tmp_path):
    app, client, codes = make_client(service, tmp_path)
    assert client.get("/api/addresses", base_url="http://127.0.0.1:8080").get_json()["urls"] == []
    assert client.get("/api/addresses", base_url="http://192.168.1.40:8080").get_json()["urls"] == ["http://192.168.1.40:8080/"]
    app.config["PAGE_URLS"] = ["http://companion.local/", "http://192.168.1.40/"]
    assert client.get("/api/addresses").get_json()["urls"] == ["http://companion.local/", "http://192.168.1.40/"]
    app.extensions["companion"]["stop"]()


def test_the_join_qr_code_is_a_standalone_svg_image_holding_the_join_address(service, tmp_path):
    """The page shows it with <img src>, which draws an SVG only when it names its namespace."""
    import xml.etree.ElementTree as ET

    app, client, codes = make_client(service, tmp_path)
    assert client.get("/api/join/qr", environ_base=PHONE).status_code == 403
    qr = client.get("/api/join/qr", base_url="http://192.168.1.40:8080")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    root = ET.fromstring(qr.get_data())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert float(root.get("width")) >= 100 and float(root.get("height")) >= 100
    app.extensions["companion"]["stop"]()


def test_the_address_in_the_qr_code_joins_the_phone_that_opens_it(service, tmp_path):
    import re

    app, client, codes = make_client(service, tmp_path)
    link = codes.join_url("http://192.168.1.40:8080/")
    assert link == f"http://192.168.1.40:8080/join?code={codes.code}"
    wrong = "000000" if codes.code != "000000" else "111111"
    refused = client.get(f"/join?code={wrong}", environ_base=PHONE)
    assert refused.status_code == 403 and "not the join code" in refused.get_data(as_text=True)
    assert client.post("/api/command", json=START, environ_base=PHONE).status_code == 403
    opened = client.get(link.removeprefix("http://192.168.1.40:8080"), environ_base=PHONE)
    assert opened.status_code == 303 and opened.headers["Location"].endswith("/")
    assert re.search(r"SameSite=Strict", opened.headers["Set-Cookie"])
    assert client.post("/api/command", json=START, environ_base=PHONE).status_code == 200
    guesser = app.test_client()
    for _ in range(10):
        guesser.get(f"/join?code={wrong}", environ_base={"REMOTE_ADDR": "192.168.1.21"})
    too_many = guesser.get(f"/join?code={codes.code}", environ_base={"REMOTE_ADDR": "192.168.1.21"})
    assert too_many.status_code == 429 and "wait a minute" in too_many.get_data(as_text=True)
    app.extensions["companion"]["stop"]()
