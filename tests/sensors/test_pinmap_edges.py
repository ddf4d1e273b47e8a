"""The pin map as people really save it, and `companion sensors test` run from wherever they are."""
import copy
import json
import os
import subprocess
import sys
from pathlib import Path

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


def test_lgpio_gets_a_writable_folder_when_sensors_test_runs_from_one_it_cannot_write(run_cli, monkeypatch,
                                                                                      tmp_path):
    """On a Pi 5 gpiozero's lgpio makes its notification pipe in $LG_WD, else in the current folder: run from
    / (or any folder the user cannot write) every sensor failed to open. The backend now sees LG_WD set."""
    from companion.sensors import gpio_backend

    seen: dict[str, object] = {}
    start = gpio_backend.MockGpioBackend.start

    def start_and_look(self, kit):
        folder = seen["LG_WD"] = os.environ.get("LG_WD")
        seen["writable"] = bool(folder) and os.path.isdir(folder) and os.access(folder, os.W_OK)
        seen["cwd"] = os.getcwd()
        return start(self, kit)

    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setattr(gpio_backend.MockGpioBackend, "start", start_and_look)
    unwritable = tmp_path / "read-only"
    unwritable.mkdir(mode=0o555)
    monkeypatch.chdir(unwritable)
    code, out, err = run_cli("sensors", "test", "--backend", "mock", "--pin-map", str(SHIPPED_PIN_MAP),
                             "--seconds", "0.2")
    assert code == 0, err
    assert seen["writable"], seen
    assert os.path.realpath(seen["LG_WD"]) != os.path.realpath(unwritable)
    assert seen["cwd"] == str(unwritable), "the command still runs where it was started"
    assert "LG_WD" not in os.environ and not os.path.exists(seen["LG_WD"]), "the folder is gone afterwards"


def test_an_lg_wd_the_user_set_is_kept(run_cli, monkeypatch, tmp_path):
    from companion.sensors import gpio_backend

    seen: dict[str, str | None] = {}
    start = gpio_backend.MockGpioBackend.start

    def start_and_look(self, kit):
        seen["LG_WD"] = os.environ.get("LG_WD")
        return start(self, kit)

    monkeypatch.setenv("LG_WD", str(tmp_path))
    monkeypatch.setattr(gpio_backend.MockGpioBackend, "start", start_and_look)
    code, _, err = run_cli("sensors", "test", "--backend", "mock", "--seconds", "0.2")
    assert code == 0, err
    assert seen["LG_WD"] == str(tmp_path)


def test_lgpio_opens_its_pipe_from_its_own_folder(run_cli, monkeypatch, tmp_path):
    """lgpio's C side makes the pipe `$LG_WD/.lgd-nfyN`, but its Python side opens `.lgd-nfyN` in the
    current folder, once, when it is imported: it is imported from inside LG_WD. A stand-in lgpio module
    notes the folder it was imported from."""
    fake = tmp_path / "fake-lgpio"
    fake.mkdir()
    (fake / "lgpio.py").write_text("import os\nIMPORTED_IN = os.getcwd()\n")
    monkeypatch.syspath_prepend(str(fake))
    monkeypatch.delitem(sys.modules, "lgpio", raising=False)
    monkeypatch.delenv("LG_WD", raising=False)
    start_dir = tmp_path / "here"
    start_dir.mkdir()
    monkeypatch.chdir(start_dir)
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        code, out, err = run_cli("sensors", "test", "--backend", "gpio", "--pin-map", str(SHIPPED_PIN_MAP),
                                 "--seconds", "0.2")
        imported = sys.modules.get("lgpio")
        assert imported is not None and hasattr(imported, "IMPORTED_IN"), (code, out, err)
        assert os.path.realpath(imported.IMPORTED_IN) != os.path.realpath(start_dir)
        assert os.getcwd() == str(start_dir)
        assert code == 0, err
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = saved
        sys.modules.pop("lgpio", None)


def test_sensors_test_started_in_a_folder_since_deleted_goes_on(tmp_path):
    """lgpio is imported from LG_WD, and the command comes back to where it started: a folder deleted since
    must not end it with a traceback (gpiozero then says per sensor what fails)."""
    gone = tmp_path / "gone"
    gone.mkdir()
    code = ("import os; os.chdir(%r); os.rmdir(%r)\n"
            "from companion.sensors.cli_sensors import lgpio_work_dir\n"
            "with lgpio_work_dir(load_lgpio=True): print('inside')\n") % (str(gone), str(gone))
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}, timeout=60)
    assert done.returncode == 0 and "inside" in done.stdout, done.stderr[-400:]


def test_a_physical_pin_number_in_gpio_names_the_gpio_on_that_pin():
    """ASSEMBLY.md says "GPIO20 (pin 38)"; a person who writes 38 gets told which number to write."""
    data = copy.deepcopy(SHIPPED)
    data["sensors"][7]["gpio"] = 38
    with pytest.raises(PinMapError) as caught:
        parse_pin_map(data, "pins.json")
    assert str(caught.value) == (
        "pin map pins.json: sensor 'bottom': gpio 38 is not a GPIO on the 40-pin header (BCM numbers 0–27); "
        "if you meant physical pin 38, that is GPIO20: write \"gpio\": 20")
    data["sensors"][7]["gpio"] = 39  # a ground pin
    with pytest.raises(PinMapError) as caught:
        parse_pin_map(data, "pins.json")
    assert str(caught.value).endswith("gpio 39 is not a GPIO on the 40-pin header (BCM numbers 0–27); physical "
                                      "pin 39 is a ground or power pin, not a GPIO")
