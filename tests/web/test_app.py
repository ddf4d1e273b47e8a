"""The page's API: every request validated, a 4xx JSON with a message for bad ones, never a 500, and a
bad request never changes the game."""
from __future__ import annotations

import re

import pytest

from companion.web.app import create_app

START = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]}


@pytest.fixture
def client(service):
    app = create_app(service)
    yield app.test_client()
    app.extensions["companion"]["stop"]()


def post(client, body, **kw):
    return client.post("/api/command", json=body, **kw)


def test_the_page_and_its_assets_are_served_locally(client):
    page = client.get("/")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert not re.search(r'(src|href)="(https?:)?//', html), "no external assets"
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
        assert client.get(asset).status_code == 200


def test_the_games_on_offer_with_their_variants(client):
    games = {g["name"]: g for g in client.get("/api/games").get_json()["games"]}
    assert set(games) == {"matterhorn", "mountain-goats", "magic-mountain", "banana-matcho"}
    assert any(v["name"] == "big_mountain" for v in games["mountain-goats"]["variants"])


def test_starting_and_playing_a_game(client):
    reply = post(client, START)
    assert reply.status_code == 200 and reply.get_json()["ok"]
    game = client.get("/api/state").get_json()["game"]
    assert game["title"] == "Mountain Goats" and game["board"].startswith("<svg")
    assert game["chance"]["kind"] == "dice" and game["chance"]["count"] == 4
    reply = post(client, {"do": "dice", "values": [5, 5, 2, 3]})
    assert reply.status_code == 200
    game = reply.get_json()["state"]["game"]
    assert game["legal"] and game["last_reading"]["values"] == [5, 5, 2, 3]
    reply = post(client, {"do": "play", "action": game["legal"][0]["action"]})
    assert reply.status_code == 200
    assert post(client, {"do": "undo"}).status_code == 200


def test_a_family_of_four_starts_magic_mountain_as_two_teams(client):
    """Magic Mountain's rulebook: "Divide your group into two teams": four names start the teams game, the first
    and third on Team Student (which goes first), the second and fourth on Team Witch."""
    players = [{"name": name} for name in ("Ada", "Ben", "Cleo", "Dan")]
    reply = post(client, {"do": "start", "game": "magic-mountain", "players": players, "variants": {"mode": "teams"}})
    assert reply.status_code == 200 and reply.get_json()["ok"], reply.get_json()
    game = client.get("/api/state").get_json()["game"]
    assert [p["name"] for p in game["players"]] == ["Ada", "Ben", "Cleo", "Dan"]
    assert game["chance"]["kind"] == "draw" and game["chance"]["prompt"].startswith("Ada (Team Student):")
    assert game["teams"] == [{"name": "Team Student", "players": [0, 2]}, {"name": "Team Witch", "players": [1, 3]}]


@pytest.mark.parametrize("body, status, message", [
    ({"do": "dance"}, 400, "unknown request 'dance'"),
    ({"command": "undo"}, 400, 'a request names what to do in "do": one of start, play'),
    ({"do": "play", "action": {"kind": "teleport"}}, 400, "unknown action kind 'teleport'"),
    ({"do": "play", "action": {"kind": ["move"]}}, 400, "unknown action kind ['move']; expected one of: move, roll"),
    ({"do": "play", "action": {"kind": "move", "steps": [42], "big": []}}, 400, "not"),
    ({"do": "dice", "values": [9, 9, 9, 9]}, 400, ""),
    ({"do": "dice", "values": "1234"}, 400, "must be an array"),
    ({"do": "start", "game": "chess", "players": [{"name": "A"}, {"name": "B"}]}, 400, "unknown game 'chess'"),
    ({"do": "start", "game": "matterhorn", "players": [{"name": "A"}]}, 400, "2–4 players"),
    ({"do": "start", "game": "matterhorn", "players": [{"name": "A"}, {"name": "B"}], "variants": {"x": 1}}, 400, "unknown variant"),
    ([1, 2], 400, "a request is a JSON object"),
])
def test_bad_requests_get_a_message_and_change_nothing(client, body, status, message):
    post(client, START)
    before = client.get("/api/state").get_json()
    reply = post(client, body)
    assert reply.status_code == status
    assert reply.get_json()["ok"] is False and message in reply.get_json()["message"]
    assert client.get("/api/state").get_json() == before


def test_malformed_http_gets_json_errors(client):
    assert client.post("/api/command", data="{nope", content_type="application/json").status_code == 400
    assert client.post("/api/command", data="x", content_type="text/plain").status_code == 415
    assert client.post("/api/command", data="x" * 20000, content_type="application/json").status_code == 413
    missing = client.get("/nowhere")
    assert missing.status_code == 404 and "nothing at /nowhere" in missing.get_json()["message"]
    assert client.delete("/api/command").status_code == 405
    assert client.get("/api/history/999").status_code == 404
    assert client.get("/camera.jpg").status_code == 404
    assert client.post("/api/tray", json={"tray": [1, 2]}).status_code == 409


def test_outside_addresses_and_cross_site_posts_are_refused(service):
    app = create_app(service)
    client = app.test_client()
    outside = client.get("/api/state", environ_base={"REMOTE_ADDR": "8.8.8.8"})
    assert outside.status_code == 403 and "local network" in outside.get_json()["message"]
    assert client.get("/api/state", environ_base={"REMOTE_ADDR": "192.168.1.20"}).status_code == 200
    assert client.get("/api/state", environ_base={"REMOTE_ADDR": "fe80::1"}).status_code == 200
    cross = post(client, START, headers={"Origin": "http://evil.example"})
    assert cross.status_code == 403 and "cross-site" in cross.get_json()["message"]
    assert client.get("/api/state").get_json()["game"] is None
    assert post(client, START, headers={"Origin": "http://localhost"}).status_code == 200
    open_app = create_app(service, allow_outside=True)
    assert open_app.test_client().get("/api/state", environ_base={"REMOTE_ADDR": "8.8.8.8"}).status_code == 200


