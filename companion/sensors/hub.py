"""The Pico hub's host driver: lines in over USB serial (pyserial), checked, timed, and fed to the kit.

- Every line's checksum and sequence number is checked; corrupt and lost lines are counted in `HubStats`
  and reported as SensorHealth("hub", "error", ...) — once when trouble starts, "ok" after a clean spell.
- Hub time (time.ticks_us, which wraps) is unwrapped and mapped onto the host's monotonic ns. A line
  reaches the host after its hub timestamp, never before, so host_ns - hub_ns = offset + delay with
  delay >= 0: the smallest difference over a sliding window is the offset, whatever the USB jitter.
- An unplugged hub is reported as "disconnected" and reopened every `retry_s` until it is back; a port that is
  there but held by another program, or not this user's to open, is told as that (the cable is fine).
"""
from __future__ import annotations

import collections
import dataclasses
import errno
import threading
from typing import Callable

from .hubprotocol import (FIRMWARE_FIXES, FIRMWARE_VERSION, MAX_LINE, BadLine, Boot, Edge, Heartbeat, hub_sensors,
                          parse_line, pinmap_id, same_protocol, version_key)

PICO_USB_VENDOR = 0x2E8A
CLEAN_SPELL_NS = 5_000_000_000
MAX_HELD_EDGES = 64  # edges held until the hub's heartbeat; it beats twice a second, so more means trouble
COPY_FIRMWARE = "copy this companion's firmware/hubcore.py, hub_pins.py and main.py to the Pico (firmware/README.md)"
RESTART_FIRMWARE = f"{COPY_FIRMWARE}, then unplug it and plug it in again"
UPDATE_COMPANION = "update the companion: `git pull` in your clone of the project, then `sudo systemd/install.sh`"


def other_version(version: str) -> tuple[str, str]:
    """What is wrong with a hub whose firmware is another version of the same protocol, and what to do: an older
    one lacks the fixes since (it is flashed again), a newer one came from a newer companion (which is updated)."""
    ours, theirs = version_key(FIRMWARE_VERSION), version_key(version)
    runs = f"the hub runs firmware {version}"
    if ours is not None and theirs is not None and theirs < ours:
        missed = [why for fixed_in, why in FIRMWARE_FIXES.items() if theirs < version_key(fixed_in)]
        why = "; ".join(missed) or "it lacks the later fixes"
        return f"{runs}, older than the {FIRMWARE_VERSION} this companion ships: its sensors work, but {why}", \
            RESTART_FIRMWARE
    if ours is not None and theirs is not None:
        return (f"{runs}, newer than the {FIRMWARE_VERSION} this companion ships: its sensors work, but this "
                f"companion may not know what the newer firmware does"), UPDATE_COMPANION
    return f"{runs}; this companion ships {FIRMWARE_VERSION}: its sensors work, but the versions differ", \
        f"flash the hub from this companion: {RESTART_FIRMWARE}"


GONE_ERRNOS = (errno.EIO, errno.ENODEV, errno.ENXIO)  # a USB serial port whose device went away


def read_failure(exc: Exception) -> str:
    """Why reading the hub's port failed, in plain words where pyserial's mean nothing to a person. pyserial
    says every failure as a SerialException (an OSError), wrapping the OS's error in its text."""
    said = str(exc)
    if "returned no data" in said:  # the port said a line was ready, then gave none
        return ("its port went away or is read by another program too: the cable unplugged, the Pico restarted, "
                "or a program that does not lock the port reads it (a terminal, ModemManager)")
    if getattr(exc, "errno", None) in GONE_ERRNOS or any(f"[Errno {code}]" in said for code in GONE_ERRNOS):
        return "its USB port went away: the cable unplugged, or the Pico restarted"
    return said or type(exc).__name__


class HubNotFound(OSError):
    pass


class HubPortRefused(HubNotFound):
    """The hub's port is there but cannot be opened (held by another program, or not this user's): the message
    says so and what to do, and is told as it is, not as a hub disconnected (which sends a person to the cable)."""


class HubBusy(HubPortRefused):
    """The hub's port is held by another program (which may be the companion service)."""


