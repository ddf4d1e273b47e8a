import json

from companion.sensors.pinmap import SHIPPED_PIN_MAP


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
    assert code == 2 and "--seconds must be more than 0" in err


def test_the_none_backend_runs_and_stops_quietly(run_cli):
    code, out, _ = run_cli("sensors", "test", "--backend", "none", "--seconds", "0.2")
    assert code == 0 and "stopped: no events" in out
