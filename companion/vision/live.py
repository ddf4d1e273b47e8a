"""The live read loop: frame source -> reader -> settle (and zones) -> events.

`DicePipeline` is what the live table runs in its camera thread: it turns every frame into events
(DiceSettled once per roll, ZoneState per zone per frame, CameraHealth from the source), hands them to a
callback, and keeps the latest frame with its readings for the page's live view (JPEG made on request).
`run_camera` is `companion read --camera SPEC`: one line per settled roll.
"""
from __future__ import annotations

import json
import logging
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterable, TextIO

from ..events import CameraHealth, DiceSettled, DieReading, Event, SensorHealth, ZoneState
from .settle import Box, MotionSettings, Reader, SettleDetector
from .sources import Frame
from .tray import crop_to_tray, tray_text
from .tray_finder import AutoTray, FoundTrayReader
from .zones import Zone, ZoneTracker

log = logging.getLogger(__name__)
FAILED_FRAMES_TOLD = 3  # frames in a row that could not be read before the page is told
# The live view is drawn and encoded on one thread, whichever of the page's 24 worker threads asks: OpenCV keeps
# a few MB of buffers for each thread it ever ran on, so pages' requests served by every worker in turn grew the
# service by ~6 MB a minute for half an hour (an evening's run with a phone asking every few seconds).
_LIVE_VIEW_ENCODER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-view-jpeg")


