"""`companion serve` on a machine without picamera2 (camera.source = "picamera2", the default): the page first says
"no camera: picamera2 is not installed: ... sudo apt install python3-picamera2 ...", and 5 s later the watchdog
replaces it with "picamera2: no new picture for 5 s (the camera hangs): check the ribbon cable ...": the one
message that named the cause is gone. Seen live with `.venv/bin/python -m companion serve --port 0` here."""
import time

from companion.vision.sources import CameraSupportMissing
from tests.table.test_camera_watchdog import FAST, ScriptedCamera, health, live_feed, looked_after, looks_of
from tests.waiting import wait_for


class NoDriver(ScriptedCamera):
    def open(self) -> None:
        self.opens += 1
        raise CameraSupportMissing("picamera2 is not installed: on the Pi run `sudo apt install python3-picamera2`")


def test_a_camera_whose_driver_is_missing_is_not_called_stuck_afterwards():
    camera = NoDriver("picamera2")
    heard: list = []
    feed = live_feed(camera, heard)  # the watchdog's stuck_after_s is 0.5 s here
    looks = looks_of(feed)
    feed.start()
    try:
        wait_for(lambda: any(h.state == "missing" for h in health(heard)), "'missing' for the driver")
        said = time.monotonic()
        wait_for(lambda: looked_after(looks, said, 3 * FAST["stuck_after_s"]),
                 "the watchdog's look at three times its 'stuck' time after 'missing'")
        states = [h.state for h in health(heard)]
        assert states[-1] == "missing", [(h.state, h.message[:60]) for h in health(heard)]
    finally:
        feed.stop()
