"""Matterhorn (Leo Colovini, Helvetiq): the rules engine, `companion explain matterhorn` and
`companion odds matterhorn`. The rules and the readings chosen where the rulebook is open are in
`state.py`; the dice arithmetic in `dice.py`; the board and its adjacency in `board.py`."""
from .explain import explain, explain_text
from .game import GAME, MatterhornGame
from .odds import add_odds_arguments, odds, odds_for_state, odds_queries, odds_text
from .state import MatterhornState

__all__ = ["GAME", "MatterhornGame", "MatterhornState", "explain", "explain_text", "add_odds_arguments", "odds",
           "odds_text", "odds_for_state", "odds_queries"]
