"""Magic Mountain's odds: the chance of each colour for the next draw, and where each colour sends each figure.

JSON shape (`companion odds magic-mountain [--drawn red,blue] --json` and `odds_for_state`):
    {"ball": colour in play or null,
     "bag": [colours the next draw comes from],
     "next_ball": [{"colour": "yellow", "chance": "1/3", "probability": 0.333333}, ...],
     "figures": [{"figure": "S1", "name": "Student 1", "space": 1,
                  "targets": {"red": 6, "yellow": 2, ..., "white": "goal"}}, ...]}
`targets` says where a hit by a ball of that colour would send the figure now (a first hit). Figures on
the goal tile are left out. The draw is uniform over the balls in the bag, counted exactly.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from ..api import GameError
from .game import GAME
from .state import MagicMountainState, figure_name


class BadOddsQuery(GameError):
    pass


def add_odds_arguments(parser) -> None:
    parser.add_argument("--drawn", default="", help="balls already down since the bag was last filled, e.g. red,blue")


def _fraction_json(value: Fraction) -> dict[str, Any]:
    return {"chance": f"{value.numerator}/{value.denominator}", "probability": round(float(value), 6)}


def next_ball_chances(bag: list[str]) -> dict[str, Fraction]:
    return {colour: Fraction(1, len(bag)) for colour in bag}


def odds_for_state(state: MagicMountainState) -> dict[str, Any]:
    if state.ball is not None:
        drawn = state.drawn + [state.ball]
        bag = [c for c in state.board.ball_colours if c not in drawn] or list(state.board.ball_colours)
    else:
        bag = state.bag()
    goal = state.board.goal
    figures = []
    for figure in state.figures_on_path():
        targets = {}
        for colour in state.board.ball_colours:
            space = state.destination(figure, colour)
            targets[colour] = "goal" if space == goal else space
        figures.append({"figure": figure, "name": figure_name(figure), "space": state.positions[figure], "targets": targets})
    return {
        "ball": state.ball,
        "bag": bag,
        "next_ball": [{"colour": c, **_fraction_json(p)} for c, p in next_ball_chances(bag).items()],
        "figures": figures,
    }


def state_with_drawn(drawn: list[str]) -> MagicMountainState:
    """A new game whose bag has lost the `drawn` balls."""
    state = GAME.new_state(["Player 1"])
    colours = state.board.ball_colours
    for colour in drawn:
        if colour not in colours:
            raise BadOddsQuery(f"unknown ball colour {colour!r}; the balls are {', '.join(colours)}")
    if len(set(drawn)) != len(drawn):
        raise BadOddsQuery(f"a ball can be drawn only once per bagful, got {', '.join(drawn)}")
    if len(drawn) >= len(colours):
        raise BadOddsQuery(f"at most {len(colours) - 1} balls can be down before the bag is refilled, got {len(drawn)}")
    state.drawn = list(drawn)
    return state


def odds(args) -> dict[str, Any]:
    drawn = [c.strip().lower() for c in args.drawn.split(",") if c.strip()]
    return odds_for_state(state_with_drawn(drawn))


def odds_text(result: dict[str, Any]) -> str:
    lines = ["Next ball: " + ", ".join(f"{b['colour']} {b['chance']} ({b['probability']:.1%})" for b in result["next_ball"])]
    for figure in result["figures"]:
        targets = ", ".join(f"{c} → {s}" for c, s in figure["targets"].items())
        lines.append(f"{figure['name']} on space {figure['space']}: {targets}")
    return "\n".join(lines)


def odds_queries() -> list[tuple[str, Callable[[], object]]]:
    state = GAME.new_state(["Ada", "Ben", "Cleo", "Dan"])
    return [("next-ball-and-targets", lambda: odds_for_state(state))]
