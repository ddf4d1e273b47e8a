"""Banana Matcho's exact odds (fractions), by enumeration.

Matcho roller: the chance of three Matchos within the next n throws, keeping the Matchos and re-rolling
the blanks, from the number showing now, with one or two monkey faces per die.
`companion odds banana-matcho --matchos 1 --throws 3 [--monkey-faces 2] --json` prints
    {"matchos": 1, "throws": 3, "monkey_faces": 1, "chance": "a/b", "probability": 0.123456,
     "by_throw": [{"throws": 1, "chance": "a/b", "probability": ...}, ... up to --throws]}
(`by_throw[k]`: three Matchos within k+1 throws).

Fruit roller: the chance that one re-roll of the dice not kept gives a better (higher-valued) combination.
`companion odds banana-matcho --fruit F F F F F F [--keep 0,1,2] --json` (indices 0–5 of --fruit; no
--keep: all six are re-rolled) prints
    {"fruit": [...], "keep": [0, 1, 2], "rerolled": 3,
     "current": {"combination": name or null, "value": v},
     "improve": {"chance": "a/b", "probability": ...},
     "outcomes": [{"combination": name or null, "value": v, "chance": "a/b", "probability": ...}, ...]}
(`outcomes`: every combination the re-roll can end with, best first).

The fruit dice are symmetric, so the re-roll's result depends only on the pattern of the kept dice (e.g.
three of one fruit and one of another): each pattern's distribution is enumerated once, over the
multisets of re-rolled faces with their multinomial weights, and cached.
"""
from __future__ import annotations

import argparse
import itertools
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from math import factorial, nextafter, prod
from typing import Any, Callable, Sequence

from ..api import GameError
from .combinations import (FRUIT_DICE, FRUITS, MATCHO_DICE, NAME_BY_VALUE, Combination, check_fruit_faces,
                           combination, combination_of_pattern, pattern_of)
from .state import BananaMatchoState

MAX_THROWS = 100
# Text output shows a fraction only while it stays readable; JSON always has it.
READABLE_DENOMINATOR = 10 ** 7


class BadOddsQuery(GameError):
    pass


def _fraction_json(value: Fraction) -> dict[str, Any]:
    return {"chance": f"{value.numerator}/{value.denominator}", "probability": _probability(value)}


def _probability(value: Fraction) -> float:
    """Rounded to 6 decimals, but a chance short of sure stays below 1 and one above nothing stays above 0,
    so a reader of the JSON never takes a chance that can fail for a sure thing."""
    rounded = round(float(value), 6)
    if rounded >= 1 and value < 1:
        return nextafter(1.0, 0.0)
    if rounded <= 0 and value > 0:
        return float(value) or nextafter(0.0, 1.0)
    return rounded


# -- the Matcho roller ------------------------------------------------------------------------------
def matcho_chances(matchos: int, throws: int, monkey_faces: int = 1) -> list[Fraction]:
    """[P(three Matchos within 1 throw), ..., within `throws` throws], from `matchos` showing now."""
    if not 0 <= matchos <= MATCHO_DICE:
        raise BadOddsQuery(f"Matchos showing must be 0–{MATCHO_DICE}, got {matchos}")
    if not 1 <= throws <= MAX_THROWS:
        raise BadOddsQuery(f"throws must be 1–{MAX_THROWS}, got {throws}")
    if monkey_faces not in (1, 2):
        raise BadOddsQuery(f"a Matcho die has 1 or 2 monkey faces, got {monkey_faces}")
    p = Fraction(monkey_faces, 6)
    # step[b][n]: from b blanks, the chance that one throw turns n of them into Matchos
    step = [[Fraction(_binomial(b, n)) * p ** n * (1 - p) ** (b - n) for n in range(b + 1)] for b in range(MATCHO_DICE + 1)]
    by_blanks = [Fraction(0)] * (MATCHO_DICE + 1)
    by_blanks[MATCHO_DICE - matchos] = Fraction(1)
    out = []
    for _ in range(throws):
        after = [Fraction(0)] * (MATCHO_DICE + 1)
        for blanks, chance in enumerate(by_blanks):
            if not chance:
                continue
            if blanks == 0:
                after[0] += chance
                continue
            for turned, q in enumerate(step[blanks]):
                after[blanks - turned] += chance * q
        by_blanks = after
        out.append(by_blanks[0])
    return out


def _binomial(n: int, k: int) -> int:
    return factorial(n) // (factorial(k) * factorial(n - k))


