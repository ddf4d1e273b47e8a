"""An image file read for a person: the BGR image, or why it cannot be read, in words they can act on.

OpenCV's `imread` answers every failure with None (and for some, a warning on stderr), so the reasons a
person can fix (a wrong path, a folder, a file they may not read) are told apart before it opens the file.
"""
from __future__ import annotations

import os

import numpy as np


def why_unreadable(path: str | os.PathLike) -> str | None:
    """Why `path` cannot be opened as an image file, or None when it can be tried."""
    if not os.path.exists(path):
        return "no such file"
    if os.path.isdir(path):
        return "a folder, not an image file"
    if not os.access(path, os.R_OK):
        return "not readable (permission denied)"
    if os.path.getsize(path) == 0:
        return "an empty file (a copy cut short?)"
    return None


def read_image(path: str | os.PathLike) -> tuple[np.ndarray | None, str | None]:
    """(the BGR image at `path`, None), or (None, why it cannot be read)."""
    import cv2

    reason = why_unreadable(path)
    if reason:
        return None, reason
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    return (None, "cannot decode as an image") if image is None else (image, None)


def load_image(path: str | os.PathLike) -> np.ndarray:
    """The BGR image at `path`; OSError naming the file and why, when it cannot be read (for tools that
    stop at a bad file: the scorers and the benchmark)."""
    image, reason = read_image(path)
    if image is None:
        raise OSError(f"{path}: {reason}")
    return image
