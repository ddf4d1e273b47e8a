"""The tray set on the page's camera view outlives a restart (a power cut), the page shows the tray in use,
and an edit of camera.tray in the settings made afterwards wins."""
from __future__ import annotations

import errno
import io
import os

import cv2
import numpy as np
import pytest

from companion.config import load_settings
from companion.events import SensorHealth
from companion.table.reread import read_camera_setup
from companion.table.service import Service
from companion.web.app import create_app


@pytest.fixture
def frames(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    for n in range(3):
        cv2.imwrite(str(folder / f"{n}.png"), np.full((480, 640, 3), 90 + n, np.uint8))
    return folder


def settings(tmp_path, frames, tray="auto"):
    return load_settings(env={}, overrides={"service": {"state_dir": str(tmp_path / "games")},
                                            "sensors": {"backend": "none"},
                                            "camera": {"source": str(frames), "tray": tray}})


class Running:
    """A started service with a client of its page."""

    def __init__(self, settings):
        self.service = Service(settings).start()
        self.page = create_app(self.service).test_client()

    def tray(self):
        reply = self.page.get("/api/tray")
        assert reply.status_code == 200
        return reply.get_json()["tray"]

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.service.stop()


def test_the_tray_set_on_the_page_is_read_in_again_after_a_restart(tmp_path, frames):
    with Running(settings(tmp_path, frames)) as running:
        assert running.tray() == "auto"
        reply = running.page.post("/api/tray", json={"tray": [10, 20, 300, 200]})
        assert reply.status_code == 200 and "warning" not in reply.get_json()
        assert running.tray() == [10, 20, 300, 200]
    with Running(settings(tmp_path, frames)) as running:
        assert running.tray() == [10, 20, 300, 200], "the power cut did not lose the tray"
        assert running.page.post("/api/tray", json={"tray": "auto"}).status_code == 200
    with Running(settings(tmp_path, frames)) as running:
        assert running.tray() == "auto"


def test_an_edit_of_camera_tray_made_after_the_page_set_one_wins(tmp_path, frames):
    with Running(settings(tmp_path, frames)) as running:
        assert running.page.post("/api/tray", json={"tray": [10, 20, 300, 200]}).status_code == 200
    with Running(settings(tmp_path, frames, tray="5,6,600,400")) as running:
        assert running.tray() == [5, 6, 600, 400]
        assert running.page.post("/api/tray", json={"tray": [1, 2, 3, 4]}).status_code == 200
    with Running(settings(tmp_path, frames, tray="5,6,600,400")) as running:
        assert running.tray() == [1, 2, 3, 4]


def test_a_damaged_tray_file_falls_back_to_the_settings(tmp_path, frames):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "camera-tray.json").write_text('{"tray": 7, "instead_of": "auto"}')
    with Running(settings(tmp_path, frames)) as running:
        assert running.tray() == "auto"
    (tmp_path / "games" / "camera-tray.json").write_text("{not json")
    with Running(settings(tmp_path, frames, tray="5,6,600,400")) as running:
        assert running.tray() == [5, 6, 600, 400]


def test_a_tray_that_cannot_be_kept_is_still_used_and_the_page_is_told(tmp_path, frames):
    with Running(settings(tmp_path, frames)) as running:
        (tmp_path / "games" / "camera-tray.json" / "in-the-way").mkdir(parents=True)  # as a full or read-only card
        reply = running.page.post("/api/tray", json={"tray": [10, 20, 300, 200]})
        assert reply.status_code == 200
        assert reply.get_json()["warning"].startswith("the tray is set, but it could not be kept for the next start")
        assert running.tray() == [10, 20, 300, 200]


def test_without_a_camera_there_is_no_tray_to_show(tmp_path):
    missing = load_settings(env={}, overrides={"service": {"state_dir": str(tmp_path)}, "sensors": {"backend": "none"},
                                               "camera": {"source": str(tmp_path / "no-camera-here")}})
    with Running(missing) as running:
        reply = running.page.get("/api/tray")
        assert reply.status_code == 404 and "no camera" in reply.get_json()["message"]


class FullCard:
    """Every file opened for writing while `full` takes no data (ENOSPC), as on a memory card that filled up:
    opening one to write it over has emptied it all the same."""

    def __init__(self, monkeypatch):
        self.full = False
        real_open = io.open

        def open_on_the_card(file, mode="r", *args, **kwargs):
            opened = real_open(file, mode, *args, **kwargs)
            if self.full and any(c in mode for c in "wax+"):
                def no_room(*_):
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                opened.write = no_room
            return opened

        monkeypatch.setattr(io, "open", open_on_the_card)


def test_a_tray_set_while_recording_on_a_full_card_is_used_and_the_recording_keeps_its_camera_setup(
        tmp_path, frames, monkeypatch):
    card = FullCard(monkeypatch)
    recording = tmp_path / "session"
    recording.mkdir()
    service = Service(settings(tmp_path, frames), record_dir=recording).start()
    try:
        page = create_app(service).test_client()
        assert page.post("/api/tray", json={"tray": [10, 20, 300, 200]}).status_code == 200
        card.full = True
        reply = page.post("/api/tray", json={"tray": [30, 40, 500, 400]})
        card.full = False
        assert reply.status_code == 200, reply.get_data(as_text=True)
        assert reply.get_json()["warning"].startswith("the tray is set, but")
        assert page.get("/api/tray").get_json()["tray"] == [30, 40, 500, 400]
    finally:
        service.stop()
    assert read_camera_setup(recording).tray == "10,20,300,200", "the recording's camera setup was not emptied"


def test_a_recording_started_on_a_full_card_stops_recording_frames_not_the_camera(tmp_path, frames):
    """`companion record` notes the camera's setup first (camera.json): when the card will not take it, the family
    still plays with the camera, and the page says the frames are not recorded."""
    recording = tmp_path / "session"
    (recording / "camera.json" / "in-the-way").mkdir(parents=True)  # as a full or read-only card
    service = Service(settings(tmp_path, frames), record_dir=recording).start()
    try:
        page = create_app(service).test_client()
        assert page.get("/api/tray").status_code == 200, "the camera is there"
        # the table takes events in order: once this one is applied, the recording's news, sent before, is too
        service.table.submit(SensorHealth(t=1, sensor="banana", state="ok")).result(10)
        health = page.get("/api/state").get_json()["health"]
        assert health.get("camera", {}).get("state") != "missing", health
        assert "the camera's frames are no longer recorded" in health["recording"]["message"], health
    finally:
        service.stop()
