"""The events that flow from the camera and the sensors to the table, and their JSON forms.

Every event carries `t`, a monotonic timestamp in nanoseconds read once where the event was born (a
frame captured, an edge seen). Nothing downstream reads the clock to decide what happened. Actions a
person takes on the page travel as `PlayerAction` on the same queue, so the journal, replay, undo and
tests all see one stream.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Any, ClassVar, Mapping


@dataclasses.dataclass(frozen=True)
class DieReading:
    """One die as the camera read it. `value` is 1–6 for pip dice, a fruit name, "matcho" or "blank".

    `unsure` is true when the reader could not decide; its `value` is then its best guess, which the
    table never scores without asking a person.
    """

    value: int | str
    center: tuple[float, float]
    box: tuple[float, float, float, float]
    confidence: float
    unsure: bool = False

    def to_json(self) -> dict[str, Any]:
        out = {
            "value": self.value,
            "center": [round(c, 1) for c in self.center],
            "box": [round(c, 1) for c in self.box],
            "confidence": round(self.confidence, 3),
        }
        if self.unsure:
            out["unsure"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "DieReading":
        if not isinstance(data, Mapping):
            raise BadEvent(f"a die is a JSON object, got {data!r}"[:200])
        for name, size in (("center", 2), ("box", 4)):
            place = data.get(name)
            if not isinstance(place, list) or len(place) != size or not all(_is_finite(c) for c in place):
                raise BadEvent(f"a die's {name} is {size} numbers, got {place!r}"[:200])
        if isinstance(data.get("value"), bool) or not isinstance(data.get("value"), (int, str)):
            raise BadEvent(f"a die's value is a number or a name, got {data.get('value')!r}"[:200])
        confidence = data.get("confidence")
        if not _is_finite(confidence) or not 0 <= confidence <= 1 + CONFIDENCE_ROUNDING:
            raise BadEvent(f"a die's confidence is a number from 0 to 1, got {confidence!r}"[:200])
        return cls(
            value=data["value"],
            center=tuple(data["center"]),
            box=tuple(data["box"]),
            confidence=min(float(confidence), 1.0),
            unsure=bool(data.get("unsure", False)),
        )


# Averaged float32 probabilities can come out a hair above 1: such a die, kept in a journal, must still load.
CONFIDENCE_ROUNDING = 1e-6


def _is_finite(value: Any) -> bool:
    """A JSON number that other programs can read back: not true/false, not infinity (1e999) or NaN."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or math.isfinite(value)  # a huge int is finite, and too large for isfinite


@dataclasses.dataclass(frozen=True)
class Event:
    type: ClassVar[str] = ""
    t: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, tuple) and value and isinstance(value[0], DieReading):
                value = [d.to_json() for d in value]
            elif isinstance(value, tuple):
                value = list(value)
            out[field.name] = value
        return out


@dataclasses.dataclass(frozen=True)
class DiceSettled(Event):
    """A roll has come to rest: the dice in the tray, read once."""

    type: ClassVar[str] = "dice_settled"
    dice: tuple[DieReading, ...] = ()


@dataclasses.dataclass(frozen=True)
class ZoneState(Event):
    """Continuous mode: the current face of every die in one zone ("fruit" or "matcho"), every frame."""

    type: ClassVar[str] = "zone_state"
    zone: str = ""
    dice: tuple[DieReading, ...] = ()


@dataclasses.dataclass(frozen=True)
class BananaSqueaked(Event):
    type: ClassVar[str] = "banana_squeaked"


@dataclasses.dataclass(frozen=True)
class BallEntered(Event):
    """A ball passed the gate of `opening` (1–6) at the top of Magic Mountain."""

    type: ClassVar[str] = "ball_entered"
    opening: int = 0


@dataclasses.dataclass(frozen=True)
class BallLanded(Event):
    """A ball passed the gate at the bottom of Magic Mountain."""

    type: ClassVar[str] = "ball_landed"


@dataclasses.dataclass(frozen=True)
class SensorHealth(Event):
    """A sensor changed health: state is "ok", "blocked", "stuck", "disconnected" or "error"; the hub is
    "outdated" when it works but its firmware is another version than the companion's."""

    type: ClassVar[str] = "sensor_health"
    sensor: str = ""
    state: str = ""
    message: str = ""


@dataclasses.dataclass(frozen=True)
class CameraHealth(Event):
    """The camera changed health: state is "ok", "missing", "lost" or "reopening"."""

    type: ClassVar[str] = "camera_health"
    state: str = ""
    message: str = ""


@dataclasses.dataclass(frozen=True)
class RecordingHealth(Event):
    """The recording of a session (`companion record`) changed health: state is "stopped"."""

    type: ClassVar[str] = "recording_health"
    state: str = ""
    message: str = ""


@dataclasses.dataclass(frozen=True)
class PlayerAction(Event):
    """Something a person did on the page: a game action (its JSON form), undo, a correction, ..."""

    type: ClassVar[str] = "player_action"
    action: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    source: str = "page"


@dataclasses.dataclass(frozen=True)
class GameSoFar(Event):
    """A recording that begins in the middle of a game (the service restarted as `companion record`, or a game
    resumed while recording): the game as the table held it, {"game", "setup", "history", "question", "held",
    "unstepped", "started", "clock_from"}, so its replay continues exactly that game, its last reading, question,
    kept event, what undo takes back and what its times can be compared with included."""

    type: ClassVar[str] = "game_so_far"
    game: Mapping[str, Any] = dataclasses.field(default_factory=dict)


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (DiceSettled, ZoneState, BananaSqueaked, BallEntered, BallLanded, SensorHealth, CameraHealth,
                RecordingHealth, PlayerAction, GameSoFar)
}


class BadEvent(ValueError):
    pass


_FIELD_KINDS: dict[str, tuple[type, str]] = {"int": (int, "a whole number"), "str": (str, "text"),
                                             "Mapping[str, Any]": (Mapping, "a JSON object")}


def event_from_json(data: Any) -> Event:
    """The event a JSON object describes; BadEvent naming the problem for anything else (a recording's line
    written by hand or by another version), so that a bad line never reaches the table."""
    if not isinstance(data, Mapping):
        raise BadEvent(f"an event is a JSON object, not {type(data).__name__}")
    cls = EVENT_TYPES.get(data.get("type"))  # type: ignore[arg-type]
    if cls is None:
        raise BadEvent(f"unknown event type {data.get('type')!r}")
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        if field.name not in data:
            if field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                raise BadEvent(f"event {cls.type!r} is missing {field.name!r}")
            continue
        value = data[field.name]
        if field.name == "dice":
            if not isinstance(value, list):
                raise BadEvent(f"event {cls.type!r}: dice must be a list, got {value!r}")
            value = tuple(DieReading.from_json(d) for d in value)
        elif field.type in _FIELD_KINDS:
            kind, words = _FIELD_KINDS[str(field.type)]
            if not isinstance(value, kind) or isinstance(value, bool):
                raise BadEvent(f"event {cls.type!r}: {field.name} must be {words}, got {value!r}"[:200])
        values[field.name] = value
    return cls(**values)
