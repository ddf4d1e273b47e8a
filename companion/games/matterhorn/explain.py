"""`companion explain matterhorn DICE...`: what a roll adds up to and which lines eliminating dice can reach.

`sum` counts only the values shown once; `reachable_lines` lists every line 5–12 that some choice of dice
to eliminate (none included) reaches.
"""
from __future__ import annotations

from typing import Any

from .dice import mask_lines, parse_dice, reach_mask, roll_result


def explain(values: list[str]) -> dict[str, Any]:
    dice = parse_dice(values)
    return {"sum": roll_result(dice), "reachable_lines": mask_lines(reach_mask(dice))}


def explain_text(result: dict[str, Any]) -> str:
    lines = result["reachable_lines"]
    reach = ", ".join(map(str, lines)) if lines else "none, this roll loses the turn"
    return (f"Sum: {result['sum']} (a value shown more than once does not count)\n"
            f"Lines reachable (eliminating any dice, or none): {reach}")
