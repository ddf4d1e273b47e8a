"""The camera thread of the service when the camera misbehaves without saying so: a read that never returns
(picamera2's capture_array waiting for ever), a camera that repeats the very same picture, an odd error out
of the pipeline; and stopping the service while a recording wraps the camera's frames.

A scripted camera stands in for the hardware behind the real LiveSource; the watchdog's times are made
small through CameraFeed's constructor (or camera.py's defaults, for the service). Nothing here waits a fixed
time: a test waits for the word, the frame or the watchdog's look it needs (tests.waiting)."""
from __future__ import annotations

import logging
import threading
import time

import numpy as np
import pytest

from companion.events import CameraHealth, DieReading
from companion.table import camera as camera_module
from companion.table.camera import CameraFeed
from companion.vision.live import DicePipeline
from companion.vision.sources import CameraMissing, LiveSource
from tests.table.usb_camera import NoisyCapture, noisy, usb_camera_service
from tests.waiting import wait_for

FAST = dict(stuck_after_s=0.5, check_every_s=0.03)


class ScriptedCamera:
    """A live camera (the Camera protocol of companion.vision.sources). `reads`: what read() does in turn:
    an image (returned), an exception (raised), "block" (waits until `release` is set). Then, `then`:
    "noise" (a still tray under a good camera, for ever) or "same" (the last image, bit for bit)."""

    def __init__(self, name: str = "usb:0", reads=(), then: str = "noise", missing: bool = False):
        self.name = name
        self.reads = list(reads)
        self.then = then
        self.missing = missing
        self.release = threading.Event()
        self.opens = 0
        self.served = 0
        self._rng = np.random.default_rng(7)
        self._last = noisy(self._rng)

    def open(self) -> None:
        self.opens += 1
        if self.missing:
            raise CameraMissing(f"cannot open {self.name}: check the cable")

    def read(self) -> np.ndarray:
        time.sleep(0.002)
        if self.reads:
            item = self.reads.pop(0)
            if isinstance(item, BaseException):
                raise item
            if isinstance(item, str) and item == "block":
                self.release.wait()
                return self.read()
            self._last = item
        elif self.then == "noise":
            self._last = noisy(self._rng)
        self.served += 1
        return self._last.copy()

    def close(self) -> None:
        pass


def live_feed(camera: ScriptedCamera, heard: list, **options) -> CameraFeed:
    pipeline = DicePipeline(None, None)
    pipeline.source = LiveSource(camera, on_health=pipeline.emit, wait_for_camera=True, backoff_s=(0.01,))
    return CameraFeed(pipeline, heard.append, live=True, camera_name=camera.name, **{**FAST, **options})


def health(heard: list) -> list[CameraHealth]:
    return [e for e in list(heard) if isinstance(e, CameraHealth)]


def looks_of(feed: CameraFeed) -> list[float]:
    """When the watchdog of `feed` (not started yet) has looked at the camera: each look's time.monotonic(),
    noted once the look is over. A test of what the watchdog must NOT say waits for its looks, not for a time
    in which a busy machine may have given it none."""
    looks: list[float] = []
    look = feed._look

    def counted() -> None:
        look()
        looks.append(time.monotonic())

    feed._look = counted
    return looks


def looked_after(looks: list[float], since: float, seconds: float) -> bool:
    return bool(looks) and looks[-1] - since > seconds


@pytest.mark.parametrize("name, check", [("usb:0", "v4l2-ctl --list-devices"),
                                         ("picamera2", "rpicam-hello --list-cameras")])
def test_a_camera_stuck_in_read_is_named_on_the_page_and_its_old_picture_is_not_shown(name, check):
    rng = np.random.default_rng(1)
    camera = ScriptedCamera(name, [noisy(rng) for _ in range(5)] + ["block"])
    heard: list = []
    feed = live_feed(camera, heard).start()
    try:
        wait_for(lambda: feed.pipeline.frames == 5, "the five pictures before the read that hangs")
        assert feed.latest_jpeg() is not None
        wait_for(lambda: any(h.state != "ok" for h in health(heard)), "a word on the page: the camera looks fine")
        (stuck,) = health(heard)
        assert stuck.state in ("stuck", "lost") and name in stuck.message and check in stuck.message
        assert feed.latest_jpeg() is None, "the old frame is not shown as if live"
        camera.release.set()  # the driver lets go: frames again
        wait_for(lambda: health(heard)[-1].state == "ok", "'ok' once the driver lets go")
        assert len(health(heard)) == 2, "one word when stuck, one when back"
        assert feed.latest_jpeg() is not None
    finally:
        camera.release.set()
        feed.stop()


