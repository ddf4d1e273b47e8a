"""The camera feature of the service: the vision pipeline (companion.vision.live.DicePipeline) on its own
thread feeding the table, and the pictures the page shows (the annotated live view, a crop of the last
settled roll). Optionally every frame is also written to a recording (companion.vision.recording)."""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable, Iterable, Iterator

from ..events import CameraHealth, DiceSettled, Event, RecordingHealth, SensorHealth

log = logging.getLogger(__name__)

KEEP_FREE_FOR_GAMES = 512 * 1024 * 1024


class CameraUnavailable(RuntimeError):
    pass


class TrayNotKept(RuntimeError):
    pass


class CameraFeed:
    def __init__(self, pipeline, sink: Callable[[Event], Any], recorder=None, tray_choice=None):
        self.pipeline = pipeline
        self.tray_choice = tray_choice
        self.sink = sink
        self.recorder = recorder
        self._reading_jpeg: bytes | None = None
        pipeline.on_event = self._on_event
        if recorder is not None:
            pipeline.source = self._recorded(pipeline.source)
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> "CameraFeed":
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            self.pipeline.run()
        except Exception as exc:  # the camera thread may die; the table and the page carry on
            log.warning("the camera stopped: %s", exc)
            self.sink(CameraHealth(t=time.monotonic_ns(), state="missing",
                                   message=f"no camera: {exc}. Type the dice on the page instead."))

    def _recorded(self, frames: Iterable[Any]) -> Iterator[Any]:
        for frame in frames:
            if self.recorder is not None:
                try:
                    self.recorder.write(frame)
                except (OSError, ValueError) as exc:
                    self._stop_recording(frame.t, exc)
            yield frame

    def _stop_recording(self, t: int, why: Exception) -> None:
        """Frames that cannot be recorded (the card nearly full, a camera back at another size) stop the
        recording of frames; the camera goes on reading the dice."""
        recorder, self.recorder = self.recorder, None
        try:
            recorder.close()
        except OSError:
            pass
        log.warning("the recording of camera frames stopped: %s", why)
        self.sink(RecordingHealth(t=t, state="stopped", message=f"the camera's frames are no longer recorded "
                                                                f"({why}); the dice are still read"))

    def _on_event(self, event: Event) -> None:
        if isinstance(event, DiceSettled) and event.dice:
            self._reading_jpeg = self._crop(event)
        self.sink(event)

    def _crop(self, event: DiceSettled) -> bytes | None:
        import cv2
        import numpy as np

        jpeg = self.pipeline.latest_jpeg()
        if jpeg is None:
            return None
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        h, w = image.shape[:2]
        width = self.pipeline.frame_width() or w
        scale = w / width  # the live view is shrunk for phones (960 wide); the boxes are the camera's pixels
        x0 = scale * min(d.box[0] for d in event.dice)
        y0 = scale * min(d.box[1] for d in event.dice)
        x1 = scale * max(d.box[2] for d in event.dice)
        y1 = scale * max(d.box[3] for d in event.dice)
        margin = 0.25 * max(x1 - x0, y1 - y0, 40 * scale)
        crop = image[max(0, int(y0 - margin)):min(h, int(y1 + margin)), max(0, int(x0 - margin)):min(w, int(x1 + margin))]
        ok, data = cv2.imencode(".jpg", crop if crop.size else image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None

    def latest_jpeg(self) -> bytes | None:
        return self.pipeline.latest_jpeg()

    def reading_jpeg(self) -> bytes | None:
        return self._reading_jpeg

    @property
    def tray(self) -> tuple[int, int, int, int] | None:
        """The tray set by hand that is read in; None: found on its own."""
        return self.pipeline.tray

    def set_tray(self, box: tuple[int, int, int, int] | None) -> None:
        """The tray region in pixels, used from the next frame on and kept for the next start; None: "auto",
        found on its own. Raises TrayNotKept when it is used but could not be kept."""
        self.pipeline.set_tray(box)
        self._record_tray(box)
        if self.tray_choice is not None:
            try:
                self.tray_choice.save(box)
            except OSError as exc:
                raise TrayNotKept(f"the tray is set, but it could not be kept for the next start "
                                  f"({exc.strerror or exc}); set it again after a restart") from None

    def _record_tray(self, box) -> None:
        setup = getattr(self, "camera_setup", None)
        if setup is not None and self.recorder is not None:
            from dataclasses import replace

            from ..vision.tray import tray_text
            from .reread import write_camera_setup

            self.camera_setup = replace(setup, tray=tray_text(box))
            write_camera_setup(self.recorder.directory, self.camera_setup)

    def stop(self) -> None:
        self.pipeline.stop()
        self._thread.join(3)
        if self.recorder is not None:
            self.recorder.close()


def open_camera(settings, sink: Callable[[Event], Any], record_dir=None, last_roll: Iterable[Any] = ()) -> CameraFeed:
    """The camera the settings name (camera.source), reading pip dice, started. Raises with a message
    naming what to check when there is no camera. `last_roll`: the dice (DieReadings) the game in play
    read last, which still lying in the tray after a restart are not the next roll."""
    try:
        from ..vision.live import DicePipeline
        from ..vision.readers import get_reader
        from ..vision.tray import tray_text
        from .tray_choice import TrayChoice
    except ModuleNotFoundError as exc:
        raise CameraUnavailable(f"the camera pipeline is not part of this build ({exc.name} is missing)") from None
    camera = settings["camera"]
    tray_choice = TrayChoice(settings.state_dir, camera["tray"])
    tray = tray_choice.current()
    recorder = None
    if record_dir is not None:
        from ..vision.recording import FrameRecorder

        recorder = FrameRecorder(record_dir, keep_free=KEEP_FREE_FOR_GAMES)
    pipeline = DicePipeline.from_spec(camera["source"], get_reader("pips"), width=camera["width"],
                                      height=camera["height"], rotate=camera["rotate"], wait_for_camera=True,
                                      settle_ms=camera["settle_ms"],
                                      tray=tray, auto_tray=True,
                                      zones=dice_zones(settings, sink),
                                      on_event=sink)
    pipeline.remember_roll(last_roll)
    feed = CameraFeed(pipeline, sink, recorder, tray_choice)
    if record_dir is not None:
        from .reread import CameraSetup, write_camera_setup

        feed.camera_setup = CameraSetup("pips", tray_text(tray), camera["zones"], camera["settle_ms"])
        write_camera_setup(record_dir, feed.camera_setup)  # so `companion replay --frames` reads as live did
    return feed.start()


def dice_zones(settings, sink: Callable[[Event], Any]):
    """Banana Matcho's zones (camera.zones) with the readers of the dice taught in the state directory.

    Zones that cannot be read (a malformed setting, dice not taught yet) are switched off with a message
    on the page; pip dice are read all the same."""
    text = settings["camera"]["zones"].strip()
    if not text:
        return ()
    from ..vision.readers import get_zone_reader
    from ..vision.zones import ZoneTracker, parse_zone

    try:
        zones = [parse_zone(part.strip()) for part in text.split(";") if part.strip()]
        return ZoneTracker(zones, make_reader=lambda kind: get_zone_reader(kind, settings.state_dir))
    except Exception as exc:
        message = f"the Banana Matcho dice zones are off: {exc}. Squeaks will be asked on the page."
        log.warning(message)
        sink(SensorHealth(t=time.monotonic_ns(), sensor="dice zones", state="error", message=message))
        return ()
