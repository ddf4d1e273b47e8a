"""Live updates by Server-Sent Events through a real waitress server."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

from companion.events import DiceSettled, DieReading
from companion.web.sse_client import SSEClient

START = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def post(base, body):
    request = urllib.request.Request(base + "/api/command", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.load(reply)


def test_a_page_gets_the_full_state_at_once_then_every_change(served, service):
    base, _ = served()
    client = SSEClient(base + "/events")
    try:
        first = client.next_state()
        assert first["game"] is None
        post(base, START)
        started = client.next_state()
        assert started["version"] > first["version"] and started["game"]["name"] == "mountain-goats"
        dice = tuple(DieReading(v, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.99) for v in (1, 2, 3, 4))
        service.table.submit(DiceSettled(t=5, dice=dice)).result(5)
        rolled = client.next_state()
        assert rolled["game"]["last_reading"]["values"] == [1, 2, 3, 4] and "<svg" in rolled["game"]["board"]
    finally:
        client.close()


def test_a_reconnecting_page_loses_nothing(served, service):
    base, _ = served()
    client = SSEClient(base + "/events")
    seen = client.next_state()["version"]
    client.close()
    post(base, START)  # happens while the page is away
    again = SSEClient(base + "/events", last_event_id=str(seen))
    try:
        state = again.next_state()
        assert state["version"] > seen and state["game"]["name"] == "mountain-goats"
    finally:
        again.close()


def test_streams_are_capped_and_kept_alive(served):
    base, _ = served(max_streams=2, keepalive=0.05)
    clients = [SSEClient(base + "/events") for _ in range(2)]
    try:
        for c in clients:
            c.next_state()
        try:
            urllib.request.urlopen(base + "/events", timeout=5)
            raise AssertionError("a third stream was accepted")
        except urllib.error.HTTPError as exc:
            assert exc.code == 503 and "too many live pages" in json.load(exc)["message"]
        while clients[0].response.readline() != b": keepalive\n":
            pass
    finally:
        for c in clients:
            c.close()
