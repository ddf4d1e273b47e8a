"""Magic Mountain's odds: the chance of each colour for the next draw, and where each colour sends each figure.

JSON shape (`companion odds magic-mountain [--drawn red,blue] [--ball yellow [--opening 3]] [--figures S1=7 W2=goal ...]
[--teams] --json` and `odds_for_state`):
    {"ball": colour in play or null,
     "opening": the opening the ball went in, or null (the command line only),
     "bag": [colours the next draw comes from],
     "next_ball": [{"colour": "yellow", "chance": "1/3", "probability": 0.333333}, ...],
     "figures": [{"figure": "S1", "name": "Student 1", "space": 1,
                  "targets": {"red": 6, "yellow": 2, ..., "white": "goal"}}, ...]}
`targets` says where a hit by a ball of that colour would send the figure now (a first hit). Figures on
the goal tile are left out. The draw is uniform over the balls in the bag, counted exactly.

The command line describes the table as the page meets it: --drawn the balls down since the bag was filled, --ball
the one drawn and in play (in hand, or with --opening in that opening on its way down), --figures where figures
stand (the others on their starting spaces), --teams a Team Witch vs. Team Student game (four students and four
witches, starting on the team spaces). The odds are then `odds_for_state`'s for that state: whose turn it is
changes none of them, so any number of players gives the same.
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
    parser.add_argument("--drawn", default="", metavar="COLOURS", help="balls already down since the bag was last filled, e.g. red,blue")
    parser.add_argument("--ball", metavar="COLOUR", help="the ball drawn and in play, e.g. yellow (not among --drawn)")
    parser.add_argument("--opening", type=int, metavar="N", help="the opening the --ball went in (1 at the left)")
    parser.add_argument("--figures", action="extend", nargs="+", default=[], metavar="F=S",
                        help="where figure F stands: a space, or goal (e.g. S1=7 W2=goal; the others on their "
                             "starting spaces)")
    parser.add_argument("--teams", action="store_true",
                        help="a Team Witch vs. Team Student game: four students and four witches on the team spaces")


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


def state_with_drawn(drawn: list[str], teams: bool = False) -> MagicMountainState:
    """A new game (in two teams with `teams`) whose bag has lost the `drawn` balls."""
    state = GAME.new_state(["Team Student", "Team Witch"], {"mode": "teams"}) if teams else GAME.new_state(["Player 1"])
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


def _place_figures(state: MagicMountainState, given: list[str]) -> None:
    """--figures F=S: each figure on its space (or the goal tile); one figure a space, the game not yet over."""
    goal, placed = state.board.goal, {}
    for text in given:
        name, sep, where = (part.strip() for part in text.partition("="))
        figure = name.upper()
        if not sep or figure not in state.positions:
            raise BadOddsQuery(f"expected FIGURE=SPACE like S1=7 or W2=goal, the figures being "
                               f"{', '.join(state.positions)}; got {text!r}")
        if figure in placed:
            raise BadOddsQuery(f"--figures gives {figure} twice ({figure}={placed[figure]}, {text}); give it once")
        if where.lower() == "goal":
            space = goal
        elif where.isdigit() and 1 <= int(where) < goal:
            space = int(where)
        else:
            raise BadOddsQuery(f"a figure stands on a space 1 to {goal - 1} or on the goal, got {text!r}")
        placed[figure] = where
        state.positions[figure] = space
    on_path = [p for p in state.positions.values() if p != goal]
    for space in sorted({p for p in on_path if on_path.count(p) > 1}):
        figures = [f for f, p in state.positions.items() if p == space]
        raise BadOddsQuery(f"space {space} holds {' and '.join(figures)}: a space holds one figure "
                           "(give --figures for each figure moved from its start)")
    for kind, count in state.ending_counts().items():
        if state.on_goal(kind) >= count:
            raise BadOddsQuery(f"{state.on_goal(kind)} {'students' if kind == 'S' else 'witches'} on the goal tile: "
                               "that game is over")


def _put_ball_in_play(state: MagicMountainState, ball: str | None, opening: int | None) -> None:
    """The ball drawn (--ball) and, with --opening, put into that opening: applied as the page's taps are."""
    if ball is None:
        if opening is not None:
            raise BadOddsQuery(f"--opening {opening} needs --ball: which ball went in?")
        return
    colour = ball.strip().lower()
    if colour in state.drawn:
        raise BadOddsQuery(f"--ball {colour} and --drawn {colour}: there is one {colour} ball, and the ball in "
                           f"play is not down yet: leave {colour} out of --drawn")
    if colour not in state.board.ball_colours:
        raise BadOddsQuery(f"unknown ball colour {colour!r}; the balls are {', '.join(state.board.ball_colours)}")
    state.apply(state.chance_action([colour]))
    if opening is not None:
        if not 1 <= opening <= state.board.openings:
            raise BadOddsQuery(f"the openings are numbered 1 to {state.board.openings}, got {opening}")
        state.apply(state.opening_action(opening))


def odds(args) -> dict[str, Any]:
    drawn = [c.strip().lower() for c in args.drawn.split(",") if c.strip()]
    state = state_with_drawn(drawn, getattr(args, "teams", False))
    _place_figures(state, args.figures)
    _put_ball_in_play(state, args.ball, args.opening)
    return {**odds_for_state(state), "opening": state.opening}


def odds_text(result: dict[str, Any]) -> str:
    chances = ", ".join(f"{b['colour']} {b['chance']} ({b['probability']:.1%})" for b in result["next_ball"])
    ball = result["ball"]
    if ball is None:
        lines = [f"Next ball: {chances}"]
    else:
        where = f"in opening {result['opening']}" if result.get("opening") else "drawn, not yet put in"
        lines = [f"The {ball} ball is in play ({where}).", f"The ball after this one: {chances}",
                 f"Where the {ball} ball sends the first figure it hits:"]
    for figure in result["figures"]:
        shown = {ball: figure["targets"][ball]} if ball else figure["targets"]
        targets = ", ".join(f"{c} → {s}" for c, s in shown.items())
        lines.append(f"{figure['name']} on space {figure['space']}: {targets}")
    return "\n".join(lines)


def odds_queries() -> list[tuple[str, Callable[[], object]]]:
    state = GAME.new_state(["Ada", "Ben", "Cleo", "Dan"])
    return [("next-ball-and-targets", lambda: odds_for_state(state))]
