"""Only the table drives the game: a device without the join code cannot change anything."""
import pytest
from flask import Flask, jsonify

from companion.web import joincode
from companion.web.joincode import JoinCodes

PHONE = {"REMOTE_ADDR": "192.168.1.20"}
OTHER_PHONE = {"REMOTE_ADDR": "192.168.1.21"}


def make_app(codes):
    app = Flask("t")
    app.config["TESTING"] = True
    game = {"moves": []}

    @app.post("/api/action")
    def act():
        game["moves"].append("x")
        return jsonify(moves=len(game["moves"]))

    @app.get("/api/state")
    def state():
        return jsonify(game)

    joincode.install(app, codes)
    return app, game


@pytest.fixture
def codes(tmp_path):
    return JoinCodes(tmp_path)


def test_without_the_code_a_device_can_watch_but_not_act(codes):
    app, game = make_app(codes)
    client = app.test_client()
    assert client.get("/api/state", environ_base=PHONE).status_code == 200
    response = client.post("/api/action", environ_base=PHONE)
    assert response.status_code == 403 and response.json["join"] is True
    assert game["moves"] == []
    assert "code" not in client.get("/api/join", environ_base=PHONE).json


def test_the_right_code_joins_and_the_cookie_remembers(codes):
    app, game = make_app(codes)
    client = app.test_client()
    assert client.post("/api/join", json={"code": "000000" if codes.code != "000000" else "111111"},
                       environ_base=PHONE).status_code == 403
    response = client.post("/api/join", json={"code": codes.code[:3] + " " + codes.code[3:]}, environ_base=PHONE)
    assert response.status_code == 200
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.post("/api/action", environ_base=PHONE).status_code == 200
    assert client.get("/api/join", environ_base=PHONE).json["code"] == codes.code
    qr = client.get("/api/join/qr", environ_base=PHONE)  # at localhost: no address another phone could open
    assert qr.status_code == 404 and "No address other phones can open" in qr.json["error"]
    qr = client.get("/api/join/qr", base_url="http://192.168.1.40:8080")  # the table's screen by its address
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<svg" in qr.data


def test_the_companions_own_screen_is_always_joined(codes):
    app, game = make_app(codes)
    client = app.test_client()
    assert client.post("/api/action", environ_base={"REMOTE_ADDR": "127.0.0.1"}).status_code == 200
    assert client.get("/api/join", environ_base={"REMOTE_ADDR": "127.0.0.1"}).json["code"] == codes.code


def test_guessing_is_rate_limited(tmp_path):
    now = [0.0]
    codes = JoinCodes(tmp_path, clock=lambda: now[0])
    app, _ = make_app(codes)
    client = app.test_client()
    wrong = "000000" if codes.code != "000000" else "111111"
    for _ in range(joincode.MAX_WRONG_PER_MINUTE):
        assert client.post("/api/join", json={"code": wrong}, environ_base=PHONE).status_code == 403
    assert client.post("/api/join", json={"code": codes.code}, environ_base=PHONE).status_code == 429
    assert client.post("/api/join", json={"code": codes.code}, environ_base=OTHER_PHONE).status_code == 200
    now[0] = 61.0
    assert client.post("/api/join", json={"code": codes.code}, environ_base=PHONE).status_code == 200


def test_malformed_join_requests_get_a_message(codes):
    app, _ = make_app(codes)
    client = app.test_client()
    for body in (None, [], {"code": None}, {"code": {"a": 1}}):
        response = client.post("/api/join", json=body, environ_base=PHONE)
        assert response.status_code == 400 and "join code" in response.json["error"]


def test_code_survives_a_restart_and_rotation_signs_everyone_out(tmp_path):
    codes = JoinCodes(tmp_path)
    app, _ = make_app(codes)
    client = app.test_client()
    client.post("/api/join", json={"code": codes.code}, environ_base=PHONE)
    restarted = JoinCodes(tmp_path)
    assert restarted.code == codes.code
    token = client.get_cookie(joincode.COOKIE).value
    assert restarted.valid_token(token)
    restarted.rotate()
    assert not restarted.valid_token(token)
    assert JoinCodes(tmp_path).code == restarted.code


def test_a_damaged_code_file_is_replaced(tmp_path):
    (tmp_path / "join.json").write_text("{not json")
    assert len(JoinCodes(tmp_path).code) == joincode.CODE_DIGITS


def test_join_code_off_lets_every_device_act():
    app, game = make_app(None)
    client = app.test_client()
    assert client.post("/api/action", environ_base=PHONE).status_code == 200
