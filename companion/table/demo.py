"""The embedded demo: recorded sessions of each game, generated deterministically on first use and
cached, played into the table in real time, one game after another, for ever.

A fresh machine needs no camera, no sensors and no network: `companion serve --demo` shows a live game.
While it plays, the demo camera (companion.table.demo_camera) shows every roll tumbling and then lying
still, drawn by the scene generator with the roll's values.

The cache is written durably (companion.durable), and checked at every start against the session the seed
makes (a few milliseconds): a session a power cut left empty or cut short is written again, and its film
drawn again.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from ..durable import fsync_folder, write_bytes
from ..events import Event
from ..games import registry
from .journal import JournalError, _folder_problem
from .owner import Table
from .recording import EVENTS_FILE, events_text, read_events
from .sessions import generate

log = logging.getLogger(__name__)

DEMO_VERSION = "v1"
DEMO_SEEDS = {"matterhorn": 0, "mountain-goats": 11, "magic-mountain": 3, "banana-matcho": 5}
DEMO_PLAYERS = {"matterhorn": 2, "mountain-goats": 3, "magic-mountain": 2, "banana-matcho": 3}


class DemoNotWritten(RuntimeError):
    """The demo's sessions cannot be written into the state directory (a full or read-only card): the message
    says what to do."""


def demo_sessions(cache_dir: str | Path) -> list[Path]:
    """The demo session of every game this build has, generated once into `cache_dir`; one found there
    that is not the whole session (a power cut while it was written) is written again. Raises DemoNotWritten."""
    root = Path(cache_dir) / f"demo-sessions-{DEMO_VERSION}"
    out = []
    for name, seed in DEMO_SEEDS.items():
        try:
            registry.get_game(name)
        except (ImportError, AttributeError):
            continue
        directory = root / name
        path = directory / EVENTS_FILE
        whole = events_text(generate(name, seed, DEMO_PLAYERS[name]))
        try:
            kept = path.read_bytes()
        except FileNotFoundError:
            kept = None
        if kept != whole:
            if kept is not None:
                log.warning("the demo's %s session in %s is damaged (a power cut while it was written?): "
                            "written again, and its pictures drawn again", name, path)
            try:
                _forget_film(directory)
                write_bytes(path, whole)
            except OSError as exc:
                raise DemoNotWritten("the demo's games cannot be written: " + (
                    _folder_problem(Path(cache_dir), exc) or f"{root} cannot be written ({exc.strerror or exc})")) \
                    from None
        out.append(directory)
    return out


def _forget_film(directory: Path) -> None:
    """A film drawn from a session written again is drawn again too (demo_camera's marker removed)."""
    from .demo_camera import DONE_MARKER, FILM_FOLDER

    marker = directory / FILM_FOLDER / DONE_MARKER
    if marker.exists():
        marker.unlink()
        fsync_folder(marker.parent)


def demo_camera():
    """The demo's camera view, or None when this build has no vision package to draw the dice with."""
    try:
        from .demo_camera import DemoCamera
        from ..vision import scene  # noqa: F401
    except ModuleNotFoundError as exc:
        log.warning("the demo shows no camera picture: %s is missing", exc.name)
        return None
    return DemoCamera()


class DemoPlayer:
    """Plays the demo sessions into the table on a thread until stopped; with a camera, shows each roll's
    frames at their times (filmed on a second thread on first use, ahead of the play)."""

    def __init__(self, table: Table, sessions: list[Path], speed: float = 1.0, pause_s: float = 6.0,
                 camera: Any = None):
        if not sessions:
            raise ValueError("no demo session: no game engine is part of this build")
        self.table = table
        self.sessions = [read_events(s) for s in sessions]
        self.speed = speed
        self.pause_s = pause_s
        self.camera = camera
        self.films = [camera.film(directory, events, DEMO_SEEDS.get(directory.name, 0)) if camera else None
                      for directory, events in zip(sessions, self.sessions)]
        self._show_failed = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)
        self._filming = threading.Thread(target=self._film, name="demo-film", daemon=True)

    def start(self) -> "DemoPlayer":
        if self.camera is not None:
            self._filming.start()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        if self._filming.is_alive():
            self._filming.join(5)

    def _sleep(self, seconds: float) -> None:
        self._stop.wait(seconds)

    def _film(self) -> None:
        for film in self.films:
            try:
                if film is not None and not film.shoot(self._stop):
                    return
            except Exception:  # the pictures are a nicety: the demo plays on without them
                log.exception("filming the demo rolls failed")
                return

    def _run(self) -> None:
        while not self._stop.is_set():
            for events, film in zip(self.sessions, self.films):
                self._play(events, film)
                if self._stop.is_set():
                    return
                self._forget_played()
                self._sleep(self.pause_s / self.speed)

    def _forget_played(self) -> None:
        """The last round of games stays for the page's history; older ones go, so the journal stays flat."""
        try:
            self.table.journal.forget_finished_games(keep=len(self.sessions))
        except JournalError as exc:
            log.warning("the demo could not clear its old games: %s", exc)

    def _show(self, film, shot) -> None:
        """The pictures are a nicety: whatever goes wrong showing one, the game plays on."""
        try:
            self.camera.show(film, shot)
        except Exception:
            if not self._show_failed:
                self._show_failed = True
                log.exception("the demo could not show a camera picture; it plays on")

    def _play(self, events: list[Event], film) -> None:
        """The events in real time (scaled by speed), each acknowledged before the next, with the
        camera shown each frame of the session's film at its own time."""
        timeline = [(e.t, 1, position, e) for position, e in enumerate(events)]
        if film is not None:
            self.camera.clear()
            timeline += [(shot.t, 0, index, shot) for index, shot in enumerate(film.shots)]
        timeline.sort(key=lambda item: item[:3])
        previous_t = None
        for t, kind, _, item in timeline:
            if self._stop.is_set():
                return
            if previous_t is not None and t > previous_t:
                self._sleep((t - previous_t) / 1e9 / self.speed)
            previous_t = t
            if kind == 0:
                self._show(film, item)
            else:
                self.table.submit(item).result()
