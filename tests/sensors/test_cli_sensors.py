import json
import os

from companion.sensors.pinmap import SHIPPED_PIN_MAP
from tests.waiting import came


def test_sensors_test_with_the_mock_backend_prints_the_demo_events_and_states(run_cli):
    code, out, err = run_cli("sensors", "test", "--backend", "mock", "--seconds", "2.3")
    assert code == 0, err
    assert "gate3    gate 3           GPIO13 (pin 33)" in out
    lines = out.splitlines()
    events = [l.split(" s  ", 1)[1] for l in lines if " s  " in l]
    assert events == ["banana_squeaked", "ball_entered opening=3", "ball_landed",
                      "ball_entered opening=1", "ball_entered opening=6", "ball_landed", "ball_landed"]
    assert any("gate1=ACTIVE" in l and "gate6=ACTIVE" in l for l in lines)
    assert lines[-1].startswith("stopped: 3 ball_entered, 3 ball_landed, 1 banana_squeaked; states: banana=idle")
    # a gate wired to another pin than the pin map says is silent: the last line names those that never fired
    assert lines[-1].endswith("; never fired: gate2, gate4, gate5")


def test_a_bad_pin_map_is_one_line_and_exit_2(run_cli, tmp_path):
    data = json.loads(SHIPPED_PIN_MAP.read_text())
    data["sensors"][3]["gpio"] = 15
    path = tmp_path / "pins.json"
    path.write_text(json.dumps(data))
    code, out, err = run_cli("sensors", "test", "--backend", "mock", "--pin-map", str(path), "--seconds", "1")
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0 and "gpio 15 is reserved for UART RX" in err


def test_seconds_must_be_positive(run_cli):
    code, _, err = run_cli("sensors", "test", "--backend", "none", "--seconds", "0")
    assert code == 2 and "argument --seconds: must be a finite number above 0, got '0'" in err


def test_the_none_backend_runs_and_stops_quietly(run_cli):
    code, out, _ = run_cli("sensors", "test", "--backend", "none", "--seconds", "0.2")
    assert code == 0 and "stopped: no events" in out


def test_the_sensors_are_not_tested_while_the_companion_holds_them(run_cli, tmp_path):
    """On the Pi the service holds the GPIO lines and the hub's port: a second reader gets "GPIO busy" for
    every sensor (which sends a person to the wiring) or half of the hub's lines. Told to stop it first."""
    from companion.config import default_state_dir
    from companion.table.state_lock import StateDirLock

    default_state_dir().mkdir(parents=True, exist_ok=True)
    lock = StateDirLock(default_state_dir())
    lock.acquire()
    try:
        for backend, what in (("gpio", "the sensors"), ("hub", "the sensor hub")):
            code, out, err = run_cli("sensors", "test", "--backend", backend, "--seconds", "0.2")
            assert code == 2 and out == "", err
            assert err.strip().endswith(f"the companion is running (process {os.getpid()}) and holds {what}: stop it "
                                        "first with `sudo systemctl stop companion`, and start it again after with "
                                        "`sudo systemctl start companion`")
    finally:
        lock.release()
    code, out, _ = run_cli("sensors", "test", "--backend", "none", "--seconds", "0.2")
    assert code == 0


def test_the_hub_port_is_held_alone(tmp_path):
    """pyserial's exclusive lock: a second program opening the hub's port is refused by name instead of
    taking half of its lines."""
    import pty

    import pytest

    from companion.sensors.hub import HubNotFound, open_serial

    controller, device = pty.openpty()
    first = open_serial(os.ttyname(device))
    try:
        with pytest.raises(HubNotFound, match="is held by another program"):
            open_serial(os.ttyname(device))
    finally:
        first.close()
        os.close(controller)
        os.close(device)