class DicePipeline:
    """One camera's worth of dice reading. Call `process(frame)` per frame, or `run()` over the source."""

    def __init__(self, source: Iterable[Frame] | None, reader: Reader | None, *, settle_ms: float = 300,
                 tray: Box | None = None, zones: Iterable[Zone] | ZoneTracker = (),
                 on_event: Callable[[Event], None] | None = None, motion: MotionSettings = MotionSettings(),
                 auto_tray: bool = False):
        self.source = source
        self.settle = SettleDetector(reader, settle_ms=settle_ms, tray=tray, motion=motion) if reader is not None else None
        self._reader = reader
        self._finds_tray = auto_tray
        self.auto_tray: AutoTray | None = None
        self._tray_outside: str | None = None
        self._zones_outside = False  # the page was told that zones lie outside the picture
        self.set_tray(tray)
        self.zones = zones if isinstance(zones, ZoneTracker) else (ZoneTracker(zones) if zones else None)
        self.reading_zones = True
        self.on_event = on_event or (lambda event: None)
        self.frames = 0
        self._size: tuple[int, ...] | None = None
        self._failed_frames = 0
        self._lock = threading.Lock()
        self._latest: Frame | None = None
        self._shown: tuple[DieReading, ...] = ()
        self._zone_dice: tuple[DieReading, ...] = ()
        self._moving = False
        self._jpeg: tuple[int, bytes] | None = None
        self._stop = threading.Event()

    @classmethod
    def from_spec(cls, spec: str, reader: Reader | None, *, width: int = 1280, height: int = 720,
                  realtime: bool = False, rotate: int = 0, wait_for_camera: bool = False,
                  **options) -> "DicePipeline":
        """A pipeline over `open_source(spec)` whose camera-health events go to the same callback; `rotate`
        turns the frames upright first, so the tray, the zones and the live view are all upright."""
        from .sources import open_source

        pipeline = cls(None, reader, **options)
        pipeline.source = open_source(spec, width=width, height=height, on_health=pipeline.emit, realtime=realtime,
                                      rotate=rotate, wait_for_camera=wait_for_camera)
        return pipeline

    def emit(self, event: Event) -> None:
        self.on_event(event)

    def remember_roll(self, dice) -> None:
        """The dice of the roll the game played last: lying still in the tray, they are not a new roll."""
        if self.settle is not None:
            self.settle.remember(dice)

    def read_pip_dice(self, on: bool) -> None:
        """Whether settled rolls are read (the game on the table takes pip dice): off, the pip reader does not
        run (it finds "pips" on fruit dice, and costs a Pi its CPU) and the live view shows no pip dice; the
        tray is still watched, so the dice lying there when it is on again are not a new roll."""
        if self.settle is None or self.settle.reading == on:
            return
        self.settle.reading = on
        if not on:
            with self._lock:
                self._shown, self._jpeg = (), None

    def read_zones(self, on: bool) -> None:
        """Whether the zones are read, from the next frame on: they cost the most of a frame's reading, and only
        Banana Matcho uses them."""
        self.reading_zones = on

    def set_tray(self, box: Box | None) -> None:
        """A tray set by hand, from the next frame on; None: found on its own if the pipeline finds trays
        (`auto_tray`: a box given still comes first), else the whole frame."""
        self.tray = box
        self._tray_checked = False
        if self.settle is None:
            return
        self.settle.tray = box
        self.settle.meter.tray = box
        finding = box is None and self._finds_tray
        self.auto_tray = AutoTray() if finding else None
        self.settle.reader = FoundTrayReader(self._reader, self.auto_tray) if finding else self._reader

    def _check_the_tray(self, frame: Frame) -> None:
        """A tray set by hand that lies wholly outside the picture (set for another resolution, or mistyped
        in camera.tray) would leave nothing to read and stop the motion check: it is dropped, with a word on
        the page, for the whole picture or the tray found on its own. Checked once per tray set and picture
        size."""
        if self._tray_checked or self.settle is None:
            return
        self._tray_checked = True
        if self.tray is not None and self.auto_tray is None and crop_to_tray(frame.image, self.tray) is None:
            height, width = frame.image.shape[:2]
            self._tray_outside = tray_text(self.tray)
            instead = "finding the tray on its own" if self._finds_tray else "reading the whole picture"
            self.set_tray(None)
            self._tray_checked = True
            self.emit(CameraHealth(frame.t, "tray", f"the tray {self._tray_outside} lies outside the camera's "
                                                    f"{width}x{height} picture: {instead}. Set the tray again on "
                                                    "the camera view."))
        elif self._tray_outside is not None:
            self._tray_outside = None
            self.emit(CameraHealth(frame.t, "ok", "the tray is set"))

    def _check_the_zones(self, frame: Frame) -> None:
        """Zones that lie wholly outside the picture (set for another resolution) would read nothing, ever:
        the page names them once per picture size (the first frame, a camera back at another size), as the
        zones' own health; and says "ok" once a camera back at their size lets all of them be read again."""
        if self.zones is None:
            return
        outside = [z for z in self.zones.zones if crop_to_tray(frame.image, z.box) is None]
        if not outside and self._zones_outside:
            self.emit(SensorHealth(frame.t, "dice zones", "ok", "the dice zones are read again"))
        self._zones_outside = bool(outside)
        if outside:
            height, width = frame.image.shape[:2]
            names = ", ".join(f"{z.name} ({','.join(map(str, z.box))})" for z in outside)
            which = f"zones {names} lie" if len(outside) > 1 else f"zone {names} lies"
            self.emit(SensorHealth(frame.t, "dice zones", "error",
                                   f"the {which} outside the camera's {width}x{height} picture and read nothing: "
                                   "set camera.zones again. Squeaks are asked on the page meanwhile."))

    def _look_for_the_tray(self, frame: Frame) -> None:
        """A found tray (its floor's box and a margin, see tray_finder) limits where dice are read and where
        motion is watched, as a tray set by hand does: a hand on the table beside it is no reason to wait. A
        new box is one frame of motion, and the dice still lying there are not a new roll."""
        auto = self.auto_tray  # once: the page may set a tray by hand meanwhile, from another thread
        if auto is None:
            return
        if not self.settle.moving:
            auto.look(frame.t, frame.image)
        if auto is self.auto_tray:
            self.tray = self.settle.tray = self.settle.meter.tray = auto.box

    def process(self, frame: Frame) -> list[Event]:
        """The events of one frame, each handed to `on_event`. A frame older than the last one (a recording
        stitched from two, a camera clock that jumped back) starts a new clock: settling and the zones count
        time by the frames, so both start timing again, and the roll already read is still not read again."""
        events = self._read(frame)
        for event in events:
            self.emit(event)
        return events

    def _read(self, frame: Frame) -> list[Event]:
        with self._lock:
            latest = self._latest
        if latest is not None and frame.t < latest.t:
            if self.settle is not None:
                self.settle.new_clock()
            if self.zones is not None:
                self.zones.new_clock()
        events: list[Event] = []
        shown = self._shown
        if frame.image.shape != self._size:  # the first frame, or a camera back at another size
            if self._size is not None and self.settle is not None:
                self.settle.new_size()
            self._size = frame.image.shape
            self._tray_checked = False
            self._check_the_zones(frame)
        self._check_the_tray(frame)
        self._look_for_the_tray(frame)
        if self.settle is not None:
            settled = self.settle.feed(frame)
            if self.settle.moving or not self.settle.reading:
                shown = ()
            if settled is not None:
                events.append(settled)
                shown = settled.dice
        reading_zones = self.zones is not None and self.reading_zones
        zone_states: list[ZoneState] = self.zones.feed(frame) if reading_zones else []
        events.extend(zone_states)
        with self._lock:
            self._latest = frame
            self._shown = shown
            self._zone_dice = tuple(d for s in zone_states for d in s.dice)
            self._moving = bool(self.settle and self.settle.moving)
        self.frames += 1
        return events

    def run(self) -> int:
        """Process the source until it ends or `stop()` is called; returns the number of frames."""
        if self.source is None:
            raise ValueError("this pipeline has no frame source")
        for frame in self.source:
            if self._stop.is_set():
                break
            try:
                events = self._read(frame)
            except Exception as exc:  # one strange frame, a reader's hiccup: the camera goes on
                self._frame_failed(frame, exc)
                continue
            if self._failed_frames >= FAILED_FRAMES_TOLD:
                self.emit(CameraHealth(frame.t, "ok", "the camera's pictures are read again"))
            self._failed_frames = 0
            for event in events:  # outside the try: whoever takes them failing (a closed pipe) is not a frame
                self.emit(event)
            if self._stop.is_set():
                break
        return self.frames

    def _frame_failed(self, frame: Frame, exc: Exception) -> None:
        self._failed_frames += 1
        if self._failed_frames == 1:
            log.exception("a camera frame could not be read")
        if self._failed_frames == FAILED_FRAMES_TOLD:
            why = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            self.emit(CameraHealth(frame.t, "error", f"the camera's pictures cannot be read ({why}): the dice are "
                                                     "not read meanwhile, so type them on the page; if it goes on, "
                                                     "restart the companion and run `companion doctor`"))

    def stop(self) -> None:
        self._stop.set()
        stop_source = getattr(self.source, "stop", None)
        if stop_source is not None:
            stop_source()

    def state_at(self, zone: str, t: int) -> ZoneState | None:
        if self.zones is None:
            raise KeyError(f"no zone {zone!r}: this pipeline has no zones")
        return self.zones.state_at(zone, t)

    def frame_width(self) -> int | None:
        """The width in pixels of the latest frame (the dice's boxes are in its pixels); None before one."""
        with self._lock:
            return None if self._latest is None else int(self._latest.image.shape[1])

    def latest_jpeg(self, quality: int = 80) -> bytes | None:
        """The latest frame, annotated, as JPEG; None before the first frame. Encoded once per frame."""
        from .annotate import annotated_jpeg

        with self._lock:
            frame, shown, moving = self._latest, self._shown, self._moving
            zone_dice = self._zone_dice
            cached = self._jpeg
        if frame is None:
            return None
        if cached is not None and cached[0] == frame.t:
            return cached[1]
        zones = [(z.name, z.box) for z in self.zones.zones] if self.zones is not None else []
        data = _LIVE_VIEW_ENCODER.submit(annotated_jpeg, frame.image, shown + zone_dice, tray=self.tray, zones=zones,
                                         moving=moving, quality=quality).result()
        with self._lock:
            self._jpeg = (frame.t, data)
        return data


