"""The teach store: the examples of each face, per box, in the companion's state directory.

One JSON file per box and kind (`<state>/symbols/<box>/<kind>.json`), crops as PNG in base64. Every write
goes to a temporary file in the same folder, is flushed to disk, then renamed over the old file, so a
crash or a refused teach never leaves a half-written store and never loses what was taught before.
"""
from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import cv2
import numpy as np

from ...durable import write_json
from .examples import Example
from .faces import faces_of

FORMAT = 1


class DamagedStore(ValueError):
    pass


class StoreNotWritable(OSError):
    pass


def _box_name(box: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}", box):
        raise ValueError(f"box name {box!r} must be letters, digits, '.', '_' or '-' (at most 64)")
    return box


class TeachStore:
    def __init__(self, state_dir: str | Path, box: str = "default"):
        self.root = Path(state_dir) / "symbols" / _box_name(box)
        self.box = box

    def path(self, kind: str) -> Path:
        faces_of(kind)
        return self.root / f"{kind}.json"

    def load(self, kind: str) -> dict[str, list[Example]]:
        path = self.path(kind)
        if not path.exists():
            return {}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT or data.get("kind") != kind:
                raise ValueError(f"expected format {FORMAT} for {kind} dice")
            out: dict[str, list[Example]] = {}
            for face, items in data["faces"].items():
                if face not in faces_of(kind):
                    raise ValueError(f"unknown face {face!r}")
                out[face] = [Example(_decode(item["crop_png"]), float(item["side"])) for item in items]
            return out
        except (ValueError, KeyError, TypeError) as exc:
            raise DamagedStore(f"the taught {kind} dice in {path} are damaged ({exc}); "
                               f"move the file away and teach again") from None

    def save(self, kind: str, examples: dict[str, list[Example]]) -> Path:
        path = self.path(kind)
        data = {"format": FORMAT, "kind": kind, "box": self.box,
                "faces": {face: [{"crop_png": _encode(e.crop), "side": round(e.side, 2)} for e in found]
                          for face, found in examples.items() if found}}
        try:
            write_json(path, data)
        except OSError as exc:
            raise StoreNotWritable(f"cannot keep the taught {kind} dice in {self.root} ({exc.strerror or exc})") from None
        return path


def _encode(crop: np.ndarray) -> str:
    ok, png = cv2.imencode(".png", crop)
    if not ok:
        raise ValueError("could not encode a crop as PNG")
    return base64.b64encode(png.tobytes()).decode("ascii")


def _decode(text: str) -> np.ndarray:
    crop = cv2.imdecode(np.frombuffer(base64.b64decode(text, validate=True), np.uint8), cv2.IMREAD_COLOR)
    if crop is None:
        raise ValueError("a crop is not a PNG image")
    return crop