def test_a_hub_whose_firmware_never_runs_fails_the_test_instead_of_showing_every_sensor_idle(run_cli):
    """A Pico with MicroPython but a firmware that stopped at once (say hub_pins.py was not copied) has a port
    and sends nothing on it: it waits at its REPL. No sensor was seen: the test fails and says so, and no
    state line shows the sensors idle."""
    import pty

    controller, device = pty.openpty()
    try:
        code, out, err = run_cli("sensors", "test", "--backend", "hub", "--hub-port", os.ttyname(device),
                                 "--seconds", "0.5")
    finally:
        os.close(controller)
        os.close(device)
    assert code == 1, out + err
    assert "hub connected on" in out
    assert "gate3    gate 3           hub GP5 (Pico pin 7)" in out, "the Pico's pin to solder to, not only its GP"
    assert not any("banana=idle" in line for line in out.splitlines()), out
    assert out.splitlines()[-1].startswith("stopped: ") and "FAILED: the hub sent no heartbeat" in out.splitlines()[-1]


def test_a_gate_aligned_after_the_test_starts_is_shown_idle_without_waiting_for_the_next_event(run_cli, monkeypatch):
    """ASSEMBLY.md: "A gate that stays ACTIVE is misaligned: turn the emitter until it goes idle". The state
    line is printed whenever a state changes, so the gate's idle is seen the moment the beam is restored."""
    import _thread
    import sys

    from companion.sensors import cli_sensors

    def printed(text: str):  # on a state line after the last one the test turned a gate on
        return lambda: text in sys.stdout.getvalue().rpartition("ball_entered")[2]

    def misaligned_then_aligned(backend, stop, clock, events, end):
        clock.until = None  # not the scripted demo: nothing to hold the clock for
        backend.set_sensor("gate2", True)
        came(printed("gate2=ACTIVE"))
        backend.set_sensor("gate2", False)
        came(printed("gate2=idle"))
        _thread.interrupt_main()  # Ctrl-C, whatever was printed: the test's asserts say what was not

    monkeypatch.setattr(cli_sensors, "play_demo", misaligned_then_aligned)
    code, out, err = run_cli("sensors", "test", "--backend", "mock")
    assert code == 0, err
    states = [line.strip() for line in out.splitlines() if line.startswith(" " * 13)]
    assert any("gate2=ACTIVE" in s for s in states), out
    assert "gate2=idle" in states[-1], out
    assert "ball_entered opening=2" in out


def test_a_hub_port_this_user_may_not_open_names_the_dialout_group(run_cli, monkeypatch):
    """/dev/ttyACM0 belongs to the group dialout: a login outside it gets pyserial's Errno 13, which said
    only "hub disconnected" though the hub is plugged in."""
    import serial

    def refused(port, *args, **kwargs):
        raise serial.SerialException(13, f"could not open port {port}: [Errno 13] Permission denied: '{port}'")

    monkeypatch.setattr(serial, "Serial", refused)
    code, out, err = run_cli("sensors", "test", "--backend", "hub", "--hub-port", "/dev/ttyACM0", "--seconds", "0.3")
    assert code == 1, err
    assert ("sensor_health hub: disconnected — this user may not open the hub's port /dev/ttyACM0: add the user "
            "to the dialout group with `sudo usermod -aG dialout $USER`, then log out and in again") in out
    assert "hub disconnected" not in out, "the hub is plugged in: the cable is not the problem"


def test_a_hub_port_held_by_another_program_says_so_not_disconnected(run_cli):
    """Thonny or a second `companion sensors test` holding the port: the hub is plugged in, and "hub
    disconnected" sent a hobbyist to the cable."""
    import pty

    from companion.sensors.hub import open_serial

    controller, device = pty.openpty()
    port = os.ttyname(device)
    thonny = open_serial(port)
    try:
        code, out, err = run_cli("sensors", "test", "--backend", "hub", "--hub-port", port, "--seconds", "0.3")
    finally:
        thonny.close()
        os.close(controller)
        os.close(device)
    assert code == 1, err
    assert (f"sensor_health hub: disconnected — the hub's port {port} is held by another program (the companion "
            "service, `companion sensors test`, Thonny or mpremote): close it; the banana and the gates are off "
            "until it is back") in out
    assert "hub disconnected" not in out


