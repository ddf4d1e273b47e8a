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
    count = len(playout("banana-matcho", 2)[0])
    assert code == 2 and err.endswith(f"{tmp_path / 'new'} holds a recording already ({count} events), which is kept "
                                      f"as it is: to record, give a new folder (e.g. --out {tmp_path / 'new-2'})\n")
    code, _, err = run_cli("record", "--out", str(tmp_path / "many"), "--synthetic", "matterhorn", "--players", "9")
    assert code == 2 and "Matterhorn takes 2–4 players, got 9" in err
    (tmp_path / "a-file").write_text("")
    code, _, err = run_cli("record", "--out", str(tmp_path / "a-file" / "sub"), "--synthetic", "matterhorn")
    assert code == 2 and f"cannot record into {tmp_path / 'a-file' / 'sub'}: Not a directory" in err, err


def test_a_replay_never_plays_into_a_familys_games(tmp_path, run_cli):
    """Not into a folder with a finished game (it would join their history), nor with --resume into their
    game in progress or another recording's replay: only an interrupted replay of the same recording."""
    family = tmp_path / "family"
    table = Table(Journal(family)).start()
    try:
        assert table.request({"do": "start", "game": "matterhorn", "players": [{"name": "Mum"}, {"name": "Kid"}]}).ok
    finally:
        table.stop()
        table.journal.close()
    before = (family / "journal.sqlite3").read_bytes()
    events, _ = playout("magic-mountain", 1)
    write_events(tmp_path / "s", events)
    code, _, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(family))
    assert code == 2 and f"{family} already holds games: give an empty --state-dir" in err
    code, _, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(family), "--resume")
    assert code == 2 and "holds games that are not a replay: --resume continues only a replay of this same" in err
    assert (family / "journal.sqlite3").read_bytes() == before
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(tmp_path / "r"), "--json")
    assert code == 0, err
    done = json.loads(out.splitlines()[-1])
    code, _, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(tmp_path / "r"))
    assert code == 2 and "already holds games (--resume continues it)" in err
    code, out, _ = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(tmp_path / "r"), "--resume",
                           "--json")
    assert code == 0 and json.loads(out.splitlines()[-1])["state"] == done["state"]
    other, _ = playout("magic-mountain", 2)
    write_events(tmp_path / "other", other)
    code, _, err = run_cli("replay", str(tmp_path / "other"), "--fast", "--state-dir", str(tmp_path / "r"), "--resume")
    assert code == 2 and "holds another recording's replay" in err


def test_refused_events_are_counted_and_named(tmp_path, run_cli):
    events, _ = playout("magic-mountain", 1)
    lines = [json.dumps(e.to_json()) for e in events]
    start = json.loads(lines[0])
    assert start["action"]["do"] == "start"
    start["action"]["game"] = "chess"
    write_events(tmp_path / "s", [])
    (tmp_path / "s" / "events.jsonl").write_text("\n".join([json.dumps(start)] + lines[1:]) + "\n")
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast")
    assert code == 0, err
    assert "no game was started" in out
    refused = out.splitlines()[1:]
    assert refused[0].endswith("events refused:") and refused[1].startswith("  position 0 (player_action): ")
    assert "chess" in refused[1]
    code, out, _ = run_cli("replay", str(tmp_path / "s"), "--fast", "--json")
    assert json.loads(out.splitlines()[-1])["refused"] == int(refused[0].split()[0])


@pytest.mark.parametrize("line, problem", [
    ("[1, 2]", "an event is a JSON object, not list"),
    ("null", "an event is a JSON object, not NoneType"),
    ('{"type": "ball_entered", "t": "soon", "opening": 3}', "t must be a whole number, got 'soon'"),
    ('{"type": "ball_entered", "t": 5, "opening": true}', "opening must be a whole number, got True"),
    ('{"type": "player_action", "t": 5, "action": "undo"}', "action must be a JSON object, got 'undo'"),
    ('{"type": "dice_settled", "t": 5, "dice": 4}', "dice must be a list, got 4"),
])
def test_a_line_of_the_wrong_shape_is_named_not_a_traceback(tmp_path, run_cli, line, problem):
    (tmp_path / "events.jsonl").write_text('{"type": "banana_squeaked", "t": 1}\n' + line + "\n")
    code, out, err = run_cli("replay", str(tmp_path), "--fast")
    assert code == 2 and out == "" and "events.jsonl line 2: " in err and err.strip().endswith(problem), err


