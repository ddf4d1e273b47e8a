import copy
import json

import pytest

from companion.config import load_settings
from companion.sensors.hubpins import main as hubpins_main
from companion.sensors.kit import open_sensor_kit
from companion.sensors.pinmap import SHIPPED_PIN_MAP, PinMapError, load_pin_map, parse_pin_map

SHIPPED = json.loads(SHIPPED_PIN_MAP.read_text())


def edited(index: int, **changes):
    data = copy.deepcopy(SHIPPED)
    for key, value in changes.items():
        if value is None:
            data["sensors"][index].pop(key, None)
        else:
            data["sensors"][index][key] = value
    return data


def test_shipped_pin_map_has_the_banana_six_gates_and_the_bottom():
    pins = load_pin_map()
    assert [s.label for s in pins] == ["the banana"] + [f"gate {n}" for n in range(1, 7)] + ["the bottom gate"]
    assert all(s.gpio is not None and s.pico_gp is not None for s in pins)


@pytest.mark.parametrize("index, changes, words", [
    (2, {"gpio": 5}, ["gate1", "gate2", "gpio 5"]),
    (1, {"gpio": 14}, ["gate1", "gpio 14", "reserved", "UART"]),
    (1, {"gpio": 2}, ["gpio 2", "I2C"]),
    (1, {"gpio": 28}, ["gate1", "gpio 28", "not a GPIO"]),
    (1, {"gpio": "5"}, ["gpio '5'"]),
    (1, {"pico_gp": 25}, ["pico_gp 25"]),
    (3, {"pico_gp": 2}, ["banana", "gate3", "pico_gp 2"]),
    (1, {"opening": 7}, ["gate1", "opening must be 1–6", "7"]),
    (2, {"opening": 1}, ["opening 1"]),
    (1, {"pull": "down"}, ["gate1", "pull \"down\"", "open collector"]),
    (1, {"active": "middle"}, ["gate1", "active", "'middle'"]),
    (1, {"gpio": None, "pico_gp": None}, ["gate1", "needs a gpio"]),
    (1, {"colour": "red"}, ["gate1", "unknown field", "colour"]),
    (1, {"debounce_ms": -1}, ["gate1", "debounce_ms", "-1"]),
    (0, {"alarm_after_s": 0}, ["banana", "alarm_after_s", "0"]),
    (1, {"kind": "banana", "opening": None}, ["banana", "gate1", "kind banana"]),
    (1, {"kind": "banana"}, ["only a gate has an opening"]),
    (1, {"name": "Gate 1"}, ["sensors[1].name", "'Gate 1'"]),
])
def test_a_wrong_pin_map_is_refused_naming_the_sensor_field_and_value(index, changes, words):
    with pytest.raises(PinMapError) as err:
        parse_pin_map(edited(index, **changes), "my-pins.json")
    message = str(err.value)
    assert message.startswith("pin map my-pins.json:")
    for word in words:
        assert word in message


def test_unreadable_and_non_json_pin_maps_say_which_file(tmp_path):
    with pytest.raises(PinMapError, match="cannot read pin map .*missing.json"):
        load_pin_map(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(PinMapError, match="bad.json is not valid JSON"):
        load_pin_map(bad)


def test_the_settings_key_sensors_pin_map_chooses_the_file(tmp_path):
    mine = edited(1, gpio=23)
    path = tmp_path / "pins.json"
    path.write_text(json.dumps(mine))
    settings = load_settings(env={}, overrides={"sensors": {"pin_map": str(path), "backend": "none"}})
    kit = open_sensor_kit(settings, lambda e: None)
    assert kit.pin_map.sensor("gate1").gpio == 23
    default = open_sensor_kit(load_settings(env={}, overrides={"sensors": {"backend": "none"}}), lambda e: None)
    assert default.pin_map.sensor("gate1").gpio == SHIPPED["sensors"][1]["gpio"]


def test_the_hub_firmware_pin_table_is_generated_from_the_pin_map(tmp_path, capsys):
    assert hubpins_main(["--check"]) == 0, "firmware/hub_pins.py is stale: run python3 -m companion.sensors.hubpins"
    path = tmp_path / "pins.json"
    path.write_text(json.dumps(edited(1, pico_gp=20)))
    out = tmp_path / "hub_pins.py"
    assert hubpins_main([str(path), "--out", str(out)]) == 0
    namespace: dict = {}
    exec(out.read_text(), namespace)
    assert namespace["GP"][1] == 20 and namespace["NAMES"][1] == "gate1"
    assert capsys.readouterr().out == (
        f"wrote {out}: copy it to the Pico (firmware/README.md); on the Pi, where the service holds the Pico's "
        f"port: `sudo systemctl stop companion`, `mpremote cp {out} :`, `mpremote reset`, "
        "`sudo systemctl start companion`\n"), "the steps after it, as ASSEMBLY.md says"
    assert hubpins_main([str(path), "--out", str(out), "--check"]) == 0
    assert hubpins_main(["--out", str(out), "--check"]) == 1
