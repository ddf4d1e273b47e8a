"""`companion explain GAME VALUES... [--big-mountain] [--json]`.

Each game package of EXPLAINED provides `explain(values: list[str], **options) -> dict` (raising a
`GameError` with a one-line message for bad input) and `explain_text(result) -> str`; `options` are the
ONE_GAME_OPTIONS of that game, by attribute name.
"""
from __future__ import annotations

import json

from ..cli import CliError
from .api import GameError
from .mountain_goats.odds import add_big_mountain_arguments
from .registry import GAME_MODULES, game_module

# The games that have an explain (magic-mountain has no dice: its chance is the ball drawn from the bag).
# Named here so that --help lists them without importing every game.
EXPLAINED = ("matterhorn", "mountain-goats", "banana-matcho")
# Options that apply to one game only: refused, by name, for the others; passed to that game's explain.
ONE_GAME_OPTIONS = {"big_mountain": ("--big-mountain", "mountain-goats"),
                    "big_goats": ("--big-goats", "mountain-goats"),
                    "others_big": ("--others-big", "mountain-goats")}


def add_arguments(parser) -> None:
    parser.add_argument("game", help=f"one of: {', '.join(EXPLAINED)}")
    parser.add_argument("values", nargs="*", help="the dice as they show: numbers 1–6, or fruit names")
    parser.add_argument("--big-mountain", action="store_true", help="Mountain Goats with the Big Mountain")
    add_big_mountain_arguments(parser, "2 to 5")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of text")


def run(args) -> int:
    if args.game not in EXPLAINED:
        if args.game in GAME_MODULES:
            raise CliError(f"explain is not available for {args.game}")
        raise CliError(f"unknown game {args.game!r}; choose one of: {', '.join(EXPLAINED)}")
    try:
        module = game_module(args.game)
        options = {}
        for attribute, (option, game) in ONE_GAME_OPTIONS.items():
            if args.game == game:
                options[attribute] = getattr(args, attribute)
            elif getattr(args, attribute):
                raise CliError(f"{option} is for {game_module(game).GAME.title}, not {module.GAME.title}")
        result = module.explain(list(args.values), **options)
    except GameError as exc:
        raise CliError(str(exc)) from None
    print(json.dumps(result) if args.json else module.explain_text(result))
    return 0
