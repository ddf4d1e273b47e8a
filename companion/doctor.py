"""`companion doctor`: checks the camera, the tray and dice zones, GPIO access, the pin map, the sensor hub,
disk space, the game journal, the libraries, the pip reader's networks and the service, and says in plain
words what to fix.

Each check looks at the machine through a `Machine` whose paths and probes tests replace; nothing here
changes anything.
"""
from __future__ import annotations

import dataclasses
import glob
import importlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Callable

from .config import BadSettings, Settings, load_settings, settings_file
from .table.state_lock import READ_ONLY_FIX, read_only_filesystem, read_only_problem

OK, WARN, FAIL = "ok", "warn", "fail"
SYMBOL = {OK: "✓", WARN: "!", FAIL: "✗"}
PICO_USB_VENDOR = 0x2E8A
MIN_FREE_BYTES = 200 * 2**20
LOW_FREE_BYTES = 1 * 2**30
HUB_LISTEN_S = 1.2  # a running hub sends a heartbeat twice a second


@dataclasses.dataclass
class Check:
    name: str
    status: str
    message: str
    fix: str = ""


@dataclasses.dataclass
class Machine:
    dev: Path = Path("/dev")
    can_read_write: Callable[[str], bool] = lambda path: os.access(path, os.R_OK | os.W_OK)
    import_module: Callable[[str], object] = importlib.import_module
    disk_free: Callable[[Path], int] = lambda path: shutil.disk_usage(path).free
    run: Callable[[list[str]], tuple[int, str]] = lambda argv: _run(argv)
    serial_ports: Callable[[], list[tuple[str, int | None]]] = lambda: _serial_ports()
    pip_networks: Callable[[], list[Path]] = lambda: _pip_networks()
    listen_hub: Callable[[str], list[bytes]] = lambda device: _listen_hub(device)
    read_only: Callable[[Path], bool] = read_only_filesystem


def _run(argv: list[str]) -> tuple[int, str]:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 127, str(exc)
    return proc.returncode, (proc.stdout + proc.stderr).strip()


def _serial_ports() -> list[tuple[str, int | None]]:
    from serial.tools import list_ports

    return [(port.device, port.vid) for port in list_ports.comports()]


def _listen_hub(device: str) -> list[bytes]:
    """The lines the hub sends in HUB_LISTEN_S; its port held alone, as the service holds it (HubNotFound
    when another program has it open)."""
    from .sensors.hub import open_serial

    port = open_serial(device)
    data = b""
    try:
        deadline = time.monotonic() + HUB_LISTEN_S
        while time.monotonic() < deadline:
            data += port.readline()
    finally:
        port.close()
    return data.splitlines(keepends=True)


def _pip_networks() -> list[Path]:
    from .vision.pips.classifier import CLOSE_LOOK_PATH, MODEL_PATH, PANEL_PATHS
    from .vision.pips.detector import MODEL_PATH as DETECTOR_PATH

    return [DETECTOR_PATH, MODEL_PATH, *PANEL_PATHS, CLOSE_LOOK_PATH]


def check_settings(path: Path | None) -> tuple[Check, Settings | None]:
    try:
        settings = load_settings(path)
    except BadSettings as exc:
        fix = "fix or unset the environment variable named above" if "environment variable" in str(exc) \
            else f"edit {path} (its comments explain every key)"
        return Check("settings", FAIL, str(exc), fix), None
    where = str(path) if path else "the defaults (no settings file)"
    return Check("settings", OK, f"read {where}"), settings


