"""`companion explain banana-matcho FRUIT x6 [--json]`: the combination six fruit dice show and its value."""
from __future__ import annotations

from typing import Any

from .combinations import combination


def explain(values: list[str]) -> dict[str, Any]:
    """{"combination": name or None, "value": spaces}; BadFaces (one line) for anything but six fruit names."""
    return combination(values).to_json()


def explain_text(result: dict[str, Any]) -> str:
    if result["combination"] is None:
        return "No combination: worth 0. A squeak now would be a Continue (one space down)."
    value = result["value"]
    return f"{result['combination']}: worth {value} space{'s' if value != 1 else ''}."