def test_replay_options_out_of_range_are_refused(tmp_path, run_cli):
    events, _ = playout("magic-mountain", 1)
    write_events(tmp_path / "s", events)
    for speed in ("nan", "inf", "0"):
        code, _, err = run_cli("replay", str(tmp_path / "s"), "--speed", speed)
        assert code == 2 and "argument --speed: must be a finite number above 0" in err, err
    write_events(tmp_path / "empty", [])
    code, _, err = run_cli("replay", str(tmp_path / "empty"))
    assert code == 2 and "holds no events to replay" in err


def test_a_recording_started_in_the_middle_of_a_game_replays_it(tmp_path):
    """The Pi restarted mid-game, or `companion record` was started after the first moves: the recording
    opens with the game so far, so its replay plays the same game (and a correction of the last roll read
    before the recording began still finds its roll)."""
    events, _ = playout("mountain-goats", 1)
    live = tmp_path / "live"
    table = Table(Journal(live)).start()
    try:
        for event in events[:12]:
            assert table.submit(event).result(10).ok
        assert table.request({"do": "undo"}).ok
    finally:
        table.stop()
        table.journal.close()
    recorder = EventRecorder(tmp_path / "rec")
    table = Table(Journal(live), tap=recorder).start()
    try:
        assert table.request({"do": "correct", "index": 0, "value": 1}).ok
        for event in events[12:20]:
            table.submit(event).result(10)
        expected = table.view()["game"]["state"]
    finally:
        table.stop()
        table.journal.close()
        recorder.close()
    view, rejected = replay_into(tmp_path, "replayed", read_events(tmp_path / "rec"))
    assert view["game"]["state"] == expected


def test_a_replay_interrupted_in_an_older_companion_is_not_resumed_as_a_family_game(tmp_path, run_cli):
    """A companion from before the replay noted its recording (meta replay_of) kept only how far it got:
    resuming it here is refused as what it is, not as a family's games."""
    import sqlite3

    events, _ = playout("magic-mountain", 1)
    write_events(tmp_path / "s", events)
    code, _, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(tmp_path / "r"))
    assert code == 0, err
    db = sqlite3.connect(tmp_path / "r" / Journal.FILE_NAME)
    with db:
        db.execute("DELETE FROM meta WHERE key='replay_of'")
    db.close()
    code, _, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(tmp_path / "r"), "--resume")
    assert code == 2 and "holds a replay interrupted in an older companion" in err, err
    assert "replay it again from the start into an empty --state-dir" in err


@pytest.mark.parametrize("name", ["\x1b[2J\x1b]0;owned\x07Ada", "Ben\x00"])
def test_a_recordings_game_so_far_is_refused_with_control_characters_in_a_name(tmp_path, run_cli, name):
    """A recording shared by another family opens with its game so far: its names were taken as written, so a
    terminal escape in one cleared the screen of whoever replayed it."""
    from companion.events import GameSoFar

    so_far = {"game": "mountain-goats", "setup": {"players": [{"name": name}, {"name": "Cy"}], "variants": {}},
              "history": [], "question": None, "held": None, "unstepped": [], "started": 0, "clock_from": 0}
    write_events(tmp_path / "s", [GameSoFar(t=1, game=so_far)])
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(tmp_path / "r"))
    assert "\x1b" not in out + err
    assert "the game so far could not be played: a player's name cannot hold control" in out, (code, out, err)
    assert Journal(tmp_path / "r").games() == [], "nothing of it was journaled"


def test_a_recording_of_a_game_an_older_companion_began_with_a_text_direction_mark_replays(tmp_path, run_cli):
    """Names with invisible or text-direction characters are refused for new games (ea524ba), but older
    companions let them in, and their games resume: a recording of such a game, which opens with its game so
    far, replays."""
    from companion.events import GameSoFar

    so_far = {"game": "mountain-goats", "setup": {"players": [{"name": "Ben\u200e"}, {"name": "Cy"}], "variants": {}},
              "history": [], "question": None, "held": None, "unstepped": [], "started": 0, "clock_from": 0}
    write_events(tmp_path / "s", [GameSoFar(t=1, game=so_far)])
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(tmp_path / "r"))
    assert code == 0 and "could not be played" not in out and "Mountain Goats, 0 steps" in out, (code, out, err)