def check_libraries(machine: Machine, source: str) -> Check:
    try:
        numpy = machine.import_module("numpy")
        cv2 = machine.import_module("cv2")
        onnxruntime = machine.import_module("onnxruntime")  # runs the pip reader's networks
    except ImportError as exc:
        return Check("libraries", FAIL, f"cannot import {exc.name}: {exc}", "re-run the installer: sudo systemd/install.sh")
    versions = f"numpy {numpy.__version__}, OpenCV {cv2.__version__}, ONNX Runtime {onnxruntime.__version__}"
    if source != "picamera2":
        return Check("libraries", OK, versions)
    from .vision.sources import NUMPY_CLASH_FIX, numpy_clash

    try:
        machine.import_module("picamera2")
    except (ImportError, ValueError) as exc:  # numpy's "dtype size changed" is a ValueError
        if numpy_clash(exc):
            return Check("libraries", FAIL, f"Debian's picamera2 does not work with {versions}: {exc}",
                         NUMPY_CLASH_FIX)
        return Check("libraries", FAIL, f"picamera2 is missing ({exc})",
                     "sudo apt install python3-picamera2, and make sure the venv was made with --system-site-packages")
    return Check("libraries", OK, f"{versions}, picamera2 importable")


def check_networks(machine: Machine) -> Check:
    """The pip reader's networks ship in models/; without one the dice are not read (the rest still works)."""
    try:
        paths = machine.pip_networks()
    except ImportError as exc:
        return Check("networks", WARN, f"not checked: the pip reader cannot be imported ({exc})",
                     "fix the libraries first")
    missing = [path for path in paths if not path.is_file()]
    if missing:
        names = ", ".join(path.name for path in missing)
        return Check("networks", FAIL,
                     f"the pip reader's networks are incomplete: {names} missing from {missing[0].parent}, "
                     "so dice are not read",
                     "re-run the installer (sudo systemd/install.sh), which copies them; "
                     "in a git checkout, git checkout -- models/")
    return Check("networks", OK, f"the pip reader's {len(paths)} networks are in {paths[0].parent}")


def check_camera(machine: Machine, source: str) -> Check:
    if source == "picamera2":
        code, out = machine.run(["rpicam-hello", "--list-cameras"])
        if code == 127:
            return Check("camera", WARN, "rpicam-hello is not installed, so the camera could not be listed",
                         "sudo apt install rpicam-apps")
        if "in use" in out or "busy" in out.lower():
            return Check("camera", FAIL, "the camera is busy: another program holds it (only one can open it)",
                         "stop the other program; if it is the companion itself, that is fine "
                         "(sudo systemctl stop companion before testing the camera by hand)")
        if "No cameras available" in out or code != 0:
            return Check("camera", FAIL, "no Pi camera found",
                         "check the ribbon cable (contacts facing the right way, both latches closed), then "
                         "run `rpicam-hello --list-cameras`")
        return Check("camera", OK, out.splitlines()[-1].strip() if out else "a Pi camera is connected")
    if source.startswith("usb:"):
        index = source[4:]
        device = machine.dev / f"video{index}"
        if not device.exists():
            found = sorted(p.name for p in machine.dev.glob("video*"))
            return Check("camera", FAIL, f"{device} does not exist (found: {', '.join(found) or 'no video devices'})",
                         "plug the webcam in, or set camera.source to one of the devices found")
        if not machine.can_read_write(str(device)):
            return Check("camera", FAIL, f"permission denied on {device}",
                         "add the user to the video group: sudo usermod -aG video $USER, then log in again")
        return Check("camera", OK, f"{device} is there and usable")
    if not Path(source).exists():
        return Check("camera", FAIL, f"camera.source {source!r} is neither a camera nor an existing file or folder",
                     "set camera.source to picamera2, usb:0, or a video file")
    return Check("camera", OK, f"reading frames from {source}")


