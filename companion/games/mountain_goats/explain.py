"""`companion explain mountain-goats A B C D [--big-mountain [--big-goats M=S ...] [--others-big S=P ...]] [--json]`:
what four dice allow.

JSON: `{"moves": [[], [5], [5, 5, 6], ...]}` — every distinct sorted list of group sums that move a goat
(5–10; with the Big Mountain 11–24 too), over every way of changing the extra 1s and of splitting all
four dice into groups; `[]` where some split moves nothing; the outer list sorted. A Big Mountain space
takes one goat, so a split with two groups of one sum 11–24 moves only one goat there.

With goats already on the Big Mountain (yours by --big-goats, the other players' by --others-big, as for
`companion odds`), a group of a taken space moves no goat, unless it is your goat's space and a group of that
goat's mountain in the same split brings it back first (the 5–10 groups resolve first). A group of a mountain
whose goat of yours is on the Big Mountain moves it back to the foot. A Big Mountain group needs a goat to
send: one of yours not on the Big Mountain, or one coming back in this split (to another space than the one
it left).
"""
from __future__ import annotations

import argparse
from typing import Any

from .dice import MOUNTAINS, moves, split_moves
from .odds import place_big_mountain_goats, player_names
from .plans import big_choices
from .state import GAME, check_dice

# The most players a table has: --others-big may name any of players 2 to 5.
_MOST_PLAYERS = 5


def explain(values: list[str], big_mountain: bool = False, big_goats: list[tuple[int, int]] = (),
            others_big: list[tuple[int, int]] = ()) -> dict[str, Any]:
    """`big_goats`: (mountain, space) of your goats on the Big Mountain; `others_big`: (space, player 2–5)."""
    dice = tuple(sorted(check_dice(values)))
    taken = _taken_spaces(big_mountain, list(big_goats), list(others_big))
    if not big_mountain:
        return {"moves": [list(option) for option in moves(dice, False)]}
    found = set()
    for ordinary, bigs in split_moves(dice, True):
        for spaces in _big_options(ordinary, tuple(sorted(set(bigs))), taken):
            found.add(tuple(sorted(ordinary + spaces)))
    return {"moves": [list(option) for option in sorted(found)]}


def _taken_spaces(big_mountain: bool, big_goats: list[tuple[int, int]],
                  others_big: list[tuple[int, int]]) -> dict[int, int]:
    """Each taken Big Mountain space: the mountain of your goat there, or 0 for another player's goat. The
    checks and messages are `companion odds`'s."""
    state = GAME.new_state(player_names(_MOST_PLAYERS), {"big_mountain": big_mountain})
    place_big_mountain_goats(state, argparse.Namespace(big_mountain=big_mountain, big_goats=big_goats,
                                                       others_big=others_big, goats=[]))
    return {space: mountain if owner == 0 else 0 for space, (owner, mountain) in state.big.items()}


def _big_options(ordinary: tuple[int, ...], bigs: tuple[int, ...], taken: dict[int, int]) -> set[tuple[int, ...]]:
    """The Big Mountain spaces of one split that take a goat: as many as there are goats to send, each choice."""
    if not taken:
        return {bigs}
    away = set(taken.values()) - {0}
    back = {mountain for mountain in ordinary if mountain in away}
    left = {(space, mountain) for space, mountain in taken.items() if mountain in back}
    free = tuple(s for s in bigs if s not in taken or taken[s] in back)
    sources = tuple(m for m in MOUNTAINS if m not in away or m in back)
    choices = [choice for choice in big_choices(free, sources) if left.isdisjoint(choice)]
    most = max(len(choice) for choice in choices)
    return {tuple(space for space, _ in choice) for choice in choices if len(choice) == most}


def explain_text(result: dict[str, Any]) -> str:
    options = result["moves"]
    lines = [f"{len(options)} different ways to move (group sums that move a goat):"]
    for option in options:
        lines.append("  " + (", ".join(map(str, option)) if option else "no goat moves"))
    return "\n".join(lines)
