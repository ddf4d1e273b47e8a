import csv

from companion.sensors.pinmap import HEADER_GPIO_TO_PIN, SHIPPED_PIN_MAP, load_pin_map
from companion.sensors.wiring_svg import main as wiring_main

HARDWARE = SHIPPED_PIN_MAP.parent


def test_the_wiring_drawing_is_up_to_date_with_the_pin_map():
    assert wiring_main(["--check"]) == 0, "hardware/wiring.svg is stale: run python3 -m companion.sensors.wiring_svg"
    svg = (HARDWARE / "wiring.svg").read_text()
    for s in load_pin_map():
        assert f"GPIO{s.gpio} (pin {HEADER_GPIO_TO_PIN[s.gpio]})" in svg
        assert f"GP{s.pico_gp} (Pico pin {PICO_PIN[s.pico_gp]})<" in svg, "the Pico's pin to solder to, for any pico_gp"


def test_the_parts_list_has_every_column_filled():
    rows = list(csv.DictReader((HARDWARE / "parts.csv").open()))
    assert list(rows[0]) == ["part", "example product", "quantity", "price range (EUR)"]
    assert all(all(v.strip() for v in row.values()) for row in rows)
    text = " ".join(r["part"] for r in rows).lower()
    assert "break-beam" in text and "force-sensitive" in text and "10 kohm" in text


def test_the_assembly_notes_cover_the_kit():
    notes = (HARDWARE / "ASSEMBLY.md").read_text()
    for must in ("3.3 V", "open collector", "recommend", "40–60 cm", "30°", "companion sensors test", "pinmap.json",
                 "never fired"):
        assert must in notes


def test_the_commands_the_kit_names_are_the_python3_ones_the_docs_use():
    """ASSEMBLY.md and firmware/README.md say `python3 -m companion.sensors...` (plain Debian has no `python`
    command); the messages, the tools' help and the drawing say the same."""
    said = [HARDWARE / "wiring.svg", *sorted((HARDWARE.parent / "companion" / "sensors").glob("*.py"))]
    named = [path.name for path in said if "python -m companion" in path.read_text(encoding="utf-8")]
    assert named == []
    docs = (HARDWARE / "ASSEMBLY.md").read_text() + (HARDWARE.parent / "firmware" / "README.md").read_text()
    assert "python3 -m companion.sensors.hubpins" in docs and "python3 -m companion.sensors.wiring_svg" in docs


# The Pico's physical pin of each GP number (the Pico datasheet's pinout).
PICO_PIN = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17, 14: 19,
            15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}


def test_the_pins_the_assembly_notes_name_are_the_shipped_pin_maps():
    """ASSEMBLY.md names pins in its text and its Pico table by hand: each must be the one the pin map gives."""
    import re

    notes = (HARDWARE / "ASSEMBLY.md").read_text()
    pins = load_pin_map()
    banana, gate1 = pins.sensor("banana"), pins.sensor("gate1")
    assert f"GPIO{banana.gpio} (pin {HEADER_GPIO_TO_PIN[banana.gpio]})" in notes
    assert f"gate 1 on GPIO{gate1.gpio}, pin {HEADER_GPIO_TO_PIN[gate1.gpio]}" in notes
    assert f"GP{banana.pico_gp} (Pico pin {PICO_PIN[banana.pico_gp]})" in notes
    rows = {m.group(3).strip(): (int(m.group(1)), int(m.group(2)))
            for m in re.finditer(r"^\| (\d+) \| GP(\d+) \| ([^|]+)\|$", notes, re.M)}
    for s in pins:
        label = {"banana": "the banana (FSR)", "bottom": "the bottom gate"}.get(s.kind, s.label)
        row = next(pin_gp for text, pin_gp in rows.items() if text.startswith(label))
        assert row == (PICO_PIN[s.pico_gp], s.pico_gp), f"{label}: the table says {row}"
