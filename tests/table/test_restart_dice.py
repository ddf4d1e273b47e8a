"""The power cord kicked out after a roll was played: the dice of that roll still lie in the tray when the
companion comes back, and they are not the next player's roll."""
from __future__ import annotations

import time

import pytest

from companion.config import load_settings
from companion.events import CameraHealth, DiceSettled
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.service import Service

cv2 = pytest.importorskip("cv2")
scene = pytest.importorskip("companion.vision.scene")
readers = pytest.importorskip("companion.vision.readers")


def test_the_last_rolls_dice_still_in_the_tray_after_a_restart_are_not_a_new_roll(tmp_path):
    image, truth = scene.render_scene(21, dice=4, camera=scene.CameraModel(640, 480, tilt_deg=10), style="white")
    folder = tmp_path / "camera"
    folder.mkdir()
    for i in range(12):  # 1.1 s of the tray as the camera sees it after the restart: Ada's dice lying still
        cv2.imwrite(str(folder / f"{i:02}.png"), image)
    state = tmp_path / "state"
    journal = Journal(state)
    table = Table(journal).start()
    try:  # the evening so far: Ada's roll read by the camera, her move tapped; Ben is to roll
        assert table.request({"do": "start", "game": "mountain-goats",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
        dice = tuple(readers.get_reader("pips").read(image))
        assert sorted(d.value for d in dice) == truth.values
        assert table.submit(DiceSettled(time.monotonic_ns(), dice)).result(5).ok
        assert table.request({"do": "play", "action": table.view()["game"]["legal"][0]["action"]}).ok
        before = table.view()["game"]
        assert before["current_player"] == -1 and before["prompt"].startswith("Ben"), before["prompt"]
    finally:
        table.stop()
        journal.close()
    settings = load_settings(env={}, overrides={"camera": {"source": str(folder), "width": 640, "height": 480},
                                                "sensors": {"backend": "none"}})
    service = Service(settings, state_dir=state).start()
    try:
        deadline = time.monotonic() + 30
        while service.camera.pipeline.frames < 12 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert service.camera.pipeline.frames == 12, "the camera saw the tray"
        service.table.submit(CameraHealth(time.monotonic_ns(), "ok", "after the frames")).result(5)
        after = service.table.view()
        assert after["game"]["history_count"] == before["history_count"], after["game"]["history"][-2:]
        assert after["question"] is None and after["game"]["turn"] == before["turn"]
    finally:
        service.stop()
