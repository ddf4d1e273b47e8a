"""The demo's camera view: each demo session's rolls filmed once (companion.table.session_frames: the dice
tumbling, then at rest, with the recorded values) into JPEGs cached beside the session, and shown on the
page's live view, annotated as the live camera's are, while the demo plays.

Filming is planned at start (cheap) and drawn on a thread, well ahead of real-time play; a frame not drawn
yet is simply not shown. A session's film is complete when its `camera/done` marker exists: the pictures
are written durably (companion.durable), and the marker after them, so a power cut while filming leaves the
film to be drawn again at the next start. A picture damaged anyway is skipped, and the film drawn again.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path

from ..durable import fsync_folder, write_bytes

log = logging.getLogger(__name__)

FILM_FOLDER = "camera"
DONE_MARKER = "done"
FRAME_SIZE = (640, 360)
JPEG_QUALITY = 80


class Film:
    """The planned frames of one session (`shots`, in time order) and where their pictures are kept."""

    def __init__(self, directory: str | Path, events, seed: int, size: tuple[int, int] = FRAME_SIZE):
        self.folder = Path(directory) / FILM_FOLDER
        self._events, self._seed, self._size = events, seed, size
        self._planned: tuple[list, tuple[int, int, int, int] | None, dict[int, int]] | None = None
        self._lock = threading.Lock()

    def _plan(self):
        """Planned once, by whichever thread asks first (the filming one, normally)."""
        with self._lock:
            if self._planned is None:
                from ..events import DiceSettled
                from .session_frames import plan_session

                rolls = []
                if any(isinstance(e, DiceSettled) for e in self._events):
                    _, rolls = plan_session(self._events, self._seed, width=self._size[0], height=self._size[1])
                shots = [shot for roll in rolls for shot in roll]
                tray = rolls[0][0].filmer.tray if rolls else None
                self._planned = (shots, tray, {id(shot): i for i, shot in enumerate(shots)})
            return self._planned

    @property
    def shots(self) -> list:
        return self._plan()[0]

    @property
    def tray(self) -> tuple[int, int, int, int] | None:
        return self._plan()[1]

    @property
    def done(self) -> bool:
        return (self.folder / DONE_MARKER).exists()

    def forget(self) -> None:
        """Draw the film again at the next `shoot` (a picture of it cannot be read)."""
        try:
            (self.folder / DONE_MARKER).unlink(missing_ok=True)
            fsync_folder(self.folder)
        except OSError as exc:
            log.warning("cannot remove %s: %s", self.folder / DONE_MARKER, exc.strerror)

    def path_of(self, shot) -> Path:
        return self.folder / f"{self._plan()[2][id(shot)]:05d}.jpg"

    def shoot(self, stop: threading.Event | None = None) -> bool:
        """Draw every shot not on disk yet; False if stopped before the end."""
        import cv2

        from .session_frames import draw

        if self.done or not self.shots:
            return True
        self.folder.mkdir(parents=True, exist_ok=True)
        for left in [*self.folder.glob(".*.tmp"), *self.folder.glob("*.part")]:  # cut short by a power cut
            left.unlink(missing_ok=True)
        for shot, frame in zip(self.shots, draw(self.shots)):
            if stop is not None and stop.is_set():
                return False
            ok, data = cv2.imencode(".jpg", frame.frame.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            write_bytes(self.path_of(shot), data.tobytes(), sync_folder=False)
        fsync_folder(self.folder)  # every picture's name on the card before the marker says they are
        write_bytes(self.folder / DONE_MARKER, f"{len(self.shots)} frames\n".encode())
        return True


class DemoCamera:
    """What the page's camera view asks of a camera (latest_jpeg, reading_jpeg, set_tray, stop), fed by
    the demo player with the frame due now."""

    def __init__(self):
        self._lock = threading.Lock()
        self._shown: tuple[Film, object] | None = None
        self._jpeg: bytes | None = None
        self._reading: bytes | None = None
        self._damaged: set[Path] = set()  # the films a picture of which could not be read, told once each

    def film(self, directory: str | Path, events, seed: int) -> Film:
        return Film(directory, events, seed)

    def show(self, film: Film, shot) -> None:
        """Show this shot from now on, if its picture has been drawn (else keep the one before). A picture
        that cannot be read (a power cut while it was drawn) is skipped, and its film drawn again at the
        next start."""
        path = film.path_of(shot)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            self._cannot_read(film, path, exc.strerror or str(exc))
            return
        jpeg = _annotated(data, film, shot)
        if jpeg is None:
            self._cannot_read(film, path, "empty" if not data.strip(b"\0") else "not a JPEG picture")
            return
        with self._lock:
            self._shown = (film, shot)
            self._jpeg = jpeg
            if not shot.moving:
                self._reading = jpeg

    def _cannot_read(self, film: Film, path: Path, why: str) -> None:
        with self._lock:
            if film.folder in self._damaged:
                return
            self._damaged.add(film.folder)
        log.warning("the demo picture %s cannot be read (%s; a power cut while it was drawn?): skipped, and "
                    "the demo's pictures of this game are drawn again at the next start", path, why)
        film.forget()

    def clear(self) -> None:
        with self._lock:
            self._shown, self._jpeg = None, None

    def shown(self):
        """The shot on view now (None before the first): its `t`, `moving` and `dice()`."""
        with self._lock:
            return self._shown[1] if self._shown else None

    def latest_jpeg(self) -> bytes | None:
        with self._lock:
            return self._jpeg

    def reading_jpeg(self, t: int | None = None) -> bytes | None:
        """The roll lying still now (the demo's pictures are drawn from its recorded rolls, whatever `t`)."""
        with self._lock:
            return self._reading

    def set_tray(self, box) -> None:
        """The demo's pictures have their tray drawn in; calibrating it changes nothing."""

    def stop(self) -> None:
        self.clear()


def _annotated(data: bytes, film: Film, shot) -> bytes | None:
    """The picture annotated as the live camera's are; None when `data` is not a picture."""
    import cv2
    import numpy as np

    from ..vision.annotate import annotated_jpeg

    if not data:
        return None
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:
        return None
    if image is None:
        return None
    dice = () if shot.moving else shot.dice()
    return annotated_jpeg(image, dice, tray=film.tray, moving=shot.moving, quality=JPEG_QUALITY)
