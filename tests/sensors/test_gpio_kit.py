"""The kit on gpiozero's MockFactory: what a player does at the table, and what goes wrong with wires."""
import queue

from gpiozero import Device

from companion.events import BallEntered, BallLanded, BananaSqueaked, SensorHealth
from companion.sensors.gpio_backend import GpioBackend
from companion.sensors.kit import SensorKit
from companion.sensors.pinmap import parse_pin_map
from tests.waiting import wait_for

from .conftest import break_beam, drain, restore_beam

BANANA, GATE3, BOTTOM = 17, 13, 20


def test_a_slap_on_the_banana_is_one_event_timed_at_the_first_edge(gpio_kit, mock_factory, clock):
    slap_at = clock.advance(1)
    mock_factory.pin(BANANA).drive_low()
    assert drain(gpio_kit.events) == [BananaSqueaked(slap_at)]


def test_a_ball_through_a_gate_names_its_opening_and_the_bottom_gate_sees_it_land(gpio_kit, mock_factory, clock):
    entered = clock.advance(0.5)
    break_beam(mock_factory, GATE3)
    clock.advance(0.02)
    restore_beam(mock_factory, GATE3)
    landed = clock.advance(1.2)
    break_beam(mock_factory, BOTTOM)
    assert drain(gpio_kit.events) == [BallEntered(entered, 3), BallLanded(landed)]


def test_a_bounce_storm_of_thousands_of_edges_is_one_squeak_and_one_release(gpio_kit, mock_factory, clock):
    pin = mock_factory.pin(BANANA)
    first = clock.advance(1)
    for _ in range(3000):  # contacts bouncing every 5 µs for 15 ms
        pin.drive_low()
        clock.advance(5e-6)
        pin.drive_high()
        clock.advance(5e-6)
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    clock.advance(0.001)
    for _ in range(500):  # bouncing on release
        pin.drive_low()
        clock.advance(5e-6)
        pin.drive_high()
        clock.advance(5e-6)
    gpio_kit.poll(clock.advance(0.1))
    assert drain(gpio_kit.events) == [BananaSqueaked(first)]
    assert gpio_kit.states()["banana"] == "idle"
    again = clock.advance(1)
    pin.drive_low()
    assert drain(gpio_kit.events) == [BananaSqueaked(again)]


def test_two_gates_broken_at_once_are_two_balls(gpio_kit, mock_factory, clock):
    t = clock.advance(1)
    break_beam(mock_factory, 5)
    break_beam(mock_factory, 16)
    assert drain(gpio_kit.events) == [BallEntered(t, 1), BallEntered(t, 6)]
    assert gpio_kit.states()["gate1"] == gpio_kit.states()["gate6"] == "active"


def test_a_gate_blocked_for_seconds_is_reported_and_so_is_its_recovery(gpio_kit, mock_factory, clock):
    t = clock.advance(1)
    break_beam(mock_factory, GATE3)
    gpio_kit.poll(clock.advance(2.9))
    assert drain(gpio_kit.events) == [BallEntered(t, 3)]
    gpio_kit.poll(clock.advance(0.2))
    blocked = drain(gpio_kit.events)
    assert [(e.sensor, e.state) for e in blocked] == [("gate3", "blocked")]
    assert "gate 3 (GPIO13, pin 33)" in blocked[0].message and "misaligned" in blocked[0].message
    assert gpio_kit.states()["gate3"] == "active, blocked"
    break_beam(mock_factory, 5)  # the other gates keep working
    restore_beam(mock_factory, GATE3)
    gpio_kit.poll(clock.advance(0.1))
    events = drain(gpio_kit.events)
    assert isinstance(events[0], BallEntered) and events[0].opening == 1
    assert [(e.sensor, e.state) for e in events[1:]] == [("gate3", "ok")]


def test_a_banana_held_down_is_reported_stuck_and_then_released(gpio_kit, mock_factory, clock):
    pressed = clock.advance(1)
    mock_factory.pin(BANANA).drive_low()
    gpio_kit.poll(clock.advance(6))
    got = drain(gpio_kit.events)
    assert got[0] == BananaSqueaked(pressed)
    assert [(e.sensor, e.state) for e in got[1:]] == [("banana", "stuck")]
    assert "move it off the sensor" in got[1].message
    mock_factory.pin(BANANA).drive_high()
    gpio_kit.poll(clock.advance(0.1))
    assert [(e.sensor, e.state) for e in drain(gpio_kit.events)] == [("banana", "ok")]


