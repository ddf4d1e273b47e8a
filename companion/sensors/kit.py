"""SensorKit: raw edges from a backend in, typed events out to the table's sink.

A backend ("gpio", "hub", "mock", "none") feeds `edge(name, active, t)` from whatever thread it owns; the
kit debounces, watches health, and delivers BananaSqueaked / BallEntered / BallLanded / SensorHealth to the
sink (a callable, or anything with `put`, like queue.Queue) in the order they happened. A sensor that fails
is reported and left out; the others keep working.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from ..events import BallEntered, BallLanded, BananaSqueaked, Event, SensorHealth
from .debounce import Debouncer, HealthChange, HealthWatch, Transition
from .pinmap import PinMap, SensorPins

log = logging.getLogger(__name__)

BACKENDS = ("gpio", "hub", "mock", "none")

_ALARM_HINTS = {
    "banana": "the banana is pressed all the time: move it off the sensor, or check the wiring and `active`",
    "gate": "a ball is stuck in the opening, or the emitter and receiver are misaligned",
    "bottom": "a ball is stuck at the bottom, or the emitter and receiver are misaligned",
}


class SensorInput:
    """One sensor's live state inside the kit."""

    def __init__(self, pins: SensorPins, window_ns: int, t0: int):
        self.pins = pins
        self.debouncer = Debouncer(window_ns, False, t0)
        self.health = HealthWatch(pins.kind, pins.alarm_after_ns)
        self.where = ""
        self.failed = False
        self.fired = 0

    @property
    def state(self) -> str:
        if self.failed:
            return "failed"
        return "active" if self.debouncer.active else "idle"


class SensorKit:
    def __init__(self, pin_map: PinMap, sink: Callable[[Event], Any] | Any, clock: Callable[[], int] = time.monotonic_ns,
                 backend: str | Any = "gpio", *, hub_port: str = "auto", poll_interval_s: float | None = 0.005):
        self.pin_map = pin_map
        self.clock = clock
        self._deliver = sink.put if hasattr(sink, "put") else sink
        self.backend = make_backend(backend, hub_port) if isinstance(backend, str) else backend
        debounced_upstream = getattr(self.backend, "debounces", False)
        t0 = clock()
        self.inputs = {p.name: SensorInput(p, 0 if debounced_upstream else p.debounce_ns, t0) for p in pin_map}
        self.sink_errors = 0
        self._lock = threading.RLock()
        self._poll_interval_s = poll_interval_s
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    # -- life cycle -------------------------------------------------------------------------------
    def start(self) -> "SensorKit":
        self.backend.start(self)
        if self._poll_interval_s is not None:
            self._ticker = threading.Thread(target=self._tick, name="sensor-kit-ticker", daemon=True)
            self._ticker.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join(timeout=2)
            self._ticker = None
        self.backend.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def _tick(self) -> None:
        while not self._stop.wait(self._poll_interval_s):
            self.poll()

    # -- fed by backends ---------------------------------------------------------------------------
    def edge(self, name: str, active: bool, t: int) -> None:
        """A raw edge of sensor `name`: its line is now active (or not), seen at monotonic ns `t`."""
        with self._lock:
            inp = self.inputs[name]
            if inp.failed:
                return
            for tr in inp.debouncer.edge(active, t):
                self._transition(inp, tr)

    def initial(self, name: str, active: bool, t: int, where: str = "", known: bool = True) -> None:
        """The level a sensor has when the backend opens it: no event, but a line active from the start
        counts toward blocked/stuck. `known`: the level was read (not merely unknown, as while the hub is
        away): a sensor reported blocked or stuck that reads clear is then told ok again."""
        with self._lock:
            inp = self.inputs[name]
            inp.where = where or inp.where
            inp.failed = False
            inp.debouncer = Debouncer(inp.debouncer.window_ns, active, t)
            inp.health.active_since = t if active else None
            if known and not active and inp.health.state == inp.health.alarm_state:
                self._health(inp, inp.health._set("ok", t, "clear again"))

    def report(self, name: str, state: str, message: str, t: int | None = None) -> None:
        """A backend's own health news about one sensor or the hub (name "hub")."""
        with self._lock:
            if name in self.inputs:
                self.inputs[name].failed = state in ("error", "disconnected")
            self._emit(SensorHealth(self.clock() if t is None else t, name, state, message))

    def poll(self, now: int | None = None) -> None:
        """Confirm releases and check health; the ticker calls it, tests call it with their clock."""
        now = self.clock() if now is None else now
        with self._lock:
            for inp in self.inputs.values():
                if inp.failed:
                    continue
                for tr in inp.debouncer.settle(now):
                    self._transition(inp, tr)
                self._health(inp, inp.health.check(now))

    def states(self) -> dict[str, str]:
        """Each sensor's state for a person: idle/active, and its health when it is not ok."""
        with self._lock:
            out = {}
            for name, inp in self.inputs.items():
                health = inp.health.state
                out[name] = inp.state if health == "ok" or inp.failed else f"{inp.state}, {health}"
            return out

    # -- inside ------------------------------------------------------------------------------------
    def _transition(self, inp: SensorInput, tr: Transition) -> None:
        self._health(inp, inp.health.transition(tr))
        if not tr.active or inp.health.chatter:
            return
        inp.fired += 1
        kind = inp.pins.kind
        if kind == "banana":
            self._emit(BananaSqueaked(tr.t))
        elif kind == "gate":
            self._emit(BallEntered(tr.t, inp.pins.opening))
        else:
            self._emit(BallLanded(tr.t))

    def _health(self, inp: SensorInput, changes: list[HealthChange]) -> None:
        for ch in changes:
            pins = inp.pins
            where = f" ({inp.where})" if inp.where else ""
            if ch.state == "ok":
                message = f"{pins.label}{where} is working again: {ch.detail}"
            elif ch.state == "error":
                message = (f"{pins.label}{where} is ignored while its input chatters ({ch.detail}): "
                           f"a loose wire, or a floating input without a pull-up")
            else:
                message = f"{pins.label}{where} {ch.state}, {ch.detail}: {_ALARM_HINTS[pins.kind]}"
            self._emit(SensorHealth(ch.t, pins.name, ch.state, message))

    def _emit(self, event: Event) -> None:
        try:
            self._deliver(event)
        except Exception:  # the table's sink failing must not take the sensor threads down
            self.sink_errors += 1
            log.exception("sensor event sink failed on %r", event)


class NoBackend:
    """backend "none": no sensors; the service runs without them."""

    name = "none"

    def start(self, kit: SensorKit) -> None:
        pass

    def close(self) -> None:
        pass


def make_backend(name: str, hub_port: str = "auto"):
    if name == "gpio":
        from .gpio_backend import GpioBackend
        return GpioBackend()
    if name == "mock":
        from .gpio_backend import MockGpioBackend
        return MockGpioBackend()
    if name == "hub":
        from .hub import HubBackend
        return HubBackend(hub_port)
    if name == "none":
        return NoBackend()
    raise ValueError(f"unknown sensors backend {name!r}; choose one of: {', '.join(BACKENDS)}")


def open_sensor_kit(settings, sink, clock: Callable[[], int] = time.monotonic_ns) -> SensorKit:
    """The kit the settings ask for (sensors.backend, sensors.pin_map, sensors.hub_port), not started."""
    from .pinmap import load_pin_map

    section = settings["sensors"]
    pin_map = load_pin_map(section["pin_map"] or None)
    return SensorKit(pin_map, sink, clock, section["backend"], hub_port=section["hub_port"])
