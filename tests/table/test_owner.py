"""The owner thread: commands and camera reads in, durable state out; restarts resume exactly."""
from __future__ import annotations

import sqlite3

import pytest

from companion.events import CameraHealth, DiceSettled, DieReading
from companion.table.journal import Journal
from companion.table.owner import Table
from tests.table.test_journal_damage import CommitFails


def die(value, unsure=False):
    return DieReading(value=value, center=(10.0, 10.0), box=(0.0, 0.0, 20.0, 20.0), confidence=0.9, unsure=unsure)


def settled(t, *values, unsure=()):
    return DiceSettled(t=t, dice=tuple(die(v, i in unsure) for i, v in enumerate(values)))


PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]
START = {"do": "start", "game": "fake-race", "players": [{"name": "Ada", "colour": "red"}, {"name": "Ben"}]}


@pytest.fixture
def table(tmp_path):
    t = Table(Journal(tmp_path)).start()
    yield t
    t.stop()


def restart(table: Table, tmp_path) -> Table:
    table.stop()
    table.journal.close()
    return Table(Journal(tmp_path)).start()


def test_a_settled_roll_becomes_the_chance_outcome(table):
    assert table.request(START).ok
    outcome = table.submit(settled(5, 3, 4)).result(5)
    assert outcome.ok
    view = table.view()["game"]
    assert view["prompt"] == "Move or pass?"
    assert [a["text"] for a in view["legal"]] == ["Move 3 forward", "Move 4 forward", "Pass"]
    assert view["last_reading"]["values"] == [3, 4]
    assert view["history"][-1]["text"] == "Rolled 3 and 4"


def test_unsure_dice_and_wrong_counts_ask_instead_of_guessing(table):
    table.request(START)
    table.submit(settled(5, 3, 4, unsure=(1,))).result(5)
    view = table.view()
    assert view["game"]["history"] == []
    assert "not sure about die 2" in view["question"]["text"]
    table.submit(settled(6, 3, 4, 5)).result(5)
    assert "3 dice but expected 2" in table.view()["question"]["text"]
    assert table.request({"do": "dice", "values": [3, 2]}).ok
    assert table.view()["question"] is None
    assert table.view()["game"]["history"][-1]["text"] == "Rolled 3 and 2"


def test_an_illegal_action_is_rejected_with_the_engines_message_and_changes_nothing(table):
    table.request(START)
    table.submit(settled(5, 3, 4)).result(5)
    before = table.view()
    outcome = table.request({"do": "play", "action": {"kind": "move", "steps": 6}})
    assert not outcome.ok and "cannot be played now" in outcome.message
    assert table.view() is before
    bad = table.request({"do": "play", "action": {"kind": "fly"}})
    assert not bad.ok and "unknown action kind 'fly'" in bad.message


def test_malformed_commands_are_refused_with_a_message(table):
    assert "unknown request" in table.request({"do": "explode"}).message
    assert "no game in progress" in table.request({"do": "undo"}).message
    assert "needs the field 'players'" in table.request({"do": "start", "game": "fake-race"}).message
    assert "unknown game" in table.request({**START, "game": "chess"}).message
    twice = table.request({**START, "players": [{"name": "Ada 🐐"}, {"name": "Ben"}, {"name": "Ada 🐐"}]})
    assert twice.message == "player names must differ; given more than once: Ada 🐐"
    for name in ("Ada\x00", "Ben\ud800", "Cy\n"):  # a lone surrogate cannot even be printed or stored as UTF-8
        refused = table.request({**START, "players": [{"name": name}, {"name": "Dee"}]})
        assert refused.message.startswith("a player's name cannot hold control characters"), name
    assert table.request({**START, "players": [{"name": "Ada 👩\u200d👧"}, {"name": "Ben"}]}).ok, "emoji joiners stay"


def test_undo_and_correcting_a_misread_die(table):
    table.request(START)
    table.submit(settled(5, 3, 4)).result(5)
    table.request({"do": "play", "action": {"kind": "move", "steps": 4}})
    assert table.view()["game"]["scores"] == [4, 0]
    # the camera read a 4 that was really a 6: the move that followed is replayed only if still legal
    assert table.request({"do": "correct", "index": 1, "value": 6}).ok
    game = table.view()["game"]
    assert game["last_reading"]["values"] == [3, 6]
    assert game["scores"] == [0, 0] and game["prompt"] == "Move or pass?"
    table.request({"do": "play", "action": {"kind": "move", "steps": 6}})
    assert table.view()["game"]["scores"] == [6, 0]
    assert table.request({"do": "undo"}).ok
    assert table.view()["game"]["scores"] == [0, 0]
    assert not table.request({"do": "correct", "index": 5, "value": 1}).ok


