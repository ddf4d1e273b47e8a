"""`companion sensors test`: every sensor event and each sensor's state, live, for the person wiring the kit.

With `--backend mock` a scripted demo plays the sensors (a bouncy banana slap, balls through the gates,
two gates at once) so the printout can be seen and tested without hardware.
"""
from __future__ import annotations

import contextlib
import math
import os
import queue
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator

from ..events import Event, SensorHealth
from .kit import BACKENDS, SensorKit
from ..cli import positive_number
from .pinmap import HEADER_GPIO_TO_PIN, PICO_GP_TO_PIN, PinMap, PinMapError, load_pin_map

# (seconds into the demo, sensor, active); the demo repeats.
DEMO_SCRIPT: tuple[tuple[float, str, bool], ...] = (
    (0.20, "banana", True), (0.2004, "banana", False), (0.2009, "banana", True), (0.2011, "banana", False),
    (0.2015, "banana", True), (0.35, "banana", False), (0.3503, "banana", True), (0.3506, "banana", False),
    (0.60, "gate3", True), (0.63, "gate3", False),
    (1.10, "bottom", True), (1.13, "bottom", False),
    (1.40, "gate1", True), (1.40, "gate6", True), (1.43, "gate1", False), (1.44, "gate6", False),
    (1.90, "bottom", True), (1.92, "bottom", False), (1.95, "bottom", True), (1.97, "bottom", False),
)
DEMO_PERIOD_S = 2.5


def add_arguments(parser) -> None:
    parser.add_argument("action", choices=["test"], help="test: print every event and each sensor's state")
    parser.add_argument("--backend", choices=BACKENDS, help="where the sensors are (default: sensors.backend)")
    parser.add_argument("--pin-map", help="the pin map file (default: sensors.pin_map, else hardware/pinmap.json)")
    parser.add_argument("--hub-port", help="the hub's serial port (default: sensors.hub_port)")
    parser.add_argument("--seconds", type=positive_number, help="stop after this many seconds (default: until Ctrl-C)")
    parser.add_argument("--settings", type=Path,
                        help="the settings file (default: $COMPANION_SETTINGS or /etc/companion/companion.toml)")


def run(args) -> int:
    from ..cli import CliError, require_hardware_free
    from ..config import BadSettings, load_settings, settings_file

    if args.seconds is not None and not (args.seconds > 0 and math.isfinite(args.seconds)):
        raise CliError(f"--seconds must be a finite number above 0, got {args.seconds:g}")
    try:
        settings = load_settings(settings_file(args.settings))
        section = settings["sensors"]
        pin_map = load_pin_map(args.pin_map or section["pin_map"] or None)
    except (BadSettings, PinMapError) as exc:
        raise CliError(str(exc)) from None
    backend = args.backend or section["backend"]
    if backend in ("gpio", "hub"):
        require_hardware_free("the sensors" if backend == "gpio" else "the sensor hub", settings.state_dir)
    with lgpio_work_dir(load_lgpio=backend == "gpio"):
        return _test(args, settings, pin_map, backend)


def _test(args, settings, pin_map: PinMap, backend: str) -> int:
    from ..cli import CliError

    section = settings["sensors"]
    events: queue.Queue[Event] = queue.Queue()
    clock = DemoClock()
    try:
        kit = SensorKit(pin_map, events, clock, backend=backend, hub_port=args.hub_port or section["hub_port"])
    except (ValueError, ImportError) as exc:
        raise CliError(str(exc)) from None
    print(f"sensors test: backend {backend}, pin map {pin_map.source}")
    for line in describe(pin_map, backend):
        print(line)
    print("Ctrl-C stops." if args.seconds is None else f"stopping after {args.seconds:g} s (Ctrl-C stops sooner).")
    sys.stdout.flush()
    start = kit.clock()  # before the backend opens the sensors: what it says while opening them is at 0 s on
    if backend == "mock":
        clock.until = start  # the demo's script counts from here, however late its thread starts
    try:
        kit.start()
    except PinMapError as exc:
        raise CliError(str(exc)) from None
    shown = state_line(kit, backend)
    print(f"{'':13}{shown}")
    sys.stdout.flush()
    stop = threading.Event()
    deadline = None if args.seconds is None else start + int(args.seconds * 1e9)
    if backend == "mock":
        threading.Thread(target=play_demo, args=(kit.backend, stop, clock, events, deadline), name="sensors-demo",
                         daemon=True).start()
    counts: dict[str, int] = {}
    try:
        while deadline is None or kit.clock() < deadline:
            try:
                event = events.get(timeout=0.05)
            except queue.Empty:
                event = None
            if event is not None and deadline is not None and event.t >= deadline:
                break  # the printout fell behind: this one came after the stop
            if event is not None:
                count_and_print(event, counts, start)
            now_shown = state_line(kit, backend)
            # the kit queues a change's event before it lets go of its lock, which states() waits for: a
            # change whose event is still queued is shown after that event
            if now_shown != shown and (event is not None or events.empty()):
                shown = now_shown
                print(f"{'':13}{shown}")
            sys.stdout.flush()
            if event is not None:
                events.task_done()
    except KeyboardInterrupt:
        print()
    finally:
        stop.set()
        kit.close()
    while not events.empty():  # heard before the stop, still queued behind a slow printout
        event = events.get_nowait()
        if deadline is None or event.t < deadline:
            count_and_print(event, counts, start)
    summary = ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or "no events"
    trouble = not_seen(kit, backend)
    states = "" if hub_blind(kit, backend) else f"; states: {state_line(kit, backend)}"
    print(f"stopped: {summary}{states}" + (f"; FAILED: {trouble}" if trouble else "") + never_fired(kit, backend))
    return 1 if trouble else 0