def test_the_demo_plays_itself(service):
    client = create_app(service, demo=True).test_client()
    reply = post(client, START)
    assert reply.status_code == 403 and "demo" in reply.get_json()["message"]


def test_history_of_finished_games(client, service):
    post(client, START)
    post(client, {"do": "end"})
    games = client.get("/api/history").get_json()["games"]
    assert games[0]["game"] == "mountain-goats" and games[0]["finished"]
    detail = client.get(f"/api/history/{games[0]['id']}").get_json()
    assert detail["steps"] == [] and detail["setup"]["players"][0]["name"] == "Ada"


def journal_games(journal, count, *, players=("Ada", "Ben"), result=None, finished=True):
    """`count` games straight into the journal: played to `result` (None: ended early), or left unfinished after
    one step."""
    with journal.transaction() as tx:
        for _ in range(count):
            game_id = tx.new_game("matterhorn", {"players": [{"name": name} for name in players]}, 0)
            tx.apply(game_id, {"do": "roll"}, {}, 0)
            if finished:
                tx.finish(game_id, result)
        tx.clear_meta("current_game")
    return game_id


def test_statistics_of_finished_games(client, service):
    assert client.get("/api/stats").get_json() == {"games": {}}
    journal_games(service.journal, 1, result={"scores": [1, 0], "winners": [0]})
    journal_games(service.journal, 1, players=("Ben", "Ada"), result={"scores": [0, 1], "winners": [1]})
    journal_games(service.journal, 1, result={"scores": [0, 0], "winners": [7]})
    journal_games(service.journal, 1, result=None)
    journal_games(service.journal, 1, finished=False)
    assert client.get("/api/stats").get_json() == {"games": {"matterhorn": {"played": 3, "wins": {"Ada": 2}}}}


def test_statistics_count_every_game_ever_played(client, service):
    journal_games(service.journal, 1200, result={"scores": [1, 0], "winners": [0]})
    assert client.get("/api/stats").get_json() == {"games": {"matterhorn": {"played": 1200, "wins": {"Ada": 1200}}}}


def test_a_game_left_unfinished_is_offered_however_many_games_came_after(client, service):
    left = journal_games(service.journal, 1, players=("Cleo", "Dan"), finished=False)
    journal_games(service.journal, 60, result={"scores": [1, 0], "winners": [0]})
    games = client.get("/api/history").get_json()["games"]
    assert [g["id"] for g in games if not g["finished"]] == [left]
    assert [g["id"] for g in games] == sorted((g["id"] for g in games), reverse=True)
    assert sum(g["finished"] for g in games) == 50


class FakeCamera:
    def __init__(self):
        self.tray = "unset"

    def latest_jpeg(self):
        return b"\xff\xd8live"

    def reading_jpeg(self):
        return b"\xff\xd8crop"

    def set_tray(self, box):
        self.tray = box


def test_the_camera_view_and_the_tray_calibration(service):
    service.camera = FakeCamera()
    client = create_app(service).test_client()
    live = client.get("/camera.jpg")
    assert live.status_code == 200 and live.mimetype == "image/jpeg" and live.data == b"\xff\xd8live"
    assert client.get("/api/reading.jpg").data == b"\xff\xd8crop"
    assert client.post("/api/tray", json={"tray": [10, 20, 300, 200]}).status_code == 200
    assert service.camera.tray == (10, 20, 300, 200)
    bad = client.post("/api/tray", json={"tray": [300, 20, 10, 200]})
    assert bad.status_code == 400 and "x0 < x1" in bad.get_json()["message"]
    assert service.camera.tray == (10, 20, 300, 200)
    assert client.post("/api/tray", json={"tray": "auto"}).status_code == 200 and service.camera.tray is None


def test_the_latency_benchmark_measures_every_page(monkeypatch):
    from companion.web import bench

    monkeypatch.setattr(bench, "ROLLS", 3)
    results = [b.run() for b in bench.benchmarks()]
    assert [r.samples for r in results] == [3 * bench.PAGES, 3 * bench.PAGES]
    assert all(r.target == 50.0 and r.median > 0 for r in results)


def test_a_journal_the_card_damaged_is_named_on_the_history_page(client, service, monkeypatch):
    from companion.table.journal import JournalError

    def damaged(*args, **kwargs):
        raise JournalError("the game journal /var/lib/companion/journal.sqlite3 is damaged (malformed): move it away")

    monkeypatch.setattr(service.journal, "games", damaged)
    response = client.get("/api/history")
    assert response.status_code == 503
    assert "journal.sqlite3 is damaged (malformed): move it away" in response.get_json()["message"]


def test_no_picture_from_a_camera_in_trouble_says_what_the_trouble_is(client, service, monkeypatch):
    class Quiet:
        def latest_jpeg(self):
            return None

    monkeypatch.setattr(service, "camera", Quiet(), raising=False)
    assert "has not produced a frame yet" in client.get("/camera.jpg").get_json()["message"]
    service.table.health["camera"] = {"state": "lost", "message": "usb:0: cannot open it again: check the USB cable"}
    response = client.get("/camera.jpg")
    assert response.status_code == 404 and "check the USB cable" in response.get_json()["message"]
