"""Live updates by Server-Sent Events through a real waitress server."""
from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.request

import pytest

from companion.events import DiceSettled, DieReading
from companion.web.connections import CONNECTION_LIMIT
from companion.web.sse_client import SSEClient
from companion.web.stream import MAX_STREAMS_PER_DEVICE, Broadcaster
from tests.web.conftest import as_phones
from tests.waiting import came, wait_for

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
    start_while_away_then_reconnect(base, seen)


def test_streams_are_capped_and_kept_alive(served):
    base, _ = served(max_streams=2, keepalive=0.05)
    clients = [SSEClient(base + "/events") for _ in range(2)]
    try:
        for c in clients:
            c.next_state()
        third = SSEClient(base + "/events")  # answered, with one event a page's EventSource can read, and ended
        try:
            assert third.status == 200
            assert [(e["event"], e["data"]) for e in third.events()] == [
                ("refused", {"message": "too many live pages open (2); close one and this page goes live by itself"})]
        finally:
            third.close()
        while clients[0].response.readline() != b": keepalive\n":
            pass
    finally:
        for c in clients:
            c.close()


def open_streams(base):
    with urllib.request.urlopen(base + "/api/health", timeout=10) as reply:
        return json.load(reply)["streams"]


def test_a_page_that_closed_gives_its_slot_back_at_the_next_change(served, service, monkeypatch):
    """Without waitress's word, a closed page held its slot until two writes to it had failed: a family
    re-opening their pages was told "too many live pages"."""
    told = []
    original = Broadcaster.stream

    def stream(self, box, client_gone=None):
        told.append(client_gone)
        return original(self, box, client_gone)

    monkeypatch.setattr(Broadcaster, "stream", stream)
    base, _ = served(max_streams=1, keepalive=600)
    gone = SSEClient(base + "/events")
    gone.next_state()
    gone.close()
    wait_for(lambda: told and told[0] is not None and told[0](), "waitress to see that the page closed")
    post(base, START)
    wait_for(lambda: open_streams(base) == 0, "the closed page's stream to end")
    again = SSEClient(base + "/events")
    try:
        assert again.status == 200 and again.next_state()["game"]["name"] == "mountain-goats"
    finally:
        again.close()


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_a_stream_ends_after_its_lifetime_and_the_page_reconnects_to_the_current_state(served):
    """A page that vanished without a word (the wifi dropped) frees its slot once its stream is old."""
    base, app = served(max_streams=1, keepalive=0.05, stream_lifetime=600)
    clock = app.extensions["companion"]["broadcaster"].clock = Clock()
    old = SSEClient(base + "/events")
    try:
        seen = old.next_state()["version"]
        clock.now += 601
        last = list(old.events())
        assert [e["event"] for e in last] == ["renew"], "the page is told to open the next stream at once"
    finally:
        old.close()
    start_while_away_then_reconnect(base, seen)


def test_a_page_that_stops_reading_never_spills_its_stream_to_the_memory_card(served, monkeypatch):
    """A locked phone keeps its connection but reads nothing: what is queued for it stays small, in memory."""
    from waitress import buffers

    spilled = []
    original = buffers.TempfileBasedBuffer.newfile
    monkeypatch.setattr(buffers.TempfileBasedBuffer, "newfile", lambda self: spilled.append(1) or original(self))
    base, app = served(keepalive=600)
    broadcaster = app.extensions["companion"]["broadcaster"]
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        stalled.connect(("127.0.0.1", int(base.rsplit(":", 1)[1])))
        stalled.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        wait_for(lambda: broadcaster.open_streams == 1, "the stalled page's stream")
        box = next(iter(broadcaster._boxes))
        for version in range(1, 300):  # 30 MB of views, well past what the kernel holds for the page
            broadcaster.publish({"version": version, "game": None, "padding": "x" * 100_000})
            if not wait_for_taken(box):
                break  # the stream waits for the page to read
        assert not spilled, "the stream of a page that reads nothing went to a temporary file"
    finally:
        stalled.close()


def wait_for_taken(box, timeout=5.0) -> bool:
    """Whether the stream took the newest view from its mailbox within `timeout` seconds."""
    return came(lambda: box._message is None, timeout, every=0.001)


def start_while_away_then_reconnect(base: str, seen: int) -> None:
    """A game starts while the page is away; the page coming back with Last-Event-ID gets the new state."""
    post(base, START)
    again = SSEClient(base + "/events", last_event_id=str(seen))
    try:
        state = again.next_state()
        assert state["version"] > seen and state["game"]["name"] == "mountain-goats"
    finally:
        again.close()