def settled_line(event: DiceSettled, json_lines: bool) -> str:
    if json_lines:
        return json.dumps({"t": event.t, "dice": [d.to_json() for d in event.dice]})
    values = " ".join(f"{d.value}{'?' if d.unsure else ''}" for d in event.dice)
    unsure = sum(d.unsure for d in event.dice)
    note = f"  ({unsure} unsure: check by eye)" if unsure else ""
    return f"t={event.t / 1e9:.3f}s  {values}{note}"


def run_camera(spec: str, reader: Reader | str, out: TextIO = sys.stdout, json_lines: bool = False, *,
               settle_ms: float = 300, tray: Box | None = None, width: int = 1280, height: int = 720,
               max_rolls: int | None = None, realtime: bool = False, rotate: int = 0, auto_tray: bool = False,
               err: TextIO | None = None) -> int:
    """`companion read --camera SPEC`: print one line per settled roll until the source ends (a file or a
    recording), `max_rolls` rolls have been printed, or the person presses Ctrl-C. Returns the roll count.

    Camera trouble goes to `err` (standard error) as it happens; a camera missing at start raises
    CameraMissing."""
    err = err or sys.stderr
    if isinstance(reader, str):
        from .readers import get_reader

        reader = get_reader(reader)
    rolls = 0
    pipeline: DicePipeline

    def on_event(event: Event) -> None:
        nonlocal rolls
        if isinstance(event, DiceSettled):
            rolls += 1
            print(settled_line(event, json_lines), file=out, flush=True)
            if max_rolls is not None and rolls >= max_rolls:
                pipeline.stop()
        elif isinstance(event, CameraHealth):
            print(f"camera {event.state}: {event.message}", file=err, flush=True)

    pipeline = DicePipeline.from_spec(spec, reader, width=width, height=height, realtime=realtime, rotate=rotate,
                                      settle_ms=settle_ms, tray=tray, auto_tray=auto_tray, on_event=on_event)
    pipeline.run()
    return rolls
