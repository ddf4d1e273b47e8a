"""A USB camera read slower than it films (the Banana Matcho zones on a Pi: ~100 ms a frame against the camera's
33 ms) gives the picture of now, not one the driver queued while the pipeline was busy.

OpenCV's V4L2 backend keeps 4 buffers; the driver fills each free one as a frame comes and drops frames while all
are full, and a read takes the OLDEST filled one. Read every 150 ms, each picture was 3 reads (~450 ms) old, yet
stamped with the time of its read: squeaks were judged on the dice of half a second before ("Nobody has a
combination yet") and rolls read late. The driver is modelled here on a fake clock (no machine speed involved)."""
from __future__ import annotations

import numpy as np
import pytest

from companion.vision import sources
from companion.vision.sources import LiveSource, VideoCaptureCamera

PERIOD_NS = 33_333_333  # 30 frames a second
BUFFERS = 4  # OpenCV's V4L2 default


class FakeClock:
    def __init__(self) -> None:
        self.now_ns = 1_000_000_000

    def ns(self) -> int:
        return self.now_ns

    def seconds(self) -> float:
        return self.now_ns / 1e9


class QueuingDriver:
    """cv2.VideoCapture over a V4L2 camera: frame k is filmed at k * PERIOD_NS into a free buffer (dropped when
    none is free); grab() takes the oldest filled buffer, waiting (the fake clock moves on) when none is."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.start_ns = clock.now_ns
        self.filmed = 0  # frames filmed so far (kept or dropped)
        self.queue: list[int] = []
        self.held: int | None = None

    def _film(self) -> None:
        while self.start_ns + (self.filmed + 1) * PERIOD_NS <= self.clock.now_ns:
            self.filmed += 1
            if len(self.queue) < BUFFERS:
                self.queue.append(self.filmed)

    def isOpened(self) -> bool:
        return True

    def set(self, prop, value) -> bool:
        return True

    def grab(self) -> bool:
        self._film()
        if not self.queue:
            self.clock.now_ns = self.start_ns + (self.filmed + 1) * PERIOD_NS
            self._film()
        self.held = self.queue.pop(0)
        return True

    def retrieve(self):
        image = np.zeros((4, 4, 3), np.uint8)
        image.reshape(-1)[:4] = np.frombuffer(np.uint32(self.held).tobytes(), np.uint8)
        return True, image

    def read(self):
        return (self.grab(), *self.retrieve()[1:])

    def release(self) -> None:
        pass

    def filmed_at(self, image: np.ndarray) -> int:
        return self.start_ns + int(np.frombuffer(image.reshape(-1)[:4].tobytes(), np.uint32)[0]) * PERIOD_NS


def usb_camera_on_a_fake_clock(monkeypatch) -> tuple[FakeClock, QueuingDriver, LiveSource]:
    """The live source of camera usb:0, its V4L2 driver modelled, on a fake clock that only the test moves."""
    clock = FakeClock()
    driver = QueuingDriver(clock)
    monkeypatch.setattr("cv2.VideoCapture", lambda index: driver)
    return clock, driver, LiveSource(VideoCaptureCamera(0, clock=clock.seconds), clock=clock.ns, sleep=lambda s: None)


@pytest.mark.parametrize("busy_ms", [10, 100, 150, 400])
def test_a_usb_camera_read_slowly_gives_the_picture_of_the_moment_it_is_stamped_with(monkeypatch, busy_ms):
    clock, driver, source = usb_camera_on_a_fake_clock(monkeypatch)
    ages_ms = []
    for n, frame in zip(range(20), source):
        ages_ms.append((frame.t - driver.filmed_at(frame.image)) / 1e6)
        clock.now_ns += busy_ms * 1_000_000  # the pipeline reads the frame
    assert max(ages_ms[3:]) <= PERIOD_NS / 1e6, f"pictures up to {max(ages_ms):.0f} ms older than their stamp"


def test_a_usb_camera_read_in_time_is_read_at_its_full_rate(monkeypatch):
    """Throwing queued pictures away never costs a picture that came while the pipeline kept up."""
    clock, driver, source = usb_camera_on_a_fake_clock(monkeypatch)
    filmed = []
    for n, frame in zip(range(30), source):
        filmed.append(driver.filmed_at(frame.image))
        clock.now_ns += 5_000_000
    assert np.diff(filmed).max() == PERIOD_NS, "a frame was skipped though the pipeline kept up"


def test_a_usb_camera_that_stops_in_a_grab_is_said_lost(monkeypatch):
    clock = FakeClock()
    driver = QueuingDriver(clock)
    driver.grab = lambda: False
    monkeypatch.setattr("cv2.VideoCapture", lambda index: driver)
    camera = VideoCaptureCamera(0, clock=clock.seconds)
    camera.open()
    with pytest.raises(sources.CameraFailed, match="stopped delivering frames"):
        camera.read()
