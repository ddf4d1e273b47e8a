"""The sensor kit (its real debouncing, on gpiozero's mock pins) feeding the table."""
from __future__ import annotations

import queue

import pytest

from companion.events import DieReading, ZoneState
from companion.table.journal import Journal
from companion.table.owner import Table

import companion.sensors.kit as kit_module
from companion.sensors import gpio_backend
from companion.sensors import pinmap

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


def ball_through(opening, kit, backend, clock):
    """A ball dropped into `opening`: through its gate, then a second later at the bottom."""
    clock.advance(1)
    backend.set_sensor(f"gate{opening}", True)
    clock.advance(0.03)
    backend.set_sensor(f"gate{opening}", False)
    kit.poll(clock.advance(0.2))
    clock.advance(0.8)
    backend.set_sensor("bottom", True)


def test_a_ball_through_a_gate_plays_its_opening(rig):
    table, kit, backend, clock, settle = rig
    table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS})
    table.request({"do": "dice", "values": ["blue"]})
    ball_through(5, kit, backend, clock)
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
    zone("fruit", ["coconut"] * 4 + ["papaya"] * 2, clock.now)
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
    assert table.view()["question"] is None, "the squeak waits for the camera's frame of that moment"
    table.submit(ZoneState(t=clock.advance(0.03), zone="matcho", dice=(lying, lying, unread))).result(5)
    table.submit(ZoneState(t=clock.now, zone="fruit", dice=fruit)).result(5)
    view = table.view()
    assert view["question"]["text"].startswith("The banana squeaked, but I could not read one of the Matcho dice. "
                                               "Who squeaked? If it was the Matcho roller, first tap the 9 dice")
    assert [option["option"] for option in view["question"]["options"]] == ["fruit", "nobody"]
    assert view["question"]["t"] == slap
    assert view["game"]["scores"] == [0, 0]


def lying(table, name, faces, t):
    dice = tuple(DieReading(f, (float(i), 0.0), (float(i), 0.0, i + 1.0, 1.0), 0.97) for i, f in enumerate(faces))
    table.submit(ZoneState(t=t, zone=name, dice=dice)).result(5)


def slap(backend, kit, clock):
    """A hand on the banana: pressed for a tenth of a second."""
    backend.set_sensor("banana", True)
    kit.poll(clock.advance(0.1))
    backend.set_sensor("banana", False)
    kit.poll(clock.advance(0.01))


def test_the_second_hand_on_the_banana_a_moment_later_counts_for_nothing(rig):
    """The rulebook's race: both reach for the banana; the first hand wins the duel, and the other hand,
    arriving a moment later, must not be scored in the next duel on the dice still lying there."""
    table, kit, backend, clock, settle = rig
    table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS + [{"name": "Cleo"}]})
    lying(table, "fruit", ["coconut"] * 4 + ["starfruit"] * 2, clock.advance(0.1))
    lying(table, "matcho", ["matcho", "matcho", "blank"], clock.now)
    slap(backend, kit, clock)
    clock.advance(0.2)
    slap(backend, kit, clock)
    settle()
    view = table.view()
    assert view["game"]["scores"] == [7, 0, 0], "Ben, the next fruit roller, did not climb on Ada's dice"
    assert "only the first hand on the banana counts" in view["notice"]
    assert [step["action"]["kind"] for step in view["game"]["history"]] == ["dice_showing", "squeak"]


def test_a_squeak_before_anyone_rolled_the_next_duel_is_asked_and_judged_on_no_dice(rig):
    table, kit, backend, clock, settle = rig
    table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS})
    no_combination = ["coconut", "coconut", "orange", "orange", "banana", "papaya"]
    lying(table, "fruit", no_combination, clock.advance(0.1))
    lying(table, "matcho", ["matcho"] * 3, clock.now)
    slap(backend, kit, clock)
    settle()
    assert table.view()["game"]["scores"] == [0, 1]  # Ben's three Matchos; the roles swap
    lying(table, "fruit", no_combination, clock.advance(3))
    lying(table, "matcho", ["matcho"] * 3, clock.now)  # the dice still lie as the duel ended
    slap(backend, kit, clock)
    settle()
    view = table.view()
    assert view["question"]["text"].startswith("The banana squeaked, but the dice lie as the last duel left them")
    assert view["game"]["scores"] == [0, 1], "the three Matchos of the last duel are not Ada's now"
    assert table.request({"do": "choose", "option": "fruit"}).ok
    assert table.view()["game"]["scores"] == [0, 0], "Ben, squeaking on nothing, goes one space down"
    lying(table, "fruit", ["coconut"] * 3 + ["orange", "banana", "papaya"], clock.advance(1))
    lying(table, "matcho", ["blank", "blank", "matcho"], clock.now)
    slap(backend, kit, clock)
    settle()
    assert table.view()["game"]["scores"] == [0, 2], "a fresh roll is judged as ever"


