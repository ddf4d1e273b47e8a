"""The `companion` command: a table of subcommands, each in its own module, imported only when run.

A command module provides `add_arguments(parser)` and `run(args) -> int`; heavy imports (OpenCV, Flask)
happen inside `run`, so `companion explain` starts fast on a Pi.
"""
from __future__ import annotations

import argparse
import importlib
import math
import os
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "explain": ("companion.games.cli_explain", "what a roll allows, by the rules of one game"),
    "odds": ("companion.games.cli_odds", "exact odds for the next roll of one game"),
    "read": ("companion.vision.cli_read", "read dice in images, or live from a camera"),
    "teach": ("companion.vision.cli_teach", "teach the companion the fruit or Matcho dice of your box"),
    "serve": ("companion.web.cli_serve", "run the companion: the page, the camera, the sensors"),
    "record": ("companion.table.cli_record", "record a session: camera frames and every event"),
    "replay": ("companion.table.cli_replay", "drive the companion from a recorded session"),
    "sensors": ("companion.sensors.cli_sensors", "check the sensor kit: `companion sensors test`"),
    "doctor": ("companion.doctor", "check camera, GPIO, pin map, hub, disk and service"),
    "bench": ("companion.bench", "run the speed benchmarks and print medians"),
}


class CliError(Exception):
    """Bad command-line input: printed as one line, exit code 2."""


def require_hardware_free(what: str, state_dir=None) -> None:
    """Refuse while a companion (the service) runs on this machine's games folder (`state_dir`, else the
    settings'): it holds `what` (the sensors, the camera), and a second reader would get "GPIO busy", a busy
    camera, or half the hub's lines."""
    from .config import BadSettings, load_settings, settings_file
    from .table.state_lock import companion_holding

    if state_dir is None:
        try:
            state_dir = load_settings(settings_file()).state_dir
        except BadSettings:
            return
    holder = companion_holding(state_dir)
    if holder is not None:
        process = f" (process {holder})" if holder else ""
        raise CliError(f"the companion is running{process} and holds {what}: stop it first with `sudo systemctl "
                       f"stop companion`, and start it again after with `sudo systemctl start companion`")


def positive_number(text: str) -> float:
    """argparse type of a speed or a time: a finite number above 0 (nan, inf and 1e309 are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number above 0, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text!r}")
    return value


# A playback speed: slower than a thousandth of real time waits hours between two rolls, and a speed so small
# that a recorded gap divided by it overflows time.sleep crashed the replay with a traceback.
SPEED_RANGE = (0.001, 1000.0)


def speed_factor(text: str) -> float:
    """argparse type of --speed and --demo-speed: a finite number within SPEED_RANGE."""
    value = positive_number(text)
    low, high = SPEED_RANGE
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must be from {low:g} to {high:g} times real time, got {text!r}")
    return value


def port_number(text: str) -> int:
    """argparse type of --port: the range the settings allow for service.port (0: any free port)."""
    from .config import RANGES

    low, high = RANGES[("service", "port")]
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a port number, got {text!r}") from None
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must be from {low} to {high} ({low}: any free port), got {value}")
    return value


def is_live_camera(source: str) -> bool:
    return source == "picamera2" or source.startswith("usb:")


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports bad input in one line (and exit code 2), without the usage block."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: {message} (see `{self.prog} --help`)\n")


def _usage() -> str:
    width = max(map(len, COMMANDS))
    lines = ["usage: companion COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name.ljust(width)}  {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "`companion COMMAND --help` tells more."]
    return "\n".join(lines)


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Options may stand between the positional arguments (`companion read a.jpg --json b.jpg`); a command
    that hands the rest of its line on to another parser (`companion odds GAME ...`) is parsed as written."""
    try:
        return parser.parse_intermixed_args(argv)
    except TypeError:
        return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"companion: unknown command {name!r}; choose one of: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module_name, help_ = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        print(f"companion {name}: not available in this build", file=sys.stderr)
        return 2
    parser = OneLineParser(prog=f"companion {name}", description=help_)
    module.add_arguments(parser)
    args = _parse(parser, rest)
    try:
        code = int(module.run(args) or 0)
        sys.stdout.flush()  # here, not at exit: a reader gone away (`| head -0`) is then caught just below
        return code
    except CliError as exc:
        print(f"companion {name}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `companion read *.jpg --json | head`: the reader went away; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
