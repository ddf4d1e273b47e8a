"""a flickering beam on gpiozero's mock pins (the real "gpio" backend, the kit's own debouncing)."""
import queue

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.events import BallEntered, SensorHealth
from companion.sensors.gpio_backend import GpioBackend
from companion.sensors.kit import SensorKit
from companion.sensors.pinmap import load_pin_map
from tests.sensors.conftest import FakeClock as Clock



def test_a_beam_flickering_ten_times_a_second_is_reported_not_played_as_fifty_balls():
    """Gate 2's beam at the edge of its receiver flickers ten times a second (a loose wire, a shaky emitter).
    One ball per turn goes through an opening; the kit plays every flicker as a ball (50 in five seconds,
    each one "choose opening 2" when the game waits for an opening) and never tells anyone: its chatter
    limit is more than 20 activations in one second."""
    saved = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    try:
        clock = Clock()
        events = queue.Queue()
        kit = SensorKit(load_pin_map(), events, clock, GpioBackend(), poll_interval_s=None).start()
        pin = factory.pin(6)  # gate2
        for _ in range(50):
            pin.drive_low()
            kit.poll(clock.advance(0.03))
            pin.drive_high()
            kit.poll(clock.advance(0.07))
        kit.poll(clock.advance(0.01))
        got = []
        while not events.empty():
            got.append(events.get_nowait())
        kit.close()
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved
    balls = [e for e in got if isinstance(e, BallEntered)]
    health = [e for e in got if isinstance(e, SensorHealth) and e.sensor == "gate2"]
    assert health, f"{len(balls)} balls through opening 2 in 5 s and no word about gate 2"
    assert len(balls) <= 3, f"{len(balls)} balls through opening 2 in 5 s"
