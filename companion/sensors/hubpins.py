"""Writes firmware/hub_pins.py from the pin map, so pin numbers live only in hardware/pinmap.json.

    python3 -m companion.sensors.hubpins [PIN_MAP] [--check]

--check exits 1 when the checked-in file differs (the tests run it); copy the result to the Pico.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .generated import write_or_check
from .hubprotocol import hub_sensors, pinmap_id
from .pinmap import SHIPPED_PIN_MAP, PinMap, PinMapError, load_pin_map

FIRMWARE_PINS = SHIPPED_PIN_MAP.parent.parent / "firmware" / "hub_pins.py"


def render(pin_map: PinMap) -> str:
    sensors = hub_sensors(pin_map)

    def row(values) -> str:
        return "(" + "".join(f"{v!r}, " for v in values) + ")"

    return "\n".join([
        "# Generated from the pin map by `python3 -m companion.sensors.hubpins PINMAP`: do not edit here.",
        f"PINMAP_ID = {pinmap_id(pin_map)!r}",
        f"NAMES = {row(s.name for s in sensors)}",
        f"GP = {row(s.pico_gp for s in sensors)}",
        f"ACTIVE_HIGH = {row(int(s.active_high) for s in sensors)}",
        f"PULL = {row(s.pull for s in sensors)}",
        f"DEBOUNCE_US = {row(s.debounce_ns // 1000 for s in sensors)}",
        "",
    ])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m companion.sensors.hubpins", description=__doc__.split("\n")[0])
    parser.add_argument("pin_map", nargs="?", help="pin map file (default: the shipped one)")
    parser.add_argument("--out", default=str(FIRMWARE_PINS), help="where to write hub_pins.py")
    parser.add_argument("--check", action="store_true", help="only check that the file is up to date")
    args = parser.parse_args(argv)
    try:
        text = render(load_pin_map(args.pin_map))
    except PinMapError as exc:
        print(f"hubpins: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    if not out.parent.is_dir():  # an installed copy has no firmware/ beside it
        print(f"hubpins: there is no folder {out.parent}: run this in your clone of the project, where it writes "
              f"firmware/hub_pins.py for the Pico (`python3 -m companion.sensors.hubpins PINMAP`), or give --out",
              file=sys.stderr)
        return 2
    return write_or_check(out, text, args.check, "python3 -m companion.sensors.hubpins PINMAP",
                          f"copy it to the Pico (firmware/README.md); on the Pi, where the service holds the "
                          f"Pico's port: `sudo systemctl stop companion`, `mpremote cp {out} :`, `mpremote reset`, "
                          f"`sudo systemctl start companion`")


if __name__ == "__main__":
    sys.exit(main())
