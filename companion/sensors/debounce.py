"""Debouncing and health of one input, as pure state machines fed with timestamps (no clock of their own).

gpiozero's mock pins ignore `bounce_time`, and a hold-off on the Pi hides the true edge time, so the
project debounces itself:

- Activation is reported at once, timed at its first edge: the latency target (2 ms) and the timing of a
  banana slap both need it. Further edges are ignored while the input counts as active.
- Release is reported only after the line has stayed inactive for the debounce window, timed at its last
  edge. So a bounce storm of any length is one activation, and a new activation needs a real release.
"""
from __future__ import annotations

import collections
import dataclasses


@dataclasses.dataclass(frozen=True)
class Transition:
    active: bool
    t: int


class Debouncer:
    def __init__(self, window_ns: int, initial_active: bool = False, t0: int = 0):
        self.window_ns = window_ns
        self.active = initial_active
        self.raw = initial_active
        self.last_edge_t = t0

    def edge(self, active: bool, t: int) -> list[Transition]:
        """Feed one raw edge (the line's new level, as active/inactive) seen at `t`."""
        out = self.settle(t)
        self.raw = active
        self.last_edge_t = t
        if active and not self.active:
            self.active = True
            out.append(Transition(True, t))
        elif not active and self.active and self.window_ns == 0:
            self.active = False
            out.append(Transition(False, t))
        return out

    def settle(self, now: int) -> list[Transition]:
        """Confirm a release once the line has been quiet for the window; call it now and then."""
        if self.active and not self.raw and now - self.last_edge_t >= self.window_ns:
            self.active = False
            return [Transition(False, self.last_edge_t)]
        return []


@dataclasses.dataclass(frozen=True)
class HealthChange:
    state: str  # "ok", "blocked", "stuck" or "error"
    t: int
    detail: str


class HealthWatch:
    """Watches one debounced input: active for too long (a blocked gate, a stuck banana) and chatter.

    Chatter is more activations in a second than a person or a ball can make: what a loose wire or a
    floating input without a pull-up looks like. A bounce storm, however long, is one activation.
    """

    CHATTER_WINDOW_NS = 1_000_000_000

    def __init__(self, kind: str, alarm_after_ns: int):
        self.alarm_state = "stuck" if kind == "banana" else "blocked"
        # one ball a turn passes an opening; a child may squeeze the banana three or four times a second
        self.chatter_activations = 6 if kind == "banana" else 3
        self.alarm_after_ns = alarm_after_ns
        self.state = "ok"
        self.active_since: int | None = None
        self.recent: collections.deque[int] = collections.deque()  # activations in the last window
        self.last_activation = 0
        self.chatter = False

    def transition(self, tr: Transition) -> list[HealthChange]:
        self.active_since = tr.t if tr.active else None
        out: list[HealthChange] = []
        if tr.active:
            self.last_activation = tr.t
            self.recent.append(tr.t)
            while self.recent and tr.t - self.recent[0] >= self.CHATTER_WINDOW_NS:
                self.recent.popleft()
            if len(self.recent) > self.chatter_activations and not self.chatter:
                self.chatter = True
                out += self._set("error", tr.t, f"chatter: more than {self.chatter_activations} activations in a second")
        elif self.state == self.alarm_state:
            out += self._set("ok", tr.t, "released")
        return out

    def check(self, now: int) -> list[HealthChange]:
        out: list[HealthChange] = []
        if self.chatter and now - self.last_activation >= 2 * self.CHATTER_WINDOW_NS:
            self.chatter = False
            out += self._set("ok", now, "quiet again")
        if (self.active_since is not None and self.state != self.alarm_state and not self.chatter
                and now - self.active_since >= self.alarm_after_ns):
            out += self._set(self.alarm_state, now, f"active for {(now - self.active_since) / 1e9:.1f} s")
        return out

    def _set(self, state: str, t: int, detail: str) -> list[HealthChange]:
        if state == self.state:
            return []
        self.state = state
        return [HealthChange(state, t, detail)]
