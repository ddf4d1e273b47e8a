"""One companion per games folder.

Two companions on one journal (the service, and `companion serve --port 8081` started by hand beside it;
or a `companion replay --state-dir` into the live folder) would each play their own copy of the game and
write both into the journal, which then replays into neither. The journal holds an exclusive lock on a
file in the folder for as long as it is open. The kernel lets go of it when the process ends however it
ends, so a kicked-out power cord or a SIGKILL leaves no stale lock behind.
"""
from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path


class FolderInUse(RuntimeError):
    pass


class FolderReadOnly(RuntimeError):
    """The filesystem holding the folder was switched to read-only; the message says what to do."""


def read_only_filesystem(path: str | Path) -> bool:
    """Whether the filesystem holding `path` (or its nearest existing parent) is mounted read-only: ext4
    remounts the memory card so after an error (errors=remount-ro)."""
    probe = Path(path)
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        return bool(os.statvfs(probe).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def card_read_only(folder: str | Path, exc: OSError | None = None) -> bool:
    """Whether `exc` (or, with none, any failure to write in `folder`) comes from a read-only filesystem."""
    return (exc is not None and exc.errno == errno.EROFS) or read_only_filesystem(folder)


READ_ONLY_FIX = ("restart the Pi, which checks and repairs the card as it starts; if it keeps happening, replace "
                 "the memory card (copy the games folder off it first)")


def read_only_problem(folder: str | Path) -> str:
    return (f"the memory card or disk holding {folder} was switched to read-only (Linux does so after an error "
            "on it), so no game can be saved")


def read_only_message(folder: str | Path) -> str:
    return f"{read_only_problem(folder)}: {READ_ONLY_FIX}"


class StateDirLock:
    FILE_NAME = "journal.lock"

    def __init__(self, state_dir: str | Path):
        self.path = Path(state_dir) / self.FILE_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise FolderInUse naming the process that holds it (FolderReadOnly when the
        folder's filesystem went read-only, OSError when the folder cannot be written otherwise)."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            if card_read_only(self.path.parent, exc):
                raise FolderReadOnly(read_only_message(self.path.parent)) from None
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise FolderInUse(f"the games in {self.path.parent} are open in another companion"
                              f"{f' (process {holder})' if holder else ''}: stop it first (on the Pi: "
                              "`sudo systemctl stop companion`), or give this one another --state-dir") from None
        except OSError:
            os.close(fd)
            raise
        self._fd = fd
        try:  # who holds it, for the message above; a full disk keeps the lock all the same
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:
            pass

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def companion_holding(state_dir: str | Path) -> str | None:
    """The process id of the companion that has `state_dir` open ("" when it did not say), or None when none
    has (or this user may not look): how commands run by hand see that the service holds the hardware."""
    try:
        fd = os.open(Path(state_dir) / StateDirLock.FILE_NAME, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return _read_holder(fd)
    except OSError:
        return None
    finally:
        os.close(fd)
    return None


def _read_holder(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return ""
