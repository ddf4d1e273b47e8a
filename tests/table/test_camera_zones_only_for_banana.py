"""Banana Matcho's dice zones (camera.zones, set once by a family that has all four games) are read only while
Banana Matcho is played. Read in every frame of every game, they took the camera 26 ms of CPU a frame against
0.9 ms for a pip game's frame (`tests_audit/slowpi_harness.py pips 1 nogil picamera2 zones`): on a Pi a whole
core all evening, frames read 3x less often, and each roll shown ~0.4 s later. Frames are stepped one by one
here, so no machine speed is involved."""
from __future__ import annotations

import threading
import time

import numpy as np

from tests.table.banana_dice import ZONE_TEXT
from tests.table.usb_camera import NoisyCapture, usb_camera_service
from tests.waiting import wait_for


class NoDice:
    def __init__(self) -> None:
        self.reads = 0

    def read(self, image, tray=None):
        self.reads += 1
        return []


def test_the_zones_are_read_only_while_banana_matcho_is_played(tmp_path, monkeypatch):
    step = threading.Semaphore(0)

    class SteppedCapture(NoisyCapture):  # a USB camera that films one frame each time the test says so
        rng = np.random.default_rng(3)
        shape = (720, 1280, 3)

        def grab(self):
            step.acquire()
            time.sleep(0.005)  # it waited for its picture
            return True

        def release(self):
            step.release()

    zone_reader = NoDice()
    service = usb_camera_service(tmp_path, monkeypatch, SteppedCapture,
                                 lambda kind="pips", **o: NoDice() if kind == "pips" else zone_reader, zones=ZONE_TEXT)

    def frames(n):
        before = service.camera.pipeline.frames
        for _ in range(n):
            step.release()
        wait_for(lambda: service.camera.pipeline.frames >= before + n, f"the camera's {n} frames")

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
