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
    another player's goat stands on its summit, `occupied` lists the taken Big Mountain spaces as (space, the
    mountain of the player's own goat there, or 0 for another player's goat)."""
    on_big = tuple(at == ON_BIG for at in pos)
    if occupied:
        reachable = big_sums(dice, big_mountain)
        occupied = tuple(taken for taken in sorted(occupied) if taken[0] in reachable)
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
               occupied: tuple[tuple[int, int], ...]) -> tuple[Candidate, ...]:
    """Every candidate plan in order, each as (its effect from the outcome table, its Big Mountain moves, the
    plan); of candidates that use the same groups per mountain and the same Big Mountain moves only the
    first is kept, as their effects are always the same.

    The 5–10 groups resolve first, so a space the player's own goat leaves by coming back is free for the
    Big Mountain groups of the same plan (for another goat: the same goat would end where it began)."""
    away = tuple(m for m in _ordinary_mountains(dice, big_mountain) if on_big[m - 5])
    found = set()
    for steps, bigs in _step_choices(dice, big_mountain, away):
        left = {(space, m) for space, m in occupied if m and m in steps}
        spaces = bigs
        if occupied:
            taken = {space for space, _ in occupied} - {space for space, _ in left}
            spaces = tuple(s for s in bigs if s not in taken)
        sources = tuple(m for m in MOUNTAINS if not on_big[m - 5] or m in steps)
        groups = len(steps)
        for big in big_choices(spaces, sources):
            if left and not left.isdisjoint(big):
                continue
            found.add((groups + len(big), steps, big))
    out: dict[Any, Candidate] = {}
    for _, steps, big in sorted(found):
        cells, candidate = _candidate(steps, big)
        if (cells, big) not in out:
            out[cells, big] = candidate
    return tuple(out.values())


@lru_cache(maxsize=None)
def _ordinary_mountains(dice: tuple[int, ...], big_mountain: bool) -> tuple[int, ...]:
    return tuple(sorted({m for ordinary, _ in split_moves(dice, big_mountain) for m in ordinary}))


@lru_cache(maxsize=4096)
def _step_choices(dice: tuple[int, ...], big_mountain: bool,
                  away: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Per way to group the dice and choice of goats to bring back (`away`: the mountains of the dice whose
    goat is on the Big Mountain): the acting groups of 5–10 and the distinct Big Mountain sums, sorted."""
    out = []
    for ordinary, bigs in split_moves(dice, big_mountain):
        here = sorted({m for m in ordinary if m in away})
        spaces = tuple(sorted(set(bigs)))
        for returning in itertools.chain.from_iterable(
                itertools.combinations(here, r) for r in range(len(here) + 1)):
            steps = tuple(m for m in ordinary if m not in away or m in returning)
            out.append((steps, spaces))
    return tuple(out)


@lru_cache(maxsize=4096)
def big_choices(spaces: tuple[int, ...], sources: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """No Big Mountain move, then every choice of free spaces (sorted) each with a different goat's mountain."""
    out: list[tuple[tuple[int, int], ...]] = [()]
    for r in range(1, min(len(spaces), len(sources)) + 1):
        for chosen in itertools.combinations(spaces, r):
            for from_mountains in itertools.permutations(sources, r):
                out.append(tuple(zip(chosen, from_mountains)))
    return tuple(out)


@lru_cache(maxsize=20_000)
def _candidate(steps: tuple[int, ...], big: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], Candidate]:
    """Where a plan's outcome per mountain sits in the outcome table, and the plan's candidate entry."""
    sent = {m for _, m in big}
    cells = tuple(i * _ROW + (MOST_GROUPS + 1 if m in sent else 0) + steps.count(m) for i, m in enumerate(MOUNTAINS))
    return cells, (itemgetter(*cells), big, Move(steps, big))
