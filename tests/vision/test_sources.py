import itertools

import cv2
import numpy as np
import pytest

from companion.events import CameraHealth
from companion.vision.recording import FrameRecorder, RecordingSource
from companion.vision.sources import (CameraFailed, CameraMissing, CameraSupportMissing, FolderSource, Frame,
                                      LiveSource, SourceError, VideoFileSource, open_source)
from tests.waiting import wait_for


class FakeCamera:
    """A camera that follows a script: each read() is an image, or "fail"; each open() after the first
    succeeds only when `opens` says so."""

    name = "fake"

    def __init__(self, reads, opens=()):
        self.reads = iter(reads)
        self.opens = iter(opens)
        self.first_open = True
        self.is_open = False

    def open(self):
        if not self.first_open and not next(self.opens, True):
            raise CameraMissing("fake camera still gone: check the cable")
        self.first_open = False
        self.is_open = True

    def read(self):
        item = next(self.reads, None)
        if item is None:
            raise CameraFailed("script over")
        if isinstance(item, str):
            self.is_open = False
            raise CameraFailed("cable pulled")
        return item

    def close(self):
        self.is_open = False


def image(value):
    return np.full((4, 6, 3), value, np.uint8)


def counting_clock(step=1_000_000):
    counter = itertools.count(1)
    return lambda: next(counter) * step


def test_a_lost_camera_is_reopened_with_backoff_and_frames_carry_on():
    camera = FakeCamera([image(1), image(2), "fail", image(3), image(4)], opens=[False, False, True])
    health, sleeps = [], []
    source = LiveSource(camera, on_health=health.append, clock=counting_clock(), sleep=sleeps.append,
                        backoff_s=(0.5, 1.0, 2.0))
    frames = []
    for frame in source:
        frames.append(frame)
        if len(frames) == 4:
            source.stop()
    assert [int(f.image[0, 0, 0]) for f in frames] == [1, 2, 3, 4]
    assert [f.t for f in frames] == sorted(f.t for f in frames)
    assert sleeps == [0.5, 1.0, 2.0]
    assert [h.state for h in health] == ["lost", "reopening", "lost", "reopening", "lost", "reopening", "ok"]
    assert all(isinstance(h, CameraHealth) and h.message for h in health)
    assert "cable pulled" in health[0].message


def test_backoff_stays_at_its_longest_step():
    camera = FakeCamera([image(1), "fail", image(2)], opens=[False] * 5 + [True])
    sleeps = []
    source = LiveSource(camera, clock=counting_clock(), sleep=sleeps.append, backoff_s=(0.5, 2.0))
    frames = list(itertools.islice(source, 2))
    assert len(frames) == 2
    assert sleeps == [0.5, 2.0, 2.0, 2.0, 2.0, 2.0]


@pytest.mark.parametrize("glitch", [cv2.error("VIDIOC_DQBUF: No such device"), RuntimeError("select() timeout"),
                                    MemoryError()])
def test_any_error_a_driver_raises_is_a_lost_camera_reopened_not_the_end_of_the_camera(glitch):
    class Glitching(FakeCamera):
        hint = "check the USB cable"

        def read(self):
            item = next(self.reads, None)
            if isinstance(item, BaseException):
                raise item
            return super().read() if item is None else item

    health = []
    source = LiveSource(Glitching([image(1), glitch, image(2)]), on_health=health.append, clock=counting_clock(),
                        sleep=lambda s: None)
    frames = list(itertools.islice(source, 2))
    assert [int(f.image[0, 0, 0]) for f in frames] == [1, 2]
    assert [h.state for h in health] == ["lost", "reopening", "ok"]
    assert type(glitch).__name__ in health[0].message and "check the USB cable" in health[0].message


def test_a_camera_that_opens_but_gives_no_frame_is_not_called_back_and_waits_longer_each_time():
    camera = FakeCamera([image(1), "fail", "fail", "fail", image(2)], opens=[True] * 5)
    health, sleeps = [], []
    source = LiveSource(camera, on_health=health.append, clock=counting_clock(), sleep=sleeps.append,
                        backoff_s=(0.5, 1.0, 2.0))
    assert len(list(itertools.islice(source, 2))) == 2
    assert sleeps == [0.5, 1.0, 2.0], "the back-off grows until a frame comes"
    assert [h.state for h in health].count("ok") == 1 and health[-1].state == "ok"
    assert "after 3 attempt(s)" in health[-1].message


