"""Banana Matcho's zones in the real service: taught dice are read in their zones; zones that cannot be
read are switched off with a message naming the fix, and pip dice are read all the same."""
import numpy as np

from companion.config import load_settings
from companion.events import SensorHealth
from companion.table.camera import dice_zones
from companion.vision.scene import CameraModel, roll_sequence
from companion.vision.sources import Frame
from companion.vision.symbols.evaluate import teach_examples
from companion.vision.symbols.icons import DEV_STYLES
from companion.vision.symbols.store import TeachStore


def settings_with(tmp_path, zones):
    return load_settings(env={}, overrides={"service": {"state_dir": str(tmp_path)}, "camera": {"zones": zones}})


def test_no_zones_set_means_no_zones(tmp_path):
    events = []
    assert dice_zones(settings_with(tmp_path, ""), events.append) == () and events == []


def test_untaught_dice_switch_the_zones_off_with_the_fix(tmp_path):
    events = []
    zones = dice_zones(settings_with(tmp_path, "fruit:fruit:0,0,320,240;matcho:matcho:320,0,640,240"), events.append)
    assert zones == ()
    [health] = events
    assert isinstance(health, SensorHealth) and health.state == "error"
    assert "not taught" in health.message and "teach" in health.message


def test_a_malformed_zone_is_named(tmp_path):
    events = []
    assert dice_zones(settings_with(tmp_path, "fruit:0,0,320,240"), events.append) == ()
    assert "bad zone 'fruit:0,0,320,240'" in events[0].message


def test_taught_dice_are_read_in_their_zone(tmp_path):
    TeachStore(tmp_path).save("matcho", teach_examples(DEV_STYLES[0], "matcho", "cream", 2, seed=5))
    events = []
    tracker = dice_zones(settings_with(tmp_path, "matcho:matcho:0,0,320,240"), events.append)
    assert events == [] and [z.name for z in tracker.zones] == ["matcho"]
    [state] = tracker.feed(Frame(7, np.full((240, 320, 3), 90, np.uint8)))
    assert state.zone == "matcho" and state.t == 7 and state.dice == ()
    assert tracker.state_at("matcho", 8) == state


def test_a_zone_of_pip_dice_is_read_with_the_pip_reader(tmp_path):
    """Pip dice need nothing taught: a pips zone reads them, and a die that moved since the frame before
    comes out unsure."""
    scenes = list(roll_sequence(56, rolls=1, dice=2, camera=CameraModel(640, 480), hand=False))
    events = []
    tracker = dice_zones(settings_with(tmp_path, "duel:pips:0,0,640,480"), events.append)
    assert events == [] and [z.name for z in tracker.zones] == ["duel"]
    i = next(i for i, s in enumerate(scenes) if s.truth.phase == "rolling" and len(s.truth.dice) == 2)
    tracker.feed(scenes[i].frame)
    tumbling = tracker.feed(scenes[i + 1].frame)[0].dice
    landed, still = tracker.feed(scenes[-2].frame)[0], tracker.feed(scenes[-1].frame)[0]
    assert tumbling and all(d.unsure for d in tumbling + landed.dice)
    assert sorted(d.value for d in still.dice) == scenes[-1].truth.values and not any(d.unsure for d in still.dice)


def test_the_zones_error_goes_once_the_camera_is_back_at_their_size(tmp_path):
    """A camera back at another size (a USB camera reopened at its 640x480 default) puts 'the zones lie
    outside the picture' on the page; back at the size the zones were set for, they are read again, and the
    page is told so (the error used to stay for the evening)."""
    from companion.table.journal import Journal
    from companion.table.owner import Table
    from companion.vision.live import DicePipeline
    from tests.table.banana_dice import MS, table_image, teach, tracker

    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    try:
        assert table.request({"do": "start", "game": "banana-matcho",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
        pipeline = DicePipeline(None, None, zones=tracker(tmp_path / "state"),
                                on_event=lambda e: table.submit(e).result(5))
        good = table_image(7, ["coconut"] * 4 + ["starfruit"] * 2, ["matcho", "matcho", "blank"])
        pipeline.process(Frame(0, good))
        assert "sensor:dice zones" not in table.view()["health"]
        pipeline.process(Frame(100 * MS, np.full((480, 640, 3), 60, np.uint8)))  # back at 640x480
        assert table.view()["health"]["sensor:dice zones"]["state"] == "error"
        states = pipeline.process(Frame(200 * MS, good))  # back at the zones' size
        assert [len(s.dice) for s in states] == [6, 3], "the zones are read again"
        health = table.view()["health"]["sensor:dice zones"]
        assert health["state"] == "ok", health["message"]
    finally:
        table.stop()
