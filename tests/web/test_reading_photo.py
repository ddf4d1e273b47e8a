"""The photo beside the last roll the page shows (`/api/reading.jpg?v=<the roll's t>`) is that roll's: after an
undo (the page goes back to the roll before) or a roll the game did not take, the newest crop is of other dice."""
from __future__ import annotations

import cv2
import numpy as np

from companion.events import DiceSettled, DieReading
from companion.table.camera import CameraFeed
from companion.vision.live import DicePipeline
from companion.vision.sources import Frame
from companion.web.app import create_app


class RedSquareReader:
    """Reads one die wherever the picture's red square is."""

    def read(self, image, tray=None):
        ys, xs = np.nonzero(image[:, :, 2] > 180)
        box = (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))
        return [DieReading(5, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), box, 0.99)]


def picture(x: int) -> np.ndarray:
    image = np.full((360, 640, 3), 60, np.uint8)
    cv2.rectangle(image, (x, 100), (x + 60, 160), (0, 0, 255), -1)
    return image


def roll_at(pipeline, x: int, t0: int) -> int:
    """Frames of the red die lying still at x (after the one before it moved): the roll's settled t."""
    settled = [e for i in range(10) for e in pipeline.process(Frame(t0 + i * 50_000_000, picture(x)))
               if isinstance(e, DiceSettled)]
    assert len(settled) == 1
    return settled[0].t


def test_the_photo_asked_for_a_roll_is_that_rolls_not_the_newest(service):
    pipeline = DicePipeline(None, RedSquareReader(), settle_ms=100)
    service.camera = CameraFeed(pipeline, lambda event: None)
    client = create_app(service).test_client()
    first = roll_at(pipeline, 40, 0)
    second = roll_at(pipeline, 500, 10_000_000_000)
    photos = {t: client.get(f"/api/reading.jpg?v={t}") for t in (first, second)}
    assert all(reply.status_code == 200 for reply in photos.values())
    assert photos[first].data != photos[second].data, "the first roll's photo shows the second roll's dice"
    assert client.get("/api/reading.jpg?v=12345").status_code == 404, "a roll the camera has no photo of"
