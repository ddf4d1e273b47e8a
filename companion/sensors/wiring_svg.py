"""Draws hardware/wiring.svg from the pin map: the Pi's 40-pin header with every sensor's pin marked,
and each sensor's wires. The tests check that the checked-in drawing matches the pin map.

    python3 -m companion.sensors.wiring_svg [PIN_MAP] [--out FILE] [--check]
"""
from __future__ import annotations

import argparse
import sys
from html import escape
from pathlib import Path

from .generated import write_or_check
from .pinmap import HEADER_GPIO_TO_PIN, PICO_GP_TO_PIN, RESERVED_GPIO, SHIPPED_PIN_MAP, PinMap, PinMapError, load_pin_map

WIRING_SVG = SHIPPED_PIN_MAP.parent / "wiring.svg"
POWER = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
GROUND = {6, 9, 14, 20, 25, 30, 34, 39}
PIN_TO_GPIO = {pin: gpio for gpio, pin in HEADER_GPIO_TO_PIN.items()}
COLOURS = {"banana": "#d4a017", "gate": "#1f77b4", "bottom": "#2ca02c"}


def pin_name(pin: int) -> str:
    if pin in POWER:
        return POWER[pin]
    if pin in GROUND:
        return "GND"
    return f"GPIO{PIN_TO_GPIO[pin]}"


def wires(kind: str, pull: str) -> str:
    if kind == "banana":
        return "FSR: one leg to this pin, the other to GND"
    return "receiver signal to this pin, 10 kΩ from it to 3V3"


def render(pin_map: PinMap) -> str:
    used = {s.gpio: s for s in pin_map if s.gpio is not None}
    row_h, top, x_odd, x_even = 22, 70, 200, 226
    height = max(top + 20 * row_h + 200, top + 40 + 34 * len(pin_map.sensors) + 260)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="980" height="{height}" viewBox="0 0 980 {height}" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="20" y="28" font-size="18" font-weight="bold">Companion sensor kit: Raspberry Pi wiring</text>',
        f'<text x="20" y="48" fill="#555">Generated from {escape(Path(pin_map.source).name)} by '
        'python3 -m companion.sensors.wiring_svg. Pin 1: the square pad, at the end away from the USB ports.</text>',
        f'<rect x="{x_odd - 14}" y="{top - 14}" width="54" height="{20 * row_h + 6}" rx="4" fill="#222"/>',
    ]
    for row in range(20):
        for col, pin in ((0, 2 * row + 1), (1, 2 * row + 2)):
            x, y = (x_odd, x_even)[col], top + row * row_h
            name = pin_name(pin)
            gpio = PIN_TO_GPIO.get(pin)
            sensor = used.get(gpio)
            fill = (COLOURS[sensor.kind] if sensor else "#e33" if name == "5V" else "#f90" if name == "3V3"
                    else "#000" if name == "GND" else "#999" if gpio in RESERVED_GPIO else "#ddd")
            out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{fill}" stroke="#fff"/>')
            label = f"{pin} {name}" + (f" = {sensor.name}" if sensor else "") + (" (reserved)" if gpio in RESERVED_GPIO else "")
            weight = ' font-weight="bold"' if sensor else ""
            if col == 0:
                out.append(f'<text x="{x - 14}" y="{y + 4}" text-anchor="end"{weight}>{escape(label)}</text>')
            else:
                out.append(f'<text x="{x + 14}" y="{y + 4}"{weight}>{escape(label)}</text>')
    x0, y = 480, top
    out.append(f'<text x="{x0}" y="{y}" font-size="14" font-weight="bold">Sensor</text>')
    out.append(f'<text x="{x0 + 130}" y="{y}" font-size="14" font-weight="bold">Pi pin</text>')
    out.append(f'<text x="{x0 + 250}" y="{y}" font-size="14" font-weight="bold">Pico hub</text>')
    for s in pin_map:
        y += 34
        where = f"GPIO{s.gpio} (pin {HEADER_GPIO_TO_PIN[s.gpio]})" if s.gpio is not None else "—"
        hub = f"GP{s.pico_gp} (Pico pin {PICO_GP_TO_PIN[s.pico_gp]})" if s.pico_gp is not None else "—"
        out.append(f'<rect x="{x0 - 12}" y="{y - 11}" width="8" height="14" fill="{COLOURS[s.kind]}"/>')
        out.append(f'<text x="{x0}" y="{y}" font-weight="bold">{escape(s.label)}</text>')
        out.append(f'<text x="{x0 + 130}" y="{y}">{escape(where)}</text>')
        out.append(f'<text x="{x0 + 250}" y="{y}">{escape(hub)}</text>')
        active = "high" if s.active_high else "low"
        pull = {"up": "pull-up", "down": "pull-down", "none": "no pull"}[s.pull]
        out.append(f'<text x="{x0}" y="{y + 14}" fill="#555" font-size="11">active {active}, {pull}; '
                   f'{escape(wires(s.kind, s.pull))}</text>')
    y = max(y + 50, top + 20 * row_h + 30)
    notes = [
        "Every break-beam pair: emitter red to 5V, black to GND; receiver red to 5V, black to GND, "
        "white (or yellow) signal as above.",
        "Power: emitters and receivers from 5V (pin 2 or 4), all grounds to GND (pins 6, 9, 14, 20, 25, 30, 34, 39).",
        "Signals are 3.3 V logic: pull-ups go to 3V3 (pin 1 or 17), NEVER to 5V. Receivers are open collector.",
        "Grey pins are reserved (HAT EEPROM, I2C with fixed pull-ups, the serial console): the pin map refuses them.",
        "The camera uses its own ribbon connector, not these pins. Details: hardware/ASSEMBLY.md.",
    ]
    for note in notes:
        out.append(f'<text x="20" y="{y}">{escape(note)}</text>')
        y += 20
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m companion.sensors.wiring_svg", description="draw the wiring diagram")
    parser.add_argument("pin_map", nargs="?", help="pin map file (default: the shipped one)")
    parser.add_argument("--out", default=str(WIRING_SVG))
    parser.add_argument("--check", action="store_true", help="only check that the drawing is up to date")
    args = parser.parse_args(argv)
    try:
        text = render(load_pin_map(args.pin_map))
    except PinMapError as exc:
        print(f"wiring_svg: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    return write_or_check(out, text, args.check, "python3 -m companion.sensors.wiring_svg")


if __name__ == "__main__":
    sys.exit(main())
