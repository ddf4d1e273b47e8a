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
