"""a live recording replayed must give the game that was played live."""
from __future__ import annotations

from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import EventRecorder, read_events, replay
from companion.table.sessions import playout

from tests.table.test_held_inputs import at_bonus, play  # noqa: F401
from tests.table.test_matterhorn_roll_again import legal, phase, rolled
from tests.waiting import wait_for

PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]


def replay_into(path, events):
    table = Table(Journal(path)).start()
    refused = []
    try:
        replay(events, table, fast=True, on_ack=lambda i, o: refused.append((i, o.message)) if not o.ok else None)
        return table.view(), refused
    finally:
        table.stop()
        table.journal.close()


def tap(table, command):
    """A tap as the page sends it: with the step it showed."""
    return table.request({**command, "seen": table.view()["step"]})


def test_a_game_resumed_while_recording_replays_as_that_game(tmp_path):
    """Yesterday's Mountain Goats game was left unfinished for a Matterhorn game; today, while recording, the
    family resumes it from the page and plays on. The replay must play on in Mountain Goats, not elsewhere."""
    goats, _ = playout("mountain-goats", 1)
    live = tmp_path / "live"
    table = Table(Journal(live)).start()
    try:
        for event in goats[:8]:
            assert table.submit(event).result(10).ok
        assert table.request({"do": "start", "game": "matterhorn", "players": PLAYERS}).ok  # game 2
    finally:
        table.stop()
        table.journal.close()
    recorder = EventRecorder(tmp_path / "rec")
    table = Table(Journal(live), tap=recorder).start()
    try:
        assert tap(table, {"do": "resume", "game_id": 1}).ok
        for event in goats[8:14]:
            assert table.submit(event).result(10).ok
        expected = table.view()["game"]
    finally:
        table.stop()
        table.journal.close()
        recorder.close()
    view, refused = replay_into(tmp_path / "replayed", read_events(tmp_path / "rec"))
    assert refused == []
    assert view["game"]["name"] == expected["name"] == "mountain-goats"
    assert view["game"]["state"] == expected["state"]


def goats_then_record(tmp_path, before):
    """A Mountain Goats game played on the service (`before(table)`), which is then stopped and `companion
    record` started on the same games: returns (the recording table, its recorder)."""
    live = tmp_path / "live"
    table = Table(Journal(live)).start()
    try:
        assert table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS}).ok
        before(table)
    finally:
        table.stop()
        table.journal.close()
    recorder = EventRecorder(tmp_path / "rec")
    return Table(Journal(live), tap=recorder).start(), recorder


def finish_recording(tmp_path, table, recorder):
    expected = table.view()
    table.stop()
    table.journal.close()
    recorder.close()
    view, refused = replay_into(tmp_path / "replayed", read_events(tmp_path / "rec"))
    return expected, view, refused


def ada_move(table):
    return next(a for a in legal(table) if a.get("steps") == [5, 6])


def test_a_roll_kept_when_the_recording_starts_is_in_its_replay(tmp_path):
    """Ben threw before Ada tapped her move (his roll is kept), then the service was restarted as `companion
    record`. Ada taps her move: live, Ben's kept roll is played; the replay must play it too."""
    def before(table):
        assert table.submit(rolled(2, 3, 5, 6)).result(5).ok
        assert table.submit(rolled(4, 4, 1, 3)).result(5).ok
        assert "kept" in table.view()["notice"]

    table, recorder = goats_then_record(tmp_path, before)
    assert tap(table, {"do": "play", "action": ada_move(table)}).ok
    assert table.view()["game"]["state"]["dice"] == [4, 4, 1, 3], "live: Ben's kept roll is played"
    expected, view, refused = finish_recording(tmp_path, table, recorder)
    assert refused == []
    assert view["game"]["state"] == expected["game"]["state"]


