"""The pin map: the one place pin numbers live (hardware/pinmap.json), read and validated.

A user edits the file to match their wiring, so every error names the sensor, the field and the value.
Each sensor has a Raspberry Pi GPIO (BCM numbering) for the "gpio" backend and/or a Pico GP pin for the
"hub" backend.
"""
from __future__ import annotations

import codecs
import dataclasses
import json
import re
from pathlib import Path
from typing import Any, Iterable

from ..config import not_utf8_at

SHIPPED_PIN_MAP = Path(__file__).resolve().parent.parent.parent / "hardware" / "pinmap.json"

KINDS = ("banana", "gate", "bottom")
OPENINGS = range(1, 7)

# BCM numbers on the 40-pin header; physical pin of each, for the diagram and the messages.
HEADER_GPIO_TO_PIN = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33, 19: 35,
    26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38,
    21: 40,
}
RESERVED_GPIO = {
    0: "the HAT ID EEPROM (ID_SD)",
    1: "the HAT ID EEPROM (ID_SC)",
    2: "I2C SDA, which has a fixed 1.8 kΩ pull-up",
    3: "I2C SCL, which has a fixed 1.8 kΩ pull-up",
    14: "UART TX, the serial console",
    15: "UART RX, the serial console",
}
# The Pico's physical pin (1–20 down one side from the USB end, 21–40 back up the other) of each GP number
# on it; GP23 (power save), GP24 (VBUS sense), GP25 (the LED) and GP29 (VSYS/3) are not on its pins.
PICO_GP_TO_PIN = {
    0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17, 14: 19,
    15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34,
}
PICO_GP = tuple(PICO_GP_TO_PIN)

_FIELDS = {"name", "kind", "opening", "gpio", "pico_gp", "active", "pull", "debounce_ms", "alarm_after_s", "note"}
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,15}$")
# Names the page's health messages already use for something other than a sensor (key "sensor:<name>"):
# a sensor so named would have its messages overwritten by theirs, and theirs by its.
RESERVED_NAMES = {
    "hub": "the sensor hub's link reports its own health under that name",
    "kit": "the service reports the whole sensor kit's health under that name",
}


class PinMapError(ValueError):
    """The pin map is unreadable or wrong; the message names the file, the sensor, the field and the value."""


@dataclasses.dataclass(frozen=True)
class SensorPins:
    name: str
    kind: str
    opening: int | None
    gpio: int | None
    pico_gp: int | None
    active_high: bool
    pull: str  # "up", "down" or "none"
    debounce_ns: int
    alarm_after_ns: int
    note: str = ""

    @property
    def label(self) -> str:
        """How a person names the sensor: "the banana", "gate 3", "the bottom gate"."""
        if self.kind == "gate":
            return f"gate {self.opening}"
        return "the banana" if self.kind == "banana" else "the bottom gate"


@dataclasses.dataclass(frozen=True)
class PinMap:
    source: str
    sensors: tuple[SensorPins, ...]

    def __iter__(self):
        return iter(self.sensors)

    def sensor(self, name: str) -> SensorPins:
        for s in self.sensors:
            if s.name == name:
                return s
        raise KeyError(name)

    def require(self, field: str) -> None:
        """Refuse a map where a sensor lacks the pin a backend needs ("gpio" or "pico_gp")."""
        for s in self.sensors:
            if getattr(s, field) is None:
                raise PinMapError(f"pin map {self.source}: sensor {s.name!r} has no {field}, "
                                  f"which the {'gpio' if field == 'gpio' else 'hub'} backend needs")


def load_pin_map(path: str | Path | None = None) -> PinMap:
    """Read and validate a pin map file; `None` or "" reads the shipped hardware/pinmap.json."""
    path = Path(path) if path else SHIPPED_PIN_MAP
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PinMapError(f"cannot read pin map {path}: {exc.strerror}") from None
    text = _utf8_text(raw, path)
    if not text.strip(" \t\r\n\0"):  # what a power cut leaves of a file written just before it
        raise PinMapError(f"pin map {path} is empty (likely a power cut while it was written): restore it from "
                          f"the shipped hardware/pinmap.json in the companion's source (then edit it to your "
                          f"wiring again), or run sudo systemd/install.sh again, which rewrites an empty one")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PinMapError(f"pin map {path} is not valid JSON: {exc}") from None
    return parse_pin_map(data, str(path))


