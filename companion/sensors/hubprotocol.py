"""The Pico hub's line protocol as the host reads it (the hub writes it in firmware/hubcore.py).

    <seq> B <version> <ticks_period> <pinmap_id>*CRC                             once at boot
    <seq> H <version> <ticks_period> <pinmap_id> <t_us> <dropped> <mask>*CRC       heartbeat, twice a second
    <seq> E <name> <1|0> <t_us>*CRC                                              a debounced edge

CRC is CRC-16/CCITT-FALSE of everything before the '*', as four hex digits. Anything else is a BadLine
whose message says what was wrong.
"""
from __future__ import annotations

import dataclasses
import re

from .pinmap import PinMap


class BadLine(ValueError):
    pass


def crc16(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


@dataclasses.dataclass(frozen=True)
class Boot:
    seq: int
    version: str
    period: int
    pinmap_id: str


@dataclasses.dataclass(frozen=True)
class Heartbeat:
    seq: int
    version: str
    period: int
    pinmap_id: str
    t_us: int
    dropped: int
    mask: int


@dataclasses.dataclass(frozen=True)
class Edge:
    seq: int
    name: str
    active: bool
    t_us: int


_LINE = re.compile(rb"^(\d{1,5}) ([A-Z]) ([ -)+-~]*)\*([0-9A-F]{4})$")
_UINT = re.compile(r"^\d{1,12}$")
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,15}$")
_VERSION = re.compile(r"^[0-9A-Za-z.+-]{1,20}$")
MAX_LINE = 120
FIRMWARE_VERSION = "1.0.1"
"""The firmware this companion ships in firmware/ (hubcore.VERSION). A hub with another major version may
mean other things by the same lines; another minor or patch version reads alike but is out of date."""


FIRMWARE_FIXES = {"1.0.1": "firmware before 1.0.1 can keep a released banana pressed"}
"""What each firmware version mended, told to a hub older than it: why updating matters."""


def version_key(version: str) -> tuple[int, ...] | None:
    """"1.0.1" as (1, 0, 1), to tell older from newer; None for a version that is not dotted numbers."""
    try:
        return tuple(int(part) for part in version.split("."))
    except ValueError:
        return None


def same_protocol(version: str) -> bool:
    return version.split(".")[0] == FIRMWARE_VERSION.split(".")[0]


def parse_line(raw: bytes) -> Boot | Heartbeat | Edge:
    line = raw.rstrip(b"\r\n")
    if len(line) > MAX_LINE:
        raise BadLine(f"line too long ({len(line)} bytes)")
    match = _LINE.match(line)
    if match is None:
        raise BadLine(f"not a hub line: {line[:40]!r}")
    body, crc = line[: line.rindex(b"*")], int(match.group(4), 16)
    if crc16(body) != crc:
        raise BadLine(f"checksum mismatch: line says {crc:04X}, content gives {crc16(body):04X}")
    seq, kind, fields = int(match.group(1)), match.group(2), match.group(3).decode("ascii").split(" ")
    if seq > 0xFFFF:
        raise BadLine(f"sequence number {seq} is above 65535")
    if kind in (b"H", b"B") and len(fields) > 1 and fields[1] in ("0", "1"):
        raise BadLine(f"clock period {fields[1]} in a {kind.decode()} line: the hub's ticks cannot wrap that soon")
    if kind == b"E" and len(fields) == 3 and _NAME.match(fields[0]) and fields[1] in ("0", "1") and _UINT.match(fields[2]):
        return Edge(seq, fields[0], fields[1] == "1", int(fields[2]))
    if kind == b"H" and len(fields) == 6 and _VERSION.match(fields[0]) and all(_UINT.match(f) for f in fields[1:2] + fields[3:]):
        return Heartbeat(seq, fields[0], int(fields[1]), fields[2], int(fields[3]), int(fields[4]), int(fields[5]))
    if kind == b"B" and len(fields) == 3 and _VERSION.match(fields[0]) and _UINT.match(fields[1]):
        return Boot(seq, fields[0], int(fields[1]), fields[2])
    raise BadLine(f"malformed {kind.decode()} line: {' '.join(fields)[:40]!r}")


def hub_sensors(pin_map: PinMap):
    """The sensors wired to the hub, in the order the firmware numbers them."""
    return [s for s in pin_map if s.pico_gp is not None]


def pinmap_id(pin_map: PinMap) -> str:
    """A short fingerprint of the hub's part of the pin map; the firmware reports the one it was built with."""
    canon = ";".join(f"{s.name}:{s.pico_gp}:{int(s.active_high)}:{s.pull}:{s.debounce_ns // 1000}"
                     for s in hub_sensors(pin_map))
    return f"{crc16(canon.encode()):04x}"
