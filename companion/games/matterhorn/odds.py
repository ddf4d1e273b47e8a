"""`companion odds matterhorn`: exact odds of losing the turn, by enumerating every roll (6^n outcomes,
grouped by multiset, counted with whole numbers, so the chances are exact fractions printed as floats).

Two questions, two JSON shapes:

- `--dice N [--blocked 6,7,12]`: the chance that the next roll of N dice loses the turn, i.e. no choice of
  dice to eliminate reaches a line that is not blocked:
  `{"bust": 0.0578...}`
- `--roll 5 5 6 1 1 [--blocked ...]`: every choice the roll allows, best first. A choice is a line reached
  and the dice eliminated for it (sorted values, `[]` for none); it leaves `dice_left` dice for the next
  roll, with that line blocked too, and `bust_next` is the chance that this next roll loses the turn:
  `{"roll": [5, 5, 6, 1, 1], "blocked": [6, 7, 12], "loses_turn": false,
    "choices": [{"line": 11, "eliminate": [5], "dice_left": 4, "bust_next": 0.04...}, ...]}`
  Best first means the lowest `bust_next`; ties go to the choice that eliminates fewer dice, then to the
  lower line number (higher up the mountain). `loses_turn` is true (and `choices` empty) when no choice
  reaches an open line.

Blocked lines are the lines that can't take a token: used this turn, or with no free circle. The ranking
looks only at the next roll: a bonus move that frees or fills a circle is not foreseen.
"""
from __future__ import annotations

import argparse
from typing import Any, Callable

from .dice import (DICE, BadDice, bust_chance, eliminations, line_bit, lines_mask, parse_dice, parse_lines)


def bust(dice: int, blocked: tuple[int, ...] | list[int]) -> float:
    return float(bust_chance(dice, lines_mask(blocked)))


def ranked_choices(roll: tuple[int, ...], blocked: tuple[int, ...] | list[int],
                   no_roll_after: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
    """A token placed on a line of `no_roll_after` leaves no roll to follow (the supply's last token, no bonus
    move to take an obstacle back): its `bust_next` is None and it ranks as a chance of 0."""
    blocked_mask = lines_mask(blocked)
    choices = []
    for eliminated, line in eliminations(roll):
        if not 5 <= line <= 12 or blocked_mask & line_bit(line):
            continue
        left = len(roll) - len(eliminated)
        chance = None if line in no_roll_after else bust_chance(left, blocked_mask | line_bit(line))
        choices.append((chance or 0, len(eliminated), line, eliminated, left, chance))
    choices.sort(key=lambda c: c[:4])
    return [{"line": line, "eliminate": list(eliminated), "dice_left": left,
             "bust_next": None if chance is None else float(chance)}
            for _, _, line, eliminated, left, chance in choices]


def roll_odds(roll: tuple[int, ...], blocked: tuple[int, ...],
              no_roll_after: frozenset[int] = frozenset()) -> dict[str, Any]:
    choices = ranked_choices(roll, blocked, no_roll_after)
    return {"roll": list(roll), "blocked": list(blocked), "loses_turn": not choices, "choices": choices}


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", help=f"how many dice the next roll uses (1–{DICE})")
    parser.add_argument("--roll", nargs="+", metavar="DIE", help="a roll just read: rank the choices it allows")
    parser.add_argument("--blocked", default="", help="lines that can't take a token, e.g. 6,7,12")


def odds(args: argparse.Namespace) -> dict[str, Any]:
    blocked = _blocked_lines(args.blocked or "")
    if args.roll is not None:
        roll = parse_dice(args.roll)
        if args.dice is not None and _dice_count(args.dice) != len(roll):
            raise BadDice(f"--dice {args.dice} does not match the {len(roll)} dice of --roll")
        return roll_odds(roll, blocked)
    if args.dice is None:
        raise BadDice("give --dice N (the next roll) or --roll VALUES (a roll just read)")
    return {"bust": bust(_dice_count(args.dice), blocked)}


def _blocked_lines(text: str) -> tuple[int, ...]:
    """--blocked's lines; an empty item ("6,,7": a number left out while typing) is refused, not dropped."""
    if text.strip() and "" in text.replace(" ", "").split(","):
        raise BadDice(f"--blocked {text!r} has an empty item: write the lines as 6,7,12 (or leave it out for none)")
    return parse_lines(text)


def _dice_count(text: str) -> int:
    if not str(text).strip().isdigit() or not 1 <= int(text) <= DICE:
        raise BadDice(f"--dice takes a number of dice 1–{DICE}, got {text!r}")
    return int(text)


def odds_text(result: dict[str, Any]) -> str:
    if "bust" in result:
        return f"Chance that the next roll loses the turn: {_percent(result['bust'])}"
    blocked = ", ".join(map(str, result["blocked"])) or "none"
    head = f"Roll {' '.join(map(str, result['roll']))}, lines blocked: {blocked}"
    if result["loses_turn"]:
        return head + "\nNo choice of dice reaches an open line: this roll loses the turn."
    rows = [head, "Choices, best first (chance that the next roll then loses the turn):"]
    for choice in result["choices"]:
        how = "eliminate " + " ".join(map(str, choice["eliminate"])) if choice["eliminate"] else "keep all dice"
        dice = f"{choice['dice_left']} {'die' if choice['dice_left'] == 1 else 'dice'} left"
        rows.append(f"  line {choice['line']:>2}: {how}; {dice}, next roll loses {_percent(choice['bust_next'])}")
    return "\n".join(rows)


def _percent(p: float) -> str:
    return f"{100 * p:.2f}%"


def odds_for_state(state) -> dict[str, Any]:
    """For the live page: during a turn, the dice for the next roll, the blocked lines and the chance that
    the next roll loses the turn (`bust`, None when the supply is empty and no roll is possible); with a roll
    just read, its ranked choices as `--roll` gives them (`bust_next` None when the token placed is the
    supply's last and earns no bonus move: no roll can follow); `player`, whose turn it is. Outside a turn: {}."""
    phase = state.phase
    if phase in ("roll", "decide", "choose", "place", "bonus"):
        blocked = state.blocked_lines()
        out: dict[str, Any] = {"player": state.player, "dice": state.dice_in_play, "blocked": blocked}
        if phase == "choose":
            out.update(roll_odds(state.roll, tuple(blocked), _no_roll_after(state)))
        elif phase in ("roll", "decide"):
            can_roll = phase == "roll" or state.supply > 0
            out["bust"] = bust(state.dice_in_play, blocked) if can_roll else None
        return out
    return {}


def _no_roll_after(state) -> frozenset[int]:
    """With the supply's last token to place, the lines whose token earns no bonus move (a bonus move may take
    an obstacle back into the supply, and a roll can follow)."""
    if state.supply > 1:
        return frozenset()
    return frozenset(range(5, 13)) - state.climber_lines()


def odds_queries() -> list[tuple[str, Callable[[], object]]]:
    """Worst cases: the most dice, most lines to test; the roll with the most choices to rank."""
    return [
        ("bust-5-dice-none-blocked", lambda: bust(5, ())),
        ("bust-5-dice-7-blocked", lambda: bust(5, (5, 6, 7, 8, 9, 10, 11))),
        ("rank-roll-1-2-3-4-5", lambda: roll_odds((1, 2, 3, 4, 5), ())),
        ("rank-roll-6-5-4-3-2-3-blocked", lambda: roll_odds((6, 5, 4, 3, 2), (6, 9, 12))),
        ("cli-roll", lambda: odds(argparse.Namespace(dice=None, roll=["6", "5", "4", "2", "1"], blocked="7,8"))),
    ]
