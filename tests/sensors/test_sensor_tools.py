"""the hobbyist's tools around the sensor kit (wiring drawing, doctor, `sensors test`'s verdict)."""
import json
import queue

import pytest

from companion.sensors.fakeserial import hub_line
from companion.sensors.hubprotocol import FIRMWARE_VERSION
from companion.sensors.pinmap import SHIPPED_PIN_MAP

PERIOD = 1 << 30


def test_wiring_svg_with_a_bad_pin_map_is_a_message_not_a_traceback(tmp_path, capsys):
    """ASSEMBLY.md: `python3 -m companion.sensors.wiring_svg /etc/companion/pinmap.json --out ~/wiring.svg`.
    A pin map with a mistake (here one pin used twice) gives a traceback; hubpins gives one line and exit 2."""
    from companion.sensors.wiring_svg import main

    data = json.loads(SHIPPED_PIN_MAP.read_text())
    data["sensors"][1]["gpio"] = 17  # gate1 on the banana's pin
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(data))
    assert main([str(path), "--out", str(tmp_path / "wiring.svg")]) == 2
    assert "both use gpio 17" in capsys.readouterr().err


@pytest.mark.parametrize("backend, field", [("gpio", "gpio"), ("hub", "pico_gp")])
def test_doctor_fails_a_pin_map_the_backend_cannot_use(tmp_path, backend, field):
    """`companion doctor` says the pin map is ok; the service then refuses every sensor ("sensor 'banana' has
    no gpio, which the gpio backend needs")."""
    from companion.doctor import check_pin_map

    data = json.loads(SHIPPED_PIN_MAP.read_text())
    del data["sensors"][0][field]
    path = tmp_path / "pinmap.json"
    path.write_text(json.dumps(data))
    check = check_pin_map(str(path), backend)
    assert check.status != "ok", check


def test_sensors_test_does_not_pass_a_hub_whose_sensors_are_off():
    """A hub flashed for another pin map (or another protocol): every sensor is off, yet `companion sensors
    test` ends "states: banana=idle gate1=idle ..." with no FAILED, exit status 0."""
    from companion.sensors.cli_sensors import not_seen
    from companion.sensors.hub import HubLink
    from companion.sensors.kit import SensorKit
    from companion.sensors.pinmap import load_pin_map

    class Backend:
        name, debounces = "hub", True

        def start(self, kit):
            pass

        def close(self):
            pass

    kit = SensorKit(load_pin_map(), queue.Queue(), lambda: 1_000_000_000, Backend(), poll_interval_s=None)
    kit.backend.link = link = HubLink(kit)
    link.connected(1_000_000_000, "/dev/ttyACM0")
    link.feed(hub_line(0, f"H {FIRMWARE_VERSION} {PERIOD} 0000 1000 0 0"), 1_100_000_000)
    assert link.sensors_off
    assert not_seen(kit, "hub") != "", "the test ends without FAILED while no sensor could be seen"


def test_the_sensor_benchmark_measures_every_edge(monkeypatch):
    """`companion bench sensors` stepped its clock 100 ms a ball: past three balls a second the kit calls a gate
    chattering and ignores it, so the benchmark waited for an event that never came and crashed."""
    from companion.sensors import bench

    monkeypatch.setattr(bench, "SAMPLES", 12)
    results = [b.run() for b in bench.benchmarks()]
    assert [r.samples for r in results] == [12, 12]
