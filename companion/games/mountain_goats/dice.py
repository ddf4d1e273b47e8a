"""What four dice allow in Mountain Goats: every way of changing the extra 1s and of splitting the dice
into groups, reduced to the group sums that act (5–10 for the ordinary mountains, 11–24 for the Big
Mountain). Pure and cached by the sorted dice, so the engine, explain and odds share one table.
"""
from __future__ import annotations

import itertools
from functools import lru_cache

MOUNTAINS = (5, 6, 7, 8, 9, 10)
BIG_SPACES = tuple(range(11, 25))
FACES = (1, 2, 3, 4, 5, 6)
DICE_COUNT = 4


def _set_partitions(items: tuple[int, ...]) -> list[tuple[tuple[int, ...], ...]]:
    if not items:
        return [()]
    first, rest = items[0], items[1:]
    out = []
    for partition in _set_partitions(rest):
        out.append(((first,),) + partition)
        for i, group in enumerate(partition):
            out.append(partition[:i] + ((first,) + group,) + partition[i + 1:])
    return out


PARTITIONS = _set_partitions(tuple(range(DICE_COUNT)))  # the 15 ways to split four dice into groups


def die_choices(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every way the dice may end up after the extra-1s rule: if more than one die shows a 1, all of the
    1s but one may be changed to any number (changing to 1 is keeping it)."""
    ones = dice.count(1)
    others = tuple(d for d in dice if d != 1)
    if ones < 2:
        return [dice]
    return [(1,) + others + changed for changed in itertools.product(FACES, repeat=ones - 1)]


@lru_cache(maxsize=None)
def group_sums(dice: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """Every distinct sorted tuple of group sums (all groups, acting or not); `dice` must be sorted."""
    out = set()
    for values in set(die_choices(dice)):
        for partition in PARTITIONS:
            out.add(tuple(sorted(sum(values[i] for i in group) for group in partition)))
    return frozenset(out)


def acts(total: int, big_mountain: bool) -> bool:
    return 5 <= total <= 10 or big_mountain and 11 <= total <= 24


@lru_cache(maxsize=None)
def moves(dice: tuple[int, ...], big_mountain: bool) -> tuple[tuple[int, ...], ...]:
    """The distinct sorted lists of acting group sums, sorted; `dice` must be sorted."""
    found = {tuple(s for s in sums if acts(s, big_mountain)) for sums in group_sums(dice)}
    return tuple(sorted(found))


@lru_cache(maxsize=None)
def split_moves(dice: tuple[int, ...], big_mountain: bool) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """`moves` split into (ordinary sums 5–10, Big Mountain sums 11–24)."""
    return tuple((tuple(s for s in m if s <= 10), tuple(s for s in m if s > 10)) for m in moves(dice, big_mountain))


@lru_cache(maxsize=None)
def big_sums(dice: tuple[int, ...], big_mountain: bool) -> frozenset[int]:
    """Every Big Mountain sum (11–24) some plan of these dice uses; `dice` must be sorted."""
    return frozenset(s for _, bigs in split_moves(dice, big_mountain) for s in bigs)


@lru_cache(maxsize=None)
def most_groups(dice: tuple[int, ...]) -> tuple[int, ...]:
    """For each mountain 5–10, the most groups of that sum one choice of these dice can make."""
    options = moves(dice, False)
    return tuple(max(option.count(m) for option in options) for m in MOUNTAINS)


def roll_multisets() -> list[tuple[tuple[int, ...], int]]:
    """The 126 sorted rolls of four dice, each with how many of the 1296 ordered rolls show it."""
    counts: dict[tuple[int, ...], int] = {}
    for roll in itertools.product(FACES, repeat=DICE_COUNT):
        key = tuple(sorted(roll))
        counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items())


ROLLS = roll_multisets()
ROLL_COUNT = len(FACES) ** DICE_COUNT