def test_a_restart_resumes_exactly_where_the_game_was(table, tmp_path):
    table.request(START)
    for t, (a, b, steps) in enumerate([(3, 4, 4), (2, 2, 2), (6, 1, 6)]):
        table.submit(settled(t, a, b)).result(5)
        table.request({"do": "play", "action": {"kind": "move", "steps": steps}})
    table.request({"do": "undo"})
    table.submit(settled(9, 5, 5, unsure=(0,))).result(5)
    before = table.view()
    again = restart(table, tmp_path)
    try:
        after = again.view()
        assert after["game"]["state"] == before["game"]["state"]
        assert after["game"]["history"] == before["game"]["history"]
        assert after["question"] == before["question"]
        assert after["game"]["last_reading"] == before["game"]["last_reading"]
    finally:
        again.stop()


def test_finished_games_are_kept_for_history(table):
    table.request(START)
    turn = 0
    while not table.view()["game"]["over"]:
        table.submit(settled(turn, 6, 6)).result(5)
        table.request({"do": "play", "action": {"kind": "move", "steps": 6}})
        turn += 1
    game = table.view()["game"]
    assert game["winners"] == [0] and game["legal"] == []
    rows = table.journal.games()
    assert rows[0]["finished"] and rows[0]["result"] == {"scores": [12, 6], "winners": [0]}
    assert table.request({"do": "end"}).ok and table.view()["game"] is None
    assert table.journal.games()[0]["result"] == {"scores": [12, 6], "winners": [0]}, "ending it keeps who won"


def test_health_events_reach_the_view_and_listeners_hear_every_change(table):
    seen = []
    table.listen(lambda view: seen.append(view["version"]))
    table.submit(CameraHealth(t=1, state="missing", message="no camera: check the cable")).result(5)
    assert table.view()["health"]["camera"]["state"] == "missing"
    table.request(START)
    assert seen == sorted(seen) and len(seen) == 2


def test_the_loop_reports_it_is_alive(tmp_path):
    beats = []
    table = Table(Journal(tmp_path), on_loop=lambda: beats.append(1), loop_seconds=0.01).start()
    try:
        table.request(START)
        assert beats
    finally:
        table.stop()


def test_a_new_game_leaves_the_old_one_to_pick_up_later(table):
    table.request(START)
    first = table.view()["game"]["id"]
    table.submit(settled(5, 3, 4)).result(5)
    table.request({**START, "players": [{"name": "Cleo"}, {"name": "Dan"}]})
    assert table.view()["game"]["id"] != first
    assert table.request({"do": "resume", "game_id": first}).ok
    game = table.view()["game"]
    assert game["id"] == first and game["last_reading"]["values"] == [3, 4]
    assert "no game number 99" in table.request({"do": "resume", "game_id": 99}).message


def test_undoing_the_winning_move_reopens_the_game(table):
    table.request(START)
    for turn in range(4):
        table.submit(settled(turn, 6, 6)).result(5)
        table.request({"do": "play", "action": {"kind": "move", "steps": 6}})
    assert table.view()["game"]["over"] and table.journal.games()[0]["finished"]
    table.request({"do": "undo"})
    assert not table.view()["game"]["over"]
    assert not table.journal.games()[0]["finished"]


def test_a_journal_the_engine_cannot_replay_does_not_stop_the_service(tmp_path):
    table = Table(Journal(tmp_path)).start()
    table.request(START)
    table.stop()
    with table.journal.transaction() as tx:
        tx.apply(table.game.id, {"kind": "move", "steps": 99}, {"text": "?"}, 1)
    table.journal.close()
    again = Table(Journal(tmp_path))
    assert again.game is None and "could not be resumed" in again.view()["notice"]
    again.journal.close()


def test_a_state_directory_that_is_a_file_or_cannot_be_made_is_named(tmp_path):
    from companion.table.journal import JournalError

    (tmp_path / "state").write_text("not a folder")
    with pytest.raises(JournalError, match=r"the state directory .*state is a file, not a directory"):
        Journal(tmp_path / "state")
    with pytest.raises(JournalError, match=r"cannot create the state directory .*state/games: Not a directory"):
        Journal(tmp_path / "state" / "games")


def test_a_full_disk_refuses_the_step_in_plain_words_and_the_game_goes_on_once_there_is_room(table, tmp_path):
    """SQLite's own limit stands in for a full memory card: it fails the same way ("database or disk is full")."""
    assert table.request(START).ok
    pages = table.journal._db.execute("PRAGMA page_count").fetchone()[0]
    table.journal._db.execute(f"PRAGMA max_page_count = {pages + 1}")
    steps = [{"do": "dice", "values": [3, 4]}, {"do": "play", "action": {"kind": "pass"}}] * 30
    for number, step in enumerate(steps):
        outcome = table.request(step)
        if not outcome.ok:
            break
        saved = len(table.view()["game"]["history"])
    else:
        raise AssertionError("the journal never filled up")
    assert outcome.message.startswith("not saved, so not played: no room left where the games are kept")
    assert len(table.view()["game"]["history"]) == saved, "the refused step is not shown either"
    table.journal._db.execute("PRAGMA max_page_count = 1073741823")
    assert table.request(steps[number]).ok
    again = restart(table, tmp_path)
    try:
        assert len(again.view()["game"]["history"]) == saved + 1
    finally:
        again.stop()