def test_a_roll_corrected_before_the_recording_starts_does_not_refuse_the_next_tap(tmp_path):
    """Ada's roll was read, a die fixed on the page; then `companion record` started. Her move, tapped on the
    page (which sends the step it showed), is played live; the replay must not refuse it."""
    def before(table):
        assert table.submit(rolled(2, 3, 5, 1)).result(5).ok
        assert table.request({"do": "correct", "index": 3, "value": 6}).ok

    table, recorder = goats_then_record(tmp_path, before)
    outcome = tap(table, {"do": "play", "action": ada_move(table)})
    assert outcome.ok, outcome.message
    expected, view, refused = finish_recording(tmp_path, table, recorder)
    assert refused == []
    assert view["game"]["state"] == expected["game"]["state"]


def test_a_question_asked_when_the_recording_starts_is_answered_in_its_replay(tmp_path):
    """The camera was unsure of a die and the page asks; then `companion record` started. The family types
    the roll on the page: played live, and it must be played in the replay too."""
    def before(table):
        assert table.submit(rolled(2, 3, 5, 6, unsure=(2,))).result(5).ok
        assert table.view()["question"]["kind"] == "dice"

    table, recorder = goats_then_record(tmp_path, before)
    outcome = tap(table, {"do": "dice", "values": [2, 3, 5, 6]})
    assert outcome.ok, outcome.message
    expected, view, refused = finish_recording(tmp_path, table, recorder)
    assert refused == []
    assert view["game"]["state"] == expected["game"]["state"]


def test_a_squeak_judged_while_the_camera_was_quiet_replays_with_its_answer(tmp_path):
    """Banana Matcho: the banana squeaks, and the camera stops right then (its cable knocked): after the
    table's idle second the squeak is judged on the frames read and the page asks who squeaked; the family
    answers from the page. The replay, which has no idle second, must accept the same answer."""
    from companion.events import BananaSqueaked, PlayerAction, ZoneState

    events, _ = playout("banana-matcho", 2)
    squeak = next(i for i, e in enumerate(events) if isinstance(e, BananaSqueaked)
                  and any(isinstance(a, PlayerAction) and a.action.get("do") == "choose" for a in events[i + 1:i + 4]))
    before = [e for e in events[:squeak] if not (isinstance(e, ZoneState) and e.t > events[squeak].t)]
    recorder = EventRecorder(tmp_path / "rec")
    table = Table(Journal(tmp_path / "live"), tap=recorder, loop_seconds=0.1).start()
    try:
        for event in before:
            assert table.submit(event).result(10).ok
        assert table.submit(events[squeak]).result(10).ok
        assert "judged once the camera" in table.view()["notice"]  # kept for the camera's frame of that moment
        wait_for(lambda: table.view()["question"] is not None,
                 "the question the idle second asks (the camera is quiet)")
        assert table.view()["question"]["kind"] == "squeak"
        option = table.view()["question"]["options"][0]["option"]
        outcome = tap(table, {"do": "choose", "option": option})
        assert outcome.ok, outcome.message
        expected = table.view()
    finally:
        table.stop()
        table.journal.close()
        recorder.close()
    view, refused = replay_into(tmp_path / "replayed", read_events(tmp_path / "rec"))
    assert refused == []
    assert view["game"]["state"] == expected["game"]["state"]


def test_a_replay_resumed_after_a_stop_at_a_squeak_gives_the_same_game(tmp_path):
    """`companion replay --state-dir D` of a Banana Matcho session is stopped (Ctrl-C, the laptop's lid)
    while a squeak waits for the camera's next frame; `--resume` must still give the recording's game."""
    import threading

    from companion.events import BananaSqueaked

    events, _ = playout("banana-matcho", 2)
    whole, _ = replay_into(tmp_path / "whole", events)
    squeak = next(i for i, e in enumerate(events) if isinstance(e, BananaSqueaked))
    table = Table(Journal(tmp_path / "d")).start()
    stop = threading.Event()
    try:
        replay(events, table, fast=True, stop=stop, on_ack=lambda i, o: stop.set() if i >= squeak else None)
    finally:
        table.stop()
        table.journal.close()
    table = Table(Journal(tmp_path / "d")).start()  # as `--resume` does
    try:
        replay(events, table, fast=True, after=table.replay_position)
        resumed = table.view()
    finally:
        table.stop()
        table.journal.close()
    assert resumed["game"]["history"] == whole["game"]["history"]
    assert resumed["game"]["state"] == whole["game"]["state"]