def _utf8_text(raw: bytes, path: Path) -> str:
    """The file's text, read as UTF-8 with or without the byte-order mark Windows Notepad puts in front."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            raise PinMapError(f"pin map {path} is saved as UTF-16 (Notepad's \"Unicode\"): save it as UTF-8") from None
        if b"\0" in raw.strip(b" \t\r\n\0"):
            raise PinMapError(f"pin map {path} is not a text file") from None
        # exc.object is the text after the byte-order mark, which exc.start counts from
        raise PinMapError(f"pin map {path} {not_utf8_at(exc.object, exc.start)}") from None


def parse_pin_map(data: Any, source: str = "<pin map>") -> PinMap:
    def fail(message: str) -> PinMapError:
        return PinMapError(f"pin map {source}: {message}")

    if not isinstance(data, dict):
        raise fail("must be a JSON object with \"format\" and \"sensors\"")
    unknown = set(data) - {"format", "sensors", "comment"}
    if unknown:
        raise fail(f"unknown key(s) {', '.join(sorted(unknown))}; known: format, sensors, comment")
    if data.get("format") != 1:
        raise fail(f"format must be 1, got {data.get('format')!r}")
    entries = data.get("sensors")
    if not isinstance(entries, list) or not entries:
        raise fail("sensors must be a non-empty list")
    sensors = [_parse_sensor(entry, i, fail) for i, entry in enumerate(entries)]
    _check_unique(sensors, fail)
    return PinMap(source, tuple(sensors))


def _parse_sensor(entry: Any, index: int, fail) -> SensorPins:
    where = f"sensors[{index}]"
    if not isinstance(entry, dict):
        raise fail(f"{where} must be an object")
    name = entry.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        raise fail(f"{where}.name must be lower-case letters, digits or _ (at most 16), got {name!r}")
    if name in RESERVED_NAMES:
        raise fail(f"sensor {name!r}: the name {name!r} is reserved ({RESERVED_NAMES[name]}); "
                   f"choose another, like {name}1")
    where = f"sensor {name!r}"
    unknown = set(entry) - _FIELDS
    if unknown:
        raise fail(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(_FIELDS))}")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise fail(f"{where}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    opening = entry.get("opening")
    if kind == "gate":
        if not _is_int(opening) or opening not in OPENINGS:
            raise fail(f"{where}: opening must be 1–6 for a gate, got {opening!r}")
    elif opening is not None:
        raise fail(f"{where}: only a gate has an opening, got opening {opening!r} on a {kind}")

    gpio = entry.get("gpio")
    if gpio is not None:
        if not _is_int(gpio) or gpio not in HEADER_GPIO_TO_PIN:
            raise fail(f"{where}: gpio {gpio!r} is not a GPIO on the 40-pin header (BCM numbers 0–27)"
                       + _physical_pin_hint(gpio))
        if gpio in RESERVED_GPIO:
            raise fail(f"{where}: gpio {gpio} is reserved for {RESERVED_GPIO[gpio]}; choose another")
    pico_gp = entry.get("pico_gp")
    if pico_gp is not None and (not _is_int(pico_gp) or pico_gp not in PICO_GP):
        raise fail(f"{where}: pico_gp {pico_gp!r} is not a Pico GP pin on the header (GP0–GP22, GP26–GP28)")
    if gpio is None and pico_gp is None:
        raise fail(f"{where}: needs a gpio (wired to the Pi) or a pico_gp (wired to the hub), or both")

    active = entry.get("active", "low")
    if active not in ("low", "high"):
        raise fail(f"{where}: active must be \"low\" or \"high\", got {active!r}")
    pull = entry.get("pull", "up")
    if pull not in ("up", "down", "none"):
        raise fail(f"{where}: pull must be \"up\", \"down\" or \"none\", got {pull!r}")
    if kind in ("gate", "bottom") and pull == "down":
        raise fail(f"{where}: pull \"down\" cannot work with a break-beam receiver: its output is open "
                   f"collector and only pulls low; use \"up\" (or \"none\" with an external pull-up to 3.3 V)")
    if pull == "up" and active == "high" and kind != "banana":
        raise fail(f"{where}: a break-beam receiver pulls the line low when the beam is broken; "
                   f"active must be \"low\" with pull \"up\"")
    debounce_ms = entry.get("debounce_ms", 5 if kind != "banana" else 30)
    if not _is_number(debounce_ms) or not 0 <= debounce_ms <= 1000:
        raise fail(f"{where}: debounce_ms must be a number from 0 to 1000, got {debounce_ms!r}")
    alarm_after_s = entry.get("alarm_after_s", 3 if kind != "banana" else 5)
    if not _is_number(alarm_after_s) or not 0.5 <= alarm_after_s <= 600:
        raise fail(f"{where}: alarm_after_s must be a number from 0.5 to 600, got {alarm_after_s!r}")
    note = entry.get("note", "")
    if not isinstance(note, str):
        raise fail(f"{where}: note must be text, got {note!r}")
    return SensorPins(name, kind, opening, gpio, pico_gp, active == "high", pull,
                      int(debounce_ms * 1_000_000), int(alarm_after_s * 1_000_000_000), note)


def _physical_pin_hint(number: Any) -> str:
    """For a gpio that is no BCM number but a physical pin's (1–40): what is on that pin."""
    if not _is_int(number) or not 1 <= number <= 40:
        return ""
    on_pin = {pin: gpio for gpio, pin in HEADER_GPIO_TO_PIN.items()}.get(number)
    if on_pin is None:
        return f"; physical pin {number} is a ground or power pin, not a GPIO"
    if on_pin in RESERVED_GPIO:
        return f"; physical pin {number} is GPIO{on_pin}, reserved for {RESERVED_GPIO[on_pin]}: choose another"
    return f"; if you meant physical pin {number}, that is GPIO{on_pin}: write \"gpio\": {on_pin}"


def _check_unique(sensors: list[SensorPins], fail) -> None:
    def dupes(values: Iterable[tuple[str, Any]], what: str) -> None:
        seen: dict[Any, str] = {}
        for name, value in values:
            if value is None:
                continue
            if value in seen:
                raise fail(f"sensors {seen[value]!r} and {name!r} both use {what} {value}")
            seen[value] = name

    dupes(((s.name, s.name) for s in sensors), "the name")
    dupes(((s.name, s.gpio) for s in sensors), "gpio")
    dupes(((s.name, s.pico_gp) for s in sensors), "pico_gp")
    dupes(((s.name, s.opening) for s in sensors if s.kind == "gate"), "opening")
    for kind in ("banana", "bottom"):
        dupes(((s.name, s.kind) for s in sensors if s.kind == kind), "kind")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
