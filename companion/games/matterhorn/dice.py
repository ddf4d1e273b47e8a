"""Dice arithmetic of Matterhorn: what a roll adds up to, which lines eliminating dice can reach, and the
exact chance that a roll of some dice reaches no open line.

A value shown more than once does not count. Eliminating dice is choosing a sub-multiset of the roll to set
aside; the rest adds up by the same rule. Lines are 5–12; a set of lines is kept as a bit mask (bit 0 is
line 5), so the chance of a bust is one pass over the precomputed reach masks of every roll.
"""
from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Iterable

from ..api import GameError

FACES = (1, 2, 3, 4, 5, 6)
LINES = tuple(range(5, 13))
DICE = 5
ALL_LINES_MASK = (1 << len(LINES)) - 1


def line_bit(line: int) -> int:
    return 1 << (line - LINES[0])


def lines_mask(lines: Iterable[int]) -> int:
    mask = 0
    for line in lines:
        mask |= line_bit(line)
    return mask


def mask_lines(mask: int) -> list[int]:
    return [line for line in LINES if mask & line_bit(line)]


def roll_result(dice: Iterable[int]) -> int:
    """The sum of the values shown exactly once."""
    return sum(value for value, count in Counter(dice).items() if count == 1)


@lru_cache(maxsize=4096)
def _eliminations(sorted_dice: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    counts = sorted(Counter(sorted_dice).items())
    out = []
    for taken in itertools.product(*(range(count + 1) for _, count in counts)):
        eliminated = tuple(value for (value, _), k in zip(counts, taken) for _ in range(k))
        kept = [(value, count - k) for (value, count), k in zip(counts, taken)]
        out.append((eliminated, sum(value for value, left in kept if left == 1)))
    out.sort(key=lambda item: (len(item[0]), item[0]))
    return tuple(out)


def eliminations(dice: Iterable[int]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every choice of dice to eliminate (sorted values, `()` for none) with the result of the dice left,
    fewest eliminated first."""
    return _eliminations(tuple(sorted(dice)))


@lru_cache(maxsize=4096)
def _reach_mask(sorted_dice: tuple[int, ...]) -> int:
    """Each value shown can be made to count (keep exactly one of its dice) or not (eliminate them all, or
    keep two or more), so the results are the sums of the subsets of the distinct values."""
    sums = 1  # bit s set: some subset adds up to s
    for value in set(sorted_dice):
        sums |= sums << value
    return (sums >> LINES[0]) & ALL_LINES_MASK


def reach_mask(dice: Iterable[int]) -> int:
    """The lines some choice of eliminations (none included) reaches, as a mask."""
    return _reach_mask(tuple(sorted(dice)))


def _outcome_table(count: int) -> tuple[tuple[int, int], ...]:
    """(reach mask, number of ordered outcomes) for every multiset of `count` dice."""
    table: dict[int, int] = {}
    for dice in itertools.combinations_with_replacement(FACES, count):
        ways = math.factorial(count)
        for n in Counter(dice).values():
            ways //= math.factorial(n)
        mask = _reach_mask(dice)
        table[mask] = table.get(mask, 0) + ways
    return tuple(table.items())


OUTCOMES = {count: _outcome_table(count) for count in range(1, DICE + 1)}


def bust_chance(count: int, blocked_mask: int) -> Fraction:
    """The exact chance that a roll of `count` dice reaches no line outside `blocked_mask`."""
    if count == 0:
        return Fraction(1)
    open_mask = ALL_LINES_MASK & ~blocked_mask
    busts = sum(ways for mask, ways in OUTCOMES[count] if not mask & open_mask)
    return Fraction(busts, 6 ** count)


class BadDice(GameError):
    """Dice values typed or read that Matterhorn can't take; the message names the value."""


def parse_dice(values: Iterable[object], lo: int = 1, hi: int = DICE) -> tuple[int, ...]:
    """Dice from text or numbers: each a whole number 1–6, between `lo` and `hi` of them."""
    out = []
    for value in values:
        text = str(value).strip()
        if not text.lstrip("-").isdigit():
            raise BadDice(f"a die shows a number 1–6, got {value!r}")
        number = int(text)
        if not 1 <= number <= 6:
            raise BadDice(f"a die shows 1–6, got {number}")
        out.append(number)
    if not lo <= len(out) <= hi:
        raise BadDice(f"Matterhorn rolls {lo}–{hi} dice, got {len(out)}")
    return tuple(out)


def parse_lines(text: str) -> tuple[int, ...]:
    """Lines written as "6,7,12" (spaces allowed, empty for none), each 5–12."""
    out = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if not part.isdigit() or not LINES[0] <= int(part) <= LINES[-1]:
            raise BadDice(f"lines are numbered {LINES[0]}–{LINES[-1]}, got {part!r}")
        out.append(int(part))
    return tuple(sorted(set(out)))
