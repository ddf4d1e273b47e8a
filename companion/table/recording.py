"""The event side of a recorded session, and replaying a session through the table.

A session directory holds `events.jsonl`: one JSON object per line, each an event's JSON form
(companion.events, with its `type` and monotonic `t` in nanoseconds), in the order the table received
them. The vision recorder (companion.vision.recording) adds the camera frames to the same directory
(frames.jsonl and the frames themselves); replaying the events alone reproduces the game, because the
settled rolls the camera produced are among the events.
"""
from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Callable

from ..durable import write_bytes
from ..events import BadEvent, Event, ZoneState, event_from_json
from .owner import REMEMBER_ONLY, Outcome, Table

EVENTS_FILE = "events.jsonl"


class BadRecording(ValueError):
    pass


class EventRecorder:
    """Appends every event to events.jsonl, flushed line by line to the operating system but not fsynced
    (that would stall every event on the SD card): a crash of the process loses at most the line being
    written, a power cut the lines of the last seconds, which the system had not yet written to the disk
    (`companion record` has them written when it ends). The game itself is in the journal, which a power cut
    does not lose."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._file = open(self.directory / EVENTS_FILE, "a", encoding="utf-8")
        self._lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        line = json.dumps(event.to_json(), separators=(",", ":"))
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()

    def close(self) -> None:
        """Lines a full disk would not take (the table stopped the recording then) are given up here."""
        with self._lock:
            try:
                self._file.close()
            except OSError:
                pass


def write_events(directory: str | Path, events: list[Event]) -> Path:
    """The events as `directory`/events.jsonl, written whole or not at all (companion.durable)."""
    path = Path(directory) / EVENTS_FILE
    write_bytes(path, events_text(events))
    return path


def events_text(events: list[Event]) -> bytes:
    """The events as events.jsonl holds them: one compact JSON object per line."""
    return "".join(json.dumps(e.to_json(), separators=(",", ":")) + "\n" for e in events).encode("utf-8")


def read_events(directory: str | Path, on_cut_short: Callable[[str], None] | None = None) -> list[Event]:
    """The recorded events. A last line without its newline that is not whole JSON was cut short by a
    crash or a power cut while recording (`EventRecorder`): it is left out, and `on_cut_short` told why."""
    path = Path(directory) / EVENTS_FILE
    try:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
    except FileNotFoundError:
        raise BadRecording(f"{directory} is not a recorded session: {EVENTS_FILE} is missing") from None
    except NotADirectoryError:
        raise BadRecording(f"{directory} is not a recorded session: a session is a directory") from None
    except UnicodeDecodeError:
        raise BadRecording(f"{path} is not a text file of events") from None
    except OSError as exc:
        raise BadRecording(f"cannot read {path}: {exc.strerror}") from None
    events = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            events.append(event_from_json(json.loads(line)))
        except json.JSONDecodeError as exc:
            if number == len(lines) and not text.endswith("\n"):
                if on_cut_short is not None:
                    on_cut_short(f"{path} line {number} was cut short (a power cut while recording?); "
                                 f"the {len(events)} events before it are kept")
                break
            raise BadRecording(f"{path} line {number}: {exc}") from None
        except (BadEvent, KeyError, TypeError, ValueError) as exc:
            raise BadRecording(f"{path} line {number}: {exc}") from None
    return events


def replay(events: list[Event], table: Table, *, fast: bool = False, speed: float = 1.0, after: int = -1,
           on_ack: Callable[[int, Outcome], None] | None = None, stop: threading.Event | None = None,
           sleep: Callable[[float], None] = time.sleep) -> int:
    """Drive the table with recorded events, each one acknowledged before the next is sent, so the same
    recording gives the same game every time. Real time (scaled by `speed`) unless `fast`. Events at or
    before position `after` are skipped (resuming after a restart). Returns the number sent."""
    sent = 0
    previous_t = None
    if 0 <= after < len(events):
        # The camera's zone frames just before where the replay stopped, which the table kept in memory
        # only: a squeak kept for the next frame is judged on them, as it was in the replay interrupted.
        for event in events[:after + 1]:
            if isinstance(event, ZoneState) and events[after].t - event.t <= table.zones.keep_ns:
                table.submit(event, position=REMEMBER_ONLY).result()
    for position, event in enumerate(events):
        if stop is not None and stop.is_set():
            break
        if position <= after:
            previous_t = event.t
            continue
        if not fast and previous_t is not None and event.t > previous_t:
            sleep((event.t - previous_t) / 1e9 / speed)
        previous_t = event.t
        outcome = table.submit(event, position=position).result()
        sent += 1
        if on_ack is not None:
            on_ack(position, outcome)
    return sent
