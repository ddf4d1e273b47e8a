"""Settings with a schema: defaults, a TOML file (`/etc/companion/companion.toml` on the Pi), and
`COMPANION_*` environment variables, in that order. Unknown keys and bad values are refused with a
message naming the key.
"""
from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path
from typing import Any, Mapping


class BadSettings(ValueError):
    pass


SYSTEM_SETTINGS = Path("/etc/companion/companion.toml")
SERVICE_STATE_DIR = Path("/var/lib/companion")  # the unit's StateDirectory=companion
# What a file that a power cut emptied may hold: nothing, blank lines, or blocks of zeros.
EMPTY_CHARS = " \t\r\n\0"
RESTORE = ("restore it from the shipped settings, systemd/companion.toml in the companion's source (then "
           "edit it again), or run sudo systemd/install.sh again, which rewrites an empty one")


def default_state_dir() -> Path:
    """systemd's STATE_DIRECTORY in the service; $XDG_STATE_HOME/companion when that is set; on a Pi where
    systemd/install.sh installed the service, the service's own folder, so that dice taught and checks run by
    hand (`companion teach`, `companion doctor`) are the service's; else ~/.local/state/companion."""
    if os.environ.get("STATE_DIRECTORY"):
        return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
    if os.environ.get("XDG_STATE_HOME"):
        return Path(os.environ["XDG_STATE_HOME"]) / "companion"
    if SYSTEM_SETTINGS.exists() and SERVICE_STATE_DIR.is_dir():
        return SERVICE_STATE_DIR
    return Path.home() / ".local" / "state" / "companion"


def settings_file(given: str | Path | None = None) -> Path | None:
    """The settings file a command reads: the one given, else $COMPANION_SETTINGS (the systemd unit sets it),
    else /etc/companion/companion.toml when it exists, else none (the defaults)."""
    if given:
        return Path(given)
    if os.environ.get("COMPANION_SETTINGS"):
        return Path(os.environ["COMPANION_SETTINGS"])
    return SYSTEM_SETTINGS if SYSTEM_SETTINGS.exists() else None


SCHEMA: dict[str, dict[str, tuple[type, Any, str]]] = {
    "service": {
        "host": (str, "0.0.0.0", "address the page listens on"),
        "port": (int, 8080, "port of the page"),
        "state_dir": (str, "", "where games, recordings and taught dice live; empty: the default"),
        "threads": (int, 24, "waitress worker threads (each open live page holds one)"),
        "max_streams": (int, 16, "most live pages at once; more get a clear 503"),
        "mdns": (bool, True, "announce the page as companion.local"),
    },
    "camera": {
        "source": (str, "picamera2", "picamera2, usb:N, a video file, a folder of images, or a recording"),
        "width": (int, 1280, "frame width"),
        "height": (int, 720, "frame height"),
        "rotate": (int, 0, "degrees clockwise that turn the camera's frames upright: 0, 90, 180 or 270"),
        "tray": (str, "auto", "the tray region: auto (found in the picture), or x0,y0,x1,y1 in pixels"),
        "settle_ms": (int, 300, "how long the dice must lie still before a roll is read"),
        "zones": (str, "", "Banana Matcho's dice zones, NAME:KIND:x0,y0,x1,y1 separated by ';', or empty"),
    },
    "sensors": {
        "backend": (str, "gpio", "gpio, hub, mock or none"),
        "pin_map": (str, "", "the pin map file; empty: the shipped hardware/pinmap.json"),
        "hub_port": (str, "auto", "serial port of the Pico hub, or auto"),
    },
    "security": {
        "join_code": (bool, True, "ask for the join code before a device may act on a game"),
        "allow_outside": (bool, False, "serve requests from outside the local network"),
        "names": (str, "", "other names the page is opened by (a router's own domain), separated by commas"),
    },
}


# Settings that take only some values of their type: refused at load, naming the key and the choices.
CHOICES: dict[tuple[str, str], tuple[Any, ...]] = {
    ("camera", "rotate"): (0, 90, 180, 270),
    ("sensors", "backend"): ("gpio", "hub", "mock", "none"),
}

# waitress gets at least this many worker threads, whatever service.threads says (web/cli_serve.py).
MIN_THREADS = 4

# Settings that name a file or folder: "~" is the home folder, as in a shell.
PATHS = {("service", "state_dir"), ("sensors", "pin_map"), ("camera", "source")}

# Numbers that make sense only in a range (inclusive; None: no bound), refused at load like CHOICES.
RANGES: dict[tuple[str, str], tuple[int | None, int | None]] = {
    ("service", "port"): (0, 65535),  # 0: any free port
    ("service", "threads"): (1, None),
    ("service", "max_streams"): (1, None),
    ("camera", "width"): (16, None),
    ("camera", "height"): (16, None),
    ("camera", "settle_ms"): (0, None),
}


@dataclasses.dataclass
class Settings:
    values: dict[str, dict[str, Any]]

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.values[section]

    @property
    def state_dir(self) -> Path:
        return Path(self.values["service"]["state_dir"] or default_state_dir())

    @property
    def worker_threads(self) -> int:
        """The page's worker threads: service.threads, and never fewer than MIN_THREADS."""
        return max(MIN_THREADS, self.values["service"]["threads"])


