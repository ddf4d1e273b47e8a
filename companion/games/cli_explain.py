"""`companion explain GAME VALUES... [--big-mountain] [--json]`.

Each game package provides `explain(values: list[str], big_mountain: bool) -> dict` (raising a
`GameError` with a one-line message for bad input) and `explain_text(result) -> str`.
"""
from __future__ import annotations

import json

from ..cli import CliError
from .api import GameError
from .registry import GAME_MODULES, game_module


def add_arguments(parser) -> None:
    parser.add_argument("game", help=f"one of: {', '.join(GAME_MODULES)}")
    parser.add_argument("values", nargs="*", help="the dice as they show: numbers 1–6, or fruit names")
    parser.add_argument("--big-mountain", action="store_true", help="Mountain Goats with the Big Mountain")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of text")


def run(args) -> int:
    try:
        module = game_module(args.game)
        if not hasattr(module, "explain"):
            raise CliError(f"explain is not available for {args.game}")
        result = module.explain(list(args.values), big_mountain=args.big_mountain)
    except GameError as exc:
        raise CliError(str(exc)) from None
    print(json.dumps(result) if args.json else module.explain_text(result))
    return 0
