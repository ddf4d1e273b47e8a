"""Matterhorn's "roll again or stop?" answered at the table: rolling the dice left is rolling again
(rulebook §4.1), so the camera's roll plays both; a roll of all five dice is not this player's."""
from __future__ import annotations

import itertools

import pytest

from companion.events import DiceSettled, DieReading
from companion.table.journal import Journal
from companion.table.owner import Table

TIMES = itertools.count(1_000_000_000, 1_000_000_000)


def rolled(*values, unsure=()):
    return DiceSettled(t=next(TIMES), dice=tuple(DieReading(v, (30.0 * i, 10.0), (0.0, 0.0, 20.0, 20.0), 0.97,
                                                            unsure=i in unsure) for i, v in enumerate(values)))


def legal(table):
    return [entry["action"] for entry in table.view()["game"]["legal"]]


def phase(table):
    return table.view()["game"]["state"]["phase"]


@pytest.fixture
def deciding(tmp_path):
    """A Matterhorn turn at "roll again or stop?" with 3 dice left (two 6s eliminated onto line 8)."""
    table = Table(Journal(tmp_path)).start()
    assert table.request({"do": "start", "game": "matterhorn", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    table.submit(rolled(6)).result(5)
    table.submit(rolled(1)).result(5)
    while phase(table) == "setup_place":
        assert table.request({"do": "play", "action": legal(table)[0]}).ok
    assert table.submit(rolled(6, 6, 5, 1, 2)).result(5).ok
    assert table.request({"do": "play", "action": next(a for a in legal(table) if a.get("dice") == [6, 6])}).ok
    assert table.request({"do": "play", "action": legal(table)[0]}).ok
    while phase(table) == "bonus":
        assert table.request({"do": "play", "action": {"kind": "end_moves"}}).ok
    assert phase(table) == "decide" and {a["kind"] for a in legal(table)} >= {"roll_again", "stop"}
    yield table
    table.stop()


def texts(table, last):
    return [step["text"] for step in table.view()["game"]["history"][-last:]]


def test_rolling_the_dice_left_is_rolling_again(deciding, tmp_path):
    table = deciding
    assert table.submit(rolled(1, 2, 6)).result(5).ok
    assert texts(table, 2) == ["Roll again: 3 dice", "Rolled 1 2 6"]
    assert table.view()["game"]["last_reading"]["values"] == [1, 2, 6]
    assert table.request({"do": "correct", "index": 2, "value": 4}).ok, "the camera's roll can be corrected"
    assert texts(table, 2) == ["Roll again: 3 dice", "Rolled 1 2 4"]
    table.stop()
    table.journal.close()
    again = Table(Journal(tmp_path)).start()
    try:
        assert again.view()["game"]["last_reading"]["values"] == [1, 2, 4]
        assert again.request({"do": "correct", "index": 0, "value": 3}).ok, "and corrected after a restart"
        assert texts(again, 2) == ["Roll again: 3 dice", "Rolled 3 2 4"]
    finally:
        again.stop()


def test_all_five_dice_rolled_are_not_this_players_roll(deciding):
    table = deciding
    before = table.view()["game"]["history_count"]
    table.submit(rolled(1, 2, 3, 4, 5)).result(5)
    assert phase(table) == "decide" and table.view()["game"]["history_count"] == before
    assert table.view()["notice"] == "a roll was read, but the game is not waiting for dice"


def test_a_roll_again_that_cannot_be_read_rolls_again_and_asks(deciding, tmp_path):
    table = deciding
    table.submit(rolled(1, 2, 6, unsure=(1,))).result(5)
    view = table.view()
    assert texts(table, 1) == ["Roll again: 3 dice"]
    assert "not sure about die 2" in view["question"]["text"]
    table.stop()
    table.journal.close()
    again = Table(Journal(tmp_path)).start()  # the question is kept with the step that asked it
    try:
        assert again.view()["question"] == view["question"]
        assert again.request({"do": "dice", "values": [1, 3, 6]}).ok
        assert texts(again, 1) == ["Rolled 1 3 6"] and again.view()["question"] is None
    finally:
        again.stop()
