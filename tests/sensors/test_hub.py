"""The hub's host driver: lines, checksums, sequence, clock, unplugging, and garbage on the wire."""
import queue
import random

import pytest
from hypothesis import given, settings, strategies as st

from companion.events import BallEntered, BananaSqueaked, SensorHealth
from companion.sensors.fakeserial import FakeHubSocket, hub_line
from companion.sensors.hub import MAX_HELD_EDGES, HubBackend, HubClock, HubLink, HubNotFound, HubPortRefused
from companion.sensors.hubprotocol import FIRMWARE_VERSION, BadLine, Edge, Heartbeat, parse_line, pinmap_id
from companion.sensors.kit import SensorKit
from companion.sensors.pinmap import load_pin_map

from tests.waiting import wait_for

from .conftest import FakeClock, drain

PERIOD = 1 << 30
PIN_MAP = load_pin_map()


@pytest.fixture
def link(pin_map, clock):
    return make_link(pin_map, clock)


def make_link(pin_map, clock):
    events = queue.Queue()
    kit = SensorKit(pin_map, events, clock, backend="none", poll_interval_s=None)
    link = HubLink(kit)
    link.connected(clock(), "/dev/ttyACM0")
    link.events = events
    link.pid = pinmap_id(pin_map)
    drain(events)
    return link


