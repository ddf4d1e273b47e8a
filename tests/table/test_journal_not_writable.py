"""A journal the service's user may read but not write is refused at start, naming the files and the fix."""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.table.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
NOBODY = 65534
PROBE = """import sys
from companion.table.journal import Journal, JournalError
try:
    journal = Journal(sys.argv[1])
except JournalError as exc:
    print('refused:', exc)
    sys.exit(0)
print('opened')
"""


@pytest.fixture
def left_by_root():
    """A games folder as a `sudo companion replay --state-dir ...` killed on it leaves it: the folder, journal
    and lock the service user's, the -wal and -shm files root's."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv to play another user")
    other = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable, "-c",
             "import companion.table.journal"]
    if subprocess.run(other, cwd=ROOT, capture_output=True, timeout=60).returncode != 0:
        pytest.skip(f"user nobody cannot run this checkout's Python from {ROOT} (a folder only root may read)")
    top = Path(tempfile.mkdtemp(prefix="companion-test-"))  # pytest's own tmp folders are root's alone
    source, folder = top / "source", top / "games"
    folder.mkdir()
    journal = Journal(source)
    with journal.transaction() as tx:
        tx.new_game("matterhorn", {"players": [{"name": "A"}, {"name": "B"}], "variants": {}}, 0)
    for name in os.listdir(source):
        shutil.copy(source / name, folder)
    journal.close()
    os.chmod(top, 0o755)
    for path in (folder, folder / "journal.sqlite3", folder / "journal.lock"):
        os.chown(path, NOBODY, NOBODY)
    yield folder
    shutil.rmtree(top, ignore_errors=True)


def test_a_journal_whose_wal_belongs_to_root_is_refused_at_start_naming_the_files_and_the_fix(left_by_root):
    run = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable,
                          "-c", PROBE, str(left_by_root)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("refused:"), run.stdout
    assert "journal.sqlite3-wal" in run.stdout and "journal.sqlite3-shm" in run.stdout, run.stdout
    assert f"sudo chown nobody: {left_by_root}/journal.sqlite3*" in run.stdout, run.stdout


class FullDisk:
    """A connection on a card with no room: every write fails as SQLite says it."""

    def __init__(self, real):
        self.real = real

    def execute(self, sql, *args):
        if sql.startswith("INSERT"):
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.real, name)


def test_a_full_disk_at_start_still_opens_the_journal_as_before(tmp_path, monkeypatch):
    """The history stays readable on a full card; the first step says there is no room (as before)."""
    Journal(tmp_path).close()
    connect = Journal._connect
    monkeypatch.setattr(Journal, "_connect", lambda self: FullDisk(connect(self)))
    journal = Journal(tmp_path)
    try:
        assert journal.games() == []
    finally:
        journal.close()