def test_a_chattering_input_is_ignored_and_reported_not_a_flood_of_events(gpio_kit, mock_factory, clock):
    pin = mock_factory.pin(GATE3)
    for _ in range(400):  # a loose wire: a short pulse every 7 ms
        pin.drive_low()
        clock.advance(0.0005)
        pin.drive_high()
        clock.advance(0.0005)
        gpio_kit.poll(clock.advance(0.006))
    events = drain(gpio_kit.events)
    health = [e for e in events if isinstance(e, SensorHealth)]
    assert [(e.sensor, e.state) for e in health] == [("gate3", "error")]
    assert "pull-up" in health[0].message
    assert len([e for e in events if isinstance(e, BallEntered)]) == 3  # one ball a turn passes an opening
    gpio_kit.poll(clock.advance(3))
    assert [(e.sensor, e.state) for e in drain(gpio_kit.events)] == [("gate3", "ok")]


def test_a_child_squeezing_the_banana_four_times_a_second_is_heard_not_taken_for_a_loose_wire(
        gpio_kit, mock_factory, clock):
    pin = mock_factory.pin(BANANA)
    for _ in range(8):
        clock.advance(0.15)
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()
        gpio_kit.poll(clock.now)
    events = drain(gpio_kit.events)
    assert [type(e) for e in events] == [BananaSqueaked] * 8


def test_a_pin_that_cannot_be_opened_degrades_only_that_sensor(mock_factory, pin_map, clock):
    from gpiozero import DigitalInputDevice

    squatter = DigitalInputDevice(GATE3)  # another program holds GPIO13
    events = queue.Queue()
    try:
        with SensorKit(pin_map, events, clock, GpioBackend(), poll_interval_s=None) as kit:
            failed = drain(events)
            assert [(e.sensor, e.state) for e in failed] == [("gate3", "error")]
            assert "GPIO13" in failed[0].message and "cannot be opened" in failed[0].message
            assert kit.states()["gate3"] == "failed"
            t = clock.advance(1)
            break_beam(mock_factory, 6)
            assert drain(events) == [BallEntered(t, 2)]
    finally:
        squatter.close()


def test_a_failing_sink_does_not_stop_the_sensors(gpio_kit, mock_factory, pin_map, clock):
    seen = []

    def sink(event):
        seen.append(event)
        if len(seen) == 1:
            raise RuntimeError("table queue closed")

    gpio_kit.close()
    with SensorKit(pin_map, sink, clock, GpioBackend(), poll_interval_s=None) as kit:
        break_beam(mock_factory, 5)
        break_beam(mock_factory, 6)
        assert kit.sink_errors == 1 and [e.opening for e in seen] == [1, 2]


def test_active_high_sensor_with_pull_down_is_read_the_right_way_round(mock_factory, clock):
    pins = parse_pin_map({"format": 1, "sensors": [
        {"name": "banana", "kind": "banana", "gpio": 22, "active": "high", "pull": "down"}]})
    events = queue.Queue()
    with SensorKit(pins, events, clock, GpioBackend(), poll_interval_s=None):
        t = clock.advance(1)
        mock_factory.pin(22).drive_high()
        assert drain(events) == [BananaSqueaked(t)]


def test_the_mock_backend_plays_sensors_by_their_active_level(pin_map, clock):
    events = queue.Queue()
    saved = Device.pin_factory
    with SensorKit(pin_map, events, clock, "mock", poll_interval_s=None) as kit:
        t = clock.advance(1)
        kit.backend.set_sensor("gate4", True)
        assert drain(events) == [BallEntered(t, 4)]
    assert Device.pin_factory is saved  # the mock backend leaves the global pin factory alone


def test_the_ticker_confirms_releases_on_its_own(mock_factory, pin_map):
    events = queue.Queue()
    with SensorKit(pin_map, events, backend=GpioBackend(), poll_interval_s=0.002) as kit:
        break_beam(mock_factory, 5)
        restore_beam(mock_factory, 5)
        wait_for(lambda: kit.states()["gate1"] == "idle", "the ticker to confirm the gate's release")
    assert isinstance(events.get_nowait(), BallEntered)