def test_gpio_without_a_gpio_library_says_what_to_install(run_cli, monkeypatch):
    """A Pi whose companion cannot see Debian's python3-lgpio (a virtual environment made without
    --system-site-packages): gpiozero's "Unable to load any default pin factory!" said nothing to do."""
    import warnings

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    def no_library():
        warnings.warn(PinFactoryFallback("Falling back from lgpio: No module named 'lgpio'"))
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_library))
    code, out, err = run_cli("sensors", "test", "--backend", "gpio", "--seconds", "0.3")
    assert code == 1, err
    told = [line.split(" s  ", 1)[1] for line in out.splitlines() if " s  sensor_health" in line]
    assert told[0] == (
        "sensor_health gpio: error — gpiozero has no GPIO library to use: on a Raspberry Pi, sudo apt install "
        "python3-lgpio (systemd/install.sh does; a virtual environment sees it only if made with "
        "--system-site-packages); on another machine, set sensors.backend = \"none\" (`companion sensors test "
        "--backend mock` shows a demo)")
    assert len(told) == 9 and told[1] == ("sensor_health banana: error — the banana (GPIO17, pin 11) not opened: "
                                          "no GPIO library, see gpio")
    assert sum("apt install" in line for line in out.splitlines()) == 1, "what to do is said once"


def test_a_hub_that_goes_silent_after_its_heartbeats_is_told_as_gone_silent(run_cli, monkeypatch):
    """A hub that beat and then stopped (its firmware crashed, Thonny opened a REPL) is not a hub that never
    sent a heartbeat: the state line and the last line say it went silent, and how long ago it last beat."""
    import re
    import threading

    from companion.sensors import hub
    from companion.sensors.fakeserial import FakeHubSocket, hub_line
    from companion.sensors.hubprotocol import FIRMWARE_VERSION, pinmap_id
    from companion.sensors.pinmap import load_pin_map

    socket = FakeHubSocket()
    real_backend = hub.HubBackend
    monkeypatch.setattr(hub, "HubBackend", lambda port: real_backend(port, open_port=socket, silence_s=0.5))
    pid, period = pinmap_id(load_pin_map(None)), 1 << 30

    def beat_then_stop():
        assert socket.opened.acquire(timeout=30)
        socket.current.send(hub_line(0, f"B {FIRMWARE_VERSION} {period} {pid}")
                            + hub_line(1, f"H {FIRMWARE_VERSION} {period} {pid} 100 0 0"))

    threading.Thread(target=beat_then_stop, daemon=True).start()
    code, out, err = run_cli("sensors", "test", "--backend", "hub", "--hub-port", "/dev/ttyACM0", "--seconds", "3")
    assert code == 1, out + err
    lines = out.splitlines()
    states = [line.strip() for line in lines if line.startswith(" " * 13)]
    assert any("banana=idle" in s for s in states), "its heartbeat showed every sensor"
    assert re.fullmatch(r"the hub went silent \(\d+\.\d s without a heartbeat\): no sensor can be seen",
                        states[-1]), out
    assert re.search(r"; FAILED: the hub went silent: no heartbeat in the last \d+\.\d s, so its sensors were not "
                     r"seen since \(see the message above\)$", lines[-1]), lines[-1]
    assert "sent no heartbeat" not in out and "no heartbeat from the hub yet" not in states[-1]


def test_sensors_test_stops_at_its_seconds_when_the_mock_demo_breaks(run_cli, monkeypatch):
    """The mock demo holds the kit's clock at its next step; a demo that broke (a mock pin refused) must not hold
    it for ever: the command asked for 1 s stops, where it hung."""
    import threading

    from companion.sensors.gpio_backend import MockGpioBackend

    def refused(self, name, active):
        raise RuntimeError("mock pin busy")

    monkeypatch.setattr(MockGpioBackend, "set_sensor", refused)
    monkeypatch.setattr(threading, "excepthook", lambda args: None)
    done = []
    runner = threading.Thread(target=lambda: done.append(run_cli("sensors", "test", "--backend", "mock",
                                                                 "--seconds", "1")), daemon=True)
    runner.start()
    runner.join(120)  # a bound for a hang, far beyond any slow machine's second: not a timing check
    assert done and done[0][0] == 0, "sensors test never stopped"
