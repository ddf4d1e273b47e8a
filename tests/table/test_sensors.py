"""The sensor kit (its real debouncing, on gpiozero's mock pins) feeding the table."""
from __future__ import annotations

import queue

import pytest

from companion.events import DieReading, ZoneState
from companion.table.journal import Journal
from companion.table.owner import Table

kit_module = pytest.importorskip("companion.sensors.kit")
gpio_backend = pytest.importorskip("companion.sensors.gpio_backend")
pinmap = pytest.importorskip("companion.sensors.pinmap")

PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]


class Clock:
    def __init__(self):
        self.now = 5_000_000_000

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += int(seconds * 1e9)
        return self.now


@pytest.fixture
def rig(tmp_path):
    table = Table(Journal(tmp_path)).start()
    clock = Clock()
    backend = gpio_backend.MockGpioBackend()
    delivered: queue.Queue = queue.Queue()

    def sink(event):
        delivered.put(table.submit(event))

    kit = kit_module.SensorKit(pinmap.load_pin_map(), sink, clock, backend, poll_interval_s=None).start()

    def settle():
        while not delivered.empty():
            delivered.get().result(5)

    yield table, kit, backend, clock, settle
    kit.close()
    table.stop()


def test_a_ball_through_a_gate_plays_its_opening(rig):
    table, kit, backend, clock, settle = rig
    table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS})
    table.request({"do": "dice", "values": ["blue"]})
    clock.advance(1)
    backend.set_sensor("gate5", True)
    clock.advance(0.03)
    backend.set_sensor("gate5", False)
    kit.poll(clock.advance(0.2))
    clock.advance(0.8)
    backend.set_sensor("bottom", True)
    settle()
    view = table.view()
    assert view["game"]["history"][-1]["text"].endswith("opening 5")
    assert view["game"]["chance"]["kind"] == "hits"
    assert "tap what it hit" in view["notice"]


def test_a_squeak_is_judged_on_what_the_zones_showed_at_that_moment(rig):
    table, kit, backend, clock, settle = rig
    table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS})

    def zone(name, faces, t):
        dice = tuple(DieReading(f, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.97) for f in faces)
        table.submit(ZoneState(t=t, zone=name, dice=dice)).result(5)

    zone("matcho", ["matcho", "blank", "blank"], clock.advance(0.1))
    zone("fruit", ["coconut"] * 4 + ["papaya"] * 2, clock.advance(0.1))
    slap = clock.advance(0.2)
    backend.set_sensor("banana", True)
    zone("matcho", ["matcho"] * 3, clock.advance(0.05))  # later than the slap: does not count
    settle()
    game = table.view()["game"]
    assert table.view()["question"] is None
    assert game["scores"] == [7, 0], "four coconuts and two papayas climb 7"
    assert game["history"][-1]["t"] == slap


def test_a_squeak_while_a_die_cannot_be_read_is_asked_about_not_judged(rig):
    table, kit, backend, clock, settle = rig
    table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS})
    unread = DieReading("matcho", (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.97, unsure=True)
    lying = DieReading("matcho", (2.0, 0.0), (2.0, 0.0, 3.0, 1.0), 0.97)
    table.submit(ZoneState(t=clock.advance(0.1), zone="matcho", dice=(lying, lying, unread))).result(5)
    fruit = tuple(DieReading(f, (0.0, 0.0), (0.0, 0.0, 1.0, 1.0), 0.97) for f in ["coconut"] * 4 + ["papaya"] * 2)
    table.submit(ZoneState(t=clock.advance(0.1), zone="fruit", dice=fruit)).result(5)
    slap = clock.advance(0.2)
    backend.set_sensor("banana", True)
    settle()
    view = table.view()
    assert view["question"]["text"] == "The banana squeaked, but I could not read every die. Who squeaked?"
    assert view["question"]["t"] == slap
    assert view["game"]["scores"] == [0, 0]
