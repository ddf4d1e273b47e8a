"""The demo's camera view: every roll of a demo session is shown tumbling, then at rest with the recorded
values, while the session plays; the pictures are drawn once and kept small."""
from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from companion.config import load_settings
from companion.events import DiceSettled
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import write_events
from companion.table.sessions import playout

from companion.table.demo import DemoPlayer  # noqa: E402
from companion.table.demo_camera import DemoCamera, Film  # noqa: E402

ROLLS = 3


class WatchedCamera(DemoCamera):
    """Notes every frame put on view: (moving, values shown)."""

    def __init__(self):
        super().__init__()
        self.seen: list[tuple[bool, list]] = []
        self.all_seen = threading.Event()

    def show(self, film, shot) -> None:
        super().show(film, shot)
        self.seen.append((shot.moving, [d.value for d in shot.dice()]))
        if len(self.seen) == 4 * ROLLS:
            self.all_seen.set()


@pytest.fixture
def session(tmp_path):
    events = playout("mountain-goats", 1)[0]
    rolls = [i for i, e in enumerate(events) if isinstance(e, DiceSettled)]
    events = events[:rolls[ROLLS]]
    directory = tmp_path / "mountain-goats"
    write_events(directory, events)
    return directory, events


def test_each_roll_is_shown_tumbling_then_at_rest_with_its_values(tmp_path, session):
    directory, events = session
    camera = WatchedCamera()
    Film(directory, events, 11).shoot()
    table = Table(Journal(tmp_path / "journal")).start()
    player = DemoPlayer(table, [directory], speed=40, pause_s=60, camera=camera).start()
    try:
        assert camera.all_seen.wait(30), camera.seen
    finally:
        player.stop()
        table.stop()
    rolled = [[d.value for d in e.dice] for e in events if isinstance(e, DiceSettled)]
    assert [moving for moving, _ in camera.seen] == [True, True, False, False] * ROLLS
    assert [values for moving, values in camera.seen if not moving][1::2] == rolled
    image = cv2.imdecode(np.frombuffer(camera.latest_jpeg(), np.uint8), cv2.IMREAD_COLOR)
    assert image.shape == (360, 640, 3)
    assert camera.reading_jpeg() == camera.latest_jpeg()


def test_a_film_is_drawn_once_kept_beside_the_session_and_small(session):
    directory, events = session
    film = Film(directory, events, 11)
    assert not film.done
    assert film.shoot()
    pictures = sorted((directory / "camera").glob("*.jpg"))
    assert len(pictures) == 4 * ROLLS and film.done
    written = [p.stat().st_mtime_ns for p in pictures]
    again = Film(directory, events, 11)
    assert again.shoot() and [p.stat().st_mtime_ns for p in pictures] == written
    # The whole demo has about 100 rolls: 400 frames must stay well under 20 MB.
    assert sum(p.stat().st_size for p in pictures) / len(pictures) < 40_000


def test_the_demo_service_serves_the_camera_picture(tmp_path):
    from companion.table.service import Service
    from companion.web.app import create_app

    settings = load_settings(env={}, overrides={"service": {"state_dir": str(tmp_path)}})
    service = Service(settings, demo=True, demo_speed=30).start()
    try:
        client = create_app(service, demo=True).test_client()
        deadline = time.monotonic() + 60
        reply = client.get("/camera.jpg")
        while reply.status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
            reply = client.get("/camera.jpg")
        assert reply.status_code == 200 and reply.mimetype == "image/jpeg"
        assert reply.data[:2] == b"\xff\xd8"
        refused = client.post("/api/tray", json={"tray": "auto"})  # the demo plays itself: nothing to set
        assert refused.status_code == 403 and refused.json["message"].startswith("this is the demo: it plays itself")
        assert client.get("/camera.jpg").data[:2] == b"\xff\xd8", "the camera view goes on"
    finally:
        service.stop()
