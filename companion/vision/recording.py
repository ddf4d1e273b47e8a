"""The frame side of a recorded session: writing camera frames to a directory and playing them back.

Layout of a recording directory::

    session/
      frames.mkv        the frames, lossless FFV1 video, when this OpenCV build can write FFV1
      frames/000000.png ... otherwise one PNG per frame (the same order)
      frames.jsonl      one line per frame, in order: {"index": 0, "t": 1234567890}
      events.jsonl      the events of the session (written by the table's recorder, not here)

`t` is the monotonic-ns timestamp the frame was captured with, so playback hands the settle logic and the
table exactly the times they saw live. A session cut short (power lost) plays back the frames that have
both pixels and an index line.
"""
from __future__ import annotations

import functools
import json
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np

from .sources import Frame, SourceError

FRAMES_INDEX = "frames.jsonl"
FRAMES_VIDEO = "frames.mkv"
FRAMES_FOLDER = "frames"
MB = 1024 * 1024
MUXER_BUFFER = 8 * MB


class RecordingFull(OSError):
    pass


@functools.lru_cache(maxsize=1)
def ffv1_supported() -> bool:
    """Whether this OpenCV build writes FFV1 in Matroska and reads it back unchanged."""
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "probe.mkv")
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"FFV1"), 10, (32, 24))
        if not writer.isOpened():
            return False
        probe = np.random.default_rng(0).integers(0, 256, (24, 32, 3), dtype=np.uint8)
        writer.write(probe)
        writer.release()
        capture = cv2.VideoCapture(path)
        ok, back = capture.read()
        capture.release()
        return bool(ok) and back is not None and np.array_equal(back, probe)


class FrameRecorder:
    """Writes frames and their timestamps into a recording directory (see the module docstring).

    `fmt` is "auto" (FFV1 if supported, else PNG), "ffv1" or "png". Use as a context manager or call
    close(); frames.jsonl is flushed per frame. With `keep_free` (bytes), a frame that would leave less
    than that free on the recording's disk is refused with RecordingFull: lossless frames fill a memory
    card in minutes, and FFmpeg, once the disk is full, drops frames with no more than a warning.
    """

    def __init__(self, directory: str | Path, *, fps: float = 30.0, fmt: str = "auto", keep_free: int = 0):
        if fmt not in ("auto", "ffv1", "png"):
            raise ValueError(f"unknown frame format {fmt!r}; choose auto, ffv1 or png")
        if fmt == "auto":
            fmt = "ffv1" if ffv1_supported() else "png"
        elif fmt == "ffv1" and not ffv1_supported():
            raise SourceError("this OpenCV build cannot write FFV1 video; record with fmt='png'")
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        if (self.directory / FRAMES_INDEX).exists():
            raise SourceError(f"{self.directory} already holds a recording ({FRAMES_INDEX}); choose a new directory")
        self.fmt = fmt
        self.fps = fps
        self.keep_free = keep_free
        self.count = 0
        self._size: tuple[int, int] | None = None
        self._writer = None
        self._largest_file = largest_file(self.directory)
        if fmt == "png":
            (self.directory / FRAMES_FOLDER).mkdir(exist_ok=True)
        self._index = open(self.directory / FRAMES_INDEX, "w", encoding="utf-8")

    def write(self, frame: Frame) -> None:
        image = frame.image
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise ValueError(f"frames must be BGR uint8 images, got shape {image.shape} {image.dtype}")
        size = (image.shape[1], image.shape[0])
        if self._size is None:
            self._size = size
            if self.fmt == "ffv1":
                self._writer = cv2.VideoWriter(str(self.directory / FRAMES_VIDEO), cv2.VideoWriter_fourcc(*"FFV1"),
                                               self.fps, size)
        elif size != self._size:
            raise ValueError(f"frame {self.count} is {size[0]}x{size[1]}, the recording is {self._size[0]}x{self._size[1]}")
        if self.keep_free:
            free = shutil.disk_usage(self.directory).free
            if free - image.nbytes < self.keep_free:
                raise RecordingFull(f"only {free // MB} MB left where it is kept ({self.directory}), and "
                                    f"{self.keep_free // MB} MB stay free for the games")
        if self._writer is not None:
            video = self.directory / FRAMES_VIDEO
            limit = self._largest_file
            # Matroska keeps up to a 5 MB cluster in memory before it reaches the file
            if limit is not None and video.stat().st_size + MUXER_BUFFER + image.nbytes > limit:
                # FFmpeg drops the frames past a file-size limit (FAT32's 4 GB, a ulimit) with a warning only
                raise RecordingFull(f"{video} is as large as a file may be here ({limit // MB} MB)")
            self._writer.write(image)
        elif not cv2.imwrite(str(self.directory / FRAMES_FOLDER / f"{self.count:06d}.png"), image):
            raise OSError(f"cannot write frame {self.count} into {self.directory / FRAMES_FOLDER}")
        self._index.write(json.dumps({"index": self.count, "t": int(frame.t)}) + "\n")
        self._index.flush()
        self.count += 1

    def close(self) -> None:
        if self._writer is not None:
            self._writer.release()
            self._writer = None
        if not self._index.closed:
            self._index.close()

    def __enter__(self) -> "FrameRecorder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def largest_file(directory: Path) -> int | None:
    """The largest file `directory` may hold, when there is a limit: this process's RLIMIT_FSIZE, and 4 GB on
    FAT (a USB stick as it comes), whose files cannot be larger."""
    limits = []
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft != resource.RLIM_INFINITY:
        limits.append(soft)
    try:
        where, kind = "", ""
        path = os.path.realpath(directory)
        with open("/proc/self/mounts", encoding="utf-8") as mounts:
            for line in mounts:
                fields = line.split()
                point = fields[1].replace("\\040", " ")
                if (path == point or path.startswith(point.rstrip("/") + "/")) and len(point) >= len(where):
                    where, kind = point, fields[2]
        if kind in ("vfat", "msdos", "fat"):
            limits.append(4 * 1024 ** 3 - 1)
    except OSError:
        pass
    return min(limits) if limits else None