def test_a_frozen_page_that_reads_nothing_gives_its_slot_back(service):
    """A phone that froze its tab keeps the connection open but reads nothing: once what is queued for it is
    full, the stream cannot even reach its next keepalive. The connection is dropped after `stalled_ms`
    without the page taking anything, and the slot is free again."""
    import threading

    from companion.web.app import create_app
    from companion.web.cli_serve import page_server

    app = create_app(service, max_streams=1, keepalive=600)
    server = page_server(app, "127.0.0.1", 0, threads=4, stalled_ms=1500)
    threading.Thread(target=server.run, daemon=True).start()
    broadcaster = app.extensions["companion"]["broadcaster"]
    frozen = socket.socket()
    frozen.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        frozen.connect(("127.0.0.1", int(server.effective_port)))
        frozen.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        wait_for(lambda: broadcaster.open_streams == 1, "the frozen page's stream")
        for version in range(1, 400):  # far more than the kernel and waitress hold for the page
            broadcaster.publish({"version": version, "game": None, "padding": "x" * 100_000})
            if broadcaster.open_streams == 0:
                break
            time.sleep(0.005)
        wait_for(lambda: broadcaster.open_streams == 0, "the frozen page's slot to be given back")
    finally:
        frozen.close()
        broadcaster.stop()
        app.extensions["companion"]["stop"]()
        server.close()


def test_one_device_holding_connections_open_cannot_shut_the_others_out(served, service):
    """waitress serves so many connections (100 by default) and then accepts none: one device that opened that many and sent
    half a request on each (or a phone app gone wrong) kept every phone, and the table's own screen, from even
    loading the page. A device's own oldest idle connections now make room for its new ones; a live page it
    holds, busy with its stream, is never one of them."""
    base, _ = served()
    port = int(base.rsplit(":", 1)[1])
    live = SSEClient(base + "/events")
    live.next_state()
    held = []
    try:
        for _ in range(CONNECTION_LIMIT + 20):
            connection = socket.create_connection(("127.0.0.1", port), timeout=10)
            connection.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
            held.append(connection)
        assert post(base, START)["ok"]
        with urllib.request.urlopen(base + "/api/health", timeout=10) as reply:
            assert json.load(reply)["ok"]
        assert live.next_state()["game"]["name"] == "mountain-goats"
    finally:
        for connection in held:
            connection.close()
        live.close()


def test_one_phone_opening_page_after_page_cannot_take_the_other_phones_live_view(served, service):
    """Every open page holds one of the few live streams: one phone opening the page again and again (or a
    script) took them all, and every other phone's page said "too many live pages open" and stood still. A
    phone now holds a few at most: its newest page goes live, its oldest stops; the other phones stay live."""
    base, app = served(max_streams=6, keepalive=600)
    app.wsgi_app = as_phones(app.wsgi_app)
    others: list[SSEClient] = []
    greedy = [SSEClient(base + "/events", headers={"X-Phone": "192.168.1.66"}) for _ in range(10)]
    try:
        for page in greedy[-MAX_STREAMS_PER_DEVICE:]:
            assert next(page.events())["event"] == "state"
        others = [SSEClient(base + "/events", headers={"X-Phone": f"192.168.1.{n}"}) for n in (21, 22)]
        for page in others:
            assert next(page.events())["event"] == "state", "another phone's page is live"
        post(base, START)
        for page in others + greedy[-MAX_STREAMS_PER_DEVICE:]:
            assert page.next_state()["game"]["name"] == "mountain-goats"
        oldest = greedy[0]
        assert [e["event"] for e in oldest.events()] == ["state", "superseded"], "its oldest page's stream ended"
    finally:
        for page in greedy + others:
            page.close()


def test_asking_for_the_live_streams_headers_only_takes_no_live_page_slot(served):
    """HEAD /events (curl -I, a link preview, a monitor) opened a stream whose body is never read, so it never
    ended: every such request took a live-page slot for good, and after a few every page was refused."""
    base, _ = served(max_streams=2)
    port = int(base.rsplit(":", 1)[1])
    for _ in range(5):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("HEAD", "/events")
        assert connection.getresponse().status == 200
        connection.close()
    with urllib.request.urlopen(base + "/api/health", timeout=10) as reply:
        assert json.load(reply)["streams"] == 0
    page = SSEClient(base + "/events")
    try:
        assert next(page.events())["event"] == "state"
    finally:
        page.close()


def test_a_tap_still_arriving_is_not_closed_to_make_room_while_idle_connections_can_be(served):
    """Phones behind one address (a repeater doing NAT) share its connections: making room closed the oldest
    idle one, and a tap whose body was still arriving over weak wifi counted as idle, so it was cut off and the
    page said the companion could not be reached. Idle keep-alive connections make room first."""
    from companion.web.connections import MAX_PER_ADDRESS

    base, _ = served()
    port = int(base.rsplit(":", 1)[1])
    body = json.dumps({"do": "undo"}).encode()
    tap = socket.create_connection(("127.0.0.1", port), timeout=10)
    tap.sendall(b"POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(body) + body[:3])
    kept = []  # the first of them answered, waitress's loop has read the tap's first bytes: a request arriving
    try:
        for _ in range(MAX_PER_ADDRESS - 1):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/api/health")
            connection.getresponse().read()
            kept.append(connection)  # open, idle, kept alive
        one_more = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        one_more.request("GET", "/api/health")
        assert one_more.getresponse().status == 200
        kept.append(one_more)
        tap.sendall(body[3:])
        assert tap.recv(64).startswith(b"HTTP/1.1 "), "the tap was answered"
    finally:
        tap.close()
        for connection in kept:
            connection.close()
