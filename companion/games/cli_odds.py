"""`companion odds GAME ... [--json]`.

Each game package provides `add_odds_arguments(parser)`, `odds(args) -> dict` (raising `GameError`
with a one-line message for bad input) and `odds_text(result) -> str`.
"""
from __future__ import annotations

import argparse
import json

from ..cli import CliError, OneLineParser
from .api import GameError
from .registry import GAME_MODULES, game_module


def add_arguments(parser) -> None:
    parser.add_argument("game", help=f"one of: {', '.join(GAME_MODULES)}")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help="the game's own options (`companion odds GAME --help`)")


def run(args) -> int:
    try:
        module = game_module(args.game)
    except GameError as exc:
        raise CliError(str(exc)) from None
    if not hasattr(module, "odds"):
        raise CliError(f"odds are not available for {args.game}")
    parser = OneLineParser(prog=f"companion odds {args.game}")
    module.add_odds_arguments(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of text")
    game_args = parser.parse_args(args.rest)
    try:
        result = module.odds(game_args)
    except GameError as exc:
        raise CliError(str(exc)) from None
    print(json.dumps(result) if game_args.json else module.odds_text(result))
    return 0