def matcho_odds(matchos: int, throws: int, monkey_faces: int = 1) -> dict[str, Any]:
    chances = matcho_chances(matchos, throws, monkey_faces)
    return {"matchos": matchos, "throws": throws, "monkey_faces": monkey_faces, **_fraction_json(chances[-1]),
            "by_throw": [{"throws": k + 1, **_fraction_json(c)} for k, c in enumerate(chances)]}


# -- the fruit roller ------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def reroll_values(kept_pattern: tuple[int, ...], rerolled: int) -> tuple[tuple[int, int], ...]:
    """(value, ways out of 6**rerolled) for each value the dice can end with, kept dice of `kept_pattern`."""
    kept = list(kept_pattern) + [0] * (len(FRUITS) - len(kept_pattern))
    ways: Counter[int] = Counter()
    for new in _compositions(rerolled, len(FRUITS)):
        weight = factorial(rerolled) // prod(factorial(n) for n in new)
        value = combination_of_pattern(pattern_of(k + n for k, n in zip(kept, new))).value
        ways[value] += weight
    return tuple(sorted(ways.items(), reverse=True))


def _compositions(total: int, parts: int):
    """Every way to write `total` as `parts` ordered non-negative counts."""
    for cuts in itertools.combinations(range(total + parts - 1), parts - 1):
        bounds = (-1,) + cuts + (total + parts - 1,)
        yield tuple(bounds[i + 1] - bounds[i] - 1 for i in range(parts))


def _partitions(total: int, largest: int):
    if total == 0:
        yield ()
        return
    for first in range(min(total, largest), 0, -1):
        for rest in _partitions(total - first, first):
            yield (first,) + rest


def build_tables() -> int:
    """Fill the re-roll table for every pattern of kept dice (run once at import); returns its size."""
    for kept in range(FRUIT_DICE + 1):
        for pattern in _partitions(kept, kept):
            reroll_values(pattern, FRUIT_DICE - kept)
    return reroll_values.cache_info().currsize


def check_keep(keep: Sequence[int]) -> tuple[int, ...]:
    for index in keep:
        if not 0 <= index < FRUIT_DICE:
            raise BadOddsQuery(f"--keep takes dice indices 0–{FRUIT_DICE - 1}, got {index}")
    if len(set(keep)) != len(keep):
        raise BadOddsQuery(f"--keep names a die twice: {list(keep)}")
    return tuple(sorted(keep))


def improve_chance(faces: Sequence[str], keep: Sequence[int]) -> tuple[Combination, Fraction, list[tuple[int, Fraction]]]:
    """(current combination, chance to improve it, [(value, chance)] of every outcome) for one re-roll."""
    faces = check_fruit_faces(faces)
    keep = check_keep(keep)
    current = combination(faces)
    rerolled = FRUIT_DICE - len(keep)
    total = 6 ** rerolled
    outcomes = [(value, Fraction(ways, total))
                for value, ways in reroll_values(_kept_pattern(faces, keep), rerolled)]
    return current, _better_than(current.value, _kept_pattern(faces, keep), rerolled), outcomes


def _kept_pattern(faces: Sequence[str], keep: Sequence[int]) -> tuple[int, ...]:
    return pattern_of(Counter(faces[i] for i in keep).values())


@lru_cache(maxsize=None)
def _better_than(value: int, kept_pattern: tuple[int, ...], rerolled: int) -> Fraction:
    ways = sum(w for v, w in reroll_values(kept_pattern, rerolled) if v > value)
    return Fraction(ways, 6 ** rerolled)


def fruit_odds(faces: Sequence[str], keep: Sequence[int]) -> dict[str, Any]:
    current, better, outcomes = improve_chance(faces, keep)
    return {
        "fruit": list(check_fruit_faces(faces)),
        "keep": list(check_keep(keep)),
        "rerolled": FRUIT_DICE - len(keep),
        "current": current.to_json(),
        "improve": _fraction_json(better),
        "outcomes": [{"combination": NAME_BY_VALUE.get(value), "value": value, **_fraction_json(chance)}
                     for value, chance in outcomes],
    }


def best_keep(faces: Sequence[str]) -> tuple[tuple[int, ...], Fraction]:
    """The dice to keep that give the best chance to improve in one re-roll (more dice kept on a tie)."""
    faces = check_fruit_faces(faces)
    by_fruit: dict[str, list[int]] = {}
    for index, face in enumerate(faces):
        by_fruit.setdefault(face, []).append(index)
    current = combination(faces).value
    best: tuple[Fraction, int, tuple[int, ...]] | None = None
    for counts in itertools.product(*(range(len(ix) + 1) for ix in by_fruit.values())):
        keep = tuple(sorted(i for ix, n in zip(by_fruit.values(), counts) for i in ix[:n]))
        chance = _better_than(current, pattern_of(c for c in counts), FRUIT_DICE - len(keep))
        if best is None or (chance, len(keep)) > best[:2]:
            best = (chance, len(keep), keep)
    assert best is not None
    return best[2], best[0]


