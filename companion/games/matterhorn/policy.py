"""A random Matterhorn player that leans towards climbing, for playouts that end.

Uniformly random climbers wander up and down for two to five thousand actions a game; leaning the
weights towards one's own climbers going up (and the summit) ends a game in a few hundred, with every
choice still random and legal. Used by the demo sessions and the thousand-game playout tests.
"""
from __future__ import annotations

import random

from ..api import Action, State

SUMMIT_WEIGHT = 200.0
OWN_UP, OWN_OTHER, OPPONENT, END_MOVES = 20.0, 0.3, 0.1, 0.2


def climbing_choice(state: State, rng: random.Random) -> Action:
    actions = state.legal_actions()
    me = state.current_player()
    line_of, climbers = state.board.cell_line, state.climbers
    weights = []
    for action in actions:
        kind = action.kind
        if kind == "summit":
            weights.append(SUMMIT_WEIGHT)
        elif kind == "move":
            at = climbers[2 * action.owner + action.climber]
            upward = at >= 0 and action.line < line_of[at]
            weights.append((OWN_UP if upward else OWN_OTHER) if action.owner == me else OPPONENT)
        elif kind == "end_moves":
            weights.append(END_MOVES)
        else:
            weights.append(1.0)
    return rng.choices(actions, weights)[0]