def test_a_recording_an_older_companion_started_with_a_pasted_or_text_direction_name_replays(tmp_path, run_cli):
    """A recording made by an older companion, which let any invisible character into a name, opens with the
    page's start: its replay was refused at that start, and every step after it with "no game". The invisible
    characters a name loses without harm are taken out, as they are now at the table; those that turn text
    around, which a new game refuses, stay as the game was played."""
    from companion.events import PlayerAction

    start = {"do": "start", "game": "mountain-goats", "players": [{"name": "\u202eBen"}, {"name": "\ufeffCy\u200e"}]}
    write_events(tmp_path / "s", [PlayerAction(t=1, action=start)])
    code, out, err = run_cli("replay", str(tmp_path / "s"), "--fast", "--state-dir", str(tmp_path / "r"))
    assert code == 0 and "hidden character" not in out and "Mountain Goats, 0 steps" in out, (code, out, err)
    assert [[p["name"] for p in row["setup"]["players"]] for row in Journal(tmp_path / "r").games()] == \
        [["\u202eBen", "Cy"]]


def test_a_recording_of_a_game_set_aside_and_picked_up_replays_its_open_question(tmp_path):
    """A squeak asked about, the game set aside for another and picked up again while recording: the replay asks the
    same question on the same game, as the family saw it."""
    from companion.events import BananaSqueaked

    players = [{"name": "Ada"}, {"name": "Ben"}]
    recorder = EventRecorder(tmp_path / "rec")
    table = Table(Journal(tmp_path / "live"), tap=recorder).start()
    try:
        assert table.request({"do": "start", "game": "banana-matcho", "players": players}, t=1).ok
        assert table.request({"do": "dice", "values": ["coconut"] * 4 + ["papaya"] * 2 + ["matcho", "blank", "blank"]},
                             t=2).ok
        assert table.submit(BananaSqueaked(t=20)).result(5).ok
        assert table.request({"do": "start", "game": "mountain-goats", "players": players}, t=30).ok
        assert table.request({"do": "resume", "game_id": 1}, t=40).ok
        live = table.view()
    finally:
        table.stop()
        table.journal.close()
        recorder.close()
    assert live["question"] and live["question"]["kind"] == "squeak", live["question"]
    view, rejected = replay_into(tmp_path, "replayed", read_events(tmp_path / "rec"))
    assert rejected == []
    assert view["question"] == live["question"] and view["game"]["history"] == live["game"]["history"]


def test_replay_serve_listens_on_the_host_given_as_serve_does(tmp_path, run_cli):
    """`--host 0.0.0.0` shows a replay on a phone at the table; the page was on 127.0.0.1 only."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    from tests.conftest import NO_SETTINGS

    code, out, _ = run_cli("replay", "--help")
    assert code == 0 and "--host HOST" in " ".join(out.split()) and "address to listen on" in out
    write_events(tmp_path / "s", playout("magic-mountain", 1)[0])
    command = [sys.executable, "-m", "companion", "replay", str(tmp_path / "s"), "--serve", "--host", "127.0.0.2",
               "--port", "0"]
    replaying = subprocess.Popen(command, env={**os.environ, "COMPANION_SETTINGS": str(NO_SETTINGS)},
                                 stderr=subprocess.PIPE, text=True)
    try:
        said = replaying.stderr.readline()
        assert said.startswith("watch the replay on http://127.0.0.2:"), said + replaying.stderr.read()
        url = said.split()[-1]
        with urllib.request.urlopen(url + "api/games", timeout=10) as reply:
            assert reply.status == 200
        with pytest.raises(OSError):  # only the address given
            urllib.request.urlopen(url.replace("127.0.0.2", "127.0.0.1") + "api/games", timeout=10)
    finally:
        replaying.send_signal(signal.SIGINT)
        replaying.wait(20)
