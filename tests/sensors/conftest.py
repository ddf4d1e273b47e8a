import queue

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.sensors.gpio_backend import GpioBackend
from companion.sensors.kit import SensorKit
from companion.sensors.pinmap import load_pin_map


class FakeClock:
    """Monotonic ns that only moves when a test says so."""

    def __init__(self, now: int = 1_000_000_000):
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> int:
        self.now += int(seconds * 1e9)
        return self.now


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def mock_factory():
    """gpiozero's own test recipe: the global pin factory swapped for MockFactory."""
    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = saved


@pytest.fixture
def pin_map():
    return load_pin_map()


@pytest.fixture
def gpio_kit(mock_factory, pin_map, clock):
    """The real "gpio" backend on mock pins, with a fake clock and no ticker thread (tests call poll)."""
    events = queue.Queue()
    kit = SensorKit(pin_map, events, clock, GpioBackend(), poll_interval_s=None).start()
    kit.events = events
    yield kit
    kit.close()


def drain(q) -> list:
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def break_beam(factory, gpio: int) -> None:
    factory.pin(gpio).drive_low()


def restore_beam(factory, gpio: int) -> None:
    factory.pin(gpio).drive_high()
