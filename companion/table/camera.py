"""The camera feature of the service: the vision pipeline (companion.vision.live.DicePipeline) on its own
thread feeding the table, and the pictures the page shows (the annotated live view, a crop of the last
settled roll). Optionally every frame is also written to a recording (companion.vision.recording)."""
from __future__ import annotations

import logging
import threading
import time
import zlib
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..events import CameraHealth, DiceSettled, Event, RecordingHealth, SensorHealth

log = logging.getLogger(__name__)

KEEP_FREE_FOR_GAMES = 512 * 1024 * 1024
STUCK_AFTER_S = 5.0  # a live camera without a new picture this long is stuck (a good one gives several a second)
CHECK_EVERY_S = 1.0  # how often the watchdog looks
RESTART_BACKOFF_S = (1.0, 2.0, 5.0, 10.0, 30.0)  # waits before a live camera's pipeline runs again after an error
PHOTOS_KEPT = 8  # photos of the latest rolls: the page goes back to the roll before after an undo
READ_PATIENCE_S = 0.5  # stop() waits no longer for a frame (a good camera gives one in a fraction of this)
CAMERA_TROUBLE = ("missing", "lost", "reopening")  # what a live source says of its camera while it is trying again


class CameraUnavailable(RuntimeError):
    pass


class TrayNotKept(RuntimeError):
    pass


