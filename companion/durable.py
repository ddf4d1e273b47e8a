"""Small state files (the join code, the page's tray, taught dice, the demo's cache) written whole or not at
all: a power cut during a write leaves the old file or the new one, never half of one; and the game journal's
folder, like theirs, made to outlive one (`make_folder`)."""
from __future__ import annotations

import contextlib
import itertools
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_json(path: str | Path, data: Any, *, private: bool = False) -> None:
    """Write `data` as JSON to `path` whole or not at all. `private` files are readable by their owner
    only. Raises OSError when it cannot be written."""
    write_bytes(path, json.dumps(data).encode("utf-8"), mode=0o600 if private else 0o644)


def write_bytes(path: str | Path, data: bytes, *, mode: int = 0o644, sync_folder: bool = True) -> None:
    """Write `data` to `path` through a temporary file in the same folder, synced, renamed over it, then the
    folder synced. A caller writing many files into one folder may pass `sync_folder=False` and call
    `fsync_folder(folder)` once after the last. Raises OSError."""
    path = Path(path)
    make_folder(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fchmod(out.fileno(), mode)
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if sync_folder:
        fsync_folder(path.parent)


def make_folder(folder: str | Path) -> None:
    """Make `folder` and the folders missing above it, each synced into the one holding it: a power cut loses
    neither their names nor what is kept in them. Raises OSError."""
    folder = Path(folder)
    missing = list(itertools.takewhile(lambda above: not above.exists(), (folder, *folder.parents)))
    folder.mkdir(parents=True, exist_ok=True)
    for made in reversed(missing):
        with contextlib.suppress(PermissionError):  # a folder above this user may write in but not open
            fsync_folder(made.parent)


def fsync_folder(folder: str | Path) -> None:
    """Make the names last written, renamed or removed in `folder` survive a power cut."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