def read_frame_index(directory: Path) -> list[int]:
    times = []
    path = directory / FRAMES_INDEX
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror}") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            index, t = int(entry["index"]), int(entry["t"])
        except (ValueError, KeyError, TypeError):
            if number == len(lines):  # a last line cut short by a power cut
                break
            raise SourceError(f"{path} line {number} is not a frame entry like {{\"index\": 0, \"t\": 123}}") from None
        if index != len(times):
            raise SourceError(f"{path} line {number}: expected frame index {len(times)}, found {index}")
        if times and t < times[-1]:
            raise SourceError(f"{path} line {number}: frame {index}'s time goes back before frame {index - 1}'s")
        times.append(t)
    return times


class RecordingSource:
    """Plays a recording directory back as Frames with their recorded t: as fast as possible, or at the
    recorded pace with `realtime` (the clock and sleep injectable)."""

    upright = True  # recorded from a camera already turned upright: `camera.rotate` does not turn it again

    def __init__(self, directory: str | Path, *, realtime: bool = False,
                 clock: Callable[[], int] = time.monotonic_ns, sleep: Callable[[float], None] = time.sleep):
        self.directory = Path(directory)
        self.times = read_frame_index(self.directory)
        self.realtime = realtime
        self.clock, self.sleep = clock, sleep
        if not self.times:
            raise SourceError(f"{self.directory / FRAMES_INDEX} lists no frames (empty: cut short before it was "
                              "written?)")
        if (self.directory / FRAMES_VIDEO).exists():
            self.fmt = "ffv1"
        elif (self.directory / FRAMES_FOLDER).is_dir():
            self.fmt = "png"
        else:
            raise SourceError(f"{self.directory} has {FRAMES_INDEX} but neither {FRAMES_VIDEO} nor {FRAMES_FOLDER}/")
        self.unreadable: list[Path] = []  # the frame files the last pass could not read, left out

    def __len__(self) -> int:
        return len(self.times)

    def _images(self) -> Iterator[np.ndarray | None]:
        if self.fmt == "ffv1":
            capture = cv2.VideoCapture(str(self.directory / FRAMES_VIDEO))
            if not capture.isOpened() and (self.directory / FRAMES_VIDEO).stat().st_size and not ffv1_supported():
                capture.release()
                raise SourceError(f"this OpenCV build cannot read FFV1 video, so not {self.directory / FRAMES_VIDEO}: "
                                  "install an OpenCV with FFmpeg (opencv-python-headless from pip has it)")
            try:
                while True:
                    ok, image = capture.read()
                    if not ok:
                        return
                    yield image
            finally:
                capture.release()
        else:
            for index in range(len(self.times)):
                path = self.directory / FRAMES_FOLDER / f"{index:06d}.png"
                image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None  # OpenCV warns of none
                if image is None:
                    self.unreadable.append(path)
                yield image

    def indexed(self) -> Iterator[tuple[int, Frame]]:
        """Each frame with its index in the recording. A frame file damaged or missing (one bad block of the card)
        is left out and noted in `unreadable`, and the frames after it are played; a video ends at its damage."""
        start_clock = None
        self.unreadable = []
        for index, (t, image) in enumerate(zip(self.times, self._images())):
            if image is None:
                continue
            if self.realtime:
                if start_clock is None:
                    start_clock = self.clock() - (t - self.times[0])
                wait_ns = (t - self.times[0]) - (self.clock() - start_clock)
                if wait_ns > 0:
                    self.sleep(wait_ns / 1e9)
            yield index, Frame(t, image)

    def __iter__(self) -> Iterator[Frame]:
        for _, frame in self.indexed():
            yield frame