def find_hub_port() -> str:
    from serial.tools import list_ports

    for port in list_ports.comports():
        if port.vid == PICO_USB_VENDOR:
            return port.device
    raise HubNotFound(f"no Raspberry Pi Pico on USB (vendor id {PICO_USB_VENDOR:04x}); plug in the hub or set sensors.hub_port")


def open_serial(port: str):
    """The hub's port, held alone: two readers of one port each get part of the lines."""
    import serial

    device = find_hub_port() if port == "auto" else port
    try:
        return serial.Serial(device, 115200, timeout=0.1, exclusive=True)
    except serial.SerialException as exc:
        if "exclusively lock" in str(exc):
            raise HubBusy(f"the hub's port {device} is held by another program (the companion service, "
                          f"`companion sensors test`, Thonny or mpremote): close it") from None
        if exc.errno == errno.EACCES:
            raise HubPortRefused(f"this user may not open the hub's port {device}: add the user to the dialout group "
                                 f"with `sudo usermod -aG dialout $USER`, then log out and in again (the service's "
                                 f"own user is in it)") from None
        raise


class HubClock:
    """Unwraps the hub's ticks_us and maps them to host monotonic ns by a sliding minimum."""

    def __init__(self, window: int = 64):
        self.samples: collections.deque[int] = collections.deque(maxlen=window)
        self.period = 0
        self.last_raw: int | None = None
        self.unwrapped = 0

    def reset(self, period: int) -> None:
        self.samples.clear()
        self.period = period
        self.last_raw = None
        self.unwrapped = 0

    def unwrap(self, raw: int) -> int:
        """Hub microseconds on a line that does not wrap; lines must come less than half a period apart
        (the hub sends a heartbeat every 0.5 s; its period is about 18 minutes)."""
        if self.last_raw is not None:
            delta = (raw - self.last_raw) % self.period
            if delta >= self.period // 2:
                delta -= self.period
            self.unwrapped += delta
        else:
            self.unwrapped = raw
        self.last_raw = raw
        return self.unwrapped

    def to_host(self, raw_us: int, received_ns: int) -> int:
        hub_ns = self.unwrap(raw_us) * 1000
        self.samples.append(received_ns - hub_ns)
        return min(hub_ns + min(self.samples), received_ns)


@dataclasses.dataclass
class HubStats:
    lines: int = 0
    corrupt: int = 0
    lost: int = 0
    dropped_on_hub: int = 0
    unknown_sensor: int = 0
    connects: int = 0
    disconnects: int = 0
    version: str = ""


