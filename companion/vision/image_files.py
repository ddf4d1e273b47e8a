"""An image file read for a person: the BGR image, or why it cannot be read, in words they can act on.

OpenCV's `imread` answers every failure with None (and for some, a warning on stderr), so the reasons a
person can fix (a wrong path, a folder, a file they may not read) are told apart before it opens the file.
"""
from __future__ import annotations

import os
import struct

import numpy as np

MAX_PIXELS = 120_000_000  # a 108-megapixel phone photo reads; a small file that unpacks to gigabytes does not


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
    """(the BGR image at `path`, None), or (None, why it cannot be read). The file is read by Python and
    decoded from memory: OpenCV's own reading crashes on a name that is not UTF-8."""
    os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))  # formats not sized below
    import cv2

    reason = why_unreadable(path)
    if reason:
        return None, reason
    try:
        data = np.fromfile(path, np.uint8)
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror or exc})"
    size = picture_size(data[:65536].tobytes())
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        return None, (f"too large to read: {size[0]}x{size[1]} pixels (at most {MAX_PIXELS // 1_000_000} "
                      "megapixels)")
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    except (cv2.error, MemoryError) as exc:
        return None, f"cannot decode as an image ({str(exc).strip().splitlines()[-1] if str(exc) else 'out of memory'})"
    return (None, "cannot decode as an image") if image is None else (image, None)


def picture_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the start of a PNG or JPEG file, read before decoding; None for another kind."""
    if head[:8] == b"\x89PNG\r\n\x1a\n" and len(head) >= 24:
        return struct.unpack(">II", head[16:24])
    if head[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 9 <= len(head):
        if head[at] != 0xFF:
            return None
        marker, length = head[at + 1], struct.unpack(">H", head[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start of frame
            height, width = struct.unpack(">HH", head[at + 5:at + 9])
            return width, height
        at += 2 + length
    return None


def load_image(path: str | os.PathLike) -> np.ndarray:
    """The BGR image at `path`; OSError naming the file and why, when it cannot be read (for tools that
    stop at a bad file: the scorers and the benchmark)."""
    image, reason = read_image(path)
    if image is None:
        raise OSError(f"{path}: {reason}")
    return image