def test_a_ball_through_another_opening_than_the_one_chosen_is_named(rig):
    table, kit, backend, clock, settle = rig
    table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS})
    backend.set_sensor("bottom", True)  # before any ball was drawn
    kit.poll(clock.advance(0.2))
    settle()
    assert table.view()["notice"] == "a ball reached the bottom, but no ball was in play"
    backend.set_sensor("bottom", False)
    kit.poll(clock.advance(0.2))
    table.request({"do": "dice", "values": ["blue"]})
    assert table.request({"do": "play", "action": {"kind": "choose_opening", "opening": 2}}).ok
    backend.set_sensor("gate6", True)
    clock.advance(0.03)
    backend.set_sensor("gate6", False)
    kit.poll(clock.advance(0.2))
    settle()
    view = table.view()
    assert view["notice"] == ("the ball went into opening 6, but opening 2 was chosen: if it really went into 6, "
                              "undo and choose 6; if it is the next ball, tap what the last ball did first, then "
                              "this ball's colour and opening 6")
    assert view["game"]["history"][-1]["text"].endswith("opening 2")


def test_a_hub_with_old_firmware_is_shown_on_the_page_while_its_banana_still_plays(tmp_path):
    """The page names every sensor health that is not "ok": a hub on firmware 1.0.0 (which can keep a released
    banana pressed) must be one of them, and its squeaks still reach the table."""
    from companion.events import BananaSqueaked
    from companion.sensors.fakeserial import hub_line
    from companion.sensors.hub import HubLink
    from companion.sensors.hubprotocol import pinmap_id

    table = Table(Journal(tmp_path)).start()
    clock = Clock()
    delivered = []

    def sink(event):
        delivered.append(event)
        table.submit(event).result(5)

    try:
        kit = kit_module.SensorKit(pinmap.load_pin_map(), sink, clock, backend="none", poll_interval_s=None)
        link = HubLink(kit)
        link.connected(clock(), "/dev/ttyACM0")
        pid = pinmap_id(kit.pin_map)
        for seq in range(3):
            link.feed(hub_line(seq, f"H 1.0.0 {1 << 30} {pid} {1000 + seq * 500_000} 0 0"), clock.advance(0.5))
        hub = table.view()["health"]["sensor:hub"]
        assert hub["state"] != "ok" and "can keep a released banana pressed" in hub["message"]
        assert "copy this companion's firmware" in hub["message"]
        link.feed(hub_line(3, "E banana 1 1200000"), clock.advance(0.2))
        assert [e for e in delivered if isinstance(e, BananaSqueaked)], "the hub's banana still squeaks"
    finally:
        table.stop()


def test_without_a_gpio_library_the_page_says_what_to_install_once(tmp_path, monkeypatch):
    """A Pi whose companion cannot see python3-lgpio: the page listed the same paragraph under every sensor."""
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_library():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_library))
    table = Table(Journal(tmp_path)).start()
    try:
        kit = kit_module.SensorKit(pinmap.load_pin_map(), lambda event: table.submit(event).result(5), Clock(),
                                   gpio_backend.GpioBackend(), poll_interval_s=None).start()
        health = table.view()["health"]
        kit.close()
    finally:
        table.stop()
    said = [h["message"] for h in health.values()]
    assert sum("sudo apt install python3-lgpio" in m for m in said) == 1, said
    gpio = health["sensor:gpio"]
    assert gpio["state"] == "error" and "sudo apt install python3-lgpio" in gpio["message"]
    assert health["sensor:banana"] == {"state": "error",
                                       "message": "the banana (GPIO17, pin 11) not opened: no GPIO library, see gpio"}
    assert all(h["state"] == "error" for h in health.values()) and len(health) == 1 + len(list(pinmap.load_pin_map()))


def test_a_ball_dropped_through_magic_mountain_during_another_game_is_named_as_such(rig):
    """A child drops a ball through the Magic Mountain box while the family plays Mountain Goats: the page said
    "the game is not waiting for an opening", as if Mountain Goats had openings and someone had been too early."""
    table, kit, backend, clock, settle = rig
    table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS})
    before = table.view()["game"]
    ball_through(3, kit, backend, clock)
    settle()
    view = table.view()
    assert view["notice"] == "a ball went through Magic Mountain, but this game has no balls"
    assert view["game"]["history_count"] == before["history_count"] and view["question"] is None