def test_a_die_with_a_bad_place_is_named_not_a_traceback(tmp_path, run_cli):
    """A recording's line written by hand or by another version: a die whose centre is not two numbers."""
    die = '{"value": 3, "center": [1, "a"], "box": [0, 0, 1, 1], "confidence": 1}'
    (tmp_path / "events.jsonl").write_text('{"type": "banana_squeaked", "t": 1}\n'
                                           '{"type": "dice_settled", "t": 5, "dice": [' + die + ']}\n')
    code, out, err = run_cli("replay", str(tmp_path), "--fast")
    assert code == 2 and "events.jsonl line 2" in err and "Traceback" not in err, err


def test_an_empty_frame_index_is_named(tmp_path, run_cli):
    """frames.jsonl emptied (a power cut just after it was made, before the card wrote it): the replay
    must say so, not re-read nothing and list every roll as 'not re-read'."""
    code, _, err = run_cli("record", "--out", str(tmp_path / "s"), "--synthetic", "matterhorn", "--frames")
    assert code == 0, err
    (tmp_path / "s" / "frames.jsonl").write_text("")
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--frames")
    assert code == 2 and "frames.jsonl" in err, (code, out[-300:], err)


def test_frames_the_video_file_cannot_hold_are_not_listed_as_recorded(tmp_path):
    """A recording on a USB stick formatted FAT32 (files end at 4 GB: about a minute and a half of lossless
    720p) or any file-size limit: FFmpeg drops every frame past it with a warning only, while frames.jsonl
    goes on listing them and the page goes on saying the frames are recorded. Here the limit is 20 MB
    (RLIMIT_FSIZE, the same EFBIG a FAT32 file gets); FrameRecorder must stop (raise) rather than list
    frames it did not keep. `companion record --synthetic mountain-goats --frames` under the same limit
    says "wrote ... 200 camera frames" while the video holds 24."""
    import subprocess
    import sys

    script = """
import resource, sys, numpy as np
from companion.vision.recording import FrameRecorder
from companion.vision.sources import Frame
resource.setrlimit(resource.RLIMIT_FSIZE, (20_000_000, 20_000_000))
rng = np.random.default_rng(0)
try:
    with FrameRecorder(sys.argv[1], fmt="ffv1") as recorder:
        for i in range(40):
            recorder.write(Frame(i * 33_000_000, rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)))
except OSError as exc:
    print("stopped:", exc)
"""
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "s")], capture_output=True, text=True,
                          timeout=120)
    from companion.vision.recording import RecordingSource

    source = RecordingSource(tmp_path / "s")
    kept = sum(1 for _ in source)
    assert kept == len(source), f"frames.jsonl lists {len(source)} frames, the video holds {kept}: {done.stdout!r}"


def test_a_video_this_opencv_cannot_decode_is_not_called_damaged(tmp_path, run_cli, monkeypatch):
    """A contributor's OpenCV built without FFmpeg (so without FFV1) replays a recording made on the Pi: the
    video is sound, the codec is missing. The message must say so, not 'damaged or empty'."""
    import cv2

    from companion.vision import recording

    code, _, err = run_cli("record", "--out", str(tmp_path / "s"), "--synthetic", "mountain-goats", "--frames")
    assert code == 0, err

    class NoFfmpeg:  # what cv2.VideoCapture is in a build without a video backend for Matroska/FFV1
        def __init__(self, *args):
            pass

        def isOpened(self):
            return False

        def read(self):
            return False, None

        def release(self):
            pass

    monkeypatch.setattr(cv2, "VideoCapture", NoFfmpeg)
    monkeypatch.setattr(cv2, "VideoWriter", lambda *a: NoFfmpeg())
    recording.ffv1_supported.cache_clear()
    try:
        code, _, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--frames")
    finally:
        recording.ffv1_supported.cache_clear()
    assert code == 2 and "damaged" not in err and "FFV1" in err, err


