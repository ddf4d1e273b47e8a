"""`companion replay DIR --frames`: the recorded camera frames re-read through the vision pipeline give the
same game as the recorded rolls, and every roll read differently is named."""
from __future__ import annotations

import json

import pytest

from companion.events import DiceSettled, PlayerAction
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import write_events
from companion.table.sessions import playout

from companion.table.session_frames import TRUTH_FILE, film_session, record_frames  # noqa: E402

ROLLS = 4


def first_rolls(events, count):
    """The events up to (not including) the roll after the first `count` rolls."""
    rolls = 0
    for position, event in enumerate(events):
        if isinstance(event, DiceSettled):
            rolls += 1
            if rolls > count:
                return events[:position]
    return events


def as_tapped(events, state_dir):
    """The events with each tap carrying the step the page showed (`seen`), as the real page sends it."""
    table = Table(Journal(state_dir)).start()
    out = []
    try:
        for event in events:
            if isinstance(event, PlayerAction):
                event = PlayerAction(t=event.t, action={**event.action, "seen": table.view()["step"]},
                                     source=event.source)
            assert table.submit(event).result(10).ok
            out.append(event)
    finally:
        table.stop()
        table.journal.close()
    return out


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    directory = tmp_path_factory.mktemp("session")
    events = first_rolls(playout("mountain-goats", 1)[0], ROLLS)
    placed, frames = film_session(events, seed=4, width=320, height=180)
    placed = as_tapped(placed, tmp_path_factory.mktemp("live"))
    write_events(directory, placed)
    record_frames(directory, frames, fmt="png")
    return directory, placed


