"""Recorded sessions of every game, made by the repo's generators, replayed through the whole table."""
from __future__ import annotations

import json

import pytest

from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import EventRecorder, read_events, replay, write_events
from companion.table.sessions import playout

SESSIONS = {"matterhorn": 0, "mountain-goats": 1, "magic-mountain": 1, "banana-matcho": 2}


def replay_into(tmp_path, name, events, **options):
    table = Table(Journal(tmp_path / name)).start()
    rejected = []
    try:
        replay(events, table, fast=True, on_ack=lambda i, o: rejected.append((i, o.message)) if not o.ok else None,
               **options)
        return table.view(), rejected
    finally:
        table.stop()
        table.journal.close()


@pytest.mark.parametrize("game", SESSIONS)
def test_a_recorded_game_replays_from_start_to_end(tmp_path, game):
    events, final = playout(game, SESSIONS[game])
    write_events(tmp_path / "session", events)
    loaded = read_events(tmp_path / "session")
    assert loaded == events
    view, rejected = replay_into(tmp_path, "a", loaded)
    assert rejected == []
    assert view["game"]["over"] and view["question"] is None
    assert view["game"]["state"] == final.to_json()
    again, _ = replay_into(tmp_path, "b", loaded)
    assert again["game"]["state"] == view["game"]["state"]
    assert again["game"]["history"] == view["game"]["history"]


def test_the_camera_and_sensors_drive_each_game():
    kinds = {game: {e.type for e in playout(game, seed)[0]} for game, seed in SESSIONS.items()}
    assert "dice_settled" in kinds["matterhorn"] and "dice_settled" in kinds["mountain-goats"]
    assert {"ball_entered", "ball_landed"} <= kinds["magic-mountain"]
    assert {"zone_state", "banana_squeaked"} <= kinds["banana-matcho"]


def test_real_time_replay_waits_as_long_as_the_recording(tmp_path):
    events, _ = playout("mountain-goats", 1)
    events = events[:6]
    waits = []
    table = Table(Journal(tmp_path)).start()
    try:
        replay(events, table, sleep=waits.append, speed=2.0)
    finally:
        table.stop()
    expected = [(b.t - a.t) / 1e9 / 2.0 for a, b in zip(events, events[1:])]
    assert waits == pytest.approx(expected)


def test_the_recorder_writes_every_event_the_table_hears(tmp_path):
    events, _ = playout("banana-matcho", 2)
    recorder = EventRecorder(tmp_path / "rec")
    table = Table(Journal(tmp_path / "j"), tap=recorder).start()
    try:
        replay(events, table, fast=True)
    finally:
        table.stop()
        recorder.close()
    assert read_events(tmp_path / "rec") == events


def test_a_broken_recording_names_the_line(tmp_path):
    from companion.table.recording import BadRecording

    (tmp_path / "events.jsonl").write_text('{"type": "banana_squeaked", "t": 1}\n{"type": "teleport", "t": 2}\n')
    with pytest.raises(BadRecording, match="line 2: unknown event type 'teleport'"):
        read_events(tmp_path)


def test_replay_cli_prints_the_game_and_refuses_bad_input(tmp_path, run_cli):
    events, final = playout("magic-mountain", 1)
    write_events(tmp_path / "s", events)
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--json")
    assert code == 0, err
    result = json.loads(out.splitlines()[-1])
    assert result["over"] and result["game"] == "magic-mountain" and result["events"] == len(events)
    assert result["scores"] == final.scores()
    code, _, err = run_cli("replay", str(tmp_path / "missing"))
    assert code == 2 and "events.jsonl is missing" in err
    code, _, err = run_cli("replay", str(tmp_path / "s"), "--resume")
    assert code == 2 and "--resume needs --state-dir" in err
    a_file = tmp_path / "photo.jpg"
    a_file.write_bytes(b"\xff\xd8 not a session")
    code, _, err = run_cli("replay", str(a_file))
    assert code == 2 and f"{a_file} is not a recorded session: a session is a directory" in err
    (tmp_path / "binary").mkdir()
    (tmp_path / "binary" / "events.jsonl").write_bytes(b"\xff\xfe\x00")
    code, _, err = run_cli("replay", str(tmp_path / "binary"))
    assert code == 2 and "events.jsonl is not a text file of events" in err


def test_a_recording_cut_short_by_a_power_cut_replays_up_to_the_torn_line(tmp_path, run_cli):
    events, _ = playout("magic-mountain", 1)
    path = write_events(tmp_path / "s", events)
    path.write_bytes(path.read_bytes()[:-25])
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--json")
    assert code == 0, err
    assert json.loads(out.splitlines()[-1])["events"] == len(events) - 1
    assert err == (f"companion replay: {path} line {len(events)} was cut short (a power cut while recording?); "
                   f"the {len(events) - 1} events before it are kept\n")
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:3] + [lines[3][:20]] + lines[4:]) + "\n")
    code, _, err = run_cli("replay", str(tmp_path / "s"), "--fast")
    assert code == 2 and f"{path} line 4: Unterminated string" in err


def test_record_cli_writes_a_synthetic_session(tmp_path, run_cli):
    code, out, err = run_cli("record", "--out", str(tmp_path / "new"), "--synthetic", "banana-matcho", "--seed", "2")
    assert code == 0, err
    assert read_events(tmp_path / "new") == playout("banana-matcho", 2)[0]
    code, _, err = run_cli("record", "--out", str(tmp_path / "new"), "--synthetic", "banana-matcho")
    assert code == 2 and "not an empty directory" in err
    code, _, err = run_cli("record", "--out", str(tmp_path / "many"), "--synthetic", "matterhorn", "--players", "9")
    assert code == 2 and "Matterhorn takes 2–4 players, got 9" in err
