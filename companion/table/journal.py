"""The journal: every game, every applied action and undo, stored durably before it is acknowledged.

SQLite from the standard library, WAL mode with synchronous=FULL, so a committed transaction survives a
power cut or a SIGKILL. One request from the page (or one event from the camera or sensors) is one
transaction: a correction, which undoes back to a misread roll and re-applies what followed, is stored
all or nothing.

Tables:
- games(id, game, setup, started_t, finished, result, played_at): `setup` is the JSON of players and variants;
  `result` the final scores and winners once the game is over; `played_at` the wall-clock time (Unix seconds)
  of the game's last start, step or undo, for the page to say when it was played (`started_t` and the ops' `t`
  are the table's monotonic clock, meaningless after a reboot). Finished games stay for the history page.
- ops(seq, game_id, op, data, t): the operations in order: op "apply" (data: the action's JSON form and what
  the page shows for it) or "undo". Replaying them into a fresh engine gives back the exact state.
- events(seq, data): the sensor and camera events the table acted on, and the answers that put a question
  away with no step (a squeak nobody made), for the history and for debugging.
- meta(key, value): the current game, the position reached in a replayed recording, the question asked, and
  `unstepped`: what changed with no step since the last step (a question asked or put away, an event kept),
  with what was there before, which undo puts back first, and `held`: an event kept until a tap; both with
  the current game and the last operation's and event's numbers when written (another game, or anything
  journaled after it, by an older version that does not know them, makes them stale). A
  step that answered a question keeps it in its info (`asked`, with its `actions`); a step tapped while an event
  was kept keeps what had changed with no step before it (`kept`): undoing the step leaves the event kept, and
  puts that back. All of these, and `early_balls` and `first_duel_dice`, are the game on's: a game set aside for
  another keeps its own as `set_aside:<id>` (with the numbers of its last operation and event then: an older
  version, which does not know it, may play the game on meanwhile), given back to the table-wide keys when it is
  picked up again.
"""
from __future__ import annotations

import errno
import json
import os
import pwd
import shutil
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from ..durable import make_folder
from .state_lock import (FolderInUse, FolderReadOnly, StateDirLock, card_read_only, read_only_filesystem,
                         read_only_message)

