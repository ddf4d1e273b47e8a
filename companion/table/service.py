"""The service assembled: the journal, the table, the camera and the sensors (or the demo), in one process.

A missing camera or sensor kit degrades that one feature: the table gets a health event whose message the
page shows, and everything else runs.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable

from ..config import Settings
from ..events import CameraHealth, DieReading, Event, SensorHealth
from .camera_game import CameraGame
from .journal import Journal
from .owner import Table

log = logging.getLogger(__name__)


class Service:
    def __init__(self, settings: Settings, *, demo: bool = False, on_loop: Callable[[], None] | None = None,
                 tap: Callable[[Event], None] | None = None, state_dir: str | Path | None = None,
                 demo_speed: float = 1.0, record_dir: str | Path | None = None):
        self.settings = settings
        self.demo = demo
        self.state_dir = Path(state_dir) if state_dir else settings.state_dir
        self.demo_speed = demo_speed
        self.record_dir = record_dir
        self.messages: dict[str, str] = {}
        self.camera: Any = None
        self.sensors: Any = None
        self.demo_player: Any = None
        self._told: tuple[Any, ...] | None = None
        self._camera_game = CameraGame()
        journal_dir = self.state_dir / "demo-journal" if demo else self.state_dir
        self.journal = Journal(journal_dir, fresh=demo)
        self.table = Table(self.journal, on_loop=on_loop, tap=tap)

    def start(self) -> "Service":
        self.table.start()
        if self.demo:
            from .demo import DemoPlayer, demo_camera, demo_sessions

            self.camera = demo_camera()
            self.demo_player = DemoPlayer(self.table, demo_sessions(self.state_dir), speed=self.demo_speed,
                                          camera=self.camera).start()
            return self
        self._start_sensors()
        self._start_camera()
        return self

    def stop(self) -> None:
        for part in (self.demo_player, self.camera, self.sensors):
            if part is not None:
                try:
                    (getattr(part, "stop", None) or part.close)()
                except Exception:  # stopping is best effort; the journal is already durable
                    log.exception("stopping %s failed", type(part).__name__)
        self.table.stop()
        self.journal.close()

    def _start_sensors(self) -> None:
        backend = self.settings["sensors"]["backend"]
        if backend == "none":
            return
        try:
            from ..sensors.kit import open_sensor_kit

            self.sensors = open_sensor_kit(self.settings, self.table.submit).start()
        except Exception as exc:
            message = f"the sensors ({backend}) are not working: {exc}. The page still works; tap what happens."
            self.messages["sensors"] = message
            self.table.submit(SensorHealth(t=time.monotonic_ns(), sensor="kit", state="error", message=message))

    def _tell_the_camera(self, view: dict[str, Any]) -> None:
        """The camera is told whether the game on the table takes pip dice and whether it reads the dice zones
        (Banana Matcho's), and each roll the game takes, as the camera saw its dice (typed after a question
        included): dice left of it are then not a new roll, and the dice of a roll it only asked about are."""
        reads = self._camera_game.follow(_game_name(view))
        read_pip_dice = getattr(self.camera, "read_pip_dice", None)
        if read_pip_dice is not None:
            read_pip_dice(reads.pip_dice)
        pipeline = getattr(self.camera, "pipeline", None)
        if pipeline is not None:
            pipeline.read_zones(reads.zones)
        taken, dice = _roll_taken(view)
        if taken is None or taken == self._told:
            return
        self._told = taken
        remember = getattr(getattr(self.camera, "pipeline", None), "remember_roll", None)
        if remember is not None:
            remember(dice)

    def _start_camera(self) -> None:
        try:
            from .camera import open_camera

            view = self.table.view()  # told before the camera's first frame
            taken, dice = _roll_taken(view)
            reads = self._camera_game.follow(_game_name(view))
            self.camera = open_camera(self.settings, self.table.submit, record_dir=self.record_dir, last_roll=dice,
                                      pip_dice=reads.pip_dice, zones_read=reads.zones)
            self._told = taken
            self.table.listen(self._tell_the_camera)
            self._tell_the_camera(self.table.view())  # a game started or ended while the camera opened
        except Exception as exc:
            message = f"no camera: {exc}. Type the dice on the page instead."
            self.messages["camera"] = message
            self.table.submit(CameraHealth(t=time.monotonic_ns(), state="missing", message=message))


def _game_name(view: dict[str, Any]) -> str | None:
    return (view.get("game") or {}).get("name")


def _roll_taken(view: dict[str, Any]) -> tuple[tuple[Any, ...] | None, tuple[DieReading, ...]]:
    """The game's last reading, as (what tells it apart, its dice as the camera saw them: read, or seen
    before a person typed the roll); (None, ()) when the game has none."""
    game = view.get("game") or {}
    reading = game.get("last_reading")
    if not reading:
        return None, ()
    taken = (game.get("id"), reading.get("index"), reading.get("t"))
    try:
        return taken, tuple(DieReading.from_json(d) for d in reading.get("dice") or reading.get("seen") or ())
    except (KeyError, TypeError, ValueError):  # an old journal's reading without places: nothing to remember
        return taken, ()
