"""The live loop: source -> reader -> settle/zones -> events, the annotated view, `run_camera`."""
import io
import json

import cv2
import numpy as np

from companion.events import CameraHealth, DiceSettled, DieReading, SensorHealth, ZoneState
from companion.vision.annotate import SURE_BGR, UNSURE_BGR, annotate, annotated_jpeg
from companion.vision.live import DicePipeline, run_camera, settled_line
from companion.vision.recording import FrameRecorder
from companion.vision.scene import CameraModel, TruthReader, roll_sequence
from companion.vision.sources import CameraFailed, Frame, LiveSource
from companion.vision.zones import Zone, ZoneTracker

SCENES = list(roll_sequence(41, rolls=2, dice=3, camera=CameraModel(160, 120)))
TRAY = SCENES[0].truth.tray


def test_the_pipeline_emits_one_settled_event_per_roll_and_zone_states_every_frame():
    events = []
    reader = TruthReader(SCENES)
    pipeline = DicePipeline((s.frame for s in SCENES), reader, tray=TRAY, on_event=events.append,
                            zones=ZoneTracker([Zone("all", TRAY)], readers={"pips": reader}))
    assert pipeline.run() == len(SCENES)
    settled = [e for e in events if isinstance(e, DiceSettled)]
    assert len(settled) == 2
    truth_at = {s.frame.t: s.truth for s in SCENES}
    assert [sorted(d.value for d in e.dice) for e in settled] == [truth_at[e.t].values for e in settled]
    assert sum(isinstance(e, ZoneState) for e in events) == len(SCENES)
    assert pipeline.state_at("all", SCENES[-1].frame.t).dice


def test_the_live_view_is_a_jpeg_of_the_latest_frame():
    pipeline = DicePipeline(None, TruthReader(SCENES), tray=TRAY)
    assert pipeline.latest_jpeg() is None
    for scene in SCENES:
        pipeline.process(scene.frame)
    data = pipeline.latest_jpeg()
    assert pipeline.latest_jpeg() is data
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == SCENES[-1].frame.image.shape


def test_unsure_dice_are_drawn_in_their_own_colour():
    image = np.zeros((100, 100, 3), np.uint8)
    sure = DieReading(3, (20, 20), (10, 10, 30, 30), 0.95)
    unsure = DieReading(5, (70, 70), (60, 60, 80, 80), 0.4, unsure=True)
    out = annotate(image, [sure, unsure], tray=(2, 2, 98, 98))
    assert tuple(out[20, 10]) == SURE_BGR
    assert tuple(out[70, 60]) == UNSURE_BGR
    assert not image.any(), "the frame itself is left alone"
    big = annotated_jpeg(np.zeros((720, 1280, 3), np.uint8), [sure], max_width=640)
    assert cv2.imdecode(np.frombuffer(big, np.uint8), cv2.IMREAD_COLOR).shape == (360, 640, 3)


def test_run_camera_prints_one_json_line_per_settled_roll_from_a_recording(tmp_path):
    with FrameRecorder(tmp_path / "s") as recorder:
        for scene in SCENES:
            recorder.write(scene.frame)
    out = io.StringIO()
    rolls = run_camera(str(tmp_path / "s"), TruthReader(SCENES), out, json_lines=True, tray=TRAY)
    lines = [json.loads(l) for l in out.getvalue().splitlines()]
    assert rolls == len(lines) == 2
    truth_at = {s.frame.t: s.truth for s in SCENES}
    for line in lines:
        assert set(line) == {"t", "dice"}
        assert sorted(d["value"] for d in line["dice"]) == truth_at[line["t"]].values
    out = io.StringIO()
    assert run_camera(str(tmp_path / "s"), TruthReader(SCENES), out, tray=TRAY, max_rolls=1) == 1
    assert out.getvalue().count("\n") == 1 and out.getvalue().startswith("t=")


def test_settled_line_marks_unsure_dice():
    event = DiceSettled(2_000_000_000, (DieReading(4, (0, 0), (0, 0, 1, 1), 0.9),
                                        DieReading(2, (0, 0), (0, 0, 1, 1), 0.3, unsure=True)))
    assert settled_line(event, False) == "t=2.000s  4 2?  (1 unsure: check by eye)"