def boot(link, clock, seq=0):
    link.feed(hub_line(seq, f"B {FIRMWARE_VERSION} {PERIOD} {link.pid}"), clock())
    link.feed(hub_line(seq + 1, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} 1000 0 0"), clock())


def test_lines_parse_and_a_flipped_byte_is_caught():
    assert parse_line(hub_line(7, "E gate3 1 123")) == Edge(7, "gate3", True, 123)
    assert parse_line(hub_line(8, "H 1.0.0 1073741824 ba5b 5 0 3")) == Heartbeat(8, "1.0.0", PERIOD, "ba5b", 5, 0, 3)
    good = hub_line(7, "E gate3 1 123")
    with pytest.raises(BadLine, match="checksum mismatch"):
        parse_line(good.replace(b"gate3", b"gate4"))
    with pytest.raises(BadLine, match="malformed E line"):
        parse_line(hub_line(1, "E gate3 2 123"))
    with pytest.raises(BadLine, match="clock period 0 in a H line"):
        parse_line(hub_line(1, "H 1.0.0 0 ba5b 5 0 3"))  # would divide by zero when its ticks are unwrapped


def test_an_edge_from_the_hub_becomes_an_event_at_host_time(link, clock):
    first_heartbeat_at = clock()  # hub 1000 µs, taken as arriving without delay
    boot(link, clock)
    clock.advance(0.5)
    link.feed(hub_line(2, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} 501000 0 0"), clock.now + 300_000)  # 0.3 ms late
    link.feed(hub_line(3, "E banana 1 600000"), clock.now + 200_000_000)  # a slow line: 100 ms late
    assert drain(link.events) == [BananaSqueaked(first_heartbeat_at + 599_000_000)]


def test_lost_and_corrupt_lines_are_counted_and_reported_once_then_recovery(link, clock):
    boot(link, clock)
    link.feed(hub_line(5, "E gate1 1 2000"), clock.advance(0.1))
    link.feed(b"\x00\xffnoise*1234\n", clock.advance(0.1))
    link.feed(hub_line(6, "E gate1 0 9000"), clock.advance(0.1))
    events = drain(link.events)
    assert [e.opening for e in events if isinstance(e, BallEntered)] == [1]
    health = [e for e in events if isinstance(e, SensorHealth)]
    assert [(e.sensor, e.state) for e in health] == [("hub", "error")]
    assert "3 line(s) from the hub lost" in health[0].message
    assert link.stats.lost == 3 and link.stats.corrupt == 1
    for seq in range(7, 20):
        link.feed(hub_line(seq, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} {10000 + seq * 500000} 0 0"), clock.advance(0.5))
    assert [(e.sensor, e.state) for e in drain(link.events)] == [("hub", "ok")]


def test_a_hub_built_for_another_pin_map_is_reported(link, clock):
    link.feed(hub_line(0, f"H {FIRMWARE_VERSION} {PERIOD} 0000 1000 0 0"), clock())
    [event] = drain(link.events)
    assert event.state == "error"
    assert f"python3 -m companion.sensors.hubpins {link.kit.pin_map.source}` in your clone" in event.message, \
        "the fix names the pin map the service reads (/etc/companion/pinmap.json on a Pi), not the shipped one, " \
        "the python3 the docs name (plain Debian has no `python` command) and where to run it (an installed copy " \
        "has no firmware/ to write)"


def test_a_hub_plugged_back_in_restarts_its_clock_and_its_edges_keep_the_right_time(link, clock):
    """Unplugging the Pico power-cycles it: its ticks start again near 0, and its boot line is sent before
    the host has the port open again, so only its heartbeats arrive."""
    boot(link, clock)
    for n in range(2, 200):  # 100 s of heartbeats
        link.feed(hub_line(n, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} {1000 + (n - 1) * 500_000} 0 0"), clock.advance(0.5))
    link.disconnected(clock.advance(1), "unplugged")
    link.connected(clock.advance(10), "/dev/ttyACM0")
    restarted = clock()
    for n in range(1, 4):
        link.feed(hub_line(n, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} {n * 500_000} 0 0"), restarted + n * 500_000_000 + 300_000)
    link.feed(hub_line(4, "E banana 1 1700000"), restarted + 1_700_000_000 + 300_000)
    [squeak] = [e for e in drain(link.events) if e.type == "banana_squeaked"]
    assert abs(squeak.t - (restarted + 1_700_000_000)) < 1_000_000, (squeak.t - restarted) / 1e9


def test_a_squeak_heard_before_the_hubs_first_heartbeat_is_played_once_the_hub_is_known(link, clock):
    """The port opens at any moment of the hub's half-second heartbeat: a squeak in that moment arrives
    before the hub has said its clock period, pin map and sensor levels, and is played once it has."""
    opened = clock()
    link.feed(hub_line(40, "E banana 1 20100000"), opened + 100_000_000)
    link.feed(hub_line(41, "E banana 0 20250000"), opened + 250_000_000)
    assert drain(link.events) == [], "nothing is said or played before the hub is known"
    link.feed(hub_line(42, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} 20400000 0 0"), opened + 400_000_000)
    link.kit.poll(opened + 2_000_000_000)
    events = drain(link.events)
    assert events == [BananaSqueaked(opened + 100_000_000)], events


def test_a_ball_falling_at_the_hubs_first_heartbeat_is_played_with_the_gates_level_before_it(link, clock):
    """The heartbeat's levels are taken after the edges before it: a beam broken before the heartbeat and
    still broken at it is one ball entering, not a gate that was blocked from the start."""
    opened = clock()
    link.feed(hub_line(7, "E gate3 1 5300000"), opened + 300_000_000)
    link.feed(hub_line(8, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} 5310000 0 {1 << 3}"), opened + 310_000_000)
    link.feed(hub_line(9, "E gate3 0 5330000"), opened + 330_000_000)
    link.kit.poll(opened + 2_000_000_000)
    events = drain(link.events)
    assert [e.opening for e in events if isinstance(e, BallEntered)] == [3], events
    assert not [e for e in events if isinstance(e, SensorHealth)], events


def test_a_flood_of_edges_before_the_first_heartbeat_is_dropped_and_the_heartbeats_levels_taken(link, clock):
    """Sunlight flickering on a beam as the port opens: past the edges held, the held ones are dropped too, and
    the heartbeat's levels are taken, so a gate the heartbeats call clear is never left blocked."""
    opened = clock()
    for k in range(MAX_HELD_EDGES + 1):  # the last edge, dropped, is the beam's release
        link.feed(hub_line(k, f"E gate3 {1 - k % 2} {5_000_000 + 1000 * k}"), opened + 1_000_000 * k)
    link.feed(hub_line(MAX_HELD_EDGES + 1, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} 5400000 0 0"), opened + 400_000_000)
    link.kit.poll(opened + 6_000_000_000)
    assert link.kit.states()["gate3"] == "idle"
    events = drain(link.events)
    assert [e.message for e in events if isinstance(e, SensorHealth) and e.sensor == "gate3"] == []
    assert not [e for e in events if isinstance(e, BallEntered)]
    assert any(f"more than {MAX_HELD_EDGES} edges" in e.message for e in events if isinstance(e, SensorHealth))


def test_edges_before_the_first_heartbeat_of_a_hub_flashed_for_another_pin_map_are_not_played(link, clock):
    """Plugged back in with another firmware, the hub's first edges come before the heartbeat that says
    it was built for another pin map: they are held, then dropped with the rest of its edges."""
    boot(link, clock)
    link.disconnected(clock.advance(1), "unplugged")
    link.connected(clock.advance(10), "/dev/ttyACM0")
    drain(link.events)
    link.feed(hub_line(3, "E gate6 1 1200000"), clock.advance(0.2))
    link.feed(hub_line(4, "E gate6 0 1250000"), clock.advance(0.05))
    link.feed(hub_line(5, f"H {FIRMWARE_VERSION} {PERIOD} 0000 1500000 0 0"), clock.advance(0.25))
    link.kit.poll(clock.advance(2))
    events = drain(link.events)
    assert not [e for e in events if isinstance(e, BallEntered)], "a beam the hub calls gate6 may be gate 1 here"
    assert [e.message[:25] for e in events if isinstance(e, SensorHealth)] == ["the hub's firmware was bu"]


def test_a_gate_blocked_when_the_hub_starts_counts_toward_blocked(link, clock):
    link.feed(hub_line(0, f"B {FIRMWARE_VERSION} {PERIOD} {link.pid}"), clock())
    link.feed(hub_line(1, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} 1000 0 {1 << 3}"), clock())  # input 3 is gate3
    link.kit.poll(clock.advance(4))
    [event] = drain(link.events)
    assert (event.sensor, event.state) == ("gate3", "blocked") and "hub GP5" in event.message


def test_a_silent_hub_is_reported_and_its_return_too(link, clock):
    boot(link, clock)
    link.check_silence(clock.advance(2.9), 3_000_000_000)
    assert drain(link.events) == []
    link.check_silence(clock.advance(0.2), 3_000_000_000)
    [silent] = drain(link.events)
    assert silent.state == "error" and "silent for 3.1 s" in silent.message and "Thonny" in silent.message
    link.feed(hub_line(2, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} 3101000 0 0"), clock())
    assert [(e.sensor, e.state) for e in drain(link.events)] == [("hub", "ok")]


def test_a_hub_built_for_another_pin_map_is_named_even_after_other_trouble_and_its_edges_are_not_played(link, clock):
    link.feed(b"0 0 0*1C2B\r\n", clock())  # the tail of a line cut by opening the port mid-line
    for n in range(1, 4):
        link.feed(hub_line(n, f"H {FIRMWARE_VERSION} {PERIOD} 0000 {n * 500_000} 0 0"), clock.advance(0.5))
    link.feed(hub_line(4, "E gate6 1 1501000"), clock.advance(0.002))  # named by the hub's other pin map
    events = drain(link.events)
    assert [e.message[:25] for e in events] == ["corrupt line from the hub", "the hub's firmware was bu"]
    assert events[1].message.endswith(f"(hub 0000, here {link.pid}); its sensors are off until you run `python3 -m "
                                      f"companion.sensors.hubpins {PIN_MAP.source}` in your clone of the project and "
                                      "copy the firmware/hub_pins.py it writes there to the Pico (firmware/README.md)")
    assert not [e for e in events if isinstance(e, BallEntered)], "a beam the hub calls gate6 may be gate 1 here"


def test_a_hub_with_newer_firmware_of_the_same_protocol_is_named_once_and_its_sensors_work(link, clock):
    """A hub flashed from a newer companion is not told to go back to older firmware: the companion is updated."""
    link.feed(hub_line(0, f"B 1.4.2 {PERIOD} {link.pid}"), clock())
    for n in range(1, 4):
        link.feed(hub_line(n, f"H 1.4.2 {PERIOD} {link.pid} {n * 500_000} 0 0"), clock.advance(0.5))
    link.feed(hub_line(4, "E banana 1 1600000"), clock.advance(0.1))
    events = drain(link.events)
    notes = [e for e in events if isinstance(e, SensorHealth)]
    assert [(e.state, e.message) for e in notes] == [
        ("outdated", f"the hub runs firmware 1.4.2, newer than the {FIRMWARE_VERSION} this companion ships: its "
                     "sensors work, but this companion may not know what the newer firmware does: update the "
                     "companion: `git pull` in your clone of the project, then `sudo systemd/install.sh`")]
    assert [e.type for e in events if isinstance(e, BananaSqueaked)] == ["banana_squeaked"]


def test_a_hub_with_firmware_of_another_protocol_is_not_read(link, clock):
    for n in range(0, 4):
        link.feed(hub_line(n, f"H 2.0.0 {PERIOD} {link.pid} {n * 500_000} 0 {1 << 3}"), clock.advance(0.5))
    link.feed(hub_line(4, "E gate1 1 1600000"), clock.advance(0.1))
    link.kit.poll(clock.advance(10))
    events = drain(link.events)
    assert [(e.sensor, e.state) for e in events] == [("hub", "error")], "told once; no gate blocked, no ball"
    assert events[0].message == (f"the hub runs firmware 2.0.0, which this companion cannot read (it ships {FIRMWARE_VERSION}); "
                                 "its sensors are off until you copy this companion's firmware/hubcore.py, "
                                 "hub_pins.py and main.py to the Pico (firmware/README.md)")
    link.connected(clock.advance(1), "/dev/ttyACM0")  # flashed again and plugged back in
    boot(link, clock)
    link.feed(hub_line(2, "E gate1 1 1600000"), clock.advance(0.1))
    assert [e.type for e in drain(link.events) if isinstance(e, BallEntered)] == ["ball_entered"]


def test_a_firmware_that_crashes_is_heard_as_silent_and_no_gate_is_left_blocked(link, clock):
    boot(link, clock)
    link.feed(hub_line(2, "E gate3 1 1500"), clock.advance(0.001))  # a ball in opening 3
    link.feed(b"Traceback (most recent call last):\r\n", clock.advance(0.01))
    for _ in range(12):  # a minute of nothing
        link.check_silence(clock.advance(5), 3_000_000_000)
        link.kit.poll(clock())
    health = [(e.sensor, e.state, e.message) for e in drain(link.events) if isinstance(e, SensorHealth)]
    assert [h[2][:25] for h in health] == ["corrupt line from the hub", "hub silent for 5.0 s: is "]
    assert all(sensor == "hub" for sensor, _, _ in health), "gate 3 is not reported blocked while the hub is silent"


def test_clock_unwraps_ticks_across_the_wrap():
    c = HubClock()
    c.reset(PERIOD)
    assert c.unwrap(PERIOD - 100) == PERIOD - 100
    assert c.unwrap(50) == PERIOD + 50
    assert c.unwrap(PERIOD - 10) == PERIOD - 10  # a slightly older edge stamp, before the wrap
    assert c.unwrap(400_000_000) == PERIOD + 400_000_000


@settings(max_examples=60, deadline=None)
@given(offset=st.integers(0, 10**15), start=st.integers(0, PERIOD - 1), seed=st.integers(0, 2**32))
def test_clock_offset_is_robust_to_jitter_and_wrap(offset, start, seed):
    rng = random.Random(seed)
    c = HubClock()
    c.reset(PERIOD)
    true_hub_us = start
    for i in range(200):
        true_hub_us += rng.randint(100_000, 600_000)
        delay = 200_000 if i % 10 == 0 else rng.randint(200_000, 20_000_000)  # 0.2–20 ms; every tenth fast
        unwrapped_base = true_hub_us - start
        received = offset + unwrapped_base * 1000 + delay
        t = c.to_host(true_hub_us % PERIOD, received)
        assert t <= received
    # once fast lines have been seen, a stamp maps to within the fastest delay of the truth
    assert abs(t - (offset + (true_hub_us - start) * 1000)) <= 200_000 + 1000


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=200))
def test_garbage_bytes_are_never_more_than_a_corrupt_line(data):
    clock = FakeClock()
    link = make_link(PIN_MAP, clock)
    for piece in data.split(b"\n"):
        link.feed(piece + b"\n", clock.advance(0.001))
    assert link.stats.corrupt + link.stats.lines >= 1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(
    st.binary(max_size=60),
    st.builds(lambda seq, body: hub_line(seq, body), st.integers(0, 70000), st.text(max_size=40)),
    st.builds(lambda seq, n, lv, t: hub_line(seq, f"E {n} {lv} {t}"), st.integers(0, 65535),
              st.sampled_from(["banana", "gate1", "gate7", "bottom"]), st.integers(0, 1), st.integers(0, 2**40)),
), max_size=30))
def test_fuzzed_hub_traffic_never_crashes_and_only_makes_known_events(lines):
    clock = FakeClock()
    link = make_link(PIN_MAP, clock)
    boot(link, clock)
    for line in lines:
        link.feed(line, clock.advance(0.001))
    for event in drain(link.events):
        assert event.type in ("banana_squeaked", "ball_entered", "ball_landed", "sensor_health")


def test_a_hub_plugged_back_in_while_another_program_holds_its_port_is_told_as_such(pin_map):
    """Unplugged, then plugged in while Thonny holds the port: the second reason is told too, not hidden behind
    the first "hub disconnected", and each only once however often the port is tried."""
    tries = []

    def open_port(port):
        tries.append(port)
        if len(tries) <= 3:
            raise HubNotFound("no Raspberry Pi Pico on USB")
        raise HubPortRefused(f"the hub's port {port} is held by another program: close it")

    events = queue.Queue()
    backend = HubBackend("/dev/ttyACM0", open_port=open_port, retry_s=0.01, silence_s=60)
    with SensorKit(pin_map, events, backend=backend, poll_interval_s=None):
        told = [events.get(timeout=20).message for _ in range(2)]
        wait_for(lambda: len(tries) >= 8, "the port to be tried eight times")
    assert told == ["hub disconnected (no Raspberry Pi Pico on USB); the banana and the gates are off until it is back",
                    "the hub's port /dev/ttyACM0 is held by another program: close it; the banana and the gates are "
                    "off until it is back"]
    assert events.empty()


def test_unplugging_and_replugging_the_hub_is_reported_and_resumes(pin_map):
    socket = FakeHubSocket()
    events = queue.Queue()
    backend = HubBackend("/dev/ttyACM0", open_port=socket, retry_s=0.01, silence_s=60)
    pid = pinmap_id(pin_map)
    with SensorKit(pin_map, events, backend=backend, poll_interval_s=None):
        assert socket.opened.acquire(timeout=20)
        port = socket.current
        port.send(hub_line(0, f"B {FIRMWARE_VERSION} {PERIOD} {pid}") + hub_line(1, f"H {FIRMWARE_VERSION} {PERIOD} {pid} 100 0 0"))
        port.send(hub_line(2, "E gate2 1 200")[:9])  # half a line, read on its own, then the rest
        wait_for(lambda: port.in_waiting == 0, "the driver to read the half line")
        port.send(hub_line(2, "E gate2 1 200")[9:])
        up = events.get(timeout=20)
        assert (up.sensor, up.state, up.message) == ("hub", "ok", "hub connected on /dev/ttyACM0")
        entered = events.get(timeout=20)
        assert isinstance(entered, BallEntered) and entered.opening == 2
        socket.unplug()
        down = events.get(timeout=20)
        assert (down.sensor, down.state) == ("hub", "disconnected")
        assert down.message == ("hub disconnected (its port went away or is read by another program too: the "
                                "cable unplugged, the Pico restarted, or a program that does not lock the port reads "
                                "it (a terminal, ModemManager)); the banana and the gates are off until it is back"), \
            "pyserial's \"device reports readiness to read but returned no data\" meant nothing to a person"
        wait_for(lambda: socket.tries - socket.opens >= 3, "a few failed reopen attempts while unplugged")
        socket.plug()
        assert socket.opened.acquire(timeout=20)
        up = events.get(timeout=20)
        assert (up.sensor, up.state) == ("hub", "ok")
        socket.current.send(hub_line(0, f"B {FIRMWARE_VERSION} {PERIOD} {pid}") + hub_line(1, f"H {FIRMWARE_VERSION} {PERIOD} {pid} 100 0 0")
                            + hub_line(2, "E banana 1 300"))
        assert isinstance(events.get(timeout=20), BananaSqueaked)
    assert backend.stats.connects == 2 and backend.stats.disconnects == 1 and backend.stats.corrupt == 0


def test_a_firmware_that_stops_with_an_error_is_named_with_its_error_and_what_to_do(link, clock):
    """MicroPython prints why the firmware stopped (here: hub_pins.py never copied to the Pico), then sits at
    its REPL. The page names that error, and what to do, not only "is its firmware running?"."""
    boot(link, clock)
    for line in (b"Traceback (most recent call last):\r\n", b'  File "main.py", line 7, in <module>\r\n',
                 b"ImportError: no module named 'hub_pins'\r\n"):
        link.feed(line, clock.advance(0.001))
    link.check_silence(clock.advance(5), 3_000_000_000)
    told = [e.message for e in drain(link.events) if isinstance(e, SensorHealth)]
    fix = ("copy this companion's firmware/hubcore.py, hub_pins.py and main.py to the Pico (firmware/README.md), "
           "then unplug it and plug it in again")
    assert told[-2] == f"the hub's firmware stopped with ImportError: no module named 'hub_pins': {fix}"
    assert told[-1] == f"hub silent for 5.0 s: its firmware stopped with ImportError: no module named 'hub_pins': {fix}"


def test_a_silent_hub_says_how_to_tell_whether_its_firmware_runs(link, clock):
    boot(link, clock)
    link.check_silence(clock.advance(4), 3_000_000_000)
    [silent] = drain(link.events)
    assert silent.message == (
        "hub silent for 4.0 s: is its firmware running? An open REPL (Thonny's) stops it; unplug the "
        "Pico and plug it in again: its LED blinks once a second while the firmware runs, and if it does not, "
        "copy this companion's firmware/hubcore.py, hub_pins.py and main.py to the Pico (firmware/README.md)")


def test_a_pico_running_another_program_is_not_called_silent(link, clock):
    """A Pico still running the hobbyist's own test program (main.py printing "tick") talks all the time, in
    lines that are not the hub's: "hub silent" sent them looking for a dead cable."""
    for n in range(8):
        link.feed(b"tick\r\n", clock.advance(0.5))
        link.check_silence(clock(), 3_000_000_000)
    told = [e.message for e in drain(link.events) if isinstance(e, SensorHealth)]
    assert told[-1] == ("no hub line for 3.0 s, only others (the last: 'tick'): the Pico runs another program than "
                        "the hub's firmware: copy this companion's firmware/hubcore.py, hub_pins.py and main.py to "
                        "the Pico (firmware/README.md), then unplug it and plug it in again")


def test_a_hub_flashed_before_the_level_check_is_told_to_update(link, clock):
    """Firmware 1.0.0 trusted the lines' levels only after its ring overflowed (a release lost in a bounce storm
    kept the banana pressed): it still works, and its health says why and how to update, in a state the page
    shows (it skips "ok"), and says it again when the hub's lines are clean after a trouble."""
    link.feed(hub_line(0, f"H 1.0.0 {PERIOD} {link.pid} 1000 0 0"), clock())
    [told] = drain(link.events)
    assert (told.state, told.message) == (
        "outdated", "the hub runs firmware 1.0.0, older than the 1.0.1 this companion ships: its sensors work, but "
                    "firmware before 1.0.1 can keep a released banana pressed: copy this companion's "
                    "firmware/hubcore.py, hub_pins.py and main.py to the Pico (firmware/README.md), then unplug it "
                    "and plug it in again")
    link.feed(b"garbage\n", clock.advance(0.5))
    for seq in range(1, 14):
        link.feed(hub_line(seq, f"H 1.0.0 {PERIOD} {link.pid} {1000 + seq * 500_000} 0 0"), clock.advance(0.5))
    assert [(e.state, e.message) for e in drain(link.events)] == [
        ("error", "corrupt line from the hub: not a hub line: b'garbage'"), ("outdated", told.message)]
    link.feed(hub_line(14, "E banana 1 7100000"), clock.advance(0.1))
    assert [e.type for e in drain(link.events)] == ["banana_squeaked"]


def test_a_hub_updated_while_its_port_stays_open_is_ok_again(link, clock):
    """A program that does not take the service's lock may copy the new firmware beside it and soft-reset the
    Pico, which keeps its USB port open: the hub's boot line then names the new version."""
    link.feed(hub_line(0, f"H 1.0.0 {PERIOD} {link.pid} 1000 0 0"), clock())
    assert [e.state for e in drain(link.events)] == ["outdated"]
    link.feed(hub_line(0, f"B {FIRMWARE_VERSION} {PERIOD} {link.pid}"), clock.advance(5))
    link.feed(hub_line(1, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} 1000 0 0"), clock.advance(0.5))
    assert [(e.state, e.message) for e in drain(link.events)] == [
        ("ok", f"the hub runs firmware {FIRMWARE_VERSION}, the one this companion ships")]


def test_a_hub_whose_version_is_not_plain_numbers_is_told_the_versions_differ(link, clock):
    link.feed(hub_line(0, f"H 1.0.1-dev {PERIOD} {link.pid} 1000 0 0"), clock())
    [told] = drain(link.events)
    assert (told.state, told.message) == (
        "outdated", "the hub runs firmware 1.0.1-dev; this companion ships 1.0.1: its sensors work, but the versions "
                    "differ: flash the hub from this companion: copy this companion's firmware/hubcore.py, "
                    "hub_pins.py and main.py to the Pico (firmware/README.md), then unplug it and plug it in again")
