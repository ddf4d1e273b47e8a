"""Small state files (the join code, the page's tray, taught dice) written whole or not at all: a power
cut during a write leaves the old file or the new one, never half of one."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def write_json(path: str | Path, data: Any, *, private: bool = False) -> None:
    """Write `data` as JSON to `path` through a temporary file in the same folder, synced, then renamed
    over it. `private` files are readable by their owner only. Raises OSError when it cannot be written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out)
            out.flush()
            os.fchmod(out.fileno(), 0o600 if private else 0o644)
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
