"""The distinct plans a roll allows the player on turn (the rules are in state.py's docstring).

Every way to act on the roll is a candidate plan: the acting groups of 5–10 (a group whose goat is on the Big
Mountain may bring it back or not) and the Big Mountain moves. Candidates with the same effect (goats, tokens
taken, goats knocked off, Big Mountain) are one plan; the first in the order (fewest acting groups, then
steps, then Big Mountain moves) is kept. This runs for every roll of every game, so it is split in two:

- `candidates` depends only on the dice, which goats are on the Big Mountain and which spaces the roll could
  reach are taken, so it is cached; each candidate carries how many groups it uses per mountain.
- `distinct_plans` tells the effects apart from a table, per mountain, of what 0–4 groups do to the player's
  goat there (four dice make at most four groups), so no candidate is played out.
"""
from __future__ import annotations

import itertools
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable, Sequence

from .actions import Move
from .dice import MOUNTAINS, big_sums, split_moves

ON_BIG = -1  # the position of a goat that stands on the Big Mountain
MOST_GROUPS = 4
_ROW = 2 * (MOST_GROUPS + 1)  # per mountain: 0–4 groups with the goat staying, then with it sent away

Candidate = tuple[Callable[[Sequence[Any]], tuple[Any, ...]], tuple[tuple[int, int], ...], Move]


def distinct_plans(dice: tuple[int, ...], big_mountain: bool, pos: Sequence[int], summits: Sequence[int],
                   tokens_left: Sequence[int], rivals_on_summit: Sequence[bool],
                   occupied: Sequence[int]) -> tuple[Move, ...]:
    """The plans for sorted `dice` with the player's goats at `pos`; `rivals_on_summit` says per mountain whether
    another player's goat stands on its summit, `occupied` lists the taken Big Mountain spaces."""
    on_big = tuple(at == ON_BIG for at in pos)
    if occupied:
        reachable = big_sums(dice, big_mountain)
        occupied = tuple(space for space in sorted(occupied) if space in reachable)
    else:
        occupied = ()
    table: tuple[Any, ...] = ()
    for at, top, left, rival in zip(pos, summits, tokens_left, rivals_on_summit):
        table += _outcomes(at, top, min(left, MOST_GROUPS), rival)
    plans: dict[Any, Move] = {}
    for effect_of, big, move in candidates(dice, big_mountain, on_big, tuple(occupied)):
        effect = (big, effect_of(table))
        if effect not in plans:
            plans[effect] = move
    return tuple(plans.values())


@lru_cache(maxsize=4096)
def _outcomes(at: int, top: int, tokens_left: int, rival_on_summit: bool) -> tuple[tuple[int, int, bool], ...]:
    """For 0–4 groups of one mountain: where the goat ends, the tokens taken and whether a rival's goat is
    knocked off the summit; first with the goat staying on its path, then with it sent to the Big Mountain."""
    row = []
    for sent in (False, True):
        for groups in range(MOST_GROUPS + 1):
            pos, taken, knocked = at, 0, False
            for _ in range(groups):
                if pos == ON_BIG:
                    pos = 0
                    continue
                if pos < top:
                    pos += 1
                    if pos < top:
                        continue
                    knocked = rival_on_summit
                if tokens_left > taken:
                    taken += 1
            row.append((ON_BIG if sent else pos, taken, knocked))
    return tuple(row)


@lru_cache(maxsize=20_000)
def candidates(dice: tuple[int, ...], big_mountain: bool, on_big: tuple[bool, ...],
               occupied: tuple[int, ...]) -> tuple[Candidate, ...]:
    """Every candidate plan in order, each as (its effect from the outcome table, its Big Mountain moves, the
    plan); of candidates that use the same groups per mountain and the same Big Mountain moves only the
    first is kept, as their effects are always the same."""
    found = set()
    for ordinary, bigs in split_moves(dice, big_mountain):
        away = sorted({m for m in ordinary if on_big[m - 5]})
        for returning in itertools.chain.from_iterable(
                itertools.combinations(away, r) for r in range(len(away) + 1)):
            steps = tuple(m for m in ordinary if not on_big[m - 5] or m in returning)
            for big in _big_choices(steps, bigs, on_big, occupied):
                found.add((len(steps) + len(big), steps, big))
    out: dict[Any, Candidate] = {}
    for _, steps, big in sorted(found):
        sent = {m for _, m in big}
        cells = tuple(i * _ROW + (MOST_GROUPS + 1 if m in sent else 0) + steps.count(m) for i, m in enumerate(MOUNTAINS))
        if (cells, big) not in out:
            out[cells, big] = (itemgetter(*cells), big, Move(steps, big))
    return tuple(out.values())


def _big_choices(steps: tuple[int, ...], bigs: tuple[int, ...], on_big: tuple[bool, ...],
                 occupied: tuple[int, ...]) -> list[tuple[tuple[int, int], ...]]:
    out: list[tuple[tuple[int, int], ...]] = [()]
    spaces = sorted({s for s in bigs if s not in occupied})
    if not spaces:
        return out
    sources = [m for m in MOUNTAINS if not on_big[m - 5] or m in steps]
    for r in range(1, min(len(spaces), len(sources)) + 1):
        for chosen in itertools.combinations(spaces, r):
            for from_mountains in itertools.permutations(sources, r):
                out.append(tuple(zip(chosen, from_mountains)))
    return out