def check_tray_and_zones(settings: Settings) -> Check:
    """camera.tray and camera.zones against the picture camera.width x camera.height (turned by
    camera.rotate), and the symbol dice the zones read taught: each of these otherwise fails only once the
    service runs, on the page."""
    from .table.tray_choice import TrayChoice
    from .vision.tray import clip_box, parse_tray, tray_text

    camera = settings["camera"]
    width, height = camera["width"], camera["height"]
    if camera["rotate"] in (90, 270):
        width, height = height, width
    picture = f"the camera's {width}x{height} picture"
    fails: list[str] = []
    warns: list[str] = []

    def place(what: str, box) -> None:
        inside = clip_box(box, width, height)
        if inside is None:
            fails.append(f"{what} {tray_text(box)} lies outside {picture}")
        elif inside != tuple(box):
            warns.append(f"{what} {tray_text(box)} reaches past {picture}; only the part inside counts")

    on_page, tray = TrayChoice(settings.state_dir, camera["tray"]).page_choice()
    try:
        if not on_page:
            tray = parse_tray(camera["tray"])
        if tray is not None:
            place("the tray set on the page" if on_page else "camera.tray", tray)
    except ValueError as exc:
        fails.append(f"camera.tray: {exc}")
    kinds = set()
    if camera["zones"].strip():
        from .vision.zones import parse_zone

        for part in (p.strip() for p in camera["zones"].split(";")):
            if not part:
                continue
            try:
                zone = parse_zone(part)
            except ValueError as exc:
                fails.append(f"camera.zones: {exc}")
                continue
            place(f"zone {zone.name}", zone.box)
            kinds.add(zone.kind)
    for kind in sorted(kinds - {"pips"}):
        try:
            from .vision.readers import get_zone_reader

            get_zone_reader(kind, settings.state_dir)
        except Exception as exc:  # not taught, an unknown kind, or the vision libraries missing
            fails.append(f"the {kind} zone cannot be read: {exc}")
    if fails:
        return Check("tray and zones", FAIL, "; ".join(fails + warns),
                     "set the tray on the page's camera view (or camera.tray = \"auto\"), and camera.zones in "
                     f"pixels of {picture}; teach the dice the zones read")
    if warns:
        return Check("tray and zones", WARN, "; ".join(warns), f"keep the tray and the zones inside {picture}")
    zones = f"{len(kinds)} kind(s) of dice in zones" if kinds else "no zones"
    return Check("tray and zones", OK, f"tray {camera['tray']}, {zones}, inside {picture}")


def check_gpio(machine: Machine, backend: str) -> Check:
    if backend != "gpio":
        return Check("gpio", OK, f"not used (sensors.backend = {backend})")
    chips = sorted(glob.glob(str(machine.dev / "gpiochip*")))
    if not chips:
        return Check("gpio", FAIL, "no /dev/gpiochip* device: this is not a Raspberry Pi, or the kernel lacks GPIO",
                     "on another machine set sensors.backend to hub or none")
    denied = [c for c in chips if not machine.can_read_write(c)]
    if denied:
        return Check("gpio", FAIL, f"permission denied on {', '.join(denied)}",
                     "add the user to the gpio group: sudo usermod -aG gpio $USER, then log in again "
                     "(the service's own user is in it already)")
    try:
        machine.import_module("lgpio")
    except ImportError:
        return Check("gpio", FAIL, "the GPIO library lgpio is missing, so gpiozero cannot open the pins",
                     "sudo apt install python3-lgpio (systemd/install.sh installs it), then sudo systemctl restart "
                     "companion")
    return Check("gpio", OK, f"{', '.join(Path(c).name for c in chips)} readable and writable, lgpio there")


def check_pin_map(path: str, backend: str) -> Check:
    if backend in ("none", "mock"):
        return Check("pin map", OK, f"not used (sensors.backend = {backend})")
    from .sensors.pinmap import PinMapError, load_pin_map

    try:
        pins = load_pin_map(path or None)
        pins.require("gpio" if backend == "gpio" else "pico_gp")
    except (PinMapError, OSError) as exc:
        return Check("pin map", FAIL, str(exc), "fix the pin map (hardware/ASSEMBLY.md explains every field)")
    return Check("pin map", OK, f"{len(list(pins))} sensors in {path or 'the shipped pin map'}")


def check_hub(machine: Machine, settings: Settings) -> Check:
    section = settings["sensors"]
    backend, port = section["backend"], section["hub_port"]
    if backend != "hub":
        return Check("sensor hub", OK, f"not used (sensors.backend = {backend})")
    ports = machine.serial_ports()
    picos = [device for device, vid in ports if vid == PICO_USB_VENDOR]
    if port != "auto":
        if port not in (device for device, _ in ports):
            return Check("sensor hub", FAIL, f"{port} is not there",
                         "plug the hub in with a data USB cable, or set sensors.hub_port = \"auto\"")
        device = port
    elif not picos:
        return Check("sensor hub", FAIL, "no Raspberry Pi Pico on USB",
                     "plug the hub in with a USB cable that carries data (charge-only cables are common), "
                     "and flash it as firmware/README.md says")
    else:
        device = picos[0]
    return check_hub_firmware(machine, device, section["pin_map"], settings.state_dir)