def test_a_damaged_journal_is_named_with_what_to_do(tmp_path):
    from companion.table.journal import JournalError

    (tmp_path / "journal.sqlite3").write_bytes(b"not a database " * 100)
    with pytest.raises(JournalError, match=r"journal.sqlite3 is damaged \(file is not a database\): move it away"):
        Journal(tmp_path)


def test_a_recording_that_cannot_be_written_stops_and_the_game_goes_on(tmp_path):
    written = []

    def tap(event):
        if len(written) == 2:
            raise OSError(5, "Input/output error")  # a USB stick pulled out
        written.append(event)

    table = Table(Journal(tmp_path), tap=tap).start()
    try:
        assert table.request(START).ok
        assert table.submit(settled(5, 3, 4)).result(5).ok
        assert table.request({"do": "play", "action": {"kind": "pass"}}).ok
        assert table.submit(settled(6, 2, 2)).result(5).ok
        view = table.view()
        assert len(view["game"]["history"]) == 3 and len(written) == 2
        assert view["health"]["recording"] == {
            "state": "error", "message": "the recording stopped ([Errno 5] Input/output error); the game goes on"}
    finally:
        table.stop()


def test_a_journal_from_a_newer_companion_is_refused_and_left_as_it_was(tmp_path):
    """Going back to an older version of the companion (a reinstall) must not misread or rewrite the games."""
    import sqlite3

    from companion.table.journal import SCHEMA_VERSION, JournalError

    table = Table(Journal(tmp_path)).start()
    assert table.request(START).ok
    table.stop()
    table.journal.close()
    path = tmp_path / "journal.sqlite3"
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with pytest.raises(JournalError, match=rf"was written by a newer companion \(journal version "
                                           rf"{SCHEMA_VERSION + 1}; this one reads up to {SCHEMA_VERSION}\): "
                                           "update the companion"):
        Journal(tmp_path)
    assert path.read_bytes() == before
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=0")  # a journal from before journals were stamped
    again = Table(Journal(tmp_path))
    try:
        assert again.view()["game"] is not None, "the game in play is still there"
    finally:
        again.journal.close()


def test_a_camera_roll_the_journal_cannot_keep_is_said_on_the_page_with_what_to_do(table):
    """A tap refused on a full card gets its message back on the phone; a roll the camera read has nobody to
    answer, and the dice lie still in the tray, so the camera does not read them again: the page says it."""
    assert table.request(START).ok
    real = table.journal._db
    table.journal._db = CommitFails(real, "database or disk is full")
    try:
        outcome = table.submit(settled(1, 3, 4)).result(5)
    finally:
        table.journal._db = real
    assert not outcome.ok and "no room" in outcome.message
    view = table.view()
    assert view["game"]["history_count"] == 0, "the roll not saved is not shown as played either"
    assert view["notice"].startswith("The roll the camera read (3 4) was not saved, so not played: no room left")
    assert view["notice"].endswith(". Then type it on the page"), view["notice"]


def test_a_ball_event_that_fails_in_the_owner_thread_is_said_on_the_page(tmp_path, monkeypatch):
    from companion.events import BallEntered
    from companion.table import owner

    def broken(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(owner, "decide", broken)
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        outcome = table.submit(BallEntered(t=5, opening=4)).result(5)
        assert not outcome.ok
        notice = table.view()["notice"]
        assert notice.startswith("The ball that went into opening 4 was not played: internal error: RuntimeError: boom")
        assert "tap its colour and opening on the page" in notice
    finally:
        table.stop()


def test_a_ball_kept_for_its_colour_that_could_not_be_saved_is_not_played_later(tmp_path):
    """The page said the ball was not saved and to tap it: its colour tapped later must not play it too."""
    from companion.events import BallEntered

    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        real = table.journal._db
        table.journal._db = CommitFails(real, "database or disk is full")
        try:
            assert not table.submit(BallEntered(t=5, opening=4)).result(5).ok
        finally:
            table.journal._db = real
        assert "The ball that went into opening 4 was not saved" in table.view()["notice"]
        assert table.request({"do": "dice", "values": ["red"]}).ok
        assert not table.view()["game"]["history"][-1]["text"].endswith("opening 4")
    finally:
        table.stop()