class CameraFeed:
    """The pipeline's thread, the recording of its frames and the pictures for the page.

    `live`: the source is a camera ("picamera2", "usb:N"; `camera_name` names it on the page). A live
    camera is watched: no new picture for `stuck_after_s` (a read that never returns, as picamera2's
    capture_array can; or the very same picture again and again, bit for bit, where a good camera's
    sensor noise never repeats) is said on the page as "stuck" with what to check, and the live view shows
    no picture meanwhile; "ok" follows when pictures come again. And an error out of the pipeline does not
    end a live camera: it is said ("lost") and the pipeline runs again after `restart_backoff_s`. A file, a
    folder or a recording that fails ends the feed with one word, as it always did."""

    def __init__(self, pipeline, sink: Callable[[Event], Any], recorder=None, tray_choice=None, *,
                 live: bool = False, camera_name: str | None = None, stuck_after_s: float | None = None,
                 check_every_s: float | None = None, restart_backoff_s: Sequence[float] | None = None):
        self.pipeline = pipeline
        self.tray_choice = tray_choice
        self.sink = sink
        self.recorder = recorder
        self.live = live
        self.camera_name = camera_name or "the camera"
        self.stuck_after_s = STUCK_AFTER_S if stuck_after_s is None else stuck_after_s
        self.check_every_s = CHECK_EVERY_S if check_every_s is None else check_every_s
        self.restart_backoff_s = tuple(RESTART_BACKOFF_S if restart_backoff_s is None else restart_backoff_s)
        self._photos: dict[int, bytes] = {}  # the latest rolls' photos by their DiceSettled's t, oldest first
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        # what the camera thread last saw (written there, read by the watchdog)
        self._seen = 0
        self._image = None
        self._waiting_since: float | None = None  # when the camera thread began waiting for the next frame
        # the watchdog's own: frames counted and the picture's fingerprint at its last look, when the
        # picture last changed, and what the feed itself last said ("stuck", "lost"; None: nothing wrong)
        self._looked_seen = 0
        self._looked_print: int | None = None
        self._seen_when_new = 0
        self._last_new = self._quiet_since = time.monotonic()
        self._said: str | None = None
        self._said_at = 0.0
        self._camera_trouble = False  # the source itself says the camera is missing, lost or reopening
        self._restarting = False  # the pipeline waits to run again after an error: no picture is due
        self._seen_at_said = 0  # frames seen when the feed last spoke: "ok" needs one after it
        pipeline.on_event = self._on_event
        self.source = pipeline.source  # the source itself: stopped by stop(), whatever wraps it
        if self.source is not None and (recorder is not None or live):
            pipeline.source = _FeedFrames(self, self.source)
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._watchdog = threading.Thread(target=self._watch, name="camera watchdog", daemon=True) if live else None

    def start(self) -> "CameraFeed":
        self._last_new = self._quiet_since = time.monotonic()
        self._thread.start()
        if self._watchdog is not None:
            self._watchdog.start()
        return self

    def _run(self) -> None:
        attempt, frames = 0, self.pipeline.frames
        while not self._stopping.is_set():
            try:
                self.pipeline.run()
                return
            except Exception as exc:  # the camera thread may fail; the table and the page carry on
                why = str(exc) or type(exc).__name__
                if not self.live or _support_missing(exc):
                    log.warning("the camera stopped: %s", why)
                    # Said as the feed's own word, so that the watchdog does not call the camera that never
                    # started "stuck" (the ribbon cable) 5 s later over the cause named here.
                    self._say("missing", f"no camera: {why}. Type the dice on the page instead.")
                    return
                if self._stopping.is_set():
                    return
                if self.pipeline.frames != frames:  # it ran a while: a new trouble, tried again soon
                    attempt, frames = 0, self.pipeline.frames
                wait = self.restart_backoff_s[min(attempt, len(self.restart_backoff_s) - 1)]
                attempt += 1
                log.warning("the camera stopped (%s); starting it again in %g s", why, wait, exc_info=exc)
                with self._lock:
                    self._restarting = True
                self._say("lost", f"{self.camera_name}: the camera stopped ({why}); starting it again in "
                                  f"{wait:g} s. If it keeps stopping, {self._hint()}. Type the dice on the page "
                                  "meanwhile.")
                if self._stopping.wait(wait):
                    return

    def _frames(self, source: Iterable[Any]) -> Iterator[Any]:
        """The source's frames, each noted for the watchdog and written to the recording if there is one.

        A live camera's picture bit for bit the same as the one before is a frozen camera repeating itself,
        not the tray now (a good camera's sensor noise never repeats, even over a still tray): it is counted
        for the watchdog but neither read nor recorded, so the dice zones go stale and a squeak is asked on
        the page instead of judged on a picture seconds old; a replay of the recording does the same."""
        frames = iter(source)
        last_print: int | None = None
        while True:
            self._waiting_since = time.monotonic()  # for stop(): a read that never returns is not waited for
            try:
                frame = next(frames)
            except StopIteration:
                return
            finally:
                self._waiting_since = None
            with self._lock:
                self._seen += 1
                self._restarting = False
                self._image = frame.image
            if self.live:
                fingerprint = _fingerprint(frame.image)
                if fingerprint == last_print:
                    continue
                last_print = fingerprint
            if self.recorder is not None and not self._stopping.is_set():  # closed by stop()
                try:
                    self.recorder.write(frame)
                except (OSError, ValueError) as exc:
                    self._stop_recording(frame.t, exc)
            yield frame

    # -- the watchdog ---------------------------------------------------------------------------------

    def _watch(self) -> None:
        while not self._stopping.wait(self.check_every_s):
            try:
                self._look()
            except Exception:  # the watchdog must not end over one odd frame
                log.exception("the camera watchdog could not look at the camera")

    def _look(self) -> None:
        """One look: did a new picture come since the last look? Says "stuck" when none came for
        stuck_after_s, and "ok" when one comes after the feed said "stuck" or "lost"."""
        with self._lock:
            seen, image = self._seen, self._image
        now = time.monotonic()
        if seen != self._looked_seen and image is not None:
            fingerprint = _fingerprint(image)
            if fingerprint != self._looked_print:
                with self._lock:
                    self._last_new = self._quiet_since = now
                    self._seen_when_new = seen
            self._looked_seen, self._looked_print = seen, fingerprint
        with self._lock:
            said, trouble = self._said, self._camera_trouble or self._restarting
            if said is not None and self._last_new > self._said_at and seen > self._seen_at_said:
                self._say_locked("ok", f"{self.camera_name}: pictures again")
            elif (said is None and not trouble and not self._stopping.is_set()
                    and now - self._quiet_since >= self.stuck_after_s):
                quiet = now - self._quiet_since
                if seen != self._seen_when_new:
                    what = f"the very same picture for {quiet:.0f} s, bit for bit (frozen)"
                else:
                    what = f"no new picture for {quiet:.0f} s (the camera hangs)"
                log.warning("%s: %s", self.camera_name, what)
                self._say_locked("stuck", f"{self.camera_name}: {what}: {self._hint()}; if it stays so, restart "
                                          "the companion. Type the dice on the page meanwhile.")

    def _say(self, state: str, message: str) -> None:
        with self._lock:
            self._say_locked(state, message)

    def _say_locked(self, state: str, message: str) -> None:
        """A word of the feed's own on the camera's health (under the lock, so "ok" never overtakes)."""
        self._said = None if state == "ok" else state
        self._said_at = time.monotonic()
        self._seen_at_said = self._seen
        self.sink(CameraHealth(t=time.monotonic_ns(), state=state, message=message))

    def _hint(self) -> str:
        try:
            from ..vision.sources import PICAMERA2_HINT, USB_HINT
        except ModuleNotFoundError:
            return "check the camera and its cable"
        if self.camera_name == "picamera2":
            return PICAMERA2_HINT
        if self.camera_name.startswith("usb:"):
            return USB_HINT
        return "check the camera and its cable"

    def _stale(self) -> bool:
        """A live camera without a new picture for stuck_after_s: its last picture is not shown as live."""
        return self._watchdog is not None and time.monotonic() - self._last_new > self.stuck_after_s

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
        if isinstance(event, CameraHealth) and event.state in CAMERA_TROUBLE + ("ok",):
            with self._lock:  # the source speaks for itself: the watchdog waits for it
                self._camera_trouble = event.state in CAMERA_TROUBLE
                self._quiet_since = time.monotonic()
        if isinstance(event, DiceSettled) and event.dice:
            self._keep_photo(event)
        self.sink(event)

    def _keep_photo(self, event: DiceSettled) -> None:
        photo = self._crop(event)
        if photo is None:
            return
        with self._lock:
            self._photos[event.t] = photo
            while len(self._photos) > PHOTOS_KEPT:
                del self._photos[next(iter(self._photos))]

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
        """The live view; None before the first frame, and while a live camera gives no new picture."""
        if self._stale():
            return None
        return self.pipeline.latest_jpeg()

    def reading_jpeg(self, t: int | None = None) -> bytes | None:
        """The photo of the roll settled at `t` (the page's last reading), None if none is kept; with no `t`, the
        newest roll's. Asked by its time, so a page back at the roll before (an undo) is not shown the newest."""
        with self._lock:
            if t is not None:
                return self._photos.get(t)
            return self._photos[next(reversed(self._photos))] if self._photos else None

    def read_pip_dice(self, on: bool) -> None:
        """Whether the game on the table takes pip dice: if not, none are read (DicePipeline.read_pip_dice)."""
        self.pipeline.read_pip_dice(on)

    @property
    def tray(self) -> tuple[int, int, int, int] | None:
        """The tray set by hand that is read in; None: found on its own."""
        return self.pipeline.tray

    def set_tray(self, box: tuple[int, int, int, int] | None) -> None:
        """The tray region in pixels, used from the next frame on and kept for the next start; None: "auto",
        found on its own. Raises TrayNotKept when it is used but could not be kept."""
        self.pipeline.set_tray(box)
        not_kept = []
        if self.tray_choice is not None:
            try:
                self.tray_choice.save(box)
            except OSError as exc:
                not_kept.append(f"it could not be kept for the next start ({exc.strerror or exc}); set it again "
                                "after a restart")
        try:
            self._record_tray(box)
        except OSError as exc:
            not_kept.append(f"the recording could not note it ({exc.strerror or exc}): `companion replay --frames` "
                            "re-reads its frames with the tray noted before")
        if not_kept:
            raise TrayNotKept("the tray is set, but " + "; and ".join(not_kept))

    def _record_tray(self, box) -> None:
        setup = getattr(self, "camera_setup", None)
        if setup is not None and self.recorder is not None:
            from dataclasses import replace

            from ..vision.tray import tray_text
            from .reread import write_camera_setup

            self.camera_setup = replace(setup, tray=tray_text(box))
            write_camera_setup(self.recorder.directory, self.camera_setup)

    def stop(self) -> None:
        self._stopping.set()
        self.pipeline.stop()
        stop_source = getattr(self.source, "stop", None)  # what wraps it (the recording) has no stop of its own
        if stop_source is not None:
            stop_source()
        if self._thread.ident is not None:
            self._join_camera_thread()
        if self._watchdog is not None and self._watchdog.ident is not None:
            self._watchdog.join(1)
        if self.recorder is not None:
            self.recorder.close()

    def _join_camera_thread(self, timeout_s: float = 3.0) -> None:
        """Waits for the camera thread to end, but not for a read that hangs (a stuck picamera2's
        capture_array returns never): a camera that gives nothing for READ_PATIENCE_S is left behind, its
        thread a daemon."""
        deadline = time.monotonic() + timeout_s
        while self._thread.is_alive() and time.monotonic() < deadline:
            waiting = self._waiting_since
            if waiting is not None and time.monotonic() - waiting > READ_PATIENCE_S:
                log.warning("%s hangs in its read: stopped without waiting for it", self.camera_name)
                return
            self._thread.join(0.05)


