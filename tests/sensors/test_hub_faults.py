"""faults on the hub's serial line and how the kit recovers from them."""
import queue

from companion.events import BallEntered, SensorHealth
from companion.sensors.fakeserial import hub_line
from companion.sensors.hub import HubLink
from companion.sensors.hubprotocol import FIRMWARE_VERSION, pinmap_id
from companion.sensors.kit import SensorKit
from companion.sensors.pinmap import load_pin_map
from tests.sensors.conftest import FakeClock as Clock

PERIOD = 1 << 30



def drain(q):
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def make_link(clock):
    events = queue.Queue()
    pin_map = load_pin_map()
    kit = SensorKit(pin_map, events, clock, backend="none", poll_interval_s=None)
    link = HubLink(kit)
    link.connected(clock(), "/dev/ttyACM0")
    link.events, link.pid = events, pinmap_id(pin_map)
    drain(events)
    return link


def hb(link, seq, t_us, mask=0, dropped=0):
    return hub_line(seq, f"H {FIRMWARE_VERSION} {PERIOD} {link.pid} {t_us} {dropped} {mask}")


def test_a_lost_release_line_does_not_leave_the_gate_active_against_the_heartbeats():
    """One line lost on the wire (counted, reported) is the release of gate 3. The hub's heartbeats, twice a
    second, say gate 3 is clear (mask 0); the host keeps it active anyway: after 3 s it reports gate 3
    "blocked" (a ball stuck, it says), and the next ball through opening 3 is not heard at all."""
    clock = Clock()
    link = make_link(clock)
    link.feed(hub_line(0, f"B {FIRMWARE_VERSION} {PERIOD} {link.pid}"), clock())
    link.feed(hb(link, 1, 1000), clock())
    link.feed(hub_line(2, "E gate3 1 200000"), clock.advance(0.2))   # a ball enters opening 3
    # seq 3, "E gate3 0 220000", is lost on the wire
    us = 200000
    for seq in range(4, 14):                                          # five seconds of heartbeats: gate 3 clear
        us += 500_000
        link.feed(hb(link, seq, us, mask=0), clock.advance(0.5))
        link.kit.poll(clock())
    events = drain(link.events)
    assert [e.opening for e in events if isinstance(e, BallEntered)] == [3]
    blocked = [e for e in events if isinstance(e, SensorHealth) and e.sensor == "gate3"]
    assert blocked == [], f"the heartbeats say gate 3 is clear, yet: {[e.message for e in blocked]}"
    assert link.kit.states()["gate3"] == "idle", link.kit.states()
    # the next ball through opening 3
    us += 300_000
    link.feed(hub_line(14, f"E gate3 1 {us}"), clock.advance(0.3))
    link.feed(hub_line(15, f"E gate3 0 {us + 20000}"), clock.advance(0.03))
    assert [e.opening for e in drain(link.events) if isinstance(e, BallEntered)] == [3], "the next ball is lost"


def test_a_gate_reported_blocked_is_cleared_when_the_hub_comes_back_and_says_it_is_clear():
    """Gate 3 blocked (a ball stuck), then the hub unplugged; the family clears the ball and plugs the hub
    back in; its heartbeats say gate 3 is clear. The page must not keep saying gate 3 is blocked."""
    clock = Clock()
    link = make_link(clock)
    link.feed(hub_line(0, f"B {FIRMWARE_VERSION} {PERIOD} {link.pid}"), clock())
    link.feed(hb(link, 1, 1000), clock())
    link.feed(hub_line(2, "E gate3 1 200000"), clock.advance(0.2))
    us = 200000
    for seq in range(3, 12):
        us += 500_000
        link.feed(hb(link, seq, us, mask=1 << 3), clock.advance(0.5))
        link.kit.poll(clock())
    health = [(e.sensor, e.state) for e in drain(link.events) if isinstance(e, SensorHealth)]
    assert ("gate3", "blocked") in health
    link.disconnected(clock.advance(1), "unplugged")
    link.connected(clock.advance(5), "/dev/ttyACM0")
    for seq in range(1, 8):   # the re-powered hub: gate 3 clear
        link.feed(hb(link, seq, seq * 500_000, mask=0), clock.advance(0.5))
        link.kit.poll(clock())
    events = drain(link.events)
    assert ("gate3", "ok") in [(e.sensor, e.state) for e in events if isinstance(e, SensorHealth)], \
        [(e.sensor, e.state, e.message) for e in events]
    assert link.kit.states()["gate3"] == "idle", link.kit.states()


