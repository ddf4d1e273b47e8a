"""The power cord kicked out after a roll was played: the dice of that roll still lie in the tray when the
companion comes back, and they are not the next player's roll."""
from __future__ import annotations

import contextlib
import dataclasses
import time

import numpy as np
import pytest

from companion.config import load_settings
from companion.events import CameraHealth, DiceSettled
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.service import Service

import cv2
from companion.vision import scene
from companion.vision import readers
from tests.waiting import came


CAMERA = scene.CameraModel(640, 480, tilt_deg=10)
PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]


def camera_folder(tmp_path, pictures) -> str:
    """A camera source: the pictures as frames 0.1 s apart."""
    folder = tmp_path / "camera"
    folder.mkdir()
    for i, picture in enumerate(pictures):
        cv2.imwrite(str(folder / f"{i:02}.png"), picture)
    return str(folder)


@contextlib.contextmanager
def table_on(state):
    """The table on the games folder `state`, before the companion (re)starts on it."""
    journal = Journal(state)
    table = Table(journal).start()
    try:
        assert table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS}).ok
        yield table
    finally:
        table.stop()
        journal.close()


@contextlib.contextmanager
def companion_watching(folder: str, state, frames: int, listener=None):
    """The companion started on `state` with the camera `folder`, once its camera has seen all `frames` and the
    table has taken what it read."""
    settings = load_settings(env={}, overrides={"camera": {"source": folder, "width": 640, "height": 480},
                                                "sensors": {"backend": "none"}})
    service = Service(settings, state_dir=state)
    if listener is not None:
        service.table.listen(listener)
    service.start()
    try:
        came(lambda: service.camera.pipeline.frames >= frames, 30, every=0.05)
        assert service.camera.pipeline.frames == frames, "the camera saw the tray"
        service.table.submit(CameraHealth(time.monotonic_ns(), "ok", "after the frames")).result(5)
        yield service
    finally:
        service.stop()


def evening_so_far(tmp_path, unsure: bool):
    """A journal where Ada's roll was read by the camera (with one die unsure: asked, then typed by a person)
    and her move tapped, and a camera folder showing her dice still lying there: (state dir, folder, view)."""
    image, truth = scene.render_scene(21, dice=4, camera=CAMERA, style="white")
    folder = camera_folder(tmp_path, [image] * 12)  # 1.1 s of Ada's dice lying still after the restart
    state = tmp_path / "state"
    with table_on(state) as table:
        dice = tuple(readers.get_reader("pips").read(image))
        assert sorted(d.value for d in dice) == truth.values
        if unsure:
            dice = (dataclasses.replace(dice[0], unsure=True),) + dice[1:]
        assert table.submit(DiceSettled(time.monotonic_ns(), dice)).result(5).ok
        if unsure:
            assert table.view()["question"]["text"].startswith("I am not sure about die 1")
            assert table.request({"do": "dice", "values": [d.value for d in dice]}).ok
        assert table.request({"do": "play", "action": table.view()["game"]["legal"][0]["action"]}).ok
        before = table.view()["game"]
        assert before["current_player"] == -1 and before["prompt"].startswith("Ben"), before["prompt"]
    return state, folder, before


@pytest.mark.parametrize("unsure", [False, True], ids=["read", "asked, then typed"])
def test_the_last_rolls_dice_still_in_the_tray_after_a_restart_are_not_a_new_roll(tmp_path, unsure):
    state, folder, before = evening_so_far(tmp_path, unsure)
    with companion_watching(folder, state, 12) as service:
        after = service.table.view()
        assert after["game"]["history_count"] == before["history_count"], after["game"]["history"][-2:]
        assert after["question"] is None and after["game"]["turn"] == before["turn"]


def take_out(image, box):
    """The picture with the die in `box` taken out of the tray: the tray's floor colour where it lay."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    left, top, right, bottom = int(x0 - 0.25 * w), int(y0 - 0.25 * h), int(x1 + 0.25 * w), int(y1 + 0.25 * h)
    floor = np.concatenate([image[top - 6:top, left:right].reshape(-1, 3), image[bottom:bottom + 6, left:right].reshape(-1, 3)])
    out = image.copy()
    out[top:bottom, left:right] = np.median(floor, axis=0).astype(np.uint8)
    return out


def test_a_stray_die_taken_out_when_the_table_asks_leaves_the_roll_it_waits_for(tmp_path):
    """Five dice in the tray where Mountain Goats rolls four: the table asks; a person takes the stray die out,
    and the four left are the roll (the camera, told which rolls the game took, does not take them for the
    remains of one)."""
    image, truth = scene.render_scene(21, dice=5, camera=CAMERA, style="white")
    stray = truth.dice[1]
    folder = camera_folder(tmp_path, [image] * 12 + [take_out(image, stray.box)] * 12)  # 1.1 s each
    state = tmp_path / "state"
    with table_on(state):  # a game of Mountain Goats, waiting for Ada's roll
        pass
    asked = []
    with companion_watching(folder, state, 24, lambda view: asked.append((view.get("question") or {}).get("text"))) as service:
        assert any(text and text.startswith("I see 5 dice but expected 4") for text in asked)
        game = service.table.view()["game"]
        kept = sorted(d.value for d in truth.dice if d is not stray)
        assert game["last_reading"] and sorted(game["last_reading"]["values"]) == kept
        assert game["history"][-1]["text"] == "Dice " + ", ".join(map(str, kept))