# PRAGMA user_version. 0 is a journal from before it was stamped: the same tables as version 1.
SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    started_t INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    played_at REAL
);
CREATE TABLE IF NOT EXISTS ops(
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    op TEXT NOT NULL,
    data TEXT NOT NULL,
    t INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ops_by_game ON ops(game_id, seq);
CREATE TABLE IF NOT EXISTS events(
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# A game's columns as the readers give them, with `steps`: the steps it has now (applied, less those undone).
GAME_COLUMNS = ("id, game, setup, started_t, finished, result, played_at, "
                "(SELECT COALESCE(SUM(op = 'apply') - SUM(op = 'undo'), 0) FROM ops WHERE ops.game_id = games.id)")


class JournalError(RuntimeError):
    pass


class JournalRefused(JournalError):
    """A journal file that is there but not opened, so as not to lose its games: damaged, lost beside its
    write-ahead log, or a newer companion's. It is left exactly as it was; `found` is what is wrong with it,
    `fix` what a person can do."""

    def __init__(self, found: str, fix: str):
        super().__init__(f"{found}: {fix}")
        self.found = found
        self.fix = fix


# Below this much free space, SQLite's "disk I/O error" or "unable to open database file" means a full disk:
# it cannot size the -shm file (SQLITE_IOERR_SHMSIZE) or create the -wal file.
NEARLY_FULL_BYTES = 1 * 2**20
_READONLY, _IOERR, _CANTOPEN = 8, 10, 14  # SQLite's primary result codes (the extended codes keep them in the low byte)


def write_ahead_log(path: Path) -> Path:
    """The journal's write-ahead log, where SQLite keeps the steps written since its last checkpoint."""
    return path.with_name(path.name + "-wal")


def _move_away(path: Path, what: str) -> str:
    return (f"move {what} away, with its -wal and -shm files if there (e.g. `mkdir -p {path.parent}/damaged && "
            f"mv {path}* {path.parent}/damaged/`), and the companion starts a new, empty journal")


# After a fix, for a companion that was refused its journal: it serves the page that says so until started again.
START_AGAIN = ("then start the companion again (`sudo systemctl restart companion`, or switch the Pi off and on; "
               "by hand: stop `companion serve` and run it again)")


def damaged_fix(path: Path) -> str:
    """What to do about a damaged journal at `path`. It is left as it is: nothing else can rescue its games."""
    return (f"{_move_away(path, 'it')}. Its games are lost unless you put back a copy; someone who knows SQLite can "
            "often rescue most of their steps from the moved file (sqlite3's .dump)")


def _lost_beside_its_log(path: Path) -> str | None:
    """What is wrong when the journal file is empty or gone while its write-ahead log holds steps, as a card
    that did not keep what it was told was written can leave them: SQLite, even reading, would delete the log
    and start an empty journal without a word. None when the journal file is there, or there is no log."""
    log = write_ahead_log(path)
    try:
        logged = log.stat().st_size
        if not logged or (path.exists() and path.stat().st_size):
            return None
    except OSError:  # no log, or one this user may not look at: SQLite says what it finds
        return None
    state = "empty" if path.exists() else "missing"
    return (f"the game journal {path} is {state}, but its write-ahead log {log.name} holds {logged} bytes of its "
            "games (the memory card lost what it was told was written?)")


def _rescue_fix(path: Path) -> str:
    """The games are in the log alone: opening the empty journal file (sqlite3 too) would delete it."""
    return (f"keep a copy of the folder first, then {_move_away(path, 'the journal')}. To rescue the games, in the "
            f"copy run `truncate -s 4096 {path.name}` before opening it, so SQLite reads the log instead of deleting "
            "it, and put the copy back")


def _no_room(path: Path) -> str:
    return (f"no room left where the games are kept ({path.parent}): free some space on the memory card "
            "or disk")


def _nearly_full(folder: Path) -> bool:
    try:
        return shutil.disk_usage(folder).free < NEARLY_FULL_BYTES
    except OSError:
        return False


def _says_damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether SQLite's error says the file itself is damaged (not a database, a malformed page)."""
    return "not a database" in str(exc) or "malformed" in str(exc)


def _damaged(path: Path, problem: str) -> JournalRefused:
    return JournalRefused(f"the game journal {path} is damaged ({problem})", damaged_fix(path))


def _storage_problem(path: Path, exc: sqlite3.DatabaseError) -> str:
    """What a person can do about SQLite's error on the journal at `path`."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if _says_damaged(exc):
        return str(_damaged(path, text))
    if read_only_filesystem(path.parent):
        return read_only_message(path.parent)
    if "full" in text:
        return _no_room(path)
    if (primary in (_IOERR, _CANTOPEN) or "disk I/O error" in text or "unable to open" in text) \
            and _nearly_full(path.parent):
        return _no_room(path)
    if _says_read_only(exc):
        return _not_writable(path, exc)
    return f"the game journal {path} cannot be used: {text}"


def _says_read_only(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return (isinstance(code, int) and code & 0xFF == _READONLY) or "readonly" in str(exc) or "read-only" in str(exc)


def _not_writable(path: Path, exc: sqlite3.DatabaseError) -> str:
    """What to do about a journal this user cannot write: the files that are not this user's, given back."""
    files = [p for p in (path, write_ahead_log(path), path.with_name(path.name + "-shm"))
             if p.exists() and not os.access(p, os.W_OK)]
    if not files:
        return f"the game journal {path} cannot be written ({exc}): check the state directory's permissions"
    user = _user_name()
    return (f"the game journal {path} cannot be written by user {user} ({exc}): {', '.join(p.name for p in files)} "
            f"in {path.parent} belong to another user (a command run with sudo on this folder, interrupted?); "
            f"give them back with `sudo chown {user}: {path}*` and start the companion again")


def _user_name() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def _folder_problem(folder: Path, exc: OSError) -> str | None:
    """What to do about an OSError writing in the state directory `folder` when the card is full or went
    read-only; None for another error."""
    if card_read_only(folder, exc):
        return read_only_message(folder)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return _no_room(folder / Journal.FILE_NAME)
    return None


def _storage_error(exc: sqlite3.Error) -> bool:
    """Whether SQLite's `exc` is about the file or the disk, not a mistake in the companion's code (a closed
    connection, a broken constraint): those keep their traceback."""
    return isinstance(exc, sqlite3.DatabaseError) and not isinstance(
        exc, (sqlite3.ProgrammingError, sqlite3.IntegrityError, sqlite3.DataError, sqlite3.NotSupportedError))


class Journal:
    """Owned by the table thread; other threads (the history pages) read on its connection, one at a time
    (`_reading`)."""

    FILE_NAME = "journal.sqlite3"

    def __init__(self, state_dir: str | Path, *, fresh: bool = False):
        """`fresh` starts from an empty journal, once no other companion has the folder (the demo)."""
        self.path = Path(state_dir) / self.FILE_NAME
        try:
            make_folder(self.path.parent)
        except FileExistsError:
            raise JournalError(f"the state directory {self.path.parent} is a file, not a directory") from None
        except OSError as exc:
            raise JournalError(_folder_problem(self.path.parent, exc) or
                               f"cannot create the state directory {self.path.parent}: {exc.strerror}") from None
        self._folder_lock = StateDirLock(self.path.parent)
        try:
            self._folder_lock.acquire()
        except (FolderInUse, FolderReadOnly) as exc:
            raise JournalError(str(exc)) from None
        except OSError as exc:
            raise JournalError(_folder_problem(self.path.parent, exc) or
                               f"the state directory {self.path.parent} cannot be written ({exc.strerror}): "
                               "check its permissions") from None
        if fresh:
            try:
                for suffix in ("", "-wal", "-shm"):
                    self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)
            except OSError as exc:
                self._folder_lock.release()
                raise JournalError(_folder_problem(self.path.parent, exc) or
                                   f"the old journal in {self.path.parent} cannot be removed ({exc.strerror}): "
                                   "check the state directory's permissions") from None
        lost = None if fresh else _lost_beside_its_log(self.path)
        if lost:
            self._folder_lock.release()
            raise JournalRefused(lost, _rescue_fix(self.path))
        self._db: sqlite3.Connection | None = None
        self.has_played_at = True
        try:
            self._db = self._connect()
            if self._check_version() != SCHEMA_VERSION:
                self._db.executescript(SCHEMA)
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._add_played_at()
            if not fresh:
                self._check_pages()
            self._check_writable()
        except (sqlite3.DatabaseError, JournalError) as exc:
            if self._db is not None:
                self._db.close()
            self._folder_lock.release()
            if isinstance(exc, JournalError):
                raise
            if _says_damaged(exc):
                raise _damaged(self.path, str(exc)) from None
            raise JournalError(_storage_problem(self.path, exc)) from None
        self._lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    def _check_version(self) -> int:
        """The journal's version. One written by a newer companion is left as it is: this one could misread
        its games."""
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalRefused(
                f"the game journal {self.path} was written by a newer companion (journal version {version}; "
                f"this one reads up to {SCHEMA_VERSION})", "update the companion to play on with its games, or "
                "give this one another --state-dir")
        return version

    def _add_played_at(self) -> None:
        """The column `played_at`, added to a journal from before it: a nullable column, so the journal stays at
        version 1 and an older companion still reads and writes it (it names the columns it uses)."""
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "played_at" not in columns:
            try:
                self._db.execute("ALTER TABLE games ADD COLUMN played_at REAL")
            except sqlite3.OperationalError as exc:  # a full card: the games open all the same, added next start
                if not ("full" in str(exc) or _nearly_full(self.path.parent)):
                    raise
                self.has_played_at = False

    def _check_pages(self) -> None:
        """Every page of the journal read once (SQLite's quick_check): a page the memory card damaged (zeroed
        by a power cut as it was written) is found now, with what to do, not later in the middle of a game or
        of the history page. A few milliseconds for thousands of steps."""
        problem = damage(self._db)
        if problem:
            raise _damaged(self.path, problem)

    def _check_writable(self) -> None:
        """A journal this user may read but not write (its -wal or -shm left by another user's process, such as a
        `sudo companion replay --state-dir ...` interrupted) is said now, not at the first tap of the evening:
        SQLite opens it read-only without a word. A throw-away write, rolled back; another error here (a full
        disk) is left to the first step to say, as before."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("INSERT INTO meta(key, value) VALUES ('writable', '1') "
                             "ON CONFLICT(key) DO UPDATE SET value=excluded.value")
        except sqlite3.DatabaseError as exc:
            if _says_read_only(exc) and not read_only_filesystem(self.path.parent):
                raise JournalError(_not_writable(self.path, exc)) from None
        finally:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")

    def close(self) -> None:
        self._db.close()
        self._folder_lock.release()

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """The connection, for one read: a damaged page or a failing card comes out as a JournalError that says
        what to do."""
        with self._lock:
            try:
                yield self._db
            except sqlite3.DatabaseError as exc:
                if not _storage_error(exc):
                    raise
                raise JournalError(_storage_problem(self.path, exc)) from None

    # -- writing: one transaction per acknowledged request ---------------------------------------
    def transaction(self) -> "Transaction":
        return Transaction(self)

    # -- reading ------------------------------------------------------------------------------
    def current_game_id(self) -> int | None:
        value = self.meta("current_game")
        return int(value) if value else None

    def meta(self, key: str) -> str | None:
        with self._reading() as db:
            row = db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    @property
    def _columns(self) -> str:
        return GAME_COLUMNS if self.has_played_at else GAME_COLUMNS.replace("played_at,", "NULL AS played_at,", 1)

    def game(self, game_id: int) -> dict[str, Any] | None:
        """The game numbered `game_id`; None when there is none, as for a number past SQLite's integers (a
        phone's typed or forged one), which SQLite cannot even be asked about."""
        if not -2 ** 63 <= game_id < 2 ** 63:
            return None
        with self._reading() as db:
            row = db.execute(
                f"SELECT {self._columns} FROM games WHERE id=?", (game_id,)).fetchone()
        return _game_row(row) if row else None

    def games(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._reading() as db:
            rows = db.execute(
                f"SELECT {self._columns} FROM games ORDER BY id DESC LIMIT ?",
                (limit,)).fetchall()
        return [_game_row(r) for r in rows]

    def unfinished_games(self, limit: int | None = 50) -> list[dict[str, Any]]:
        """The games left before their end with at least one step, however many games were played since, the
        last played first; `limit` None: all of them. A game started and left before its first step is not one
        to pick up: starting it again is the same."""
        with self._reading() as db:
            rows = db.execute(
                f"SELECT * FROM (SELECT {self._columns} AS steps FROM games WHERE finished=0) WHERE steps > 0 "
                "ORDER BY COALESCE(played_at, 0) DESC, id DESC LIMIT ?",
                (-1 if limit is None else limit,)).fetchall()
        return [_game_row(r) for r in rows]

    def statistics(self) -> dict[str, dict[str, Any]]:
        """Per game, over every game journaled: how many were played to the end, and the wins of each
        player's name (a winner is an index into the game's players)."""
        with self._reading() as db:
            played = db.execute(
                "SELECT game, COUNT(*) FROM games WHERE finished=1 AND result IS NOT NULL "
                "GROUP BY game ORDER BY MAX(id) DESC").fetchall()
            wins = db.execute(
                "SELECT g.game, json_extract(g.setup, '$.players[' || w.value || '].name') AS name, COUNT(*) "
                "FROM games AS g, json_each(g.result, '$.winners') AS w "
                "WHERE g.finished=1 AND w.type='integer' AND w.value >= 0 "
                "GROUP BY g.game, name HAVING name IS NOT NULL ORDER BY MAX(g.id) DESC").fetchall()
        out: dict[str, dict[str, Any]] = {game: {"played": count, "wins": {}} for game, count in played}
        for game, name, count in wins:
            out[game]["wins"][name] = count
        return out

    def forget_finished_games(self, keep: int) -> int:
        """Delete the finished games but the newest `keep` (and never the current one), with their steps and
        events, then empty the write-ahead log; returns how many went. For the demo, which plays its games
        for ever: without this its journal grows by a game every few minutes."""
        if keep < 0:
            raise ValueError(f"the number of finished games to keep is 0 or more, got {keep}")
        with self.transaction() as tx:
            gone = tx.forget_finished(keep)
        with self._lock:
            try:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.DatabaseError as exc:
                raise JournalError(_storage_problem(self.path, exc)) from None
        return gone

    def last_seqs(self) -> list[int]:
        """The numbers given to the last operation and the last event ever written (`Transaction.last_seqs`)."""
        with self._reading() as db:
            return _last_seqs(db)

    def ops(self, game_id: int) -> Iterator[tuple[str, dict[str, Any]]]:
        with self._reading() as db:
            rows = db.execute("SELECT op, data FROM ops WHERE game_id=? ORDER BY seq", (game_id,)).fetchall()
        for op, data in rows:
            yield op, json.loads(data)


def damage(db: sqlite3.Connection) -> str | None:
    """SQLite's first complaint about the pages of the journal open on `db`, or None when they are sound."""
    rows = db.execute("PRAGMA quick_check(1)").fetchall()
    first = str(rows[0][0]) if rows else "ok"
    return None if first == "ok" else " ".join(first.replace("*** in database main ***", "").split())


def check_file(path: str | Path) -> tuple[bool, str, str] | None:
    """A look at the journal file at `path` that changes nothing, also while the service runs (for `companion
    doctor`): None when its pages are sound, else (damaged, the problem, what to do); damaged is False when it
    could not be read at all."""
    path = Path(path)
    lost = _lost_beside_its_log(path)
    if lost:
        return True, lost, _rescue_fix(path)
    unreadable = f"the game journal {path} could not be checked"
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        return False, f"{unreadable} ({exc})", "run the check as a user of the state directory (or with sudo)"
    try:
        problem = damage(db)
    except sqlite3.DatabaseError as exc:
        if not _says_damaged(exc):
            return False, f"{unreadable} ({exc})", "run the check as a user of the state directory (or with sudo)"
        problem = str(exc)
    finally:
        db.close()
    return (True, f"the game journal {path} is damaged ({problem})", damaged_fix(path)) if problem else None


def _last_seqs(db: sqlite3.Connection) -> list[int]:
    seqs = dict(db.execute("SELECT name, seq FROM sqlite_sequence WHERE name IN ('ops', 'events')").fetchall())
    return [int(seqs.get("ops", 0)), int(seqs.get("events", 0))]


def _game_row(row: tuple) -> dict[str, Any]:
    game_id, game, setup, started_t, finished, result, played_at, steps = row
    return {"id": game_id, "game": game, "setup": json.loads(setup), "started_t": started_t,
            "finished": bool(finished), "result": json.loads(result) if result else None,
            "played_at": played_at, "steps": steps}


class Transaction:
    """`with journal.transaction() as tx:` — committed (and fsynced) on a clean exit, rolled back on error."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self.db = journal._db

    def __enter__(self) -> "Transaction":
        self.journal._lock.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            self.journal._lock.release()
            raise JournalError(_storage_problem(self.journal.path, exc)) from None
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        """A storage error (a full disk, a damaged file) inside the transaction or at its commit comes out as
        a JournalError that says what to do; the transaction is rolled back either way."""
        try:
            if exc_type is None:
                try:
                    self.db.execute("COMMIT")
                    return
                except sqlite3.DatabaseError as commit_error:
                    exc = commit_error
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
        finally:
            self.journal._lock.release()
        if isinstance(exc, sqlite3.DatabaseError):
            raise JournalError(_storage_problem(self.journal.path, exc)) from None

    def new_game(self, game: str, setup: dict[str, Any], t: int) -> int:
        cur = self.db.execute("INSERT INTO games(game, setup, started_t) VALUES (?, ?, ?)",
                              (game, json.dumps(setup), t))
        game_id = int(cur.lastrowid)
        self._played(game_id)
        self.set_meta("current_game", str(game_id))
        return game_id

    def apply(self, game_id: int, action: dict[str, Any], info: dict[str, Any], t: int) -> None:
        """`info`: what the page shows for the step (its words, whose turn it was, the dice read)."""
        self.db.execute("INSERT INTO ops(game_id, op, data, t) VALUES (?, 'apply', ?, ?)",
                        (game_id, json.dumps({"action": action, "info": info}), t))
        self._played(game_id)

    def undo(self, game_id: int, t: int) -> None:
        self.db.execute("INSERT INTO ops(game_id, op, data, t) VALUES (?, 'undo', '{}', ?)", (game_id, t))
        self._played(game_id)

    def _played(self, game_id: int) -> None:
        """The wall clock of the Pi, not the table's event time: the page says when a game was last played."""
        if self.journal.has_played_at:
            self.db.execute("UPDATE games SET played_at=? WHERE id=?", (time.time(), game_id))

    def event(self, game_id: int | None, event: dict[str, Any]) -> None:
        self.db.execute("INSERT INTO events(game_id, data) VALUES (?, ?)", (game_id, json.dumps(event)))

    def finish(self, game_id: int, result: dict[str, Any] | None) -> None:
        self.db.execute("UPDATE games SET finished=1, result=? WHERE id=?",
                        (json.dumps(result) if result is not None else None, game_id))

    def reopen(self, game_id: int) -> None:
        """An undo took back the last move of a finished game: it is in progress again."""
        self.db.execute("UPDATE games SET finished=0, result=NULL WHERE id=? AND finished=1", (game_id,))

    def forget_finished(self, keep: int) -> int:
        old = ("SELECT id FROM (SELECT id FROM games WHERE finished=1 ORDER BY id DESC LIMIT -1 OFFSET ?) "
               "WHERE id IS NOT (SELECT CAST(value AS INTEGER) FROM meta WHERE key='current_game')")
        self.db.execute(f"DELETE FROM ops WHERE game_id IN ({old})", (keep,))
        self.db.execute(f"DELETE FROM events WHERE game_id IN ({old})", (keep,))
        return self.db.execute(f"DELETE FROM games WHERE id IN ({old})", (keep,)).rowcount

    def last_seqs(self) -> list[int]:
        """The numbers given to the last operation and the last event written so far, this transaction's too:
        they never go back (AUTOINCREMENT), so meta written with them can tell whether anything was journaled
        after it, by this version or an older one that does not know that meta."""
        return _last_seqs(self.db)

    def game_seqs(self, game_id: int) -> list[int]:
        """The numbers of the last operation and the last event written for the game `game_id` (0 for none): they
        move only while it is the game on, so what a game set aside kept still holds while they stay."""
        return list(self.db.execute(
            "SELECT (SELECT COALESCE(MAX(seq), 0) FROM ops WHERE game_id=?), "
            "(SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?)", (game_id, game_id)).fetchone())

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                        (key, value))

    def meta(self, key: str) -> str | None:
        """A meta value as this transaction sees it."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def clear_meta(self, key: str) -> None:
        self.db.execute("DELETE FROM meta WHERE key=?", (key,))
