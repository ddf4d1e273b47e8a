"""The pieces every feature stands on: settings, events, action JSON, the command line."""
import dataclasses
import json
import os
import subprocess
import sys

import pytest

from companion.config import BadSettings, load_settings
from companion.events import (BallEntered, DiceSettled, DieReading, PlayerAction, ZoneState, BadEvent,
                              event_from_json)
from companion.games.api import Action, ActionCodec, BadAction


def test_settings_layers_and_errors(tmp_path):
    path = tmp_path / "companion.toml"
    path.write_text('[service]\nport = 9001\n[camera]\nsource = "usb:0"\n')
    settings = load_settings(path, env={"COMPANION_SECURITY_JOIN_CODE": "off", "COMPANION_SERVICE_PORT": "9002"})
    assert settings["service"]["port"] == 9002
    assert settings["camera"]["source"] == "usb:0"
    assert settings["security"]["join_code"] is False
    path.write_text("[service]\nprot = 1\n")
    with pytest.raises(BadSettings, match="service.prot"):
        load_settings(path, env={})
    path.write_text('[service]\nport = "eighty"\n')
    with pytest.raises(BadSettings, match="service.port must be int"):
        load_settings(path, env={})


@pytest.mark.parametrize("setting, says", [
    ("[service]\nport = 99999", "service.port must be from 0 to 65535, got 99999"),
    ("[service]\nthreads = 0", "service.threads must be at least 1, got 0"),
    ("[camera]\nwidth = -1280", "camera.width must be at least 16, got -1280"),
    ("[camera]\nsettle_ms = -300", "camera.settle_ms must be at least 0, got -300"),
])
def test_numbers_out_of_their_range_are_refused_naming_the_setting(tmp_path, setting, says):
    path = tmp_path / "companion.toml"
    path.write_text(setting + "\n")
    with pytest.raises(BadSettings, match=says):
        load_settings(path, env={})
    assert load_settings(None, env={"COMPANION_SERVICE_PORT": "0"})["service"]["port"] == 0  # any free port


@pytest.mark.parametrize("name, value, says", [
    ("COMPANION_CAMERA_ROTATE", "45", "camera.rotate must be one of 0, 90, 180, 270, got 45"),
    ("COMPANION_SERVICE_PORT", "99999", "service.port must be from 0 to 65535, got 99999"),
    ("COMPANION_CAMERA_SETTLE_MS", "-1", "camera.settle_ms must be at least 0, got -1"),
])
def test_an_environment_override_is_held_to_the_same_choices_and_ranges(name, value, says):
    with pytest.raises(BadSettings, match=says):
        load_settings(None, env={name: value})
    assert load_settings(None, env={"COMPANION_CAMERA_ROTATE": "180"})["camera"]["rotate"] == 180


def test_events_round_trip_through_json():
    die = DieReading(4, (10.0, 20.0), (0.0, 5.0, 20.0, 35.0), 0.98)
    for event in (DiceSettled(5, (die, die)), ZoneState(6, "fruit", (die,)), BallEntered(7, 3),
                  PlayerAction(8, {"kind": "stop"}, "page")):
        assert event_from_json(event.to_json()) == event
    with pytest.raises(BadEvent, match="unknown event type"):
        event_from_json({"type": "nope", "t": 1})


@dataclasses.dataclass(frozen=True)
class Place(Action):
    kind = "place"
    line: int
    dice: tuple[int, ...] = ()


def test_action_codec_round_trip_and_errors():
    codec = ActionCodec(Place)
    action = Place(7, (1, 6))
    assert codec.decode(action.to_json()) == action
    with pytest.raises(BadAction, match="unknown action kind 'fly'"):
        codec.decode({"kind": "fly"})
    with pytest.raises(BadAction, match="missing the field 'line'"):
        codec.decode({"kind": "place"})
    with pytest.raises(BadAction, match="unknown field"):
        codec.decode({"kind": "place", "line": 5, "colour": "red"})
    with pytest.raises(BadAction, match="JSON object"):
        codec.decode([1, 2])


def test_cli_unknown_command_and_game(run_cli):
    code, out, err = run_cli("fly")
    assert code == 2 and "unknown command 'fly'" in err
    code, out, err = run_cli("explain", "chess", "1")
    assert code == 2 and "unknown game 'chess'" in err and len(err.strip().splitlines()) == 1


def test_cli_runs_as_a_module():
    proc = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "explain" in proc.stdout


def test_options_may_stand_between_the_arguments(run_cli):
    code, out, _ = run_cli("explain", "mountain-goats", "1", "2", "--json", "3", "4")
    assert code == 0 and [5, 5] in json.loads(out)["moves"]
    code, out, _ = run_cli("odds", "mountain-goats", "--roll", "1", "2", "3", "4")
    assert code == 0 and "Next roll" in out


def test_output_cut_short_by_the_reader_ends_quietly():
    """`companion ... | head -1` where head has gone before the output is written. (Reading a few bytes first
    let the whole small output reach the pipe's buffer before the reader left: the write never failed.)"""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone: every write to the pipe fails
    try:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "odds", "mountain-goats", "--roll", "1", "2", "3",
                                 "4"], stdout=write_end, stderr=subprocess.PIPE)
    finally:
        os.close(write_end)
    _, err = proc.communicate(timeout=60)
    assert (proc.returncode, err.decode()) == (141, "")
