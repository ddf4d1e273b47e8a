import json

import numpy as np
import pytest

from companion.vision.recording import FrameRecorder, RecordingSource, ffv1_supported
from companion.vision.scene import CameraModel, TruthReader, roll_sequence
from companion.vision.settle import SettleDetector
from companion.vision.sources import Frame, SourceError


def frames(n=5, shape=(24, 32, 3)):
    rng = np.random.default_rng(0)
    return [Frame(1_000 + i * 33_000_000, rng.integers(0, 256, shape, dtype=np.uint8)) for i in range(n)]


def test_this_opencv_writes_ffv1_so_auto_uses_it(tmp_path):
    assert ffv1_supported()
    with FrameRecorder(tmp_path / "s") as recorder:
        assert recorder.fmt == "ffv1"
    assert (tmp_path / "s" / "frames.jsonl").exists()


@pytest.mark.parametrize("fmt", ["ffv1", "png"])
def test_frames_come_back_pixel_exact_with_their_times(tmp_path, fmt):
    original = frames()
    with FrameRecorder(tmp_path / "s", fmt=fmt) as recorder:
        for frame in original:
            recorder.write(frame)
    lines = [json.loads(l) for l in (tmp_path / "s" / "frames.jsonl").read_text().splitlines()]
    assert lines[1] == {"index": 1, "t": original[1].t}
    back = list(RecordingSource(tmp_path / "s"))
    assert [f.t for f in back] == [f.t for f in original]
    assert all(np.array_equal(a.image, b.image) for a, b in zip(back, original))


def test_realtime_playback_waits_the_recorded_gaps(tmp_path):
    with FrameRecorder(tmp_path / "s", fmt="png") as recorder:
        for frame in frames(4):
            recorder.write(frame)
    now = [0]
    sleeps = []

    def sleep(seconds):
        sleeps.append(seconds)
        now[0] += int(seconds * 1e9)

    played = list(RecordingSource(tmp_path / "s", realtime=True, clock=lambda: now[0], sleep=sleep))
    assert len(played) == 4
    assert sleeps == pytest.approx([0.033, 0.033, 0.033])


def test_a_recording_cut_short_plays_what_it_has(tmp_path):
    with FrameRecorder(tmp_path / "s", fmt="png") as recorder:
        for frame in frames(3):
            recorder.write(frame)
    index = tmp_path / "s" / "frames.jsonl"
    index.write_text(index.read_text() + '{"index": 3, "t"')
    assert len(list(RecordingSource(tmp_path / "s"))) == 3


def test_a_damaged_index_names_the_line(tmp_path):
    with FrameRecorder(tmp_path / "s", fmt="png") as recorder:
        for frame in frames(3):
            recorder.write(frame)
    index = tmp_path / "s" / "frames.jsonl"
    lines = index.read_text().splitlines()
    lines[1] = "garbage"
    index.write_text("\n".join(lines) + "\n")
    with pytest.raises(SourceError, match="line 2"):
        RecordingSource(tmp_path / "s")


def test_frames_must_keep_one_size_and_a_recording_is_never_overwritten(tmp_path):
    with FrameRecorder(tmp_path / "s", fmt="png") as recorder:
        recorder.write(frames(1)[0])
        with pytest.raises(ValueError, match="frame 1 is 16x8, the recording is 32x24"):
            recorder.write(Frame(0, np.zeros((8, 16, 3), np.uint8)))
    with pytest.raises(SourceError, match="already holds a recording"):
        FrameRecorder(tmp_path / "s")


def test_a_recorded_session_settles_exactly_like_the_live_one(tmp_path):
    live = list(roll_sequence(21, rolls=2, dice=2, camera=CameraModel(160, 120)))
    reader = TruthReader(live)
    tray = live[0].truth.tray
    detector = SettleDetector(reader, tray=tray)
    live_events = [e for s in live if (e := detector.feed(s.frame))]
    with FrameRecorder(tmp_path / "s") as recorder:
        for scene in live:
            recorder.write(scene.frame)
    detector = SettleDetector(reader, tray=tray)
    replayed = [e for f in RecordingSource(tmp_path / "s") if (e := detector.feed(f))]
    assert len(live_events) == 2
    assert replayed == live_events