def _coerce(section: str, key: str, value: Any) -> Any:
    kind = SCHEMA[section][key][0]
    if isinstance(value, str) and kind is not str:
        text = value.strip().lower()
        if kind is bool and text in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            value = text in ("1", "true", "yes", "on")
        elif kind is int:
            try:
                value = int(text)
            except ValueError:
                pass
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise BadSettings(f"setting {section}.{key} must be {kind.__name__}, got {value!r}")
    choices = CHOICES.get((section, key))
    if choices is not None and isinstance(value, str):
        value = value.strip().lower()  # "Hub" and "gpio " started the service before they were choices
    if choices is not None and value not in choices:
        raise BadSettings(f"setting {section}.{key} must be one of {', '.join(map(str, choices))}, got {value!r}")
    low, high = RANGES.get((section, key), (None, None))
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise BadSettings(f"setting {section}.{key} must be {bounds}, got {value!r}")
    if (section, key) in PATHS and value.startswith("~"):
        value = os.path.expanduser(value)
    return value


def _refuse_home_paths(layer: Mapping[str, Any], path: str | Path) -> None:
    """The service's own settings are read by the service (user companion, whose home is /var/lib/companion)
    and by doctor and teach (the person, /home/pi): a path starting with "~" would be two folders."""
    for section, key in sorted(PATHS):
        value = (layer.get(section) or {}).get(key) if isinstance(layer.get(section), Mapping) else None
        if isinstance(value, str) and value.startswith("~"):
            kept = ("/var/lib/companion" + value[1:].rstrip("/") if value == "~" or value.startswith("~/")
                    else os.path.expanduser(value))  # "~pi/games": that user's home, for every reader
            raise BadSettings(f"setting {section}.{key} is {value!r} in {path}: write the whole path, {kept!r} to "
                              "keep what the service kept there until now: '~' is /var/lib/companion for the "
                              "service, which runs as user companion, and your home for doctor and teach")


def not_utf8_at(data: bytes, start: int) -> str:
    """Where a text file a person edits stops being UTF-8, and what to do: for the settings and the pin map."""
    line = data.count(b"\n", 0, start) + 1
    return (f"line {line} holds a character that is not UTF-8 (byte {data[start]:#04x}): save the file as UTF-8, "
            "or retype that character")


def load_settings(path: str | Path | None = None, env: Mapping[str, str] | None = None,
                  overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Settings:
    values = {s: {k: d for k, (_, d, _) in keys.items()} for s, keys in SCHEMA.items()}
    layers: list[Mapping[str, Any]] = []
    if path is not None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise BadSettings(f"cannot read settings file {path}: {exc.strerror}") from None
        except UnicodeDecodeError as exc:
            data = Path(path).read_bytes()
            if b"\0" in data.strip(EMPTY_CHARS.encode()) or exc.start == 0:  # a damaged file, not a typed letter
                raise BadSettings(f"settings file {path} is not a text file: {RESTORE}") from None
            raise BadSettings(f"settings file {path} {not_utf8_at(data, exc.start)}") from None
        if not text.strip(EMPTY_CHARS):
            # Written by hand it would hold at least a comment; empty (or zeros) is what a power cut
            # leaves of a file written just before it. Read as "all defaults" it would move the page to
            # another port and the pin map to the shipped one without a word.
            raise BadSettings(f"settings file {path} is empty (likely a power cut while it was written): "
                              f"{RESTORE}")
        try:
            layers.append(tomllib.loads(text))
        except tomllib.TOMLDecodeError as exc:
            raise BadSettings(f"settings file {path} is not valid TOML: {exc}") from None
        if Path(path).resolve() == SYSTEM_SETTINGS.resolve():
            _refuse_home_paths(layers[-1], path)
    env = os.environ if env is None else env
    from_env: dict[str, dict[str, str]] = {}
    for name, value in env.items():
        if name.startswith("COMPANION_") and name.count("_") >= 2:
            _, section, key = name.lower().split("_", 2)
            if section not in SCHEMA:
                raise BadSettings(f"unknown environment variable {name}: settings are COMPANION_<SECTION>_<KEY> "
                                  f"with a section of {', '.join(s.upper() for s in SCHEMA)}")
            from_env.setdefault(section, {})[key] = value
    layers.append(from_env)
    layers.append(overrides or {})
    for layer in layers:
        where = (lambda s, k: f" (from the environment variable COMPANION_{s.upper()}_{k.upper()})") \
            if layer is from_env else (lambda s, k: "")
        for section, keys in layer.items():
            if section not in SCHEMA:
                raise BadSettings(f"unknown settings section [{section}]; known: {', '.join(SCHEMA)}")
            if not isinstance(keys, Mapping):
                raise BadSettings(f"settings section [{section}] must be a table")
            for key, value in keys.items():
                if key not in SCHEMA[section]:
                    raise BadSettings(f"unknown setting {section}.{key}{where(section, key)}; "
                                      f"known: {', '.join(SCHEMA[section])}")
                try:
                    values[section][key] = _coerce(section, key, value)
                except BadSettings as exc:
                    raise BadSettings(f"{exc}{where(section, key)}") from None
    settings = Settings(values)
    streams = values["service"]["max_streams"]
    if streams >= settings.worker_threads:
        raise BadSettings(f"setting service.max_streams ({streams}) must be below service.threads "
                          f"({settings.worker_threads}): every open page holds a thread")
    return settings
