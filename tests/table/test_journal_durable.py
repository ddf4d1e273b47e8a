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
