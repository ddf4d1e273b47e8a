"""Magic Mountain: the rules engine (state.py), its board data (board.py) and odds (odds.py)."""
from .game import GAME, MagicMountainGame
from .odds import add_odds_arguments, odds, odds_for_state, odds_queries, odds_text
from .state import MagicMountainState, title_for

__all__ = ["GAME", "MagicMountainGame", "MagicMountainState", "title_for", "add_odds_arguments", "odds",
           "odds_for_state", "odds_queries", "odds_text"]
