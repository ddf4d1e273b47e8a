"""`companion explain mountain-goats A B C D [--big-mountain] [--json]`: what four dice allow.

JSON: `{"moves": [[], [5], [5, 5, 6], ...]}` — every distinct sorted list of group sums that move a goat
(5–10; with the Big Mountain 11–24 too), over every way of changing the extra 1s and of splitting all
four dice into groups; `[]` where some split moves nothing; the outer list sorted. A Big Mountain space
takes one goat, so a split with two groups of one sum 11–24 moves only one goat there.
"""
from __future__ import annotations

from typing import Any

from .dice import moves, split_moves
from .state import check_dice


def explain(values: list[str], big_mountain: bool = False) -> dict[str, Any]:
    dice = tuple(sorted(check_dice(values)))
    if not big_mountain:
        return {"moves": [list(option) for option in moves(dice, False)]}
    # "The space you move your goat to on the big mountain must be free": one goat per Big Mountain sum
    found = {tuple(sorted(ordinary + tuple(set(bigs)))) for ordinary, bigs in split_moves(dice, True)}
    return {"moves": [list(option) for option in sorted(found)]}


def explain_text(result: dict[str, Any]) -> str:
    options = result["moves"]
    lines = [f"{len(options)} different ways to move (group sums that move a goat):"]
    for option in options:
        lines.append("  " + (", ".join(map(str, option)) if option else "no goat moves"))
    return "\n".join(lines)
