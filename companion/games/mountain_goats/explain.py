"""`companion explain mountain-goats A B C D [--big-mountain] [--json]`: what four dice allow.

JSON: `{"moves": [[], [5], [5, 5, 6], ...]}` — every distinct sorted list of group sums that move a goat
(5–10; with the Big Mountain 11–24 too), over every way of changing the extra 1s and of splitting all
four dice into groups; `[]` where some split moves nothing; the outer list sorted.
"""
from __future__ import annotations

from typing import Any

from .dice import moves
from .state import check_dice


def explain(values: list[str], big_mountain: bool = False) -> dict[str, Any]:
    dice = check_dice(values)
    return {"moves": [list(option) for option in moves(tuple(sorted(dice)), big_mountain)]}


def explain_text(result: dict[str, Any]) -> str:
    options = result["moves"]
    lines = [f"{len(options)} different ways to move (group sums that move a goat):"]
    for option in options:
        lines.append("  " + (", ".join(map(str, option)) if option else "no goat moves"))
    return "\n".join(lines)
