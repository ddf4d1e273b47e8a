"""Mountain Goats, with the Big Mountain expansion: the rules engine, `companion explain` and `companion odds`.

The rules and the readings chosen where the rulebook is silent are in state.py's docstring; the odds and
their JSON shape in odds.py's.
"""
from .explain import explain, explain_text
from .odds import add_odds_arguments, odds, odds_for_state, odds_queries, odds_text
from .state import GAME, Move, MountainGoatsState, Roll

__all__ = ["GAME", "Move", "MountainGoatsState", "Roll", "explain", "explain_text", "add_odds_arguments", "odds",
           "odds_for_state", "odds_queries", "odds_text"]
