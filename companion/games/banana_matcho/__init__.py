"""Banana Matcho: the rules engine (state.py), the combination table, the squeak's arbitration, explain and odds."""
from .arbitration import arbitrate
from .combinations import FRUITS, Combination, combination
from .explain import explain, explain_text
from .game import GAME, BananaMatchoGame
from .odds import add_odds_arguments, odds, odds_for_state, odds_queries, odds_text
from .state import BananaMatchoState

__all__ = ["GAME", "BananaMatchoGame", "BananaMatchoState", "FRUITS", "Combination", "combination", "arbitrate",
           "explain", "explain_text", "add_odds_arguments", "odds", "odds_for_state", "odds_queries", "odds_text"]
