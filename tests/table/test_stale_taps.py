"""Taps sent with the game situation the page showed (`seen`): two phones tapping at once, or a tap that
arrives after the camera read a roll, never play twice or into the next player's turn."""
from __future__ import annotations

import pytest

from companion.events import DiceSettled, DieReading
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import EventRecorder, read_events, replay

START = {"do": "start", "game": "fake-race", "players": [{"name": "Ada"}, {"name": "Ben"}]}
GOATS = {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]}
MOVED_ON = "the game moved on before your tap arrived"


def roll(t, *values):
    return DiceSettled(t=t, dice=tuple(DieReading(v, (10.0 * i, 10.0), (0.0, 0.0, 9.0, 9.0), 0.99)
                                       for i, v in enumerate(values)))


@pytest.fixture
def table(tmp_path):
    table = Table(Journal(tmp_path)).start()
    yield table
    table.stop()


def race_rolled(table) -> None:
    """A race on Ada's turn: she rolled 3 and 4."""
    assert table.request(START).ok
    assert table.submit(roll(1, 3, 4)).result(5).ok


def goats_with_a_kept_roll(table) -> None:
    """Mountain Goats: Ada's roll of 1 2 3 4 taken, then Ben's read before she tapped her move: kept."""
    assert table.request(GOATS).ok
    assert table.request({"do": "dice", "values": [1, 2, 3, 4]}).ok
    assert table.submit(roll(5, 5, 5, 6, 6)).result(5).ok


def test_two_phones_tapping_at_once_play_once_and_undo_once(table):
    race_rolled(table)
    seen = table.view()["step"]
    first = table.request({"do": "play", "action": {"kind": "pass"}, "seen": seen})
    second = table.request({"do": "play", "action": {"kind": "pass"}, "seen": seen})
    assert first.ok and not second.ok and second.message.startswith(MOVED_ON)
    game = table.view()["game"]
    assert [step["text"] for step in game["history"]] == ["Rolled 3 and 4", "Pass"]

    seen = table.view()["step"]
    assert table.request({"do": "undo", "seen": seen}).ok
    assert not table.request({"do": "undo", "seen": seen}).ok, "one undo tapped on two phones undoes one step"
    assert len(table.view()["game"]["history"]) == 1


def test_a_correction_tapped_while_the_camera_read_the_next_roll_is_refused(table):
    race_rolled(table)
    assert table.request({"do": "play", "action": {"kind": "pass"}}).ok
    seen = table.view()["step"]  # the page shows Ada's roll of 3 and 4
    assert table.submit(roll(2, 6, 6)).result(5).ok  # Ben rolls before the tap arrives
    late = table.request({"do": "correct", "index": 0, "value": 5, "seen": seen})
    assert not late.ok and late.message.startswith(MOVED_ON)
    assert table.view()["game"]["last_reading"]["values"] == [6, 6]
    fresh = table.request({"do": "correct", "index": 0, "value": 5, "seen": table.view()["step"]})
    assert fresh.ok and table.view()["game"]["last_reading"]["values"] == [5, 6]


def test_what_does_not_change_the_game_keeps_a_tap_valid(table):
    from companion.events import CameraHealth

    race_rolled(table)
    seen = table.view()["step"]
    assert table.submit(CameraHealth(t=2, state="lost", message="cannot open USB camera 0")).result(5).ok
    assert table.view()["step"] == seen
    assert table.request({"do": "play", "action": {"kind": "pass"}, "seen": seen}).ok
    assert table.request({"do": "undo"}).ok, "a request without `seen` (a script) is taken as it comes"
    assert not table.request({"do": "undo", "seen": 7}).ok


def test_a_recorded_session_with_a_refused_late_tap_replays_to_the_same_game(tmp_path):
    recorder = EventRecorder(tmp_path / "session")
    table = Table(Journal(tmp_path / "live"), tap=recorder).start()
    try:
        race_rolled(table)
        seen = table.view()["step"]
        assert table.request({"do": "play", "action": {"kind": "pass"}, "seen": seen}).ok
        assert not table.request({"do": "play", "action": {"kind": "pass"}, "seen": seen}).ok
        table.submit(roll(2, 2, 5)).result(5)
        assert table.request({"do": "play", "action": {"kind": "move", "steps": 5},
                              "seen": table.view()["step"]}).ok
        live = table.view()["game"]
    finally:
        table.stop()
        recorder.close()
    again = Table(Journal(tmp_path / "again")).start()
    try:
        replay(read_events(tmp_path / "session"), again, fast=True)
        assert again.view()["game"]["state"] == live["state"]
        assert again.view()["game"]["history_count"] == live["history_count"] == 4
    finally:
        again.stop()


def test_two_phones_undoing_a_kept_roll_at_once_take_back_the_roll_only(table):
    """Mountain Goats: Ben's roll, read before Ada tapped her move, is kept; both phones tap Undo on the same
    page. The first drops the kept roll; the second is refused, not taken as an undo of Ada's roll."""
    goats_with_a_kept_roll(table)
    assert "kept" in table.view()["notice"]
    seen, steps = table.view()["step"], table.view()["game"]["history_count"]
    first = table.request({"do": "undo", "seen": seen})
    second = table.request({"do": "undo", "seen": seen})
    assert first.ok and not second.ok and second.message.startswith(MOVED_ON)
    assert table.view()["game"]["history_count"] == steps, "Ada's roll stays"


def test_an_older_version_playing_on_leaves_undo_nothing_stale_to_take_back(tmp_path):
    """A journal written by this version, played on by an older one (a family going back a version), then opened
    by this one again: what this version kept for undo is forgotten once anything was journaled after it. The
    older version, which does not know it, undid Ada's roll and dropped the kept one; Undo now has nothing left,
    not a kept roll to bring back for a game that has moved on."""
    table = Table(Journal(tmp_path)).start()
    try:
        goats_with_a_kept_roll(table)
        game_id = table.game.id
    finally:
        table.stop()
        table.journal.close()
    older = Journal(tmp_path)
    with older.transaction() as tx:  # the older version's Undo: the step taken back, the kept roll dropped
        tx.undo(game_id, 6)
        tx.clear_meta("held")
    older.close()
    table = Table(Journal(tmp_path)).start()
    try:
        game = table.view()["game"]
        assert game["history_count"] == 0 and not game["can_undo"]
        refused = table.request({"do": "undo"})
        assert not refused.ok and "nothing to undo" in refused.message
    finally:
        table.stop()


def test_a_tap_sent_with_the_step_as_pages_named_it_before_undo_counted_questions_is_played(table):
    """The page's step token now also counts what undo can take back with no step (a question asked, an event
    kept). Recordings made before carry the token without it: their answer to a question must still play (the
    replay of an old recording ended a step short), while an Undo needs the token that counts it."""
    from companion.table.view import step_token

    assert table.request(GOATS).ok
    unsure = tuple(DieReading(v, (40.0 * i, 10.0), (0, 0, 9, 9), 0.9, unsure=not i)
                   for i, v in enumerate([1, 2, 3, 4]))
    table.submit(DiceSettled(t=1, dice=unsure)).result(5)
    view = table.view()
    assert view["question"] is not None, view["notice"]
    as_before = step_token(view["game"], view["question"])
    assert as_before != view["step"]
    undo = table.request({"do": "undo", "seen": as_before})
    assert not undo.ok and undo.message.startswith(MOVED_ON)
    answer = table.request({"do": "dice", "values": [1, 2, 3, 4], "seen": as_before})
    assert answer.ok, answer.message
    assert table.view()["game"]["history_count"] == 1