def serving_one_squeak(games, then=lambda table: None):
    """`companion serve` as `record` runs it, hearing one squeak and stopped: `then(table)` before it stops."""
    from companion.events import BananaSqueaked

    def serve(args, tap=None, record_dir=None):
        table = Table(Journal(games), tap=tap).start()
        try:
            table.submit(BananaSqueaked(t=1)).result(10)
            then(table)
        finally:
            table.stop()
            table.journal.close()
        return 0

    return serve


def test_a_recording_whose_disk_filled_up_ends_without_a_traceback(tmp_path, run_cli, monkeypatch):
    """`companion record` on a card or stick that fills up during the evening: the page said "the recording
    stopped; the game goes on" (Table._record). When the family stops it, `record` must end with its usual
    line, not a traceback from closing the events file (the lines it could not write are still buffered)."""
    import builtins

    from companion.table import recording
    from companion.web import cli_serve

    monkeypatch.setattr(recording, "open", lambda *a, **k: builtins.open("/dev/full", "a"), raising=False)

    def stopped(table):
        assert table.health["recording"]["state"] == "error"

    monkeypatch.setattr(cli_serve, "run", serving_one_squeak(tmp_path / "games", stopped))  # on a full disk
    code, out, err = run_cli("record", "--out", str(tmp_path / "rec"), "--state-dir", str(tmp_path / "games"))
    assert code == 0 and "recorded to" in out, (code, out, err)


def test_the_page_is_told_at_once_when_the_recording_stops(tmp_path):
    """The disk fills while the camera sends Banana Matcho's zone frames (most of a recording's lines, and
    each changes nothing on the page): the page must say the recording stopped then, not at the next move."""
    from companion.events import ZoneState

    recorder = EventRecorder(tmp_path / "rec")
    table = Table(Journal(tmp_path / "games"), tap=recorder).start()
    try:
        assert table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS}).ok
        recorder._file = open("/dev/full", "a")  # the card is full from now on
        table.submit(ZoneState(t=5, zone="fruit")).result(10)
        assert table.health["recording"]["state"] == "error"
        assert "recording" in table.view()["health"], "the page still shows the recording as going on"
    finally:
        table.stop()
        table.journal.close()


def test_a_negative_seed_with_frames_is_refused_not_a_traceback(tmp_path, run_cli):
    try:
        code, _, err = run_cli("record", "--out", str(tmp_path / "s"), "--synthetic", "mountain-goats", "--frames",
                               "--seed", "-1")
    except ValueError as exc:  # what `companion record` shows as a traceback
        raise AssertionError(f"traceback: {exc}") from None
    assert code == 2 and "--seed" in err, err
    assert not (tmp_path / "s").exists()


def test_a_game_over_with_no_winner_is_not_said_to_have_no_winner_yet(tmp_path, run_cli):
    """Magic Mountain is played together against the wizard: seed 1 is lost by everybody. The replay says
    'over' and then 'winner: nobody yet'."""
    code, _, err = run_cli("record", "--out", str(tmp_path / "s"), "--synthetic", "magic-mountain")
    assert code == 0, err
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast")
    assert code == 0 and ", over;" in out, out
    assert "nobody yet" not in out, out


def test_a_recording_said_recorded_is_on_the_card_before_it_says_so(tmp_path, run_cli, monkeypatch):
    """A Pi is switched off at the wall soon after `companion record` says "recorded to". Its events, frames and
    their index were written without a sync each (that would stall the camera on the card): the system keeps
    them up to half a minute before writing them. The end of the recording has them written first."""
    import os

    from companion.web import cli_serve

    written = []
    monkeypatch.setattr(os, "sync", lambda: written.append(read_events(tmp_path / "rec")))
    monkeypatch.setattr(cli_serve, "run", serving_one_squeak(tmp_path / "games"))
    code, out, err = run_cli("record", "--out", str(tmp_path / "rec"), "--state-dir", str(tmp_path / "games"))
    assert code == 0 and "recorded to" in out, (code, out, err)
    assert written and len(written[-1]) == len(read_events(tmp_path / "rec")) > 0, \
        "everything recorded was handed to the card once the recording ended"