class HubLink:
    """What the lines mean: sequence, clock, edges into the kit, health out. No threads, no port."""

    def __init__(self, kit):
        self.kit = kit
        self.clock = HubClock()
        self.stats = HubStats()
        self.expected_seq: int | None = None
        self.state = "starting"
        self.trouble_since: int | None = None
        self.last_good_ns: int | None = None
        self.synced = False
        self.silent = False
        self.silent_ns: int | None = None  # when the hub was last found silent
        self.last_heartbeat_ns: int | None = None  # this connection's
        self.mismatched = False
        self.incompatible = False
        self.version_told = ""
        self.other_version = ""  # what is told instead of "ok" while the hub's firmware is another version
        self.in_traceback = False
        self.crash = ""  # MicroPython's last line when the firmware stopped with an error
        self.others: list[str] = []  # lines that are not the hub's since its last one: another program's
        self.names = [s.name for s in hub_sensors(kit.pin_map)]
        self.pinmap_id = pinmap_id(kit.pin_map)
        self.held: list[tuple[Edge, int]] | None = []  # None: too many came, the heartbeat's levels are taken
        self.dropped_baseline = True
        self.refused: bool | None = None  # while disconnected: whether the port was there but refused

    def connected(self, now: int, port: str) -> None:
        """A new connection starts a new clock estimate: a hub plugged back in has restarted its ticks, and
        its boot line went out before the port was open, so only its heartbeats tell."""
        self.stats.connects += 1
        self.expected_seq = None
        self.synced = False
        self.silent = self.mismatched = self.incompatible = False
        self.last_heartbeat_ns = None
        self.version_told = self.other_version = ""
        self.in_traceback = False
        self.crash = ""
        self.others = []
        self.held = []
        self.dropped_baseline = True  # the hub's count of dropped edges may be from before this connection
        self.clock.reset(self.clock.period)
        self.last_good_ns = now
        self.refused = None
        self._set("ok", now, f"hub connected on {port}")

    def disconnected(self, now: int, why: str, refused: bool = False) -> None:
        """`refused`: the port is there but cannot be opened, and `why` says so (HubPortRefused)."""
        if self.state != "disconnected":
            self.stats.disconnects += 1
        self._sensors_unknown(now)
        what = why if refused else f"hub disconnected ({why})"
        # told again when the kind of reason changes: a hub plugged back in while Thonny holds its port
        self._set("disconnected", now, f"{what}; the banana and the gates are off until it is back",
                  told_again=refused != self.refused)
        self.refused = refused

    def feed(self, raw: bytes, received_ns: int) -> None:
        try:
            msg = parse_line(raw)
        except BadLine as exc:
            self.stats.corrupt += 1
            self._trouble(received_ns, f"corrupt line from the hub: {exc}")
            self._traceback_line(raw, received_ns)
            self.others = self.others[-1:] + [raw.decode("ascii", "replace").strip()[:40]]
            return
        self.in_traceback = False
        self.crash = ""
        self.others = []
        self._check_seq(msg, received_ns)
        self.stats.lines += 1
        self.last_good_ns = received_ns
        self.silent = False
        if isinstance(msg, (Boot, Heartbeat)):
            self._check_version(msg.version, received_ns)
            if not self.incompatible:
                self._check_pin_map(msg.pinmap_id, received_ns)
        if isinstance(msg, Boot):
            self.clock.reset(msg.period)
            self.stats.version = msg.version
            self.synced = False
            self.held = []
        elif isinstance(msg, Heartbeat):
            self._heartbeat(msg, received_ns)
        elif isinstance(msg, Edge):
            self._edge(msg, received_ns)
        if self.state == "error" and received_ns - (self.trouble_since or received_ns) >= CLEAN_SPELL_NS:
            self._set("ok", received_ns, "hub lines are clean again")
        elif self.state == "error" and self.trouble_since is None:
            self._set("ok", received_ns, "hub is talking again")

    def _traceback_line(self, raw: bytes, now: int) -> None:
        """MicroPython's traceback when the firmware stops: its first line that is not indented names the
        error (a file not copied to the Pico, a pin it cannot use), and is told with what to do."""
        if raw.startswith(b"Traceback (most recent call last)"):
            self.in_traceback = True
        elif self.in_traceback and not raw[:1].isspace():
            self.in_traceback = False
            self.crash = raw.decode("ascii", "replace").strip()[:MAX_LINE]
            self._set("error", now, f"the hub's firmware stopped with {self.crash}: {RESTART_FIRMWARE}",
                      told_again=True)

    def check_silence(self, now: int, silence_ns: int) -> None:
        """Told even when the hub is already in trouble: a firmware that crashes sends its traceback (a
        corrupt line) and then nothing, and the silence is what a person must hear about."""
        if self.state in ("ok", "error") and not self.silent and self.last_good_ns is not None \
                and now - self.last_good_ns >= silence_ns:
            self.silent = True
            self.silent_ns = now
            self.trouble_since = None
            self._sensors_unknown(now)
            quiet_s = (now - self.last_good_ns) / 1e9
            silent = f"hub silent for {quiet_s:.1f} s"
            if self.crash:
                message = f"{silent}: its firmware stopped with {self.crash}: {RESTART_FIRMWARE}"
            elif len(self.others) > 1:  # more than the tail of a line cut by opening the port
                message = (f"no hub line for {quiet_s:.1f} s, only others (the last: "
                           f"{self.others[-1]!r}): the Pico runs another program than the hub's firmware: "
                           f"{RESTART_FIRMWARE}")
            else:
                message = (f"{silent}: is its firmware running? An open REPL (Thonny's) stops it; unplug the Pico "
                           f"and plug it in again: its LED blinks once a second while the firmware runs, and if it "
                           f"does not, {COPY_FIRMWARE}")
            self._set("error", now, message, told_again=True)

    def _sensors_unknown(self, now: int) -> None:
        """What the sensors show is unknown until the hub's next heartbeat says: every one is idle till then,
        so none turns "blocked" while the hub cannot be heard."""
        self.synced = False
        self.held = []
        for name in self.names:
            self.kit.initial(name, False, now, known=False)

    @property
    def sensors_off(self) -> bool:
        """The hub's lines are read but its sensors not taken: it was built for another pin map or another
        version of the protocol."""
        return self.mismatched or self.incompatible

    def _check_version(self, version: str, now: int) -> None:
        """Told once a connection: a firmware of another major version is not read (its lines may mean
        other things); an older or newer one of the same major version works, and is told as "outdated"
        whenever the hub would be "ok", so the page keeps showing it."""
        self.incompatible = not same_protocol(version)
        if self.incompatible:
            self.trouble_since = now
        if version == self.version_told or (version == FIRMWARE_VERSION and not self.version_told):
            return
        self.version_told = version
        if version == FIRMWARE_VERSION:  # updated without being unplugged: a soft reset keeps its USB port
            self.other_version = ""
            if self.state == "ok":
                self._set("ok", now, f"the hub runs firmware {version}, the one this companion ships", told_again=True)
            return
        if self.incompatible:
            self._set("error", now, f"the hub runs firmware {version}, which this companion cannot read (it "
                                    f"ships {FIRMWARE_VERSION}); its sensors are off until you {COPY_FIRMWARE}",
                      told_again=True)
        else:
            self.other_version = ": ".join(other_version(version))
            if self.state in ("starting", "ok"):
                self._set("ok", now, self.other_version, told_again=True)

    def _check_pin_map(self, hub_id: str, now: int) -> None:
        """A hub built for another pin map names its sensors by that map: its edges would be another gate's
        (a ball through opening 1 played as opening 6), so they are not taken until it is rebuilt."""
        if hub_id == self.pinmap_id:
            self.mismatched = False
            return
        self.trouble_since = now
        if not self.mismatched:
            self.mismatched = True
            self._set("error", now, f"the hub's firmware was built for another pin map (hub {hub_id}, here "
                                    f"{self.pinmap_id}); its sensors are off until you run `python3 -m "
                                    f"companion.sensors.hubpins {self.kit.pin_map.source}` in your clone of the "
                                    f"project and copy the firmware/hub_pins.py it writes there to the Pico "
                                    f"(firmware/README.md)", told_again=True)

    def _check_seq(self, msg, now: int) -> None:
        if isinstance(msg, Boot):
            self.expected_seq = (msg.seq + 1) & 0xFFFF
            return
        if self.expected_seq is not None and msg.seq != self.expected_seq:
            gap = (msg.seq - self.expected_seq) & 0xFFFF
            self.stats.lost += gap
            self._trouble(now, f"{gap} line(s) from the hub lost (sequence {self.expected_seq} expected, {msg.seq} came)")
        self.expected_seq = (msg.seq + 1) & 0xFFFF

    def _heartbeat(self, msg: Heartbeat, now: int) -> None:
        """The first heartbeat of a connection (or after a boot or a silence) gives each sensor's level;
        the edges held before it are then played, each sensor starting at the level before its first one."""
        self.last_heartbeat_ns = now
        if self.clock.period != msg.period:
            self.clock.reset(msg.period)
        self.stats.version = msg.version
        if msg.dropped > self.stats.dropped_on_hub and not self.dropped_baseline:
            self._trouble(now, f"the hub dropped {msg.dropped - self.stats.dropped_on_hub} edge(s): too many at once")
        self.dropped_baseline = False
        self.stats.dropped_on_hub = msg.dropped
        held = [(edge, self.clock.to_host(edge.t_us, received)) for edge, received in self.held or ()]
        self.held = []
        t = self.clock.to_host(msg.t_us, now)
        if self.sensors_off:
            return
        if self.synced:
            # every edge before the heartbeat came before it: a level that differs is a line lost on the way
            for i, name in enumerate(self.names):
                level = bool(msg.mask >> i & 1)
                if self.kit.inputs[name].debouncer.active != level:
                    self.kit.initial(name, level, t, f"hub GP{self.kit.pin_map.sensor(name).pico_gp}")
            return
        self.synced = True
        start = min([t] + [at for _, at in held])
        for i, name in enumerate(self.names):
            first = next((edge for edge, _ in held if edge.name == name), None)
            where = f"hub GP{self.kit.pin_map.sensor(name).pico_gp}"
            if first is None:
                self.kit.initial(name, bool(msg.mask >> i & 1), t, where)
            else:
                self.kit.initial(name, not first.active, start, where)
        for edge, at in held:
            self._play(edge, at, now)

    def _edge(self, msg: Edge, now: int) -> None:
        """Held until the hub is known (its clock period, pin map and sensor levels come with its heartbeat,
        twice a second), so an edge in the moment the port opens is played, and played under the right name."""
        if self.sensors_off:
            return
        if not self.synced:
            if self.held is None:
                return
            if len(self.held) >= MAX_HELD_EDGES:
                self.held = None
                self._trouble(now, f"more than {MAX_HELD_EDGES} edges came before the hub's heartbeat; they are "
                                   "dropped and its heartbeat's levels taken")
            else:
                self.held.append((msg, now))
            return
        self._play(msg, self.clock.to_host(msg.t_us, now), now)

    def _play(self, msg: Edge, t: int, now: int) -> None:
        if msg.name not in self.kit.inputs:
            self.stats.unknown_sensor += 1
            self._trouble(now, f"the hub reports sensor {msg.name!r}, which is not in the pin map")
            return
        self.kit.edge(msg.name, msg.active, t)

    def _trouble(self, now: int, message: str) -> None:
        self.trouble_since = now
        if self.state == "ok":
            self._set("error", now, message)

    def _set(self, state: str, now: int, message: str, told_again: bool = False) -> None:
        """`told_again`: said even if the hub is in that state already (a new, more telling trouble)."""
        if state == self.state and not told_again:
            return
        if state == "ok":
            self.trouble_since = None
        self.state = state
        if state == "ok" and self.other_version:
            self.kit.report("hub", "outdated", self.other_version, now)
        else:
            self.kit.report("hub", state, message, now)


