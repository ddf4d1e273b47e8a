"""A journal the memory card damaged, filled or switched to read-only: the companion says in plain words what
is wrong and what to do, and never shows a traceback (the service would restart on it for ever)."""
from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import types

import pytest

from companion.events import PlayerAction
from companion.table import state_lock
from companion.table.journal import Journal, JournalError
from companion.table.owner import Table
from companion.table.sessions import playout
from companion.table.state_lock import companion_holding

PAGE = 4096
START = {"do": "start", "game": "fake-race", "players": [{"name": "Ada"}, {"name": "Ben"}]}


def play_a_game(state) -> int:
    """A journal with a long game in progress, its steps all in the journal file (no write-ahead log left)."""
    events, _ = playout("matterhorn", 3)
    table = Table(Journal(state)).start()
    for event in events[:-5]:
        command = dict(event.action) if isinstance(event, PlayerAction) else \
            {"do": "dice", "values": [d.value for d in event.dice]}
        assert table.request(command).ok
    table.stop()
    table.journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    table.journal.close()
    return (state / Journal.FILE_NAME).stat().st_size


def zero_page(path, where: str) -> None:
    """As an SD card can leave the block it was writing when the power went."""
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.seek(size - PAGE if where == "last" else (size // PAGE // 2) * PAGE)
        f.write(b"\0" * PAGE)


@pytest.mark.parametrize("where", ["last", "middle"])
def test_a_zeroed_page_is_named_with_what_to_do_and_the_file_is_left_for_rescue(tmp_path, where):
    state = tmp_path / "state"
    play_a_game(state)
    path = state / Journal.FILE_NAME
    zero_page(path, where)
    damaged = path.read_bytes()
    with pytest.raises(JournalError) as refused:
        Table(Journal(state))
    message = str(refused.value)
    assert message.startswith(f"the game journal {path} is damaged (")
    assert "move it away" in message and "starts a new" in message and ".dump" in message
    assert path.read_bytes() == damaged, "the damaged journal is kept as it was, for a rescue"
    assert companion_holding(state) is None, "the folder is let go"


def test_a_recording_stops_on_a_damaged_journal_with_the_message_not_a_traceback(tmp_path, monkeypatch, run_cli):
    """`companion record` is run by hand: it says so at the terminal and ends, leaving no session behind
    (`companion serve` stays up instead, with a page that says it: tests/web/test_journal_refused_page.py)."""
    monkeypatch.setenv("COMPANION_SERVICE_MDNS", "off")
    monkeypatch.setenv("COMPANION_SENSORS_BACKEND", "none")
    monkeypatch.setenv("COMPANION_CAMERA_SOURCE", str(tmp_path / "no-camera-here"))
    state, out = tmp_path / "state", tmp_path / "session"
    play_a_game(state)
    zero_page(state / Journal.FILE_NAME, "last")
    code, _, err = run_cli("record", "--out", str(out), "--host", "127.0.0.1", "--port", "0", "--state-dir",
                           str(state))
    assert code == 2 and err.startswith(f"companion record: the game journal {state / Journal.FILE_NAME} is damaged ")
    assert "move it away" in err and "Traceback" not in err
    assert not out.exists() and companion_holding(state) is None


@pytest.mark.parametrize("lost", ["emptied", "gone"])
def test_a_journal_file_the_card_lost_beside_its_write_ahead_log_is_said_and_the_log_kept_for_rescue(tmp_path, lost):
    """A card that did not keep what it was told was written can leave the journal file empty (or without its name)
    beside its write-ahead log, which holds the evening's steps: SQLite would delete that log and start an empty
    journal without a word."""
    live, state = tmp_path / "live", tmp_path / "state"
    table = Table(Journal(live)).start()
    assert table.request(START).ok
    assert table.request({"do": "dice", "values": [3, 4]}).ok
    table.stop()
    state.mkdir()
    shutil.copy(live / "journal.sqlite3-wal", state)  # as the power went, with the companion running
    table.journal.close()
    path, log = state / Journal.FILE_NAME, state / "journal.sqlite3-wal"
    if lost == "emptied":
        path.write_bytes(b"")
    steps = log.read_bytes()
    with pytest.raises(JournalError) as refused:
        Table(Journal(state))
    message = str(refused.value)
    assert message.startswith(f"the game journal {path} is {'empty' if lost == 'emptied' else 'missing'}, but its "
                              f"write-ahead log {log.name} holds ")
    assert "move the journal away" in message and ".dump" not in message, "sqlite3 on the empty file deletes the log"
    assert log.read_bytes() == steps, "the write-ahead log is kept as it was, for a rescue"
    assert companion_holding(state) is None, "the folder is let go"
    rescue = tmp_path / "copy"  # the rescue the message gives, followed in a copy of the folder
    shutil.copytree(state, rescue)
    assert f"truncate -s 4096 {Journal.FILE_NAME}" in message
    os.truncate(rescue / Journal.FILE_NAME, 4096) if (rescue / Journal.FILE_NAME).exists() else \
        (rescue / Journal.FILE_NAME).write_bytes(bytes(4096))
    rescued = Journal(rescue)
    try:
        assert [[p["name"] for p in row["setup"]["players"]] for row in rescued.games()] == [["Ada", "Ben"]]
    finally:
        rescued.close()


class Failing:
    """A connection whose every statement fails the way SQLite does on a damaged page."""

    def __init__(self, error):
        self.error = error

    def execute(self, *args):
        raise self.error

    def close(self):
        pass


@pytest.mark.parametrize("read", [
    lambda j: j.meta("current_game"), lambda j: j.current_game_id(), lambda j: j.game(1), lambda j: j.games(),
    lambda j: j.unfinished_games(), lambda j: j.statistics(), lambda j: list(j.ops(1))])
def test_every_read_of_a_damaged_journal_says_it_is_damaged(tmp_path, read):
    """A page damaged while the companion runs (the history page, a restart of a game)."""
    journal = Journal(tmp_path)
    real = journal._db
    try:
        journal._db = Failing(sqlite3.DatabaseError("database disk image is malformed"))
        with pytest.raises(JournalError, match=rf"{journal.path} is damaged \(database disk image is malformed\): "
                                               "move it away"):
            read(journal)
    finally:
        journal._db = real
        journal.close()


def test_a_journal_closed_by_mistake_is_still_a_programming_error(tmp_path):
    journal = Journal(tmp_path)
    journal.close()
    with pytest.raises(sqlite3.ProgrammingError):
        journal.meta("current_game")


def full_disk(monkeypatch, tmp_path, free=0):
    real = shutil.disk_usage
    monkeypatch.setattr(shutil, "disk_usage", lambda p: real(p)._replace(free=free)
                        if str(p).startswith(str(tmp_path)) else real(p))


def test_a_start_on_a_full_disk_says_there_is_no_room_not_an_io_error(tmp_path, monkeypatch):
    """SQLite cannot size its -shm file on a full disk: "disk I/O error" (SQLITE_IOERR_SHMSIZE)."""
    full_disk(monkeypatch, tmp_path, free=4096)

    def no_room(self):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(Journal, "_connect", no_room)
    with pytest.raises(JournalError, match=rf"no room left where the games are kept \({tmp_path}\): free some space"):
        Journal(tmp_path)
    assert companion_holding(tmp_path) is None


def test_an_io_error_with_room_left_is_not_called_a_full_disk(tmp_path, monkeypatch):
    def broken(self):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(Journal, "_connect", broken)
    with pytest.raises(JournalError) as refused:
        Journal(tmp_path)
    assert "disk I/O error" in str(refused.value) and "no room" not in str(refused.value)


def test_no_room_for_the_lock_file_says_there_is_no_room(tmp_path, monkeypatch):
    real_open = os.open

    def no_space(path, *args, **kwargs):
        if str(path).endswith(state_lock.StateDirLock.FILE_NAME):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", no_space)
    with pytest.raises(JournalError, match=rf"no room left where the games are kept \({tmp_path}\)"):
        Journal(tmp_path)


def read_only_card(monkeypatch, tmp_path):
    """The card's filesystem remounted read-only after an error (ext4 errors=remount-ro)."""
    real = os.statvfs
    monkeypatch.setattr(os, "statvfs", lambda p: types.SimpleNamespace(f_flag=os.ST_RDONLY | real(p).f_flag)
                        if str(p).startswith(str(tmp_path)) else real(p))


class CommitFails:
    """The connection of a card gone read-only (or full: `error`): the write of a step fails at its commit."""

    def __init__(self, real, error="disk I/O error"):
        self.real, self.error = real, error

    def execute(self, sql, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError(self.error)
        return self.real.execute(sql, *args)

    @property
    def in_transaction(self):
        return self.real.in_transaction

    def close(self):
        self.real.close()


CARD = r"the memory card or disk holding .* was switched to read-only.*restart the Pi.*replace the memory card"


def test_a_card_switched_to_read_only_mid_game_says_so_and_what_to_do(tmp_path, monkeypatch):
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request(START).ok
        assert table.request({"do": "dice", "values": [3, 4]}).ok
        read_only_card(monkeypatch, tmp_path)
        real = table.journal._db
        table.journal._db = CommitFails(real)
        outcome = table.request({"do": "play", "action": {"kind": "pass"}})
        assert not outcome.ok
        assert outcome.message.startswith("not saved, so not played: the memory card or disk holding ")
        assert "switched to read-only" in outcome.message and "restart the Pi" in outcome.message
        table.journal._db = real
        assert len(table.view()["game"]["history"]) == 1, "the refused step is not shown either"
    finally:
        table.stop()
        table.journal.close()


@pytest.mark.parametrize("how", ["statvfs", "erofs"])
def test_a_start_on_a_card_switched_to_read_only_says_so_not_check_the_permissions(tmp_path, monkeypatch, how):
    Journal(tmp_path).close()
    if how == "statvfs":
        read_only_card(monkeypatch, tmp_path)
    real_open = os.open

    def refused(path, flags, *args, **kwargs):
        if flags & (os.O_RDWR | os.O_WRONLY) and str(path).startswith(str(tmp_path)):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refused)
    with pytest.raises(JournalError, match=CARD) as start:
        Journal(tmp_path)
    assert "permissions" not in str(start.value)


def test_a_read_only_card_without_the_games_folder_says_so(tmp_path, monkeypatch):
    read_only_card(monkeypatch, tmp_path)
    real_mkdir = os.mkdir

    def refused(path, *args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))

    monkeypatch.setattr(os, "mkdir", refused)
    with pytest.raises(JournalError, match=CARD):
        Journal(tmp_path / "state")
    monkeypatch.setattr(os, "mkdir", real_mkdir)


def test_a_sqlite_error_on_a_read_only_card_says_so(tmp_path, monkeypatch):
    Journal(tmp_path).close()
    read_only_card(monkeypatch, tmp_path)

    def readonly(self):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(Journal, "_connect", readonly)
    with pytest.raises(JournalError, match=CARD):
        Journal(tmp_path)


def test_the_lock_itself_says_the_card_is_read_only(tmp_path, monkeypatch):
    read_only_card(monkeypatch, tmp_path)
    monkeypatch.setattr(os, "open", lambda path, *a, **k: (_ for _ in ()).throw(
        OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))))
    with pytest.raises(getattr(state_lock, "FolderReadOnly", ()), match=CARD):
        state_lock.StateDirLock(tmp_path).acquire()
