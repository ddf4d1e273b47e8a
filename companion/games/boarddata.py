"""Board-layout data files: the physical numbers of each box, shipped as JSON beside the engines.

Where the rulebooks are silent the numbers are documented assumptions (../shared/rules/README.md), so a
user edits a file rather than the code. Every file is validated on load; a bad value gets a `BadConfig`
naming the file, the field and the value.
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from .api import BadConfig


def load_board(game: str, override: Mapping[str, Any] | str | Path | None = None) -> dict[str, Any]:
    """The board data of `game`: the shipped file, or `override` (a mapping or a path to a JSON file)."""
    if isinstance(override, Mapping):
        return dict(override)
    if override is not None:
        source = Path(override)
        try:
            text = source.read_text(encoding="utf-8")
        except OSError as exc:
            raise BadConfig(f"cannot read board file {source}: {exc.strerror}") from None
    else:
        source = f"companion/games/data/{game}.json"
        text = resources.files("companion.games").joinpath("data", f"{game}.json").read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadConfig(f"board file {source} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise BadConfig(f"board file {source} must hold a JSON object")
    return data


class Fields:
    """Reads typed fields from a board mapping, raising `BadConfig` that names field and value."""

    def __init__(self, data: Mapping[str, Any], where: str):
        self.data = data
        self.where = where

    def fail(self, field: str, problem: str) -> BadConfig:
        return BadConfig(f"{self.where}: field {field!r} {problem}")

    def get(self, field: str) -> Any:
        if field not in self.data:
            raise self.fail(field, "is missing")
        return self.data[field]

    def int(self, field: str, lo: int | None = None, hi: int | None = None) -> int:
        value = self.get(field)
        return self.check_int(field, value, lo, hi)

    def check_int(self, field: str, value: Any, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"must be a whole number, got {value!r}")
        if lo is not None and value < lo or hi is not None and value > hi:
            raise self.fail(field, f"must be between {lo} and {hi}, got {value!r}")
        return value

    def list(self, field: str, min_len: int = 0, max_len: int | None = None) -> list[Any]:
        value = self.get(field)
        if not isinstance(value, list):
            raise self.fail(field, f"must be a list, got {value!r}")
        if len(value) < min_len or max_len is not None and len(value) > max_len:
            raise self.fail(field, f"must have {min_len}–{max_len if max_len is not None else '…'} entries, got {len(value)}")
        return value

    def int_map(self, field: str, keys: list[int], lo: int | None = None, hi: int | None = None) -> dict[int, int]:
        """A JSON object keyed by the given whole numbers (as strings), each value a whole number."""
        value = self.get(field)
        if not isinstance(value, dict):
            raise self.fail(field, f"must be an object, got {value!r}")
        wanted = {str(k) for k in keys}
        if set(value) != wanted:
            raise self.fail(field, f"must have exactly the keys {sorted(keys)}, got {sorted(value)}")
        return {int(k): self.check_int(f"{field}.{k}", v, lo, hi) for k, v in value.items()}