@contextlib.contextmanager
def lgpio_work_dir(load_lgpio: bool) -> Iterator[None]:
    """A folder lgpio (gpiozero's pin library on a Pi 5) can write its notification pipe `.lgd-nfyN` in.

    lgpio makes the pipe in $LG_WD, else in the current folder: run from a folder the user cannot write
    (/, another user's home), every sensor failed to open (gpiozero issue #1106). Unless LG_WD is set (the
    service's unit sets it), it is a fresh temporary folder while the test runs. lgpio's Python side opens
    the pipe by its bare name, in the current folder, once, when it is imported: so it is imported here,
    from inside LG_WD, and the command then goes on in the folder it was started in."""
    given = os.environ.get("LG_WD")
    with contextlib.ExitStack() as cleanup:
        if not given:
            folder = cleanup.enter_context(tempfile.TemporaryDirectory(prefix="companion-lgpio-"))
            os.environ["LG_WD"] = folder
            cleanup.callback(os.environ.pop, "LG_WD", None)
        if load_lgpio:
            _import_lgpio_in(os.environ["LG_WD"])
        yield


def _import_lgpio_in(folder: str) -> None:
    try:
        here: str | None = os.getcwd()
    except OSError:  # started in a folder since deleted: nowhere to come back to
        here = None
    try:
        os.chdir(folder)
        import lgpio  # noqa: F401
    except Exception:  # noqa: BLE001 - not installed, or not working: gpiozero says so per sensor
        pass
    finally:
        if here is not None:
            with contextlib.suppress(OSError):
                os.chdir(here)


def count_and_print(event: Event, counts: dict[str, int], start: int) -> None:
    counts[event.type] = counts.get(event.type, 0) + 1
    print(f"{max(0, event.t - start) / 1e9:9.3f} s  {describe_event(event)}")


class DemoClock:
    """The kit's clock: monotonic ns, held at the demo's next step until the demo has played it.

    A busy machine can hold the demo's thread back for longer than a debounce window: on the bare clock a
    bounce would then read as two squeaks, and two landings in a row as one. Held, the demo plays as
    scripted however late it runs. With `until` None (other backends) it is the bare clock."""

    def __init__(self):
        self.until: int | None = None

    def __call__(self) -> int:
        now = time.monotonic_ns()
        return now if self.until is None else min(now, self.until)


def hub_connected(kit, backend: str) -> bool | None:
    """With the hub backend, whether the hub is connected (its link "ok", or "error": talking, with trouble);
    None with the other backends."""
    link = getattr(kit.backend, "link", None) if backend == "hub" else None
    if link is None:
        return None if backend != "hub" else False
    return link.state in ("ok", "error")


def hub_unheard(kit, backend: str) -> bool:
    """With the hub backend, connected but without a heartbeat taken: its sensors' levels are not known (a
    firmware not running sends none; a running one sends one twice a second)."""
    link = getattr(kit.backend, "link", None) if backend == "hub" else None
    return link is not None and not link.synced and not link.sensors_off


def hub_silent_s(kit, now: int) -> float | None:
    """With the hub unheard (`hub_unheard`): the seconds from its last heartbeat to `now` if it sent one and then
    went silent; None if it never sent one on this connection."""
    link = kit.backend.link
    if not link.silent or link.last_heartbeat_ns is None:
        return None
    return (now - link.last_heartbeat_ns) / 1e9