class _FeedFrames:
    """The source's frames through the feed (CameraFeed._frames): iterable again, as the source is (a live
    camera's pipeline runs again after an error), and stopped with it."""

    def __init__(self, feed: CameraFeed, source: Iterable[Any]):
        self.feed, self.source = feed, source

    def __iter__(self) -> Iterator[Any]:
        return self.feed._frames(self.source)

    def stop(self) -> None:
        getattr(self.source, "stop", lambda: None)()


FINGERPRINT_STEP = 4  # every 4th row and column: 1/16 of the pixels, each of which a real camera's noise changes


def _fingerprint(image) -> int:
    """A cheap fingerprint of a frame: the same when a camera repeats a picture bit for bit. It checks every
    4th row and column, which a live camera's sensor noise changes in every new frame, in 0.09 ms a 1280x720
    frame here (the whole frame took 0.7 ms, ten times that when not contiguous: some 3 ms on a Pi)."""
    import numpy as np

    sample = image[::FINGERPRINT_STEP, ::FINGERPRINT_STEP]
    planes = np.moveaxis(sample, -1, 0) if sample.ndim == 3 else sample  # a copy by planes: 5x quicker than pixels
    return zlib.crc32(np.ascontiguousarray(planes).data)


def _support_missing(exc: Exception) -> bool:
    """What drives the camera is not installed: starting again will not help."""
    try:
        from ..vision.sources import CameraSupportMissing
    except ModuleNotFoundError:
        return False
    return isinstance(exc, CameraSupportMissing)


