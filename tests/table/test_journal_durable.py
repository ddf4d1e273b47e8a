"""A power cut loses nothing: each step the journal records is on the card when the record call returns.
With WAL, SQLite syncs the log at every commit only with synchronous=FULL; NORMAL or OFF lose the last steps."""
from companion.table.journal import Journal

FULL = 2  # PRAGMA synchronous's answer for FULL


def test_the_journal_is_durable_as_its_docstring_says(tmp_path):
    journal = Journal(tmp_path)
    try:
        assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == FULL
    finally:
        journal.close()


def test_a_new_state_directory_is_named_on_the_card_before_its_first_game(tmp_path, monkeypatch):
    """SQLite syncs the folder its journal is in, not the folder holding that one: the first evening's games in a
    new --state-dir would be lost with the folder's name by a power cut."""
    import os

    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real(fd))[1])
    journal = Journal(tmp_path / "games" / "state")
    journal.close()
    assert str(tmp_path / "games") in synced and str(tmp_path) in synced, synced
