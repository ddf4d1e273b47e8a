import numpy as np
import pytest

from companion.events import DieReading, ZoneState
from companion.vision.scene import CameraModel, TruthReader, roll_sequence
from companion.vision.sources import Frame
from companion.vision.zones import Zone, ZoneTracker, parse_zone


class CountingReader:
    """Reads one die per frame whose value is the frame's first pixel, if it falls in the zone."""

    def read(self, frame_bgr, tray=None):
        x0, y0, x1, y1 = tray
        if not (x0 <= 5 < x1):
            return []
        return [DieReading(int(frame_bgr[0, 0, 0]), (5.0, 5.0), (0.0, 0.0, 10.0, 10.0), 1.0)]


def frame(t, value):
    return Frame(t, np.full((20, 40, 3), value, np.uint8))


ZONES = [Zone("fruit", (0, 0, 20, 20), "fruit"), Zone("matcho", (20, 0, 40, 20), "matcho")]


def test_every_frame_gives_one_state_per_zone_read_by_its_kind():
    tracker = ZoneTracker(ZONES, readers={"fruit": CountingReader(), "matcho": CountingReader()})
    states = tracker.feed(frame(100, 4))
    assert [(s.zone, s.t, [d.value for d in s.dice]) for s in states] == [("fruit", 100, [4]), ("matcho", 100, [])]
    assert all(isinstance(s, ZoneState) for s in states)


def test_state_at_answers_what_a_zone_showed_at_a_time():
    tracker = ZoneTracker(ZONES, readers={"fruit": CountingReader(), "matcho": CountingReader()}, keep_s=1.0)
    for i in range(10):
        tracker.feed(frame(i * 100_000_000, i + 1))
    assert tracker.state_at("fruit", 450_000_000).dice[0].value == 5
    assert tracker.state_at("fruit", 500_000_000).dice[0].value == 6
    assert tracker.latest("fruit").dice[0].value == 10
    assert tracker.state_at("fruit", -1) is None


def test_history_is_kept_for_keep_s_only():
    tracker = ZoneTracker(ZONES, readers={"fruit": CountingReader(), "matcho": CountingReader()}, keep_s=0.5)
    for i in range(20):
        tracker.feed(frame(i * 100_000_000, i))
    assert tracker.state_at("fruit", 1_000_000_000) is None
    assert tracker.state_at("fruit", 1_400_000_000).dice[0].value == 14


def test_unknown_zone_and_bad_zones_are_named():
    tracker = ZoneTracker(ZONES, readers={"fruit": CountingReader(), "matcho": CountingReader()})
    with pytest.raises(KeyError, match="no zone 'banana'; zones: fruit, matcho"):
        tracker.state_at("banana", 0)
    with pytest.raises(ValueError, match="empty box"):
        Zone("x", (10, 10, 5, 20))
    with pytest.raises(ValueError, match="unique"):
        ZoneTracker([ZONES[0], ZONES[0]], readers={"fruit": CountingReader()})


def test_parse_zone():
    assert parse_zone("fruit:fruit:0,0,320,240") == Zone("fruit", (0, 0, 320, 240), "fruit")
    with pytest.raises(ValueError, match="NAME:KIND:x0,y0,x1,y1"):
        parse_zone("fruit:0,0,1")


def test_zones_split_a_real_scene_by_where_the_dice_lie():
    scenes = list(roll_sequence(31, rolls=1, dice=4, camera=CameraModel(200, 150), hand=False))
    last = scenes[-1]
    x0, y0, x1, y1 = last.truth.tray
    middle = (x0 + x1) // 2
    zones = [Zone("left", (x0, y0, middle, y1)), Zone("right", (middle, y0, x1, y1))]
    tracker = ZoneTracker(zones, readers={"pips": TruthReader(scenes)})
    left, right = tracker.feed(last.frame)
    assert sorted(d.value for d in left.dice + right.dice) == last.truth.values
    assert all(d.center[0] < middle for d in left.dice)
    assert all(d.center[0] >= middle for d in right.dice)
