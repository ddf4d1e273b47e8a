"""A journal this version wrote, played on by an older companion (a family that went back to an older release
and then updated again), then opened here again: what this version kept in the journal's meta and the older
one never knew (a roll kept for a tap) must not be played into the game the older one moved on."""
from __future__ import annotations

import json
import sqlite3

from companion.table.journal import Journal
from companion.table.owner import Table
from tests.table.test_matterhorn_roll_again import rolled

PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]


def goats_with_a_kept_roll(folder):
    """Ada to move on 2 3 5 6, Ben's roll 4 4 1 3 already read and kept until she taps her move."""
    table = Table(Journal(folder)).start()
    assert table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS}).ok
    assert table.submit(rolled(2, 3, 5, 6)).result(5).ok
    assert "4 4 1 3 is kept" in table.submit(rolled(4, 4, 1, 3)).result(5).message
    table.stop()
    table.journal.close()


def an_older_version_plays(folder, *steps):
    """Steps journaled as a companion from before kept rolls writes them: ops rows, the meta left alone."""
    db = sqlite3.connect(folder / Journal.FILE_NAME)
    with db:
        for action, text in steps:
            db.execute("INSERT INTO ops(game_id, op, data, t) VALUES (1, 'apply', ?, 7)",
                       (json.dumps({"action": action, "info": {"text": text}}),))
    db.close()


def an_older_version_starts_a_game(folder):
    """Game 2 started as a companion from before kept rolls starts one: its row and current_game, nothing else."""
    db = sqlite3.connect(folder / Journal.FILE_NAME)
    with db:
        db.execute("INSERT INTO games(game, setup, started_t) VALUES ('mountain-goats', ?, 9)",
                   (json.dumps({"players": PLAYERS, "variants": {}}),))
        db.execute("UPDATE meta SET value='2' WHERE key='current_game'")
    db.close()


def test_a_roll_kept_here_is_not_played_after_an_older_version_played_on(tmp_path):
    goats_with_a_kept_roll(tmp_path)
    an_older_version_plays(tmp_path, ({"kind": "move", "steps": [], "big": []}, "No move: pass"),
                           ({"kind": "roll", "dice": [6, 6, 6, 6]}, "Dice 6, 6, 6, 6"),
                           ({"kind": "move", "steps": [], "big": []}, "No move: pass"))
    again = Table(Journal(tmp_path)).start()
    try:
        view = again.view()
        texts = [step["text"] for step in view["game"]["history"]]
        assert texts == ["Dice 2, 3, 5, 6", "No move: pass", "Dice 6, 6, 6, 6", "No move: pass"], \
            "the roll kept before the older version played on is a roll nobody made now"
        assert view["game"]["state"]["dice"] is None, "Ada rolls next"
        assert "4 4 1 3" in view["notice"] and "not played" in view["notice"], view["notice"]
    finally:
        again.stop()
        again.journal.close()
    third = Table(Journal(tmp_path)).start()
    try:
        assert third.view()["notice"] == "", "said once, not at every start"
    finally:
        third.stop()


def test_a_roll_kept_here_is_not_played_into_a_game_an_older_version_started(tmp_path):
    goats_with_a_kept_roll(tmp_path)
    an_older_version_starts_a_game(tmp_path)
    again = Table(Journal(tmp_path)).start()
    try:
        assert again.view()["game"]["history"] == [], "the new game's first roll is still to come"
    finally:
        again.stop()
        again.journal.close()


def test_a_roll_kept_still_waits_after_a_restart_of_this_version(tmp_path):
    goats_with_a_kept_roll(tmp_path)
    again = Table(Journal(tmp_path)).start()
    try:
        assert "4 4 1 3" in again.view()["notice"] and "kept" in again.view()["notice"]
        assert again.request({"do": "play", "action": {"kind": "move", "steps": [], "big": []}}).ok
        assert again.view()["game"]["history"][-1]["text"] == "Dice 4, 4, 1, 3"
    finally:
        again.stop()
        again.journal.close()


def test_undo_in_a_game_an_older_version_started_takes_back_nothing_of_the_game_before(tmp_path):
    goats_with_a_kept_roll(tmp_path)
    an_older_version_starts_a_game(tmp_path)
    again = Table(Journal(tmp_path)).start()
    try:
        outcome = again.request({"do": "undo"})
        assert not outcome.ok and "Undone" not in again.view()["notice"], (outcome.message, again.view()["notice"])
    finally:
        again.stop()
        again.journal.close()



def banana_set_aside_with_its_squeak_asked(folder):
    """Banana Matcho (game 1), its duel typed and the squeak asked about, set aside for Mountain Goats (game 2)."""
    from companion.events import BananaSqueaked

    table = Table(Journal(folder)).start()
    assert table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS}).ok
    assert table.request({"do": "dice", "values": ["coconut"] * 4 + ["papaya"] * 2 + ["matcho", "blank", "blank"]}).ok
    assert table.submit(BananaSqueaked(t=20)).result(5).ok
    assert table.view()["question"] is not None
    assert table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS}).ok
    table.stop()
    table.journal.close()


def an_older_version_picks_up_game_1(folder):
    """As a companion from before games kept their own table picks a game up: current_game, the table's meta
    cleared."""
    db = sqlite3.connect(folder / Journal.FILE_NAME)
    with db:
        db.execute("UPDATE meta SET value='1' WHERE key='current_game'")
        db.execute("DELETE FROM meta WHERE key IN ('question', 'held', 'unstepped', 'early_balls')")
    db.close()


def test_a_squeak_asked_about_in_a_game_set_aside_is_not_asked_after_an_older_version_played_it_on(tmp_path):
    """An older companion, which keeps no question with a game set aside, picked the game up and took back the typed
    duel, then went back to Mountain Goats. Picked up here, the squeak is not asked about again: the dice it was
    asked on are gone."""
    banana_set_aside_with_its_squeak_asked(tmp_path)
    db = sqlite3.connect(tmp_path / Journal.FILE_NAME)
    with db:  # as an older companion undoes: an ops row
        db.execute("INSERT INTO ops(game_id, op, data, t) VALUES (1, 'undo', '{}', 30)")
    db.close()
    again = Table(Journal(tmp_path)).start()
    try:
        assert again.request({"do": "resume", "game_id": 1}).ok
        view = again.view()
        assert view["game"]["history"] == [] and view["question"] is None, view["question"]
        assert not again.request({"do": "undo"}).ok, "nothing was played: nothing to undo"
    finally:
        again.stop()
        again.journal.close()


def test_a_game_an_older_version_picked_up_without_its_question_is_picked_up_here_without_it(tmp_path):
    """The older companion showed the game with no question; opened here, it is set aside as it was shown: picking
    it up again does not bring back the question it had before."""
    banana_set_aside_with_its_squeak_asked(tmp_path)
    an_older_version_picks_up_game_1(tmp_path)
    again = Table(Journal(tmp_path)).start()
    try:
        assert again.view()["game"]["id"] == 1 and again.view()["question"] is None
        assert again.request({"do": "resume", "game_id": 2}).ok
        assert again.request({"do": "resume", "game_id": 1}).ok
        assert again.view()["question"] is None, "a question the family no longer saw came back"
    finally:
        again.stop()
        again.journal.close()
