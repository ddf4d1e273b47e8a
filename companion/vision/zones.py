"""Continuous mode: named zones of the tray, each read every frame by its own reader kind.

Banana Matcho keeps dice lying in view ("fruit" dice in one part of the tray, the Matcho die in another)
and the table needs their faces as they are now, and as they were a moment ago (when the banana squeaked).
Every frame gives one `ZoneState(t, zone, dice)` per zone; each zone keeps a short time-indexed history so
`state_at(zone, t)` answers "what did zone X show at time t". A die that moved since the frame before is
reported unsure (`die_motion`), unless the zone's reader says it `reads_moving_dice`.
"""
from __future__ import annotations

import bisect
import dataclasses
from collections import deque
from typing import Callable, Iterable, Mapping

from ..events import ZoneState
from .die_motion import DieMotion
from .settle import Box, Reader
from .sources import Frame


@dataclasses.dataclass(frozen=True)
class Zone:
    """A named region (x0, y0, x1, y1 in frame pixels) read with the reader of `kind`."""

    name: str
    box: Box
    kind: str = "pips"

    def __post_init__(self):
        x0, y0, x1, y1 = self.box
        if x1 <= x0 or y1 <= y0:
            raise ValueError(f"zone {self.name!r} has an empty box {self.box}; expected x0,y0,x1,y1 with x0<x1, y0<y1")


def parse_zone(text: str) -> Zone:
    """A zone from "NAME:KIND:x0,y0,x1,y1", e.g. "fruit:fruit:0,0,320,240"."""
    try:
        name, kind, coords = text.split(":")
        box = tuple(int(v) for v in coords.split(","))
        if len(box) != 4:
            raise ValueError
    except ValueError:
        raise ValueError(f"bad zone {text!r}: expected NAME:KIND:x0,y0,x1,y1, like fruit:fruit:0,0,320,240") from None
    return Zone(name, box, kind)  # type: ignore[arg-type]


class ZoneHistory:
    """The ZoneStates of one zone over the last `keep_ns`, oldest first."""

    def __init__(self, keep_ns: int):
        self.keep_ns = keep_ns
        self._states: deque[ZoneState] = deque()

    def add(self, state: ZoneState) -> None:
        if self._states and state.t < self._states[-1].t:
            raise ValueError(f"zone state at t={state.t} is older than the last one (t={self._states[-1].t})")
        self._states.append(state)
        while self._states and self._states[0].t < state.t - self.keep_ns:
            self._states.popleft()

    def at(self, t: int) -> ZoneState | None:
        """The latest state at or before t; None if t is before the kept history."""
        times = [s.t for s in self._states]
        i = bisect.bisect_right(times, t)
        return self._states[i - 1] if i else None

    @property
    def latest(self) -> ZoneState | None:
        return self._states[-1] if self._states else None


class ZoneTracker:
    """Reads every zone of every frame. `readers` maps a kind to a reader, or `make_reader(kind)` builds
    them (by default companion.vision.readers.get_reader)."""

    def __init__(self, zones: Iterable[Zone], *, readers: Mapping[str, Reader] | None = None,
                 make_reader: Callable[[str], Reader] | None = None, keep_s: float = 10.0):
        self.zones = list(zones)
        names = [z.name for z in self.zones]
        if len(set(names)) != len(names):
            raise ValueError(f"zone names must be unique, got {names}")
        self.readers: dict[str, Reader] = dict(readers or {})
        for zone in self.zones:
            if zone.kind not in self.readers:
                if make_reader is None:
                    from .readers import get_reader as make_reader  # type: ignore[no-redef]
                self.readers[zone.kind] = make_reader(zone.kind)
        self.history = {z.name: ZoneHistory(int(keep_s * 1e9)) for z in self.zones}
        self.motion = {z.name: DieMotion(z.box) for z in self.zones
                       if not getattr(self.readers[z.kind], "reads_moving_dice", False)}

    def feed(self, frame: Frame) -> list[ZoneState]:
        states = []
        for zone in self.zones:
            dice = self.readers[zone.kind].read(frame.image, zone.box)
            if zone.name in self.motion:
                dice = self.motion[zone.name].mark(frame.image, dice)
            state = ZoneState(frame.t, zone.name, tuple(dice))
            self.history[zone.name].add(state)
            states.append(state)
        return states

    def new_clock(self) -> None:
        """The frames' time started over: what the zones showed on the old clock is forgotten."""
        self.history = {name: ZoneHistory(history.keep_ns) for name, history in self.history.items()}

    def state_at(self, zone: str, t: int) -> ZoneState | None:
        if zone not in self.history:
            raise KeyError(f"no zone {zone!r}; zones: {', '.join(self.history) or 'none'}")
        return self.history[zone].at(t)

    def latest(self, zone: str) -> ZoneState | None:
        return self.state_at(zone, 2**63 - 1)