class HubBackend:
    """backend "hub": a reader thread owns the port, reopens it when the hub comes back."""

    name = "hub"
    debounces = True

    def __init__(self, port: str = "auto", open_port: Callable[[str], object] = open_serial,
                 retry_s: float = 1.0, silence_s: float = 3.0):
        self.port_name = port
        self.open_port = open_port
        self.retry_s = retry_s
        self.silence_ns = int(silence_s * 1e9)
        self.link: HubLink | None = None
        self._port = None
        self._partial = b""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def stats(self) -> HubStats:
        return self.link.stats

    def start(self, kit) -> None:
        kit.pin_map.require("pico_gp")
        self.kit = kit
        self.link = HubLink(kit)
        self._thread = threading.Thread(target=self._run, name="sensor-hub-reader", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None
        self._close_port()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._step()
            except Exception as exc:  # noqa: BLE001 - the reader must outlive any one bad moment
                self._close_port()
                self.link.disconnected(self.kit.clock(), f"unexpected {type(exc).__name__}: {exc}")
                self._stop.wait(self.retry_s)

    def _step(self) -> None:
        if self._port is None:
            try:
                self._port = self.open_port(self.port_name)
            except Exception as exc:  # noqa: BLE001 - serial, OS and "not found" errors alike
                self.link.disconnected(self.kit.clock(), str(exc) or type(exc).__name__,
                                       refused=isinstance(exc, HubPortRefused))
                self._stop.wait(self.retry_s)
                return
            self._partial = b""
            self.link.connected(self.kit.clock(), getattr(self._port, "port", None) or self.port_name)
        try:
            chunk = self._port.readline()
        except Exception as exc:  # noqa: BLE001 - SerialException, OSError on unplug
            self._close_port()
            self.link.disconnected(self.kit.clock(), read_failure(exc))
            return
        now = self.kit.clock()
        if not chunk:
            self.link.check_silence(now, self.silence_ns)
            return
        data = self._partial + chunk
        if not data.endswith(b"\n"):
            if len(data) > 2 * MAX_LINE:
                self._partial = b""
                self.link.feed(data, now)  # counted as corrupt
            else:
                self._partial = data
            return
        self._partial = b""
        self.link.feed(data, now)
        self.link.check_silence(now, self.silence_ns)

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except Exception:  # noqa: BLE001 - an unplugged port may refuse to close
                pass
