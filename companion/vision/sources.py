"""Frame sources: everything that yields `Frame(t, image)` — a camera, a video file, a folder of images or
a recorded session — behind one small interface, chosen by a spec string (`open_source`).

`t` is `time.monotonic_ns()` read once when a live frame is captured; files and folders get timestamps
from their frame rate or a fixed interval, recordings the ones they were recorded with. Images are BGR
uint8, ready for OpenCV.

A live camera (`LiveSource`) that cannot be opened at start raises `CameraMissing` with a message naming
what to check. A camera lost mid-game is reopened with back-off while `CameraHealth` events report
"lost", "reopening" and "ok" again; the frames simply pause, nothing else stops. The clock and sleep are
injectable so this is tested without hardware.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import threading
import time
from pathlib import Path
from typing import Callable, Iterator, Protocol, Sequence

import numpy as np

from ..events import CameraHealth

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
DEFAULT_BACKOFF_S = (0.5, 1.0, 2.0, 5.0)
OPENCV_LOG_LEVEL_SILENT = 0  # cv::utils::logging::LOG_LEVEL_SILENT, the same in OpenCV 4 and 5


@dataclasses.dataclass(frozen=True)
class Frame:
    t: int
    image: np.ndarray


class SourceError(Exception):
    """A source spec or file that cannot be used; the message says why."""


class CameraMissing(SourceError):
    """No camera could be opened at start."""


class CameraSupportMissing(CameraMissing):
    """What drives the camera is not installed (picamera2): plugging a camera in will not help, so it is
    not waited for."""


class CameraFailed(Exception):
    """A camera stopped delivering frames."""


PICAMERA2_HINT = ("check the ribbon cable (seated at both ends, contacts the right way round), that "
                  "`rpicam-hello --list-cameras` lists the camera, that this user is in the `video` group, "
                  "and that no other process (another companion, an rpicam app) holds the camera")
USB_HINT = ("check the USB cable, that `v4l2-ctl --list-devices` lists the camera, that this user is in the "
            "`video` group, and that no other process holds the camera")
NUMPY_CLASH_FIX = ("numpy version conflict: on Bookworm the venv must keep numpy<2 and OpenCV<4.12 (re-run "
                   "sudo systemd/install.sh, which pins them)")


def numpy_clash(exc: BaseException) -> bool:
    """Whether importing Debian's picamera2 failed on the venv's numpy (built for another ABI)."""
    text = str(exc)
    return any(word in text for word in ("numpy", "multiarray", "ABI", "dtype size changed"))


class Camera(Protocol):
    """A live camera: open() raises CameraMissing, read() raises CameraFailed."""

    name: str

    def open(self) -> None: ...

    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class Picamera2Camera:
    """The Raspberry Pi camera through picamera2 (Debian's python3-picamera2, imported only when opened).

    Configured as RGB888, which libcamera lays out as B, G, R bytes: exactly OpenCV's BGR, 3 channels.
    """

    name = "picamera2"
    hint = PICAMERA2_HINT

    def __init__(self, width: int = 1280, height: int = 720, index: int = 0):
        self.width, self.height, self.index = width, height, index
        self._camera = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ModuleNotFoundError as exc:
            what = "picamera2 is not installed" if exc.name == "picamera2" else \
                f"picamera2 cannot be loaded: {exc.name}, which it needs, is missing"
            raise CameraSupportMissing(
                f"{what}: on the Pi run `sudo apt install python3-picamera2` and make the venv with "
                "--system-site-packages (pip cannot install it); or use a USB camera (usb:0)") from None
        except Exception as exc:  # installed, but built for another numpy than the venv's, or broken
            if numpy_clash(exc):
                raise CameraSupportMissing(f"Debian's picamera2 cannot load with this venv's numpy ({exc}): "
                                           f"{NUMPY_CLASH_FIX}") from None
            raise CameraSupportMissing(f"picamera2 is installed but cannot be loaded ({type(exc).__name__}: {exc}): "
                                       "re-run sudo systemd/install.sh; `companion doctor` says more") from None
        try:
            camera = Picamera2(self.index)
            camera.configure(camera.create_preview_configuration(
                main={"format": "RGB888", "size": (self.width, self.height)}))
            camera.start()
        except Exception as exc:  # picamera2 raises IndexError, RuntimeError, OSError for a missing camera
            raise CameraMissing(f"cannot open the Pi camera {self.index} ({exc}): {PICAMERA2_HINT}") from None
        self._camera = camera

    def read(self) -> np.ndarray:
        if self._camera is None:
            raise CameraFailed("the Pi camera is not open")
        try:
            image = self._camera.capture_array()
        except Exception as exc:
            raise CameraFailed(f"the Pi camera stopped delivering frames ({exc})") from None
        return np.ascontiguousarray(image[:, :, :3])

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            except Exception:
                pass
            self._camera = None


@contextlib.contextmanager
def hushed_video_io() -> Iterator[None]:
    """OpenCV's and FFmpeg's own lines for a device or file they cannot open ("can't open camera by index",
    "Camera index out of range", "moov atom not found") would print above the message that names what to
    check, and again at every reopening of a lost camera. So OpenCV logs nothing while a capture opens, and
    FFmpeg nothing at all. Kept for a person who asks for them with OPENCV_LOG_LEVEL or OPENCV_FFMPEG_LOGLEVEL.
    OpenCV 4 (a Bookworm Pi's) has `cv2.getLogLevel`/`setLogLevel`, OpenCV 5 the same in `cv2.utils.logging`;
    with neither, the lines stay and the capture still opens."""
    import cv2

    os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # FFmpeg's AV_LOG_QUIET
    logging = getattr(cv2.utils, "logging", None)
    get_level = getattr(cv2, "getLogLevel", None) or getattr(logging, "getLogLevel", None)
    set_level = getattr(cv2, "setLogLevel", None) or getattr(logging, "setLogLevel", None)
    if "OPENCV_LOG_LEVEL" in os.environ or get_level is None or set_level is None:
        yield
        return
    before = get_level()
    set_level(OPENCV_LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        set_level(before)


# A grab that returns sooner took a picture the driver had queued, not one that came while it waited.
QUEUED_GRAB_S = 0.002
MOST_QUEUED = 8  # OpenCV's V4L2 backend queues 4 buffers (CAP_PROP_BUFFERSIZE); the most it allows is 10


class VideoCaptureCamera:
    """A USB (V4L2) camera through OpenCV's VideoCapture.

    The driver fills its buffers as frames come and a read takes the oldest: a pipeline slower than the camera
    (Banana Matcho's zones on a Pi) would get pictures three reads old, stamped as now. So `read` first throws
    away the pictures queued meanwhile (`grab` returns them at once) and decodes the one it waited for."""

    def __init__(self, index: int, width: int = 1280, height: int = 720,
                 clock: Callable[[], float] = time.monotonic):
        self.index, self.width, self.height = index, width, height
        self.name = f"usb:{index}"
        self.hint = USB_HINT
        self.clock = clock
        self._capture = None

    def open(self) -> None:
        import cv2

        with hushed_video_io():
            capture = cv2.VideoCapture(self.index)
            opened = capture.isOpened()
        if not opened:
            capture.release()
            raise CameraMissing(f"cannot open USB camera {self.index} (/dev/video{self.index}): {USB_HINT}")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        self._capture = capture

    def read(self) -> np.ndarray:
        if self._capture is None:
            raise CameraFailed(f"USB camera {self.index} is not open")
        self._grab_the_newest()
        ok, image = self._capture.retrieve()
        if not ok or image is None:
            raise CameraFailed(f"USB camera {self.index} stopped delivering frames")
        return image

    def _grab_the_newest(self) -> None:
        """Grab until a grab waits for its picture: those returned at once were queued while the pipeline read
        the frame before (grab only takes the buffer; retrieve decodes it)."""
        for _ in range(MOST_QUEUED + 1):
            start = self.clock()
            if not self._capture.grab():
                raise CameraFailed(f"USB camera {self.index} stopped delivering frames")
            if self.clock() - start >= QUEUED_GRAB_S:
                return

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class LiveSource:
    """Frames from a live camera, stamped with the clock as they arrive, reopened with back-off when lost.

    `on_health` receives CameraHealth events; iteration ends only when `stop()` is called. A camera missing
    at start raises CameraMissing, so a command can say what to fix; with `wait_for_camera` (the service)
    it is reported and tried again with the same back-off, so a camera plugged in later is taken up.
    """

    def __init__(self, camera: Camera, *, on_health: Callable[[CameraHealth], None] | None = None,
                 clock: Callable[[], int] = time.monotonic_ns, sleep: Callable[[float], None] = time.sleep,
                 backoff_s: Sequence[float] = DEFAULT_BACKOFF_S, wait_for_camera: bool = False):
        self.camera = camera
        self.on_health = on_health or (lambda event: None)
        self.clock, self.sleep = clock, sleep
        self.backoff_s = tuple(backoff_s)
        self.wait_for_camera = wait_for_camera
        self._stopped = False
        self._stop = threading.Event()
        self._opened = False
        self._attempts = 0  # reopenings since the last frame

    def stop(self) -> None:
        self._stopped = True
        self._stop.set()

    def close(self) -> None:
        self.stop()
        self.camera.close()

    def _health(self, state: str, message: str) -> None:
        self.on_health(CameraHealth(self.clock(), state, message))

    def __iter__(self) -> Iterator[Frame]:
        if not self._opened:
            try:
                self.camera.open()
            except CameraMissing as exc:
                if not self.wait_for_camera or isinstance(exc, CameraSupportMissing):
                    raise
                self._health("missing", f"{exc}; trying again every few seconds")
                self._reopen()
            self._opened = True
        while not self._stopped:
            try:
                image = self.camera.read()
            except Exception as exc:  # CameraFailed, or whatever else a driver raises (cv2.error, a timeout)
                self._health("lost", self._lost(_why(exc)))
                self._reopen()
                continue
            if self._attempts:  # back once a frame comes, not when the device merely opens
                self._health("ok", f"{self.camera.name}: camera back after {self._attempts} attempt(s)")
                self._attempts = 0
            yield Frame(self.clock(), image)

    def _reopen(self) -> None:
        """Close the camera and open it again, waiting longer each time until a frame comes."""
        while not self._stopped:
            self.camera.close()
            self._wait(self.backoff_s[min(self._attempts, len(self.backoff_s) - 1)])
            if self._stopped:
                return
            self._attempts += 1
            self._health("reopening", f"{self.camera.name}: reopening, attempt {self._attempts}")
            try:
                self.camera.open()
            except Exception as exc:  # CameraMissing, or whatever else opening raises
                self._health("lost", str(exc) if isinstance(exc, CameraMissing) else
                             self._lost(f"cannot open it again ({_why(exc)})"))
                continue
            return

    def _lost(self, why: str) -> str:
        hint = getattr(self.camera, "hint", "")
        return f"{self.camera.name}: {why}" + (f": {hint}" if hint else "")

    def _wait(self, seconds: float) -> None:
        if self.sleep is time.sleep:
            self._stop.wait(seconds)  # stop() ends the wait
        else:
            self.sleep(seconds)


def _why(exc: BaseException) -> str:
    text = str(exc)
    return text if isinstance(exc, CameraFailed) else f"{type(exc).__name__}: {text}" if text else type(exc).__name__

class VideoFileSource:
    """Frames of a video file; t advances by the file's frame interval from `t0`."""

    def __init__(self, path: str | Path, t0: int = 0, fallback_fps: float = 30.0):
        self.path = Path(path)
        self.t0 = t0
        self.fallback_fps = fallback_fps

    def __iter__(self) -> Iterator[Frame]:
        import cv2

        try:
            str(self.path).encode("utf-8")
        except UnicodeEncodeError:  # OpenCV's own file reading crashes on such a name
            raise SourceError(f"cannot read video file {os.fsdecode(self.path)!r}: its name is not UTF-8; "
                              "rename it") from None
        with hushed_video_io():
            capture = cv2.VideoCapture(str(self.path))
            opened = capture.isOpened()
        if not opened:
            raise SourceError(f"cannot read video file {self.path}: not a video OpenCV can decode")
        fps = capture.get(cv2.CAP_PROP_FPS) or self.fallback_fps
        try:
            index = 0
            while True:
                ok, image = capture.read()
                if not ok:
                    if index == 0:
                        raise SourceError(f"cannot read video file {self.path}: it holds no frame OpenCV can decode")
                    return
                yield Frame(self.t0 + int(round(index * 1e9 / fps)), image)
                index += 1
        finally:
            capture.release()


class FolderSource:
    """The images of a folder in name order, `interval_ms` apart from `t0`."""

    def __init__(self, path: str | Path, interval_ms: float = 100.0, t0: int = 0):
        self.path = Path(path)
        self.interval_ms = interval_ms
        self.t0 = t0
        self.files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise SourceError(f"folder {self.path} has no images ({', '.join(IMAGE_SUFFIXES)})")

    def __iter__(self) -> Iterator[Frame]:
        from .image_files import read_image

        for index, path in enumerate(self.files):
            image, error = read_image(path)
            if image is None:
                raise SourceError(f"cannot read image {path}: {error}")
            yield Frame(self.t0 + int(round(index * self.interval_ms * 1e6)), image)


def open_source(spec: str, *, width: int = 1280, height: int = 720,
                on_health: Callable[[CameraHealth], None] | None = None,
                clock: Callable[[], int] = time.monotonic_ns, sleep: Callable[[float], None] = time.sleep,
                interval_ms: float = 100.0, realtime: bool = False, rotate: int = 0, wait_for_camera: bool = False):
    """A frame source for `spec`: "picamera2", "usb:N", a video file, a folder of images, or a recording
    directory (one with frames.jsonl). `realtime` paces a recording at its recorded speed. `rotate` turns
    each frame that many degrees clockwise (`rotation.UprightSource`), except a recording's: the companion
    records frames already upright. `wait_for_camera`: see `LiveSource`."""
    source = _open_source(spec, width=width, height=height, on_health=on_health, clock=clock, sleep=sleep,
                          interval_ms=interval_ms, realtime=realtime, wait_for_camera=wait_for_camera)
    if rotate and not getattr(source, "upright", False):
        from .rotation import UprightSource

        return UprightSource(source, rotate)
    return source


def _open_source(spec: str, *, width: int, height: int, on_health, clock, sleep, interval_ms: float, realtime: bool,
                 wait_for_camera: bool):
    if spec == "picamera2":
        return LiveSource(Picamera2Camera(width, height), on_health=on_health, clock=clock, sleep=sleep,
                          wait_for_camera=wait_for_camera)
    if spec.startswith("usb:"):
        try:
            index = int(spec[4:])
        except ValueError:
            raise SourceError(f"bad camera spec {spec!r}: usb:N needs a device number, like usb:0") from None
        return LiveSource(VideoCaptureCamera(index, width, height), on_health=on_health, clock=clock, sleep=sleep,
                          wait_for_camera=wait_for_camera)
    path = Path(spec)
    if not path.exists():
        raise SourceError(f"no camera or file {spec!r}: use picamera2, usb:N, a video file, a folder of images "
                          f"or a recording directory")
    if path.is_dir():
        from .recording import FRAMES_INDEX, RecordingSource

        if (path / FRAMES_INDEX).exists():
            return RecordingSource(path, realtime=realtime, clock=clock, sleep=sleep)
        return FolderSource(path, interval_ms=interval_ms)
    return VideoFileSource(path)