def hub_blind(kit, backend: str) -> str:
    """Why no sensor on the hub can be seen, for the state line ("" when they can, or with no hub)."""
    if hub_connected(kit, backend) is False:
        return "hub not connected: no sensor can be seen"
    if backend == "hub" and kit.backend.link.sensors_off:
        return "the hub's sensors are off (see the message above): no sensor can be seen"
    if hub_unheard(kit, backend):
        quiet = hub_silent_s(kit, kit.backend.link.silent_ns)  # as found silent: the line is printed when it changes
        if quiet is not None:
            return f"the hub went silent ({quiet:.1f} s without a heartbeat): no sensor can be seen"
        return "no heartbeat from the hub yet: no sensor can be seen"
    return ""


def state_line(kit, backend: str) -> str:
    """Each sensor's state; with the hub's sensors not seen, why instead (they are not idle)."""
    return hub_blind(kit, backend) or format_states(kit.states())


def not_seen(kit, backend: str) -> str:
    """What kept sensors from being tested, for the last line ("" when every sensor was open)."""
    if hub_connected(kit, backend) is False:
        return "the hub is not connected, so no sensor was seen"
    if backend == "hub" and kit.backend.link.sensors_off:
        return "the hub's firmware does not fit this companion (see the message above), so no sensor was seen"
    if hub_unheard(kit, backend):
        quiet = hub_silent_s(kit, kit.clock())
        if quiet is not None:
            return (f"the hub went silent: no heartbeat in the last {quiet:.1f} s, so its sensors were not seen "
                    "since (see the message above)")
        return ("the hub sent no heartbeat, so no sensor was seen: its firmware is not running (see "
                "firmware/README.md)")
    failed = [name for name, state in kit.states().items() if state.startswith("failed")]
    if not failed:
        return ""
    return (f"{len(failed)} sensor{'s' if len(failed) != 1 else ''} could not be opened ({', '.join(failed)}); "
            "see the messages above")


def never_fired(kit, backend: str) -> str:
    """The open sensors that never fired, for the last line: one wired to another pin than the pin map says
    is silent, not failed."""
    if hub_blind(kit, backend):
        return ""
    silent = [name for name, inp in kit.inputs.items() if not inp.fired and not inp.failed]
    return f"; never fired: {', '.join(silent)}" if silent else ""


def describe(pin_map: PinMap, backend: str) -> list[str]:
    lines = []
    for s in pin_map:
        if backend == "hub":
            where = f"hub GP{s.pico_gp} (Pico pin {PICO_GP_TO_PIN[s.pico_gp]})" if s.pico_gp is not None \
                else "not on the hub"
        else:
            where = f"GPIO{s.gpio} (pin {HEADER_GPIO_TO_PIN[s.gpio]})" if s.gpio is not None else "no gpio"
        pull = {"up": "pull-up", "down": "pull-down", "none": "no pull"}[s.pull]
        level = "high" if s.active_high else "low"
        lines.append(f"  {s.name:<8} {s.label:<16} {where:<18} active {level}, {pull}")
    return lines


def describe_event(event: Event) -> str:
    if isinstance(event, SensorHealth):
        return f"{event.type} {event.sensor}: {event.state} — {event.message}"
    extra = " ".join(f"{k}={v}" for k, v in event.to_json().items() if k not in ("type", "t"))
    return f"{event.type} {extra}".rstrip()


def format_states(states: dict[str, str]) -> str:
    return " ".join(f"{name}={'ACTIVE' if state == 'active' else state}" for name, state in states.items())


def play_demo(backend, stop: threading.Event, clock: DemoClock, events: queue.Queue, end: int | None) -> None:
    """Act out DEMO_SCRIPT on the mock pins, over and over, until `stop` or the clock's `end` (None: none);
    skips sensors not in the pin map.

    Each step waits until the events before it are printed, with their state lines (two gates at once are
    shown both active however slowly the printout runs), and `clock` is held at the step until it is played."""
    names = {s.name for s in backend._pins_map}
    try:
        began = clock.until if clock.until is not None else time.monotonic_ns()
        while not stop.is_set():
            for at, name, active in DEMO_SCRIPT:
                if end is not None and began + int(at * 1e9) >= end:
                    return
                clock.until = began + int(at * 1e9)
                while events.unfinished_tasks and not stop.is_set():
                    stop.wait(0.005)
                if stop.wait(max(0.0, (clock.until - time.monotonic_ns()) / 1e9)):
                    return
                if name in names:
                    backend.set_sensor(name, active)
            began += int(DEMO_PERIOD_S * 1e9)
    finally:  # nothing more to play, or a demo that broke: the clock runs on to the deadline
        clock.until = None