def test_stopping_while_the_camera_hangs_in_its_read_does_not_wait_for_the_read(caplog):
    """The service stops (systemd's restart) while picamera2's read never returns: stop() gives up on the read
    after its short patience and says so, instead of waiting for it until its own deadline or for ever."""
    rng = np.random.default_rng(6)
    camera = ScriptedCamera("picamera2", [noisy(rng) for _ in range(5)] + ["block"])
    feed = live_feed(camera, [], stuck_after_s=30).start()  # stopped before the watchdog could tell
    try:
        wait_for(lambda: feed.pipeline.frames == 5, "the five pictures before the read that hangs")
        with caplog.at_level(logging.WARNING, logger=camera_module.__name__):
            stopping = threading.Thread(target=feed.stop, daemon=True)
            stopping.start()
            wait_for(lambda: not stopping.is_alive(), "stop() to return while the camera hangs in its read")
        assert "picamera2 hangs in its read: stopped without waiting for it" in caplog.text, \
            "stop() waited for the hanging read until its deadline instead of leaving it behind"
        assert feed._thread.is_alive(), "the read ended: nothing here hung"
    finally:
        camera.release.set()


def test_a_camera_repeating_the_very_same_picture_is_stuck_too_and_its_repeats_are_not_read():
    """Frames keep coming, the same picture bit for bit: the page says "stuck", and the repeats do not reach
    the pipeline as fresh readings of the tray (a squeak would be judged on a picture seconds old)."""
    camera = ScriptedCamera("usb:0", [noisy(np.random.default_rng(2))], then="same")
    heard: list = []
    feed = live_feed(camera, heard).start()
    try:
        wait_for(lambda: any(h.state != "ok" for h in health(heard)), "a word on the page: the camera looks fine")
        wait_for(lambda: camera.served > 20, "frames to keep coming: the same picture, bit for bit")
        assert feed.pipeline.frames == 1, "only the first of the repeated pictures is read"
        (stuck,) = health(heard)
        assert "same picture" in stuck.message and "v4l2-ctl --list-devices" in stuck.message
        assert feed.latest_jpeg() is None
    finally:
        feed.stop()


def test_a_camera_that_thaws_is_read_again_and_said_ok():
    camera = ScriptedCamera("usb:0", [noisy(np.random.default_rng(3))], then="same")
    heard: list = []
    feed = live_feed(camera, heard).start()
    try:
        wait_for(lambda: any(h.state == "stuck" for h in health(heard)), "'stuck' for the frozen picture")
        camera.then = "noise"  # the driver recovers: the still tray with its sensor noise again
        wait_for(lambda: health(heard)[-1].state == "ok", "'ok' once the picture moves again")
        wait_for(lambda: feed.pipeline.frames > 20, "pictures to reach the pipeline again")
        assert feed.latest_jpeg() is not None
    finally:
        feed.stop()


def test_a_still_tray_under_a_good_camera_is_not_stuck():
    camera = ScriptedCamera("usb:0")  # sensor noise: never bit for bit the same
    heard: list = []
    feed = live_feed(camera, heard)
    looks = looks_of(feed)
    started = time.monotonic()
    feed.start()
    try:
        wait_for(lambda: feed.pipeline.frames > 20, "the still tray's pictures")
        wait_for(lambda: looked_after(looks, started, 2 * FAST["stuck_after_s"]),
                 "the watchdog's look at more than twice its 'stuck' time")
        assert health(heard) == []
        assert feed.latest_jpeg() is not None
    finally:
        feed.stop()


def test_a_camera_missing_is_said_by_the_camera_not_drowned_by_the_watchdog():
    camera = ScriptedCamera("usb:0", missing=True)
    heard: list = []
    feed = live_feed(camera, heard)
    looks = looks_of(feed)
    started = time.monotonic()
    feed.start()
    try:
        wait_for(lambda: camera.opens > 3, "the missing camera to be tried again")
        wait_for(lambda: looked_after(looks, started, 2 * FAST["stuck_after_s"]),
                 "the watchdog's look at more than twice its 'stuck' time")
        assert {h.state for h in health(heard)} <= {"missing", "lost", "reopening"}
    finally:
        feed.stop()


def test_stopping_a_recording_feed_stops_the_camera_behind_the_recording(tmp_path):
    from companion.vision import recording
    camera = ScriptedCamera("usb:0", missing=True)  # `companion record` with the camera unplugged
    heard: list = []
    pipeline = DicePipeline(None, None)
    pipeline.source = LiveSource(camera, on_health=pipeline.emit, wait_for_camera=True, backoff_s=(0.01,))
    feed = CameraFeed(pipeline, heard.append, recorder=recording.FrameRecorder(tmp_path / "session"))
    feed.start()
    wait_for(lambda: camera.opens > 3, "the missing camera to be tried again")
    feed.stop()
    wait_for(lambda: not feed._thread.is_alive(), "the camera thread to end: the camera is reopened after the stop")


class Glitching:
    """Something between the camera and the pipeline (a rotation, a wrapper) raising once, at frame `at`:
    what the live source and the pipeline do not catch themselves. Iterated again, it goes on."""

    def __init__(self, source, error: BaseException, at: int):
        self.source, self.error, self.at = source, error, at
        self.n = 0

    def __iter__(self):
        for frame in self.source:
            self.n += 1
            if self.n == self.at:
                raise self.error
            yield frame

    def stop(self):
        self.source.stop()


