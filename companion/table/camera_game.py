"""What the camera reads for the game on the table: the pip dice, Banana Matcho's dice zones, or neither. The
live service tells its camera (service.py), and `replay --frames` re-reads a recording's frames the same way,
following the games its events start and end (reread.py)."""
from __future__ import annotations

from typing import Iterable, NamedTuple

from ..events import Event, GameSoFar, PlayerAction
from ..games import registry


def reads_pip_dice(game: str | None, last_game: str | None = None) -> bool:
    """Not for a game without them (Banana Matcho's fruit dice read as "pips" on the page's live view). With no
    game, as for the game last on the table (`last_game`): a Banana Matcho game ended leaves its fruit dice in
    the tray, and the next game's dice are not thrown yet; with none since the service started, yes, so a person
    setting up the camera sees the dice read."""
    name = game or last_game
    return name is None or registry.get_game(name).takes_pip_dice


def reads_zones(game: str | None) -> bool:
    """Only for a game read in the zones (Banana Matcho's duel); none with no game."""
    return game is not None and registry.get_game(game).reads_dice_zones


class CameraReads(NamedTuple):
    pip_dice: bool
    zones: bool


class CameraGame:
    """The game the camera follows: the one on the table and the one last on it since the camera started (a game
    ended leaves its dice in the tray). The live service and `replay --frames` tell it each game as it changes."""

    def __init__(self) -> None:
        self.last: str | None = None

    def follow(self, game: str | None) -> CameraReads:
        """What the camera reads with `game` on the table (None for none)."""
        self.last = game or self.last
        return CameraReads(reads_pip_dice(game, self.last), reads_zones(game))


def games_on_the_table(events: Iterable[Event]) -> list[tuple[int, str | None]]:
    """From a recording's events: (from time t, the game on the table, None for none), as its game so far and
    the page's starts and ends put them. A start naming no game the companion knows was refused: no change."""
    changes: list[tuple[int, str | None]] = []
    for event in events:
        if isinstance(event, GameSoFar):
            changes.append((event.t, event.game.get("game")))
        elif isinstance(event, PlayerAction) and isinstance(event.action, dict):
            if event.action.get("do") == "start" and event.action.get("game") in registry.GAME_MODULES:
                changes.append((event.t, event.action["game"]))
            elif event.action.get("do") == "end":
                changes.append((event.t, None))
    return changes