def test_edges_the_hub_dropped_before_this_connection_are_not_reported_as_new():
    """The service restarts (or `companion sensors test` runs) while the Pico stays powered. The hub dropped
    edges once, long ago (its counter never goes down). The new connection reports them as fresh trouble."""
    clock = Clock()
    link = make_link(clock)
    link.feed(hb(link, 4000, 5_000_000, dropped=17), clock())
    link.feed(hb(link, 4001, 5_500_000, dropped=17), clock.advance(0.5))
    messages = [e.message for e in drain(link.events) if isinstance(e, SensorHealth)]
    assert not [m for m in messages if "dropped" in m], messages


def test_a_hub_whose_usb_port_goes_away_is_told_in_plain_words_on_a_real_port():
    """A pseudo-terminal stands in for /dev/ttyACM0, read by the real pyserial; closing its other end is the
    cable pulled out, as Linux hangs up a USB serial port: it reads as ready with no data, which pyserial says as
    "device reports readiness to read but returned no data (device disconnected or multiple access on port?)"."""
    import os
    import pty

    from companion.sensors.hub import HubBackend

    controller, device = pty.openpty()
    port = os.ttyname(device)
    events = queue.Queue()
    pin_map = load_pin_map()
    pid = pinmap_id(pin_map)
    backend = HubBackend(port, retry_s=0.05, silence_s=60)
    try:
        with SensorKit(pin_map, events, backend=backend, poll_interval_s=None):
            up = events.get(timeout=10)
            assert (up.sensor, up.state) == ("hub", "ok"), up
            os.write(controller, hub_line(0, f"B {FIRMWARE_VERSION} {PERIOD} {pid}")
                     + hub_line(1, f"H {FIRMWARE_VERSION} {PERIOD} {pid} 100 0 0") + hub_line(2, "E gate2 1 200"))
            assert isinstance(events.get(timeout=10), BallEntered)
            os.close(controller)
            controller = None
            down = events.get(timeout=10)
    finally:
        if controller is not None:
            os.close(controller)
        os.close(device)
    assert (down.sensor, down.state, down.message) == (
        "hub", "disconnected", "hub disconnected (its port went away or is read by another program too: the cable "
                               "unplugged, the Pico restarted, or a program that does not lock the port reads it (a "
                               "terminal, ModemManager)); the banana and the gates are off until it is back")


def test_a_read_error_of_the_os_is_told_in_plain_words_and_any_other_as_it_came():
    import serial

    from companion.sensors.hub import HubBackend

    class Port:
        port = "/dev/ttyACM0"

        def __init__(self, error):
            self.error = error

        def readline(self):
            raise self.error

        def close(self):
            pass

    told = []
    for error in (serial.SerialException("read failed: [Errno 5] Input/output error"),
                  serial.SerialException("read failed: [Errno 9] Bad file descriptor")):
        clock = Clock()
        link = make_link(clock)
        backend = HubBackend(open_port=lambda name, error=error: Port(error))
        backend.kit, backend.link = link.kit, link
        backend._step()
        told += [e.message for e in drain(link.events) if e.state == "disconnected"]
    assert told == ["hub disconnected (its USB port went away: the cable unplugged, or the Pico restarted); the "
                    "banana and the gates are off until it is back",
                    "hub disconnected (read failed: [Errno 9] Bad file descriptor); the banana and the "
                    "gates are off until it is back"]
