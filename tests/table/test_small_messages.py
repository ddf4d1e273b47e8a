"""Small messages a person reads: a recording's impossible die, the replay's readers, a mistyped camera.tray."""
from __future__ import annotations

import json

import pytest

from companion.config import load_settings
from companion.events import BadEvent, DieReading
from companion.table.recording import EVENTS_FILE, write_events
from companion.table.sessions import playout


def recording_with_confidence(directory, text: str):
    """A short recorded session whose first roll's first die has `text` (JSON) as its confidence."""
    write_events(directory, playout("mountain-goats", 1)[0][:6])
    lines = (directory / EVENTS_FILE).read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "dice_settled")
    lines[number] = lines[number].replace('"confidence":', f'"confidence":{text},"was":', 1)
    (directory / EVENTS_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return number + 1


def die(confidence) -> dict:
    return {"value": 3, "center": [10, 10], "box": [0, 0, 20, 20], "confidence": confidence}


@pytest.mark.parametrize("text", ["1e999", "-1e999", "NaN", "1.5", "-0.1", "\"high\"", "true"])
def test_a_recorded_die_whose_confidence_is_no_probability_is_refused_by_name(run_cli, tmp_path, text):
    """1e999 is read as infinity and NaN as not-a-number: both were taken, and journaled as JSON no other
    program reads (Infinity, NaN)."""
    line = recording_with_confidence(tmp_path, text)
    code, out, err = run_cli("replay", str(tmp_path), "--fast")
    assert code == 2 and out == "", out
    assert f"line {line}" in err and "a die's confidence is a number from 0 to 1" in err, err


def test_a_die_read_by_a_reader_keeps_its_confidence():
    for confidence in (0, 0.5, 1, 1.0):
        assert DieReading.from_json(die(confidence)).confidence == confidence
    # two networks' float32 answers averaged: a die kept in a journal this way must still load after a restart
    assert DieReading.from_json(die(1.0000001)).confidence == 1.0
    with pytest.raises(BadEvent, match="confidence"):
        DieReading.from_json({k: v for k, v in die(0.5).items() if k != "confidence"})
    with pytest.raises(BadEvent, match="a die's center is 2 numbers, got \\[inf, 10\\]"):
        DieReading.from_json(json.loads(json.dumps(die(0.5)).replace("[10, 10]", "[1e999, 10]")))


def test_the_replays_unknown_reader_message_lists_every_reader(tmp_path):
    from companion.table.reread import RereadError, make_reader

    with pytest.raises(RereadError) as caught:
        make_reader("pipz", tmp_path)
    message = str(caught.value)
    assert "'pipz'" in message and all(kind in message for kind in ("pips", "fruit", "matcho", "truth")), message


@pytest.mark.parametrize("tray, hint", [
    ("0,0,700", "expected auto or x0,y0,x1,y1 in pixels, like 100,80,1180,660"),
    ("700,0,0,500", "x0 must be below x1 and y0 below y1, like 100,80,1180,660"),
])
def test_a_mistyped_camera_tray_is_named_as_the_setting_on_the_page(tmp_path, tray, hint):
    """The camera stays off (the tray decides which dice count), and the page says which setting to fix."""
    from companion.table.service import Service

    settings = load_settings(env={}, overrides={"camera": {"source": str(tmp_path), "tray": tray},
                                                "sensors": {"backend": "none"}})
    service = Service(settings, state_dir=tmp_path / "state").start()
    try:
        message = service.messages["camera"]
    finally:
        service.stop()
    assert message.startswith(f"no camera: setting camera.tray is {tray!r}: {hint}"), message