def open_camera(settings, sink: Callable[[Event], Any], record_dir=None, last_roll: Iterable[Any] = (),
                pip_dice: bool = True, zones_read: bool = True) -> CameraFeed:
    """The camera the settings name (camera.source), reading pip dice, started. Raises with a message
    naming what to check when there is no camera. `last_roll`: the dice (DieReadings) the game in play
    read last, which still lying in the tray after a restart are not the next roll; `pip_dice`: whether
    the game in play takes pip dice (if not, none are read from the first frame on); `zones_read`: whether
    the dice zones (camera.zones) are read from the first frame (see DicePipeline.read_zones)."""
    from ..cli import is_live_camera

    try:
        from ..vision.live import DicePipeline
        from ..vision.readers import get_reader
        from ..vision.tray import BadTray, tray_text
        from .tray_choice import TrayChoice
    except ModuleNotFoundError as exc:
        raise CameraUnavailable(f"the camera pipeline is not part of this build ({exc.name} is missing)") from None
    camera = settings["camera"]
    tray_choice = TrayChoice(settings.state_dir, camera["tray"])
    try:
        tray = tray_choice.current()
    except BadTray as exc:
        raise CameraUnavailable(f"setting camera.tray is {exc.text!r}: {exc.problem}; fix it in the settings "
                                "file and restart the companion (`companion doctor` checks it)") from None
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
    pipeline.read_pip_dice(pip_dice)
    pipeline.read_zones(zones_read)
    spec = camera["source"]
    feed = CameraFeed(pipeline, sink, recorder, tray_choice, live=is_live_camera(spec), camera_name=spec)
    if record_dir is not None:
        from .reread import CameraSetup, write_camera_setup

        feed.camera_setup = CameraSetup("pips", tray_text(tray), camera["zones"], camera["settle_ms"])
        try:
            write_camera_setup(record_dir, feed.camera_setup)  # so `companion replay --frames` reads as live did
        except OSError as exc:  # a full or read-only card: the dice are read all the same
            feed._stop_recording(time.monotonic_ns(), exc)
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
