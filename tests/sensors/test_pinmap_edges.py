"""The pin map as people really save it, and `companion sensors test` run from wherever they are."""
import copy
import json

import pytest

from companion.sensors.pinmap import SHIPPED_PIN_MAP, PinMapError, load_pin_map, parse_pin_map

SHIPPED = json.loads(SHIPPED_PIN_MAP.read_text(encoding="utf-8"))


def renamed(index: int, name: str) -> dict:
    data = copy.deepcopy(SHIPPED)
    data["sensors"][index]["name"] = name
    return data


def test_a_pin_map_saved_with_a_byte_order_mark_is_read(tmp_path):
    """Windows Notepad saves "UTF-8" with a byte-order mark in front; the map is the same map."""
    path = tmp_path / "pinmap.json"
    path.write_bytes(b"\xef\xbb\xbf" + SHIPPED_PIN_MAP.read_bytes())
    assert [s.name for s in load_pin_map(path)] == [s.name for s in load_pin_map()]


def test_a_pin_map_that_is_not_utf8_names_the_file_and_the_fix(tmp_path):
    path = tmp_path / "pinmap.json"
    path.write_bytes(SHIPPED_PIN_MAP.read_bytes().replace(b'"note": "', b'"note": "caf\xe9 ', 1))
    with pytest.raises(PinMapError) as caught:
        load_pin_map(path)
    message = str(caught.value)
    assert str(path) in message and "line 6 holds a character that is not UTF-8 (byte 0xe9)" in message, message
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    with pytest.raises(PinMapError, match="line 6 holds a character that is not UTF-8"):
        load_pin_map(path)
    path.write_bytes(SHIPPED_PIN_MAP.read_text(encoding="utf-8").encode("utf-16"))
    with pytest.raises(PinMapError, match="is saved as UTF-16 .*: save it as UTF-8"):
        load_pin_map(path)


@pytest.mark.parametrize("name", ["hub", "kit"])
def test_a_sensor_named_like_the_services_own_health_reports_is_refused(name):
    """The hub link reports its health as sensor "hub" and the service its sensors' as "kit": a sensor of
    that name would have its messages overwritten on the page by theirs, and the other way round."""
    with pytest.raises(PinMapError) as caught:
        parse_pin_map(renamed(1, name), "pins.json")
    message = str(caught.value)
    assert f"sensor {name!r}" in message and "name" in message and "reserved" in message, message