def glitching_feed(camera: ScriptedCamera, heard: list, error: BaseException, at: int, **options) -> CameraFeed:
    pipeline = DicePipeline(None, None)
    live = LiveSource(camera, on_health=pipeline.emit, wait_for_camera=True, backoff_s=(0.01,))
    pipeline.source = Glitching(live, error, at)
    return CameraFeed(pipeline, heard.append, live=True, camera_name=camera.name, **{**FAST, **options})


@pytest.mark.parametrize("glitch", [MemoryError(), RuntimeError("select() timeout")])
def test_an_odd_error_does_not_end_a_live_camera_for_the_rest_of_the_evening(glitch):
    camera = ScriptedCamera("usb:0")
    heard: list = []
    feed = glitching_feed(camera, heard, glitch, at=6, restart_backoff_s=(0.01,)).start()
    try:
        wait_for(lambda: feed.pipeline.frames > 30, f"more frames: the camera thread ended? {health(heard)}")
        lost = health(heard)[0]
        assert lost.state == "lost"
        assert (str(glitch) or type(glitch).__name__) in lost.message and "v4l2-ctl" in lost.message
        wait_for(lambda: health(heard)[-1].state == "ok", "the page to be told the camera is back")
        assert feed.latest_jpeg() is not None
    finally:
        feed.stop()


def test_the_wait_before_starting_the_camera_again_ends_with_a_stop():
    camera = ScriptedCamera("usb:0")
    heard: list = []
    feed = glitching_feed(camera, heard, RuntimeError("boom"), at=2, restart_backoff_s=(30,)).start()
    wait_for(lambda: any(h.state == "lost" for h in health(heard)), "'lost' for the error")
    feed.stop()
    wait_for(lambda: not feed._thread.is_alive(), "the stop to end the 30 s wait before starting the camera again")


def test_a_file_that_fails_still_ends_the_camera_with_one_word():
    class Broken:
        def __iter__(self):
            raise ValueError("cannot read video file x.mp4")

    heard: list = []
    feed = CameraFeed(DicePipeline(Broken(), None), heard.append, **FAST).start()
    wait_for(lambda: not feed._thread.is_alive(), "the camera thread to end")
    (missing,) = health(heard)
    assert missing.state == "missing" and "x.mp4" in missing.message


class OneDie:
    def read(self, image, tray=None):
        h, w = image.shape[:2]
        return [DieReading(3, (w / 2, h / 2), (w / 2 - 20, h / 2 - 20, w / 2 + 20, h / 2 + 20), 0.99)]


def test_the_service_names_a_stuck_usb_camera_on_the_page(tmp_path, monkeypatch):
    """open_camera makes a usb:N camera a live one, watched."""
    from companion.web.app import create_app

    release = threading.Event()
    reads = {"n": 0}

    class StopsAfterFive(NoisyCapture):
        rng = np.random.default_rng(5)

        def grab(self):
            reads["n"] += 1
            if reads["n"] > 5:
                release.wait()
                return False
            time.sleep(0.005)
            return True

    monkeypatch.setattr(camera_module, "STUCK_AFTER_S", 0.5, raising=False)
    monkeypatch.setattr(camera_module, "CHECK_EVERY_S", 0.03, raising=False)
    service = usb_camera_service(tmp_path, monkeypatch, StopsAfterFive, lambda kind="pips", **o: OneDie(),
                                 width=64, height=48)
    try:
        wait_for(lambda: service.camera.pipeline.frames == 5, "the five pictures before the read that hangs")
        wait_for(lambda: (service.table.view()["health"].get("camera") or {}).get("state") not in (None, "ok"),
                 "a word on the page: it says nothing, the camera looks fine")
        assert "v4l2-ctl --list-devices" in service.table.view()["health"]["camera"]["message"]
        assert create_app(service).test_client().get("/camera.jpg").status_code == 404
    finally:
        release.set()
        service.stop()


def test_lost_is_not_followed_by_ok_and_stuck_while_the_pipeline_waits_to_start_again():
    """An error out of the pipeline: 'lost, starting it again in 1.5 s'. The watchdog took the frames read
    before the error for new pictures and said 'ok', then 'stuck' while the pipeline waited: the page
    flapped lost, ok, stuck, ok for one restart (found by the review)."""
    camera = ScriptedCamera("usb:0")
    heard: list = []
    feed = glitching_feed(camera, heard, RuntimeError("select() timeout"), at=40, restart_backoff_s=(1.5,))
    glitching = feed.source
    feed.start()
    try:
        wait_for(lambda: glitching.n > 60 and health(heard)[-1].state == "ok",
                 f"frames again after the restart, and 'ok': {[h.state for h in health(heard)]}")
        assert [h.state for h in health(heard)] == ["lost", "ok"], "one word when lost, one when back"
    finally:
        feed.stop()
