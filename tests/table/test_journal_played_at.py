"""The journal keeps when each game was last played on the wall clock, for the page's "pick up" list."""
from __future__ import annotations

import sqlite3
import time

from companion.table.journal import Journal

SETUP = {"players": [{"name": "A", "colour": "red"}, {"name": "B", "colour": "blue"}], "variants": {}}


def old_journal(folder, more_sql=""):
    """A journal of version 1 as it was before the column played_at, holding one Matterhorn game."""
    with sqlite3.connect(folder / "journal.sqlite3") as db:
        db.executescript("""
            CREATE TABLE games(id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, setup TEXT NOT NULL,
                               started_t INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0, result TEXT);
            CREATE TABLE ops(seq INTEGER PRIMARY KEY AUTOINCREMENT, game_id INTEGER NOT NULL, op TEXT NOT NULL,
                             data TEXT NOT NULL, t INTEGER NOT NULL);
            CREATE TABLE events(seq INTEGER PRIMARY KEY AUTOINCREMENT, game_id INTEGER, data TEXT NOT NULL);
            CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
            PRAGMA user_version=1;
            INSERT INTO games(game, setup, started_t) VALUES ('matterhorn', '{"players": [], "variants": {}}', 5);
            """ + more_sql)


def test_a_journal_from_before_played_at_opens_and_says_when_games_are_played_from_now_on(tmp_path):
    old_journal(tmp_path, "INSERT INTO ops(game_id, op, data, t) VALUES (1, 'apply', '{}', 6);")
    journal = Journal(tmp_path)
    try:
        assert [(g["id"], g["steps"], g["played_at"]) for g in journal.unfinished_games()] == [(1, 1, None)]
        with journal.transaction() as tx:
            empty = tx.new_game("matterhorn", SETUP, 7)
            played = tx.new_game("matterhorn", SETUP, 8)
            tx.apply(played, {"do": "x"}, {}, 9)
            tx.apply(played, {"do": "y"}, {}, 10)
            tx.undo(played, 11)
        rows = journal.unfinished_games()
        assert [(g["id"], g["steps"]) for g in rows] == [(played, 1), (1, 1)], "last played first, no empty game"
        assert abs(rows[0]["played_at"] - time.time()) < 60
        assert journal.game(empty)["steps"] == 0
    finally:
        journal.close()


class FullDisk:
    """A connection on a card with no room: every write fails as SQLite says it, ALTER counted as the write it is."""

    def __init__(self, real):
        self.real = real

    def execute(self, sql, *args):
        if sql.lstrip().upper().startswith(("INSERT", "ALTER", "UPDATE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_journal_from_before_played_at_still_opens_on_a_full_card(tmp_path, monkeypatch):
    """Every family's journal is altered at its first start after the update; on a full card the games open all
    the same (the column is added at a later start), as a full card's journal always did."""
    old_journal(tmp_path)
    connect = Journal._connect
    monkeypatch.setattr(Journal, "_connect", lambda self: FullDisk(connect(self)))
    journal = Journal(tmp_path)
    try:
        assert [game["played_at"] for game in journal.games()] == [None]
    finally:
        journal.close()
