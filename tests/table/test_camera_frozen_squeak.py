"""A camera that repeats the very same picture is called "stuck" on the page, yet the table goes on judging
Banana Matcho squeaks on that frozen picture as if it were live: the frozen frames keep arriving with new
timestamps, so their zone readings are "fresh". Here the picture froze while Ben had two Matchos; he rolls
his third and squeaks: the table plays "fruit" (Ada climbs 7) on the old picture, the page's own health line
saying the camera is stuck. Now the repeated picture is not read again, so the zones go stale and the squeak
is asked, as when the camera gives no frames at all (found by the Banana Matcho camera audit, #3)."""
from __future__ import annotations

import time

import pytest

from companion.events import BananaSqueaked, CameraHealth
from companion.table.camera import CameraFeed
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.vision.live import DicePipeline
from companion.vision.sources import LiveSource
from tests.table.banana_dice import table_image, teach, tracker
from tests.waiting import wait_for

CO, ST = "coconut", "starfruit"


class FrozenCamera:
    name = "usb:0"

    def __init__(self, image):
        self.image = image

    def open(self):
        pass

    def read(self):
        time.sleep(0.05)
        return self.image.copy()  # the very same picture, bit for bit

    def close(self):
        pass


@pytest.fixture
def rig(tmp_path):
    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    assert table.request({"do": "start", "game": "banana-matcho", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    camera = FrozenCamera(table_image(7, [CO, CO, CO, CO, ST, ST], ["matcho", "matcho", "blank"]))
    pipeline = DicePipeline(None, None, zones=tracker(tmp_path / "state"))
    pipeline.source = LiveSource(camera, on_health=pipeline.emit, wait_for_camera=True, backoff_s=(0.01,))
    feed = CameraFeed(pipeline, table.submit, live=True, camera_name="usb:0", stuck_after_s=0.5,
                      check_every_s=0.05).start()
    yield table, feed
    feed.stop()
    table.stop()


def test_a_squeak_is_not_judged_on_a_picture_the_page_calls_frozen(rig):
    table, feed = rig
    wait_for(lambda: table.view()["health"].get("camera", {}).get("state") == "stuck", "'stuck' on the page")
    time.sleep(1.1)  # at least: the service says "stuck" after 5 s, so the zones' picture is over a second old
    table.submit(BananaSqueaked(t=time.monotonic_ns())).result(5)  # Ben, third Matcho rolled (unseen)
    wait_for(lambda: table.view()["question"] is not None or table.view()["game"]["scores"] != [0, 0],
             "the squeak to be judged or asked (frames come on, frozen, or the table's idle second)")
    view = table.view()
    assert view["game"]["scores"] == [0, 0], [s["text"] for s in view["game"]["history"]]
    assert view["question"] is not None