def test_stopping_a_source_ends_its_wait_between_reopenings():
    import threading

    camera = FakeCamera([image(1), "fail"], opens=[False] * 100)
    health = []
    source = LiveSource(camera, on_health=health.append, clock=counting_clock(), backoff_s=(60.0,))
    iterator = iter(source)
    next(iterator)
    waiting = threading.Thread(target=lambda: next(iterator, None), daemon=True)
    waiting.start()
    wait_for(lambda: any(h.state == "lost" for h in health), "'lost' before the wait to reopen the camera")
    source.stop()
    wait_for(lambda: not waiting.is_alive(), "stop() to end the 60 s wait between reopenings")


@pytest.mark.parametrize("error, said", [
    (ImportError("numpy.core.multiarray failed to import"), "numpy version conflict"),
    (ValueError("numpy.dtype size changed, may indicate binary incompatibility"), "numpy version conflict"),
    (ModuleNotFoundError("No module named 'libcamera'", name="libcamera"), "libcamera, which it needs, is missing"),
])
def test_a_picamera2_that_is_installed_but_cannot_load_is_not_called_missing(monkeypatch, error, said):
    import builtins

    real_import = builtins.__import__

    def importing(name, *args, **kwargs):
        if name == "picamera2":
            raise error
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", importing)
    with pytest.raises(CameraSupportMissing) as refused:
        next(iter(open_source("picamera2")))
    assert said in str(refused.value) and "is not installed" not in str(refused.value)


def test_a_camera_missing_at_start_says_what_to_check():
    class Missing(FakeCamera):
        def open(self):
            raise CameraMissing("cannot open the Pi camera 0: check the ribbon cable")
    with pytest.raises(CameraMissing, match="ribbon cable"):
        next(iter(LiveSource(Missing([]))))


def test_picamera2_without_the_debian_package_names_it():
    try:
        import picamera2  # noqa: F401
        pytest.skip("picamera2 is installed here")
    except ImportError:
        pass
    with pytest.raises(CameraMissing, match="python3-picamera2.*system-site-packages"):
        next(iter(open_source("picamera2")))


def test_a_usb_camera_that_is_not_there_names_what_to_check():
    with pytest.raises(CameraMissing, match=r"cannot open USB camera 63 \(/dev/video63\).*`video` group"):
        next(iter(open_source("usb:63")))


@pytest.mark.parametrize("spec, message", [("usb:zero", "usb:N needs a device number"),
                                           ("/nonexistent/video.mkv", "no camera or file")])
def test_bad_specs_are_refused_by_name(spec, message):
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_a_folder_of_images_in_name_order_at_a_fixed_interval(tmp_path):
    for i, name in enumerate(["b.png", "a.png", "c.jpg"]):
        cv2.imwrite(str(tmp_path / name), np.full((10, 12, 3), 40 * (i + 1), np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    frames = list(open_source(str(tmp_path), interval_ms=50))
    assert [f.t for f in frames] == [0, 50_000_000, 100_000_000]
    assert [int(f.image[0, 0, 0]) for f in frames[:2]] == [80, 40]
    assert frames[0].image.shape == (10, 12, 3)


def test_a_broken_image_in_a_folder_is_named_with_why(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((10, 12, 3), np.uint8))
    (tmp_path / "b.jpg").write_bytes(b"half a photo")
    frames = iter(FolderSource(tmp_path))
    assert next(frames).image.shape == (10, 12, 3)
    with pytest.raises(SourceError, match=r"b\.jpg: cannot decode as an image"):
        next(frames)


def test_an_empty_folder_is_refused(tmp_path):
    with pytest.raises(SourceError, match="has no images"):
        FolderSource(tmp_path)


def test_a_video_file_plays_at_its_frame_rate(tmp_path):
    path = tmp_path / "clip.mkv"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"FFV1"), 10, (16, 12))
    for value in (10, 20, 30):
        writer.write(np.full((12, 16, 3), value, np.uint8))
    writer.release()
    frames = list(open_source(str(path)))
    assert [f.t for f in frames] == [0, 100_000_000, 200_000_000]
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30]


def test_a_file_that_is_not_a_video_is_refused(tmp_path):
    path = tmp_path / "x.mkv"
    path.write_text("nope")
    with pytest.raises(SourceError, match="cannot read video file"):
        list(VideoFileSource(path))