build_tables()


# -- the page and the command line --------------------------------------------------------------
def odds_for_state(state: BananaMatchoState) -> dict[str, Any]:
    """{"fruit_roller", "matcho_roller", "verdict", "fruit": null or {"faces", "current", "best_keep",
    "improve"}, "matcho": {"matchos", "monkey_faces", "by_throw" (within 1, 2, 3 throws)}}"""
    fruit = None
    if state.fruit is not None:
        keep, chance = best_keep(state.fruit)
        fruit = {"faces": list(state.fruit), "current": state.fruit_combination().to_json(),
                 "best_keep": list(keep), "improve": _fraction_json(chance)}
    matcho = matcho_odds(state.matchos_showing(), 3, state.monkey_faces)
    return {
        "fruit_roller": state.fruit_roller,
        "matcho_roller": state.matcho_roller,
        "verdict": state.verdict(),
        "fruit": fruit,
        "matcho": {"matchos": matcho["matchos"], "monkey_faces": matcho["monkey_faces"], "by_throw": matcho["by_throw"]},
    }


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--matchos", type=int, help="Matchos showing now (0–3): the Matcho roller's odds")
    parser.add_argument("--throws", type=int, help="throws to come (default 1)")
    parser.add_argument("--monkey-faces", type=int, default=1, choices=(1, 2), help="monkey faces per Matcho die")
    parser.add_argument("--fruit", nargs="+", metavar="FRUIT", help="the six fruit dice: the fruit roller's odds")
    parser.add_argument("--keep", help="indices (0–5) of the fruit dice kept, e.g. 0,1,2")


def _parse_keep(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise BadOddsQuery(f"--keep takes dice indices like 0,1,2, got {text!r}") from None


def odds(args: argparse.Namespace) -> dict[str, Any]:
    if (args.matchos is None) == (args.fruit is None):
        raise BadOddsQuery("give either --matchos N (the Matcho roller) or --fruit with six fruits (the fruit roller)")
    if args.matchos is not None:
        if args.keep is not None:
            raise BadOddsQuery("--keep is for the fruit dice: give it with --fruit, not --matchos")
        return matcho_odds(args.matchos, 1 if args.throws is None else args.throws, args.monkey_faces)
    if args.throws is not None:
        raise BadOddsQuery("--throws is for the Matcho dice: give it with --matchos, not --fruit")
    return fruit_odds(args.fruit, _parse_keep(args.keep or ""))


def _percent(row: dict[str, Any], decimals: int = 2) -> str:
    """The row's chance as a percentage; one short of sure, or above nothing, is never rounded to 100% or 0%."""
    chance = Fraction(row["chance"])
    text = f"{float(chance):.{decimals}%}"
    least = f"{10 ** -decimals:.{decimals}f}%"
    if chance < 1 and text == f"{100:.{decimals}f}%":
        return f"more than {100 - 10 ** -decimals:.{decimals}f}%"
    if chance > 0 and float(text[:-1]) == 0:
        return f"less than {least}"
    return text


def _readable(row: dict[str, Any], decimals: int = 2) -> str:
    percent = _percent(row, decimals)
    denominator = int(row["chance"].split("/")[1])
    return f"{row['chance']} ({percent})" if denominator <= READABLE_DENOMINATOR else f"{percent}"


def odds_text(result: dict[str, Any]) -> str:
    if "matchos" in result:
        lines = [f"From {result['matchos']} Matcho(s), {result['monkey_faces']} monkey face(s) per die:"]
        lines += [f"  three Matchos within {row['throws']} throw(s): {_readable(row)}"
                  for row in result["by_throw"]]
        return "\n".join(lines)
    current = result["current"]
    name = current["combination"] or "no combination"
    lines = [f"Now: {name} ({current['value']}). Re-rolling {result['rerolled']} dice improves it with chance "
             f"{result['improve']['chance']} ({_percent(result['improve'])})."]
    lines += [f"  {row['combination'] or 'no combination'} ({row['value']}): {row['chance']} ({_percent(row)})"
              for row in result["outcomes"]]
    return "\n".join(lines)


def odds_queries() -> list[tuple[str, Callable[[], object]]]:
    mixed = ["coconut", "starfruit", "orange", "banana", "pineapple", "coconut"]
    return [
        ("matcho-0-of-3-in-10-throws", lambda: matcho_odds(0, 10, 1)),
        ("fruit-reroll-all-six", lambda: fruit_odds(mixed, [])),
        ("fruit-best-keep", lambda: best_keep(mixed)),
    ]
