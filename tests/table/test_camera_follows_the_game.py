"""The camera reads pip dice only while the game on the table takes them: in Banana Matcho and Magic Mountain
the page's live view and the photo of the last roll (`/api/reading.jpg`) showed pip numbers on fruit dice,
and a Pi spent its CPU reading them. Pip games, and the table with no game, read pip dice as ever."""
from __future__ import annotations

import cv2
import pytest

from companion.config import load_settings
from companion.events import CameraHealth, DiceSettled
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.service import Service
from companion.vision import annotate, scene
from companion.vision.sources import Frame
from tests.table.banana_dice import table_image
from tests.waiting import came

S = 1_000_000_000
PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]
BANANA_MATCHO = {"do": "start", "game": "banana-matcho", "players": PLAYERS}
MOUNTAIN_GOATS = {"do": "start", "game": "mountain-goats", "players": PLAYERS}
FRUIT = table_image(11, ["coconut"] * 3 + ["banana", "orange", "papaya"], ["matcho", "blank", "matcho"])
OTHER_FRUIT = table_image(12, ["starfruit"] * 2 + ["banana"] * 4, ["blank", "blank", "matcho"])
PIPS = [scene.render_scene(seed, dice=4, camera=scene.CameraModel(1280, 720))[0] for seed in (21, 22)]


@pytest.fixture
def drawn(monkeypatch):
    """The dice the live view (`/camera.jpg`) of a companion draws now: drawn(service)."""
    dice: list[tuple] = []
    real = annotate.annotated_jpeg

    def spy(image, shown=(), **options):
        dice.append(tuple(shown))
        return real(image, shown, **options)

    def now(service: Service) -> tuple:
        assert service.camera.latest_jpeg() is not None
        return dice[-1]

    monkeypatch.setattr(annotate, "annotated_jpeg", spy)
    return now


def start_companion(tmp_path, state) -> Service:
    """The companion on `state`, its camera (a folder of one empty tray picture) done with its frames: each
    test shows it the tray itself, frame by frame."""
    folder = tmp_path / "camera"
    folder.mkdir()
    cv2.imwrite(str(folder / "00.png"), table_image(10, [], []))
    settings = load_settings(env={}, overrides={"camera": {"source": str(folder)}, "sensors": {"backend": "none"}})
    service = Service(settings, state_dir=state).start()
    came(lambda: not service.camera._thread.is_alive(), 30, every=0.05)
    assert service.camera.pipeline.frames == 1
    return service


class Tray:
    """The tray shown to the companion's camera, 10 frames a second."""

    def __init__(self, service: Service):
        self.service, self.t = service, 1 * S

    def lies(self, image, seconds: float = 0.8) -> list[DiceSettled]:
        """`image` for `seconds` after a frame of hands over the tray; the rolls read, once the table took them."""
        pipeline, rolls = self.service.camera.pipeline, []
        for picture in [image[::-1].copy()] + [image] * round(seconds * 10):
            self.t += S // 10
            rolls += [e for e in pipeline.process(Frame(self.t, picture)) if isinstance(e, DiceSettled)]
        self.service.table.submit(CameraHealth(self.t, "ok", "after the frames")).result(5)
        return rolls


def test_a_banana_matcho_game_resumed_at_start_reads_no_pip_dice(tmp_path, drawn):
    state = tmp_path / "state"
    table = Table(Journal(state)).start()
    try:
        assert table.request(BANANA_MATCHO).ok
    finally:
        table.stop()
        table.journal.close()
    service = start_companion(tmp_path, state)
    try:
        assert Tray(service).lies(FRUIT) == [], "no pip roll read on fruit dice"
        assert drawn(service) == (), "no pip numbers on the live view"
        assert service.camera.reading_jpeg() is None, "/api/reading.jpg: no photo of a pip roll"
    finally:
        service.stop()


def test_the_camera_follows_the_game_started_ended_and_resumed(tmp_path, drawn):
    service = start_companion(tmp_path, tmp_path / "state")
    table, tray = service.table, Tray(service)
    try:
        assert len(tray.lies(PIPS[0])) == 1, "no game: pip dice are read, as ever"
        assert table.request(BANANA_MATCHO).ok
        banana_matcho = table.view()["game"]["id"]
        assert tray.lies(FRUIT) == [] and drawn(service) == ()
        shown_before = service.camera.reading_jpeg()

        assert table.request(MOUNTAIN_GOATS).ok  # Banana Matcho left unfinished
        assert tray.lies(FRUIT) == [], "the fruit dice lying there since before the game are no roll"
        [roll] = tray.lies(PIPS[1])
        game = table.view()["game"]
        assert game["history_count"] == 1 and sorted(game["last_reading"]["values"]) == sorted(
            d.value for d in roll.dice), "a pip game reads and plays its rolls"
        assert len(drawn(service)) == 4 and service.camera.reading_jpeg() != shown_before

        assert table.request({"do": "end"}).ok
        assert len(tray.lies(PIPS[0])) == 1, "no game again: pip dice are read"
        assert table.request({"do": "resume", "game_id": banana_matcho}).ok
        assert tray.lies(OTHER_FRUIT) == [] and drawn(service) == ()
    finally:
        service.stop()


def test_a_banana_matcho_game_ended_leaves_its_fruit_dice_unread_until_the_next_game(tmp_path, drawn):
    """The family ends Banana Matcho and tidies up (the fruit dice picked up and dropped back, a child rolling
    them): no pip numbers on them in the live view, and the fruit dice lying there when the next game, a pip
    game, starts are not its first roll. That game's own roll is read."""
    service = start_companion(tmp_path, tmp_path / "state")
    table, tray = service.table, Tray(service)
    try:
        assert table.request(BANANA_MATCHO).ok
        assert tray.lies(FRUIT) == []
        assert table.request({"do": "end"}).ok
        assert tray.lies(OTHER_FRUIT) == [], "the fruit dice of the game just ended are no pip roll"
        assert drawn(service) == (), "no pip numbers on the fruit dice of the game just ended"
        assert table.request(MOUNTAIN_GOATS).ok
        assert tray.lies(OTHER_FRUIT) == [] and table.view()["game"]["history_count"] == 0, \
            "the fruit dice lying there are not the pip game's first roll"
        assert table.view()["question"] is None
        [roll] = tray.lies(PIPS[1])
        assert table.view()["game"]["history_count"] == 1, "the pip game's own roll is read and played"
    finally:
        service.stop()
