"""The camera path end to end: synthetic roll frames -> the vision pipeline (settle) -> the table, with the
frames and the events recorded, and the recording replayed into the same game."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest

from companion.events import DieReading
from companion.table.camera import CameraFeed
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import EventRecorder, read_events, replay

from companion.vision import scene
from companion.vision import live
from companion.vision import recording


def key(image: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(image).tobytes()).hexdigest()


class OracleReader:
    """Reads a synthetic frame by its truth, so this test checks the plumbing, not the pip reader."""

    def __init__(self, frames):
        self.truth = {key(f.frame.image): f.truth for f in frames}

    def read(self, image, tray=None):
        truth = self.truth[key(image)]
        return [DieReading(d.value, d.center, d.box, 0.99) for d in truth.dice]


@pytest.fixture(scope="module")
def frames():
    camera = scene.CameraModel(width=320, height=240)
    return list(scene.roll_sequence(5, rolls=2, dice=4, fps=8, camera=camera, rest_s=0.8))


def test_rolls_seen_by_the_camera_play_the_game_and_the_session_replays(tmp_path, frames):
    session = tmp_path / "session"
    events = EventRecorder(session)
    table = Table(Journal(tmp_path / "live"), tap=events).start()
    pipeline = live.DicePipeline(None, OracleReader(frames), settle_ms=250)
    feed = CameraFeed(pipeline, lambda event: table.submit(event).result(5),
                      recorder=recording.FrameRecorder(session, fps=8))
    rolled = []
    try:
        table.request({"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]},
                      t=frames[0].frame.t - 1)
        for f in frames:
            feed.recorder.write(f.frame)
            for event in pipeline.process(f.frame):
                if event.type == "dice_settled":
                    rolled.append(sorted(d.value for d in event.dice))
                    game = table.view()["game"]
                    assert sorted(game["last_reading"]["values"]) == f.truth.values
                    table.request({"do": "play", "action": game["legal"][-1]["action"]}, t=f.frame.t + 1)
        feed.recorder.close()
        assert rolled == [frames[i].truth.values for i in range(len(frames))
                          if frames[i].truth.phase == "settled" and (i + 1 == len(frames) or frames[i + 1].truth.roll != frames[i].truth.roll)]
        assert feed.latest_jpeg()[:2] == b"\xff\xd8" and feed.reading_jpeg()[:2] == b"\xff\xd8"
        live_view = table.view()["game"]
    finally:
        table.stop()
        events.close()
    assert len(recording.read_frame_index(session)) == len(frames)
    again = Table(Journal(tmp_path / "again")).start()
    try:
        replay(read_events(session), again, fast=True)
        assert again.view()["game"]["state"] == live_view["state"]
        assert again.view()["game"]["history_count"] == 4
    finally:
        again.stop()



def rolls_read(events):
    return [sorted(d.value for d in e.dice) for e in events if e.type == "dice_settled"]


def test_a_card_nearly_full_stops_the_recording_of_frames_and_the_dice_are_still_read(tmp_path, frames):
    table = Table(Journal(tmp_path / "live")).start()
    heard = []

    def sink(event):
        heard.append(event)
        table.submit(event).result(5)

    pipeline = live.DicePipeline(iter(f.frame for f in frames), OracleReader(frames), settle_ms=250)
    feed = CameraFeed(pipeline, sink, recorder=recording.FrameRecorder(tmp_path / "session", keep_free=10 ** 18))
    try:
        feed.start()._thread.join(30)
        stopped = [e for e in heard if e.type == "recording_health"]
        assert len(stopped) == 1 and "MB stay free for the games" in stopped[0].message
        assert len(rolls_read(heard)) == 2, "both rolls were read with the recording stopped"
        health = table.view()["health"]["recording"]
        assert health["state"] == "stopped"
        assert health["message"].startswith("the camera's frames are no longer recorded (only ")
        assert recording.read_frame_index(tmp_path / "session") == []
    finally:
        feed.stop()
        table.stop()


class ReaderOfAnyFrame(OracleReader):
    def read(self, image, tray=None):
        return super().read(image, tray) if key(image) in self.truth else []


def test_a_camera_back_at_another_size_stops_the_recording_not_the_camera(tmp_path, frames):
    import cv2

    smaller = [f.frame if i < 3 else type(f.frame)(f.frame.t, cv2.resize(f.frame.image, (160, 120)))
               for i, f in enumerate(frames)]
    heard = []
    pipeline = live.DicePipeline(iter(smaller), ReaderOfAnyFrame(frames), settle_ms=250)
    feed = CameraFeed(pipeline, heard.append, recorder=recording.FrameRecorder(tmp_path / "session", fmt="png"))
    feed.start()._thread.join(30)
    feed.stop()
    messages = [e.message for e in heard if e.type == "recording_health"]
    assert len(messages) == 1 and "frame 3 is 160x120, the recording is 320x240" in messages[0]
    assert not [e for e in heard if e.type == "camera_health"], "the camera went on"
    assert len(recording.read_frame_index(tmp_path / "session")) == 3