def test_a_camera_lost_mid_game_reports_health_and_rolls_keep_coming():
    images = [s.frame.image for s in SCENES]
    half = len(images) // 2

    class FlakyCamera:
        name = "flaky"

        def __init__(self):
            self.reads = iter(images[:half] + ["fail"] + images[half:])

        def open(self):
            pass

        def close(self):
            pass

        def read(self):
            item = next(self.reads, None)
            if item is None:
                source.stop()
                raise CameraFailed("finished")
            if isinstance(item, str):
                raise CameraFailed("cable pulled")
            return item

    times = iter(s.frame.t for s in SCENES)
    clock_now = [0]

    def clock():
        return clock_now[0]

    events = []
    source = LiveSource(FlakyCamera(), clock=clock, sleep=lambda s: None, on_health=lambda e: events.append(e))
    pipeline = DicePipeline(None, TruthReader(SCENES), tray=TRAY, on_event=events.append)

    def frames():
        for frame in source:
            clock_now[0] = next(times, clock_now[0])
            yield type(frame)(clock_now[0], frame.image)

    pipeline.source = frames()
    pipeline.run()
    kinds = [type(e).__name__ for e in events]
    assert "CameraHealth" in kinds
    assert [e.state for e in events if isinstance(e, CameraHealth)][:3] == ["lost", "reopening", "ok"]
    assert sum(isinstance(e, DiceSettled) for e in events) == 2


def test_a_tray_outside_the_picture_is_named_and_the_rolls_are_read_all_the_same():
    """A tray set for another resolution: the page says so, and the camera carries on over the whole picture."""
    events = []
    reader = TruthReader(SCENES)
    pipeline = DicePipeline(None, reader, tray=(5000, 5000, 6000, 6000), on_event=events.append)
    for scene in SCENES:
        pipeline.process(scene.frame)
    [health] = [e for e in events if isinstance(e, CameraHealth)]
    assert health.state == "tray"
    assert health.message.startswith("the tray 5000,5000,6000,6000 lies outside the camera's 160x120 picture: "
                                      "reading the whole picture.")
    assert len([e for e in events if isinstance(e, DiceSettled)]) == 2
    pipeline.set_tray(TRAY)
    later = Frame(SCENES[-1].frame.t + 1, SCENES[0].frame.image)
    pipeline.process(later)
    assert events[-1] == CameraHealth(later.t, "ok", "the tray is set")


def test_a_tray_partly_outside_the_picture_counts_the_part_inside():
    x0, y0, x1, y1 = TRAY
    events = []
    pipeline = DicePipeline((s.frame for s in SCENES), TruthReader(SCENES), tray=(-40, -40, x1, y1 + 500),
                            on_event=events.append)
    pipeline.run()
    assert not [e for e in events if isinstance(e, CameraHealth)]
    truth_at = {s.frame.t: s.truth for s in SCENES}
    settled = [e for e in events if isinstance(e, DiceSettled)]
    assert [sorted(d.value for d in e.dice) for e in settled] == [truth_at[e.t].values for e in settled]
    assert len(settled) == 2


def test_zones_outside_the_picture_are_named_once():
    events = []
    zones = [Zone("fruit", (0, 0, 80, 120)), Zone("matcho", (400, 0, 640, 480))]
    pipeline = DicePipeline(None, TruthReader(SCENES), tray=TRAY, on_event=events.append,
                            zones=ZoneTracker(zones, readers={"pips": TruthReader(SCENES)}))
    for scene in SCENES[:5]:
        pipeline.process(scene.frame)
    [health] = [e for e in events if isinstance(e, SensorHealth)]
    assert health.sensor == "dice zones" and health.state == "error"
    assert health.message.startswith("the zone matcho (400,0,640,480) lies outside the camera's 160x120 picture")


def test_a_clock_that_starts_over_is_a_new_clock_and_every_roll_is_read():
    """A recording stitched from two sessions, or a camera clock that jumped back: the frames after the
    step are read on their new clock (the zones' history used to stop the camera for good, and skipping the
    frames until the old time came round again lost the second session's rolls)."""
    events = []
    reader = TruthReader(SCENES)
    pipeline = DicePipeline(None, reader, tray=TRAY, on_event=events.append,
                            zones=ZoneTracker([Zone("all", TRAY)], readers={"pips": reader}))
    for scene in SCENES:
        pipeline.process(scene.frame)
    for scene in SCENES:  # the second session's clock starts where the first one's did
        pipeline.process(scene.frame)
    settled = [e for e in events if isinstance(e, DiceSettled)]
    assert len(settled) == 4 and pipeline.frames == 2 * len(SCENES)
    assert [e.t for e in settled[2:]] == [e.t for e in settled[:2]]
