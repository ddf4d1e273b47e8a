"""A USB camera filmed in software for the service's camera tests: cv2.VideoCapture over a still tray, and the
service started on it (camera "usb:0", no sensors)."""
from __future__ import annotations

import numpy as np


def noisy(rng: np.random.Generator, value: int = 90, shape: tuple[int, ...] = (48, 64, 3)) -> np.ndarray:
    """A still tray seen by a good camera: the same scene, never the same bits (sensor noise)."""
    return (value + rng.integers(0, 3, shape)).astype(np.uint8)


class NoisyCapture:
    """cv2.VideoCapture over a USB camera filming a still tray of `shape` with `rng`'s noise. A test's subclass says
    how `grab` waits for its picture (or stops) and sets `rng`."""

    rng: np.random.Generator
    shape: tuple[int, ...] = (48, 64, 3)

    def __init__(self, index, *args):
        pass

    def isOpened(self):
        return True

    def set(self, *args):
        return True

    def grab(self):
        return True

    def retrieve(self):
        return True, noisy(self.rng, shape=self.shape)

    def release(self):
        pass


def usb_camera_service(tmp_path, monkeypatch, capture: type[NoisyCapture], get_reader, **camera):
    """The service started with camera "usb:0" filmed by `capture`, its dice read by the readers `get_reader` gives
    (in place of companion.vision.readers.get_reader); `camera`: more of the camera's settings."""
    import cv2

    import companion.vision.readers as readers
    from companion.config import load_settings
    from companion.table.service import Service

    monkeypatch.setattr(cv2, "VideoCapture", capture)
    monkeypatch.setattr(readers, "get_reader", get_reader)
    settings = load_settings(env={}, overrides={"service": {"state_dir": str(tmp_path)}, "sensors": {"backend": "none"},
                                                "camera": {"source": "usb:0", **camera}})
    return Service(settings).start()