def test_a_file_that_opens_but_holds_no_frame_is_refused(tmp_path):
    path = tmp_path / "x.jpg"  # OpenCV opens it as a one-picture video, then reads nothing
    path.write_text("not a picture")
    with pytest.raises(SourceError, match="holds no frame"):
        list(open_source(str(path)))


def test_a_recording_directory_opens_as_a_recording(tmp_path):
    with FrameRecorder(tmp_path / "session", fmt="png") as recorder:
        recorder.write(Frame(5, image(7)))
    source = open_source(str(tmp_path / "session"))
    assert isinstance(source, RecordingSource)
    assert [(f.t, int(f.image[0, 0, 0])) for f in source] == [(5, 7)]


@pytest.mark.parametrize("api", ["opencv4", "opencv5", "neither"])
def test_opencv_is_hushed_while_a_capture_opens_through_whichever_calls_its_version_has(monkeypatch, api):
    """OpenCV 4, as a Bookworm Pi installs it, has `cv2.getLogLevel`/`setLogLevel` and no `cv2.utils.logging`;
    OpenCV 5 the other way round. Calling the missing one broke every camera and video source on OpenCV 4."""
    import os
    import sys
    import types

    from companion.vision.sources import hushed_video_io

    level = [3]
    calls = dict(getLogLevel=lambda: level[0], setLogLevel=lambda value: level.__setitem__(0, value))
    fake = types.SimpleNamespace(utils=types.SimpleNamespace())
    if api == "opencv4":
        vars(fake).update(calls)
    elif api == "opencv5":
        fake.utils.logging = types.SimpleNamespace(**calls)
    monkeypatch.setitem(sys.modules, "cv2", fake)
    monkeypatch.delenv("OPENCV_LOG_LEVEL", raising=False)
    monkeypatch.delenv("OPENCV_FFMPEG_LOGLEVEL", raising=False)
    with hushed_video_io():
        assert level == ([3] if api == "neither" else [0])
        assert os.environ["OPENCV_FFMPEG_LOGLEVEL"] == "-8"
    assert level == [3]
    monkeypatch.setenv("OPENCV_LOG_LEVEL", "INFO")
    with hushed_video_io():
        assert level == [3]


def test_the_service_waits_for_a_camera_missing_at_start_and_takes_it_up_once_plugged_in():
    class PluggedInLater(FakeCamera):
        def __init__(self):
            super().__init__([image(7), image(8)])
            self.tries = 0

        def open(self):
            self.tries += 1
            if self.tries < 3:
                raise CameraMissing("cannot open USB camera 0 (/dev/video0): check the USB cable")
            self.is_open = True

    health, sleeps = [], []
    source = LiveSource(PluggedInLater(), on_health=health.append, clock=counting_clock(), sleep=sleeps.append,
                        backoff_s=(0.5, 1.0), wait_for_camera=True)
    frames = list(itertools.islice(source, 2))
    assert [int(f.image[0, 0, 0]) for f in frames] == [7, 8]
    assert sleeps == [0.5, 1.0]
    assert [h.state for h in health] == ["missing", "reopening", "lost", "reopening", "ok"]
    assert health[0].message == ("cannot open USB camera 0 (/dev/video0): check the USB cable; "
                                 "trying again every few seconds")


def test_a_camera_whose_driver_is_not_installed_is_not_waited_for():
    class NoDriver(FakeCamera):
        def open(self):
            raise CameraSupportMissing("picamera2 is not installed: sudo apt install python3-picamera2")

    sleeps = []
    with pytest.raises(CameraSupportMissing, match="python3-picamera2"):
        next(iter(LiveSource(NoDriver([]), sleep=sleeps.append, wait_for_camera=True)))
    assert sleeps == []


def test_a_source_stopped_while_it_waits_for_its_camera_says_nothing_more():
    class NeverThere(FakeCamera):
        def open(self):
            raise CameraMissing("cannot open USB camera 0 (/dev/video0): check the USB cable")

    health = []
    source = LiveSource(NeverThere([]), on_health=health.append, clock=counting_clock(),
                        sleep=lambda s: source.stop(), wait_for_camera=True)
    assert list(source) == []
    assert [h.state for h in health] == ["missing"]
