"""The camera feature when the camera or the reader misbehaves: the rest of the service goes on, the page
is told what to check, and the camera comes back without a restart. And the photo of each roll shows it."""
from __future__ import annotations

import cv2
import numpy as np

from companion.events import DieReading
from companion.table.camera import CameraFeed
from companion.vision.live import DicePipeline
from companion.vision.sources import Frame


class FixedReader:
    def __init__(self, box):
        self.box = box

    def read(self, image, tray=None):
        x0, y0, x1, y1 = self.box
        return [DieReading(5, ((x0 + x1) / 2, (y0 + y1) / 2), self.box, 0.99)]


def red_share(jpeg: bytes) -> float:
    image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    red = (image[:, :, 2] > 180) & (image[:, :, 1] < 80) & (image[:, :, 0] < 80)
    return float(red.mean())


def test_the_photo_of_the_last_roll_shows_its_dice_in_a_full_size_frame():
    """The live view is shrunk to 960 pixels wide for phones; the dice's boxes are the camera's 1280."""
    box = (900.0, 300.0, 980.0, 380.0)
    picture = np.full((720, 1280, 3), 60, np.uint8)
    cv2.rectangle(picture, (900, 300), (980, 380), (0, 0, 255), -1)
    pipeline = DicePipeline(None, FixedReader(box), settle_ms=100)
    feed = CameraFeed(pipeline, lambda event: None)
    for i in range(10):
        pipeline.process(Frame(i * 50_000_000, picture))
    photo = feed.reading_jpeg()
    assert photo is not None
    assert red_share(photo) > 0.3, "the die with a margin of a quarter of its size around it"


class Glitchy(FixedReader):
    """Reads a die, but raises on the frames numbered in `fail_on` (an ONNX runtime hiccup, memory)."""

    def __init__(self, box, fail_on):
        super().__init__(box)
        self.fail_on, self.calls = set(fail_on), 0

    def read(self, image, tray=None):
        self.calls += 1
        if self.calls in self.fail_on:
            raise RuntimeError("onnxruntime: Fail")
        return super().read(image, tray)


def frames_of(pictures, start=0, step=50_000_000):
    return [Frame(start + i * step, picture) for i, picture in enumerate(pictures)]


def test_a_reader_that_fails_on_some_frames_does_not_end_the_camera():
    still = np.full((240, 320, 3), 60, np.uint8)
    moved = still.copy()
    moved[100:160, 100:160] = 230  # a hand over the tray
    events = []
    reader = Glitchy((10.0, 10.0, 30.0, 30.0), fail_on={1})
    zones_reader = Glitchy((10.0, 10.0, 30.0, 30.0), fail_on={5, 6, 7})
    from companion.vision.zones import Zone, ZoneTracker

    zones = ZoneTracker([Zone("fruit", (0, 0, 100, 100))], readers={"pips": zones_reader})
    pictures = [still] * 10 + [moved] * 3 + [still] * 10
    pipeline = DicePipeline(frames_of(pictures), reader, settle_ms=100, zones=zones, on_event=events.append)
    pipeline.run()
    health = [(e.state, e.message) for e in events if e.type == "camera_health"]
    assert [state for state, _ in health] == ["error", "ok"], "told after 3 frames in a row, and when it is over"
    assert "RuntimeError: onnxruntime: Fail" in health[0][1] and "type them on the page" in health[0][1]
    assert [e.type for e in events].count("dice_settled") == 1, "the roll after the failed read is read"


def test_a_camera_back_at_another_size_drops_a_tray_and_names_zones_outside_it():
    big, small = np.full((720, 1280, 3), 60, np.uint8), np.full((480, 640, 3), 60, np.uint8)
    events = []
    from companion.vision.zones import Zone, ZoneTracker

    zones = ZoneTracker([Zone("fruit", (700, 500, 1200, 700))], readers={"pips": FixedReader((1.0, 1.0, 5.0, 5.0))})
    pipeline = DicePipeline(frames_of([big] * 8 + [small] * 8), FixedReader((710.0, 510.0, 760.0, 560.0)),
                            settle_ms=100, tray=(700, 500, 1200, 700), zones=zones, on_event=events.append)
    pipeline.run()
    assert pipeline.frames == 16, "every frame processed, before and after the replug"
    told = [e.message for e in events if e.type in ("camera_health", "sensor_health")]
    assert any("tray 700,500,1200,700 lies outside the camera's 640x480 picture" in m for m in told), told
    assert any("zone fruit (700,500,1200,700) lies outside the camera's 640x480 picture" in m for m in told), told