def check_hub_firmware(machine: Machine, device: str, pin_map_path: str, state_dir: Path) -> Check:
    """What the hub says in a moment, read as the service reads it: a Pico without the firmware running, or
    one built for another pin map or protocol, has the port but gives the service no sensor."""
    from .sensors.hub import COPY_FIRMWARE, RESTART_FIRMWARE, HubBusy, HubLink, HubNotFound, other_version
    from .sensors.hubprotocol import FIRMWARE_VERSION
    from .sensors.kit import SensorKit
    from .sensors.pinmap import PinMapError, load_pin_map
    from .table.state_lock import companion_holding

    holder = companion_holding(state_dir)
    if holder is not None:
        return Check("sensor hub", OK, f"a Pico at {device}; the running companion reads it (its health shows on "
                                       "the page), so its firmware is not checked here")
    try:
        pin_map = load_pin_map(pin_map_path or None)
    except PinMapError:
        return Check("sensor hub", WARN, f"a Pico at {device}; its firmware is not checked while the pin map "
                                         "cannot be read", "fix the pin map first")
    try:
        lines = machine.listen_hub(device)
    except HubNotFound as exc:  # held by another program, or not this user's to open: the message says what to do
        if isinstance(exc, HubBusy) and service_running(machine):  # its lock is not this user's to see
            return Check("sensor hub", OK, f"a Pico at {device}, its port held by the running companion service, "
                                           "so its firmware is not checked here (the page shows the hub's health; "
                                           "if it says the hub is disconnected, close Thonny or mpremote)")
        return Check("sensor hub", FAIL, str(exc))
    except Exception as exc:  # noqa: BLE001 - serial and OS errors alike
        return Check("sensor hub", FAIL, f"the Pico at {device} cannot be read: {exc}",
                     "unplug it and plug it in again")
    told: list[str] = []
    kit = SensorKit(pin_map, lambda event: told.append(event.message), backend="none", poll_interval_s=None)
    link = HubLink(kit)
    link.connected(0, device)
    for n, line in enumerate(lines, start=1):
        link.feed(line, n * 1_000_000)
    news = told[1:]  # after "hub connected"
    if link.sensors_off:  # the message says what to do
        return Check("sensor hub", FAIL, news[-1])
    if not link.synced and link.crash:
        return Check("sensor hub", FAIL, f"the hub's firmware stopped with {link.crash}", RESTART_FIRMWARE)
    if not link.synced:
        heard = f"sent nothing in {HUB_LISTEN_S:g} s" if not lines else \
            f"sent no heartbeat in {HUB_LISTEN_S:g} s, only lines that are not the hub's (first {lines[0][:40]!r})"
        return Check("sensor hub", FAIL, f"the Pico at {device} {heard}: the hub's firmware is not running",
                     f"unplug it and plug it in again (its LED blinks once a second while the firmware runs; an "
                     f"open Thonny stops it); if it stays silent, {COPY_FIRMWARE}")
    if link.stats.version != FIRMWARE_VERSION:
        return Check("sensor hub", WARN, *other_version(link.stats.version))
    return Check("sensor hub", OK, f"the hub at {device} runs firmware {link.stats.version}, built for this pin map")


def check_disk(machine: Machine, state_dir: Path) -> Check:
    probe = state_dir
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if machine.read_only(probe):
        return Check("disk", FAIL, read_only_problem(state_dir), READ_ONLY_FIX)
    free = machine.disk_free(probe)
    text = f"{free / 2**30:.1f} GiB free for {state_dir}"
    if free < MIN_FREE_BYTES:
        return Check("disk", FAIL, text, "free some space: games stop being saved when the card is full")
    if free < LOW_FREE_BYTES:
        return Check("disk", WARN, text, "space is getting low; recordings take the most (companion record)")
    if state_dir.exists() and not machine.can_read_write(str(state_dir)):
        return Check("disk", WARN, f"{text}, but you may not use that folder, so the dice taught and the tray set "
                                   "on the page are not checked",
                     "the service's folder is open to the group companion: log out and in again after "
                     "systemd/install.sh (which added you to it), or `sudo usermod -aG companion $USER`")
    return Check("disk", OK, text)


