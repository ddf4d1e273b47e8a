"""Banana Matcho's dice zones (camera.zones, set once by a family that has all four games) are read only while
Banana Matcho is played. Read in every frame of every game, they took the camera 26 ms of CPU a frame against
0.9 ms for a pip game's frame (`tests_audit/slowpi_harness.py pips 1 nogil picamera2 zones`): on a Pi a whole
core all evening, frames read 3x less often, and each roll shown ~0.4 s later. Frames are stepped one by one
here, so no machine speed is involved."""
from __future__ import annotations

import threading
import time

import numpy as np

import companion.vision.readers as readers
from companion.config import load_settings
from companion.table.service import Service
from tests.table.banana_dice import ZONE_TEXT


def wait_for(predicate, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end and not predicate():
        time.sleep(0.01)
    return bool(predicate())


class NoDice:
    def __init__(self) -> None:
        self.reads = 0

    def read(self, image, tray=None):
        self.reads += 1
        return []


def test_the_zones_are_read_only_while_banana_matcho_is_played(tmp_path, monkeypatch):
    import cv2

    step = threading.Semaphore(0)
    rng = np.random.default_rng(3)

    class SteppedCapture:  # a USB camera that films one frame each time the test says so
        def __init__(self, index, *a):
            pass

        def isOpened(self):
            return True

        def set(self, *a):
            return True

        def grab(self):
            step.acquire()
            time.sleep(0.005)  # it waited for its picture
            return True

        def retrieve(self):
            return True, (90 + rng.integers(0, 3, (720, 1280, 3))).astype(np.uint8)

        def release(self):
            step.release()

    zone_reader = NoDice()
    monkeypatch.setattr(cv2, "VideoCapture", SteppedCapture)
    monkeypatch.setattr(readers, "get_reader", lambda kind="pips", **o: NoDice() if kind == "pips" else zone_reader)
    settings = load_settings(env={}, overrides={"service": {"state_dir": str(tmp_path)},
                                                "sensors": {"backend": "none"},
                                                "camera": {"source": "usb:0", "zones": ZONE_TEXT}})
    service = Service(settings).start()

    def frames(n):
        before = service.camera.pipeline.frames
        for _ in range(n):
            step.release()
        assert wait_for(lambda: service.camera.pipeline.frames >= before + n)

    try:
        players = [{"name": "Ada"}, {"name": "Ben"}]
        assert service.table.request({"do": "start", "game": "mountain-goats", "players": players}).ok
        frames(3)
        assert zone_reader.reads == 0, "a Mountain Goats game had the Banana Matcho zones read in every frame"
        assert service.table.request({"do": "end"}).ok
        assert service.table.request({"do": "start", "game": "banana-matcho", "players": players}).ok
        frames(3)
        assert zone_reader.reads == 3 * 2, "both zones are read in each frame of a Banana Matcho game"
        assert service.table.request({"do": "end"}).ok
        frames(2)
        assert zone_reader.reads == 3 * 2, "no game in play: the zones are not read"
    finally:
        step.release()
        service.stop()
