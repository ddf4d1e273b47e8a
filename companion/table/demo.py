"""The embedded demo: recorded sessions of each game, generated deterministically on first use and
cached, played into the table in real time, one game after another, for ever.

A fresh machine needs no camera, no sensors and no network: `companion serve --demo` shows a live game.
"""
from __future__ import annotations

import threading
from pathlib import Path

from ..events import Event
from ..games import registry
from .owner import Table
from .recording import EVENTS_FILE, read_events, replay, write_events
from .sessions import generate

DEMO_VERSION = "v1"
DEMO_SEEDS = {"matterhorn": 0, "mountain-goats": 11, "magic-mountain": 3, "banana-matcho": 5}
DEMO_PLAYERS = {"matterhorn": 2, "mountain-goats": 3, "magic-mountain": 2, "banana-matcho": 3}


def demo_sessions(cache_dir: str | Path) -> list[Path]:
    """The demo session of every game this build has, generated once into `cache_dir`."""
    root = Path(cache_dir) / f"demo-sessions-{DEMO_VERSION}"
    out = []
    for name, seed in DEMO_SEEDS.items():
        try:
            registry.get_game(name)
        except (ImportError, AttributeError):
            continue
        directory = root / name
        if not (directory / EVENTS_FILE).exists():
            write_events(directory, generate(name, seed, DEMO_PLAYERS[name]))
        out.append(directory)
    return out


class DemoPlayer:
    """Plays the demo sessions into the table on a thread until stopped."""

    def __init__(self, table: Table, sessions: list[Path], speed: float = 1.0, pause_s: float = 6.0):
        if not sessions:
            raise ValueError("no demo session: no game engine is part of this build")
        self.table = table
        self.sessions = [read_events(s) for s in sessions]
        self.speed = speed
        self.pause_s = pause_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo", daemon=True)

    def start(self) -> "DemoPlayer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _sleep(self, seconds: float) -> None:
        self._stop.wait(seconds)

    def _run(self) -> None:
        while not self._stop.is_set():
            for events in self.sessions:
                self._play(events)
                if self._stop.is_set():
                    return
                self._sleep(self.pause_s)

    def _play(self, events: list[Event]) -> None:
        replay(events, self.table, speed=self.speed, stop=self._stop, sleep=self._sleep)