def check_journal(state_dir: Path) -> Check:
    """The game journal's pages read once: a journal the memory card damaged is refused by the service, which
    serves only a page that says so, so it is named here too, with what to do (and to start the service again)."""
    from .table.journal import START_AGAIN, Journal, check_file, write_ahead_log

    path = state_dir / Journal.FILE_NAME
    try:
        log = write_ahead_log(path)
        there = path.is_file() or (log.is_file() and log.stat().st_size > 0)
    except OSError as exc:  # a folder this user may not look into
        return Check("journal", WARN, f"the game journal in {state_dir} could not be checked ({exc.strerror})",
                     "run the check as a user of the state directory (or with sudo)")
    if not there:
        return Check("journal", OK, f"no games journaled yet in {state_dir}")
    found = check_file(path)
    if found is None:
        return Check("journal", OK, f"{path} is sound")
    damaged, problem, fix = found
    return Check("journal", FAIL if damaged else WARN, problem, f"{fix}; {START_AGAIN}" if damaged else fix)


def service_state(machine: Machine) -> tuple[int, str, dict[str, str]]:
    """systemctl's exit code and answer, and the LoadState and ActiveState of companion.service read from it."""
    code, out = machine.run(["systemctl", "show", "--property=LoadState,ActiveState", "companion.service"])
    return code, out, dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def service_running(machine: Machine) -> bool:
    code, _, props = service_state(machine)
    return code == 0 and props.get("ActiveState") == "active"


def check_service(machine: Machine) -> Check:
    code, out, props = service_state(machine)
    if code == 127:
        return Check("service", WARN, "systemctl is not available here")
    if code != 0 or not props:
        return Check("service", WARN, f"systemd could not be asked ({out or 'no answer'})")
    if props.get("LoadState") == "not-found":
        return Check("service", WARN, "companion.service is not installed", "sudo systemd/install.sh")
    if props.get("ActiveState") == "active":
        return Check("service", OK, "companion.service is running")
    return Check("service", FAIL, f"companion.service is {props.get('ActiveState', 'unknown')}",
                 "sudo journalctl -u companion -n 50 shows why; sudo systemctl restart companion")


def run_checks(machine: Machine | None = None, settings_path: Path | None = None) -> list[Check]:
    machine = machine or Machine()
    first, settings = check_settings(settings_path)
    checks = [first]
    if settings is None:
        return checks
    source = settings["camera"]["source"]
    backend = settings["sensors"]["backend"]
    checks += [
        check_libraries(machine, source),
        check_networks(machine),
        check_camera(machine, source),
        check_tray_and_zones(settings),
        check_gpio(machine, backend),
        check_pin_map(settings["sensors"]["pin_map"], backend),
        check_hub(machine, settings),
        check_disk(machine, settings.state_dir),
        check_journal(settings.state_dir),
        check_service(machine),
    ]
    return checks


def add_arguments(parser) -> None:
    parser.add_argument("--settings", type=Path, help="the settings file (default: $COMPANION_SETTINGS or /etc/companion/companion.toml)")
    parser.add_argument("--json", action="store_true", help="one JSON object per check")


def run(args) -> int:
    checks = run_checks(settings_path=settings_file(args.settings))
    for check in checks:
        if args.json:
            print(json.dumps(dataclasses.asdict(check)))
            continue
        print(f"{SYMBOL[check.status]} {check.name}: {check.message}")
        if check.fix:
            print(f"    → {check.fix}")
    failed = [c for c in checks if c.status == FAIL]
    if not args.json:
        print("All good." if not failed else f"{len(failed)} problem(s) to fix.")
    return 1 if failed else 0