def result_of(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_the_frames_read_again_give_the_recorded_game(run_cli, session):
    directory, events = session
    code, out, err = run_cli("replay", str(directory), "--fast", "--json")
    assert code == 0, err
    recorded = result_of(out)
    assert recorded["steps"] > ROLLS
    code, out, err = run_cli("replay", str(directory), "--fast", "--json", "--frames", "--reader", "truth")
    assert code == 0, err
    reread = result_of(out)
    assert reread["frames"] == {"frames": 4 * ROLLS, "rolls": ROLLS, "differences": []}
    assert {k: reread[k] for k in ("state", "steps", "scores", "events")} == \
        {k: recorded[k] for k in ("state", "steps", "scores", "events")}
    code, out, _ = run_cli("replay", str(directory), "--fast", "--json", "--frames", "--reader", "truth")
    assert result_of(out) == reread


def test_a_roll_read_differently_is_named_with_both_readings(run_cli, session, tmp_path):
    directory, events = session
    copy = tmp_path / "misread"
    copy.mkdir()
    for path in directory.iterdir():
        if path.is_file():
            (copy / path.name).write_bytes(path.read_bytes())
    (copy / "frames").symlink_to(directory / "frames")
    second = [e for e in events if isinstance(e, DiceSettled)][1]
    lines = [json.loads(line) for line in (copy / TRUTH_FILE).read_text().splitlines()]
    for line in lines[4 * 1 + 2: 4 * 1 + 4]:  # the two frames of the second roll at rest
        line["dice"][-1]["value"] = 7 - line["dice"][-1]["value"]
    (copy / TRUTH_FILE).write_text("".join(json.dumps(line) + "\n" for line in lines))
    code, out, _ = run_cli("replay", str(copy), "--fast", "--frames", "--reader", "truth")
    recorded = " ".join(str(d.value) for d in second.dice)
    misread = " ".join(str(d.value) for d in second.dice[:-1]) + f" {7 - second.dice[-1].value}"
    assert code == 1
    assert f"roll 2 at t={second.t / 1e9:.3f}s: recorded {recorded}, re-read {misread}" in out
    assert "1 difference from the recording" in out


def test_the_pip_reader_reads_the_frames_through_the_command(run_cli, session):
    directory, _ = session
    code, out, err = run_cli("replay", str(directory), "--fast", "--frames")
    assert code in (0, 1), err
    assert f"re-read {4 * ROLLS} frames with the pips reader" in out


def test_a_recording_without_frames_is_refused_by_name(run_cli, tmp_path):
    write_events(tmp_path, playout("mountain-goats", 1)[0][:3])
    code, _, err = run_cli("replay", str(tmp_path), "--fast", "--frames")
    assert code == 2
    assert "has no frames to re-read" in err and "frames.jsonl" in err


def test_recording_keeps_the_camera_setup_the_replay_reads_with(session, tmp_path):
    from companion.config import load_settings
    from companion.table.camera import open_camera
    from companion.table.reread import CameraSetup, read_camera_setup

    directory, _ = session
    settings = load_settings(env={}, overrides={"camera": {"source": str(directory), "tray": "10,10,300,170",
                                                           "settle_ms": 250},
                                                "service": {"state_dir": str(tmp_path / "games")}})
    out = tmp_path / "recorded"
    feed = open_camera(settings, lambda event: None, record_dir=out)
    try:
        assert read_camera_setup(out) == CameraSetup("pips", "10,10,300,170", "", 250)
        feed.set_tray((0, 0, 320, 180))
        assert read_camera_setup(out).tray == "0,0,320,180"
    finally:
        feed.stop()


def copy_session(directory, to):
    to.mkdir()
    for path in directory.iterdir():
        if path.is_file():
            (to / path.name).write_bytes(path.read_bytes())
    (to / "frames").mkdir()
    for image in sorted((directory / "frames").iterdir()):
        (to / "frames" / image.name).write_bytes(image.read_bytes())
    return to


def test_frames_missing_from_the_recording_are_told_apart_from_misreadings(run_cli, session, tmp_path):
    """A recording whose frames are cut short (a full card) is said to be so, not left to look like a reader
    that disagrees; one with no frames at all is refused."""
    directory, _ = session
    short = copy_session(directory, tmp_path / "short")
    for image in sorted((short / "frames").iterdir())[10:]:
        image.unlink()
    code, out, err = run_cli("replay", str(short), "--fast", "--frames", "--reader", "truth")
    assert f"{short / 'frames'} holds 10 of the {4 * ROLLS} frames frames.jsonl lists (cut short or damaged)" in err
    assert code == 1 and "re-read 10 frames" in out
    for image in (short / "frames").iterdir():
        image.unlink()
    code, _, err = run_cli("replay", str(short), "--fast", "--frames", "--reader", "truth")
    assert code == 2 and f"holds 0 of the {4 * ROLLS} frames frames.jsonl lists: it is damaged or empty" in err


@pytest.mark.parametrize("harm", ["damaged", "missing"])
def test_a_frame_damaged_mid_way_is_named_and_the_frames_after_it_are_re_read(run_cli, session, tmp_path, harm):
    """One PNG of a recording's frames that the card damaged (or lost): the re-read ended there, and every roll
    after it looked misread. It is named, left out, and the rest is re-read."""
    directory, _ = session
    copy = copy_session(directory, tmp_path / "copy")
    bad = copy / "frames" / "000005.png"  # the dice of the second roll, tumbling
    if harm == "damaged":
        bad.write_bytes(bad.read_bytes()[:100])
    else:
        bad.unlink()
    code, out, err = run_cli("replay", str(copy), "--fast", "--frames", "--reader", "truth")
    assert err == (f"companion replay: {copy / 'frames'} holds {4 * ROLLS - 1} of the {4 * ROLLS} frames frames.jsonl "
                   "lists: 000005.png could not be read (damaged or missing) and is left out; the frames after it are "
                   "re-read\n")
    said = f"re-read {4 * ROLLS - 1} frames with the truth reader: {ROLLS} rolls; the same camera events as recorded"
    assert code == 0 and said in out, out


@pytest.mark.parametrize("file, text, problem", [
    (TRUTH_FILE, '{"index": 0, "dice": []}\n{"index": 1}\n', "truth.jsonl line 2 is not a frame's truth"),
    (TRUTH_FILE, "garbage\n", "truth.jsonl line 1 is not a frame's truth"),
    ("camera.json", '{"settle_ms": "fast"}', "camera.json: settle_ms must be a whole number, got 'fast'"),
    ("camera.json", '{"tray": 5}', "camera.json: tray must be text, got 5"),
    ("camera.json", '{"follows_game": 1}', "camera.json: follows_game must be true or false, got 1"),
    ("frames.jsonl", '{"index": 0, "t": 10}\n{"index": 1, "t": 5}\n', "frame 1's time goes back before frame 0's"),
])
def test_a_damaged_file_of_the_recording_is_named(run_cli, session, tmp_path, file, text, problem):
    directory, _ = session
    damaged = copy_session(directory, tmp_path / "damaged")
    (damaged / file).write_text(text)
    code, out, err = run_cli("replay", str(damaged), "--fast", "--frames", "--reader", "truth")
    assert code == 2 and out == "" and problem in err and "Traceback" not in err, err


def test_a_synthetic_recording_with_frames_is_made_by_one_command(run_cli, tmp_path):
    """What a contributor without a camera starts from: `record --synthetic GAME --frames`, re-read."""
    out = tmp_path / "s"
    code, text, err = run_cli("record", "--out", str(out), "--synthetic", "matterhorn", "--seed", "3", "--frames")
    assert code == 0, err
    frames = int(text.split(" and ")[1].split()[0])
    code, text, err = run_cli("replay", str(out), "--fast", "--json", "--frames", "--reader", "truth")
    assert code == 0, err
    result = result_of(text)
    assert result["over"] and result["refused"] == 0
    assert result["frames"]["frames"] == frames and result["frames"]["differences"] == []
    code, _, err = run_cli("record", "--out", str(tmp_path / "b"), "--synthetic", "banana-matcho", "--frames")
    assert code == 2 and "use matterhorn or mountain-goats" in err


def test_replay_frames_compares_the_zones_only_where_the_live_camera_read_them():
    """The live camera reads the dice zones only while Banana Matcho is played: re-read, the frames of a pip
    game before it give zone states the recording never had, which are no difference; a zone read otherwise
    than live still is."""
    from companion.events import DieReading, ZoneState
    from companion.table.reread import zone_differences

    def states(t, fruit):
        die = DieReading(fruit, (10.0, 10.0), (0.0, 0.0, 20.0, 20.0), 0.97)
        return [ZoneState(t, "fruit", (die,)), ZoneState(t, "matcho", ())]

    recorded = states(3, "coconut") + states(4, "coconut")
    reread = states(1, "banana") + states(2, "banana") + states(3, "coconut") + states(4, "orange")
    assert zone_differences(recorded, reread) == ["zone fruit at t=0.000s: recorded coconut, re-read orange"]


def test_a_banana_matcho_recording_re_read_has_no_pip_rolls_the_live_camera_never_read(tmp_path):
    """Live, the camera reads no pip dice while Banana Matcho is played (fruit dice read as "pips"); re-read, the
    frames follow the game the recording's taps started, so a Banana Matcho recording re-read names no "re-read a
    roll that was not recorded". With no game on the table, as live, pip dice are read."""
    from companion.table.camera_game import games_on_the_table
    from companion.table.reread import CameraSetup, reread_frames
    from companion.table.session_frames import TruthFrame
    from companion.vision.sources import Frame
    from tests.table.banana_dice import table_image

    throws = [table_image(seed, ["coconut"] * 3 + ["banana", "orange", "papaya"], ["matcho", "blank", "matcho"])
              for seed in (11, 12)]
    frames = [TruthFrame(Frame(i * 100_000_000, throws[i // 20][::-1].copy() if i % 20 == 0 else throws[i // 20]),
                         (), False) for i in range(40)]
    record_frames(tmp_path, frames, fmt="png")
    start = PlayerAction(t=2_000_000_000 - 1, action={"do": "start", "game": "banana-matcho",
                                                       "players": [{"name": "Ada"}, {"name": "Ben"}]})
    rolls = lambda games: [e for e in reread_frames(tmp_path, CameraSetup(), games=games)[0]  # noqa: E731
                           if isinstance(e, DiceSettled)]
    assert [e.t < start.t for e in rolls(games_on_the_table([start]))] == [True], \
        "the fruit dice read as pips only before the game began"
    assert len(rolls(())) == 2, "without the games, the pip reader reads both throws of the fruit dice"


def test_the_games_a_recording_plays_leave_out_a_start_the_companion_refused():
    """A start tap naming a game the companion does not know was refused live; re-reading the frames, it changes
    nothing (it crashed `replay --frames` with the registry's UnknownGame)."""
    from companion.table.camera_game import games_on_the_table

    taps = [PlayerAction(t=1, action={"do": "start", "game": "banana-matcho", "players": []}),
            PlayerAction(t=2, action={"do": "start", "game": "snakes-and-ladders", "players": []}),
            PlayerAction(t=3, action={"do": "end"})]
    assert games_on_the_table(taps) == [(1, "banana-matcho"), (3, None)]


def test_a_recording_made_before_the_camera_followed_the_game_is_re_read_as_its_camera_read(run_cli, tmp_path,
                                                                                              monkeypatch):
    """Before session 30 the live camera read pip dice and the Banana Matcho zones in every frame, whatever the
    game: its camera.json says nothing of following the game. Re-read as today's camera reads, the fruit dice it
    read as pips during and after a Banana Matcho game were 'not re-read' and its zones outside the game 're-read
    nothing': differences of the version, not of the reader. Re-read as its own camera read, none is left."""
    import heapq

    from companion.table.reread import CAMERA_FILE, CameraSetup, reread_frames, write_camera_setup
    from companion.table.session_frames import TruthFrame
    from companion.vision.sources import Frame
    from tests.table.banana_dice import ZONE_TEXT, table_image, teach

    teach(tmp_path / "state")
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    recording = tmp_path / "before-session-30"
    throws = [table_image(seed, ["coconut"] * 3 + ["banana", "orange", "papaya"], ["matcho", "blank", "matcho"])
              for seed in (11, 12, 13)]
    frames = [TruthFrame(Frame(i * 100_000_000, throws[i // 12][::-1].copy() if i % 12 == 0 else throws[i // 12]),
                         (), False) for i in range(36)]
    record_frames(recording, frames, fmt="png")
    setup = CameraSetup("pips", "auto", ZONE_TEXT, 300)
    camera, _ = reread_frames(recording, setup)  # the camera of then: everything, in every frame
    assert [e.t for e in camera if isinstance(e, DiceSettled)] == [400_000_000, 1_600_000_000, 2_800_000_000]
    write_camera_setup(recording, setup)
    old = {k: v for k, v in json.loads((recording / CAMERA_FILE).read_text()).items() if k != "follows_game"}
    (recording / CAMERA_FILE).write_text(json.dumps(old))
    players = [{"name": "Ada"}, {"name": "Ben"}]
    taps = [PlayerAction(t=1_000_000_001, action={"do": "start", "game": "banana-matcho", "players": players}),
            PlayerAction(t=2_000_000_001, action={"do": "end"})]
    write_events(recording, list(heapq.merge(taps, camera, key=lambda e: e.t)))

    code, out, err = run_cli("replay", str(recording), "--fast", "--json", "--frames")
    assert result_of(out)["frames"]["differences"] == [] and code == 0, result_of(out)["frames"]
    assert "recorded before the camera followed the game" in err, err

    (recording / CAMERA_FILE).unlink()  # recorded before camera.json was written at all, the zones given by hand
    code, out, err = run_cli("replay", str(recording), "--fast", "--json", "--frames", "--zones", ZONE_TEXT)
    assert result_of(out)["frames"]["differences"] == [] and code == 0, result_of(out)["frames"]
    assert "recorded before the camera followed the game" in err, err
