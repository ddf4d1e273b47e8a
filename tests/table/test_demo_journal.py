"""The embedded demo plays its games for ever: its journal stays flat, and its speed setting speeds up all of it."""
from __future__ import annotations

import sqlite3

from companion.table.demo import DemoPlayer
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.table.recording import write_events
from companion.table.sessions import generate
from tests.waiting import came


def short_session(tmp_path):
    directory = tmp_path / "banana-matcho"
    write_events(directory, generate("banana-matcho", 12, 2))  # a short game: a few dozen events
    return directory


def play_until(journal, games, tmp_path, **options) -> bool:
    """Plays the demo until its `games`-th game has started, for at most a generous minute."""
    table = Table(journal).start()
    player = DemoPlayer(table, [short_session(tmp_path)], **options).start()
    try:
        return came(lambda: (journal.games(limit=1) or [{"id": 0}])[0]["id"] >= games, 60, every=0.02)
    finally:
        player.stop()
        table.stop()


def test_the_pause_between_demo_games_follows_the_speed(tmp_path):
    journal = Journal(tmp_path / "journal")
    try:
        assert play_until(journal, 2, tmp_path, speed=1e6, pause_s=600), "the next game waited the unscaled 10 minutes"
    finally:
        journal.close()


def test_the_demo_journal_stays_flat_however_long_it_plays(tmp_path):
    journal = Journal(tmp_path / "journal")
    try:
        assert play_until(journal, 8, tmp_path, speed=1e6, pause_s=0.001)
    finally:
        journal.close()
    with sqlite3.connect(journal.path) as db:
        games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        stray = [db.execute(f"SELECT COUNT(*) FROM {table} WHERE game_id NOT IN (SELECT id FROM games)").fetchone()[0]
                 for table in ("ops", "events")]
    assert games <= 3, "the game in play, the one just played, and the one before it at most"
    assert stray == [0, 0], "the steps and events of the games forgotten went with them"


def test_forgetting_finished_games_keeps_the_newest_the_current_and_the_unfinished(tmp_path):
    journal = Journal(tmp_path)
    try:
        with journal.transaction() as tx:
            ids = [tx.new_game("matterhorn", {"players": []}, 0) for _ in range(5)]
            for game_id in ids[:2] + ids[3:]:
                tx.apply(game_id, {"kind": "x"}, {}, 0)
                tx.finish(game_id, None)
            tx.set_meta("current_game", str(ids[0]))
        assert journal.forget_finished_games(keep=1) == 2
        assert [g["id"] for g in journal.games()] == [ids[4], ids[2], ids[0]]
        assert journal.path.with_name(journal.path.name + "-wal").stat().st_size == 0
    finally:
        journal.close()
