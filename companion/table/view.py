"""The view: everything a page shows, as one JSON-friendly dict built by the owner thread after each change.

Pages never see the engine; they get this snapshot (full, on every update, so a page that reconnects
needs nothing else). Built once per change, shared read-only by every stream.
"""
from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from ..games import registry
from ..games.api import CHANCE, TERMINAL, join_words
from .inputs import with_dice_to_tap

if TYPE_CHECKING:
    from .owner import Table

RECENT_HISTORY = 30


def build_view(table: "Table") -> dict[str, Any]:
    game = table.game
    shown = game_view(game, table.duel_dice.showing()) if game is not None else None
    if shown is not None and table.unstepped:  # a question asked or put away, an event kept, can be undone
        shown["can_undo"] = True
    return {
        "version": table.version,
        "run": table.run,
        "step": step_token(shown, table.question, len(table.unstepped)),
        "game": shown,
        "question": None if table.question is None else with_dice_to_tap(
            {k: v for k, v in table.question.items() if k != "lying"}),
        "notice": table.notice_shown(),
        "health": dict(table.health),
    }


def step_token(game: dict[str, Any] | None, question: dict[str, Any] | None, unstepped: int = 0) -> str:
    """Names the game situation a page shows: the game, its state, the last roll read and the question
    asked. A tap sent with it (`"seen"`) is refused once the game has moved on, so two phones tapping at
    once, or a tap on a page that had not caught up, never plays twice or into the next player's turn.
    Made from what the game is, not from how it was seen: not the journal's numbering, the clock, or where
    and how surely each die was read, so a replay meets the same, with the frames re-read too. `unstepped`:
    how many changes with no step (a question asked or put away, an event kept) undo can take back, so a second
    phone's Undo of the same page is refused once the first took one back (left out when none, as before)."""
    situation = None if game is None else [game["name"], game["players"], game["variants"], game["state"],
                                           game["history_count"], _values_of(game["last_reading"])]
    asked = None if question is None else {**{k: v for k, v in question.items() if k not in ("t", "reading", "lying")},
                                           "reading": _values_of(question.get("reading"))}
    text = json.dumps([situation, asked] + ([unstepped] if unstepped else []), sort_keys=True, separators=(",", ":"),
                      default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def _values_of(reading: dict[str, Any] | None) -> list[Any] | None:
    """A roll read as far as the game goes: the faces, which of them were unsure, and where it stands."""
    if reading is None:
        return None
    return [reading.get("values"), reading.get("unsure"), reading.get("index"), reading.get("corrected")]


# what a step keeps for undo, and the dice a Banana Matcho duel began with (owner.py): not sent to every page
UNDO_ONLY = ("asked", "actions", "kept", "lying")


def _shown_step(step: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in step.items() if k not in UNDO_ONLY} if any(k in step for k in UNDO_ONLY) else step


def game_view(game, dice_seen: dict[str, tuple[str, ...]] | None = None) -> dict[str, Any]:
    """`dice_seen`: Banana Matcho's dice as the camera reads them now, by zone, which the odds are of: the
    game knows the dice of the last squeak only."""
    state = game.state
    game_def = registry.get_game(game.name)
    current = state.current_player()
    players = game.setup["players"]
    request = state.chance_request()
    over = current == TERMINAL
    return {
        "id": game.id,
        "name": game.name,
        "title": game_def.title,
        "players": players,
        "variants": game.setup.get("variants", {}),
        "current_player": current,
        "turn_players": _turn_players(current, request),  # marked in the scores: at a roll, who rolls
        "turn": _turn_words(current, players, request, _safe(state.teams, None)),
        "prompt": _safe(state.prompt, ""),
        "legal": [] if over else _safe(state.describe_legal, []),
        "chance": _chance_json(state, request) if request is not None and current == CHANCE else None,
        "teams": _safe(state.teams, None),
        "scores": _safe(state.scores, []),
        "winners": _safe(state.winners, []) if over else [],
        "over": over,
        "odds": None if over else _odds(game.name, _with_dice_seen(game.name, state, dice_seen)),
        "state": state.to_json(),
        "history": [_shown_step(step) for step in game.history[-RECENT_HISTORY:]],
        "history_count": len(game.history),
        "last_reading": game.last_reading,
        "can_undo": bool(game.history),
    }


def _chance_json(state, request) -> dict[str, Any]:
    out = request.to_json()
    if request.kind == "hits":
        path = _safe(lambda: _hit_path(state), None)
        if path is not None:
            out["path"] = path
    return out


def _hit_path(state) -> dict[str, Any]:
    """For the figures a ball hit, tapped one by one on the page: the spaces of the ball's colour, the goal
    tile and where each figure stands, so the page can follow each tap (a hit figure goes on to the next
    vacant space of the ball's colour, else onto the goal tile) and stops offering a figure its taps have
    put on the goal tile, which the game would refuse to see hit again."""
    board = state.board
    return {"spaces": board.colour_spaces_below(state.ball, 0), "goal": board.goal, "positions": dict(state.positions),
            "ends": state.ending_counts()}


def _turn_words(current: int, players: list[dict[str, Any]], request, teams: list[dict[str, Any]] | None) -> str:
    """Whose turn, or at a roll or a draw who makes it ("Ben: roll the dice"); what the table waits for when
    nobody does (the figures a ball hit)."""
    if current == TERMINAL:
        return "The game is over"
    if current == CHANCE:
        names = [_seat_name(p, players) for p in _turn_players(current, request)]  # a team: the scores' ▶ says it
        who = join_words(names) if names else ""
        kind, count = (request.kind, request.count) if request is not None else ("", 0)
        wanted = {"dice": "roll the die" if count == 1 else "roll the dice", "duel-dice": "roll the dice",
                  "draw": "draw a ball from the bag"}.get(kind)
        if wanted is None:
            return "Tap what the ball hit" if kind == "hits" else "What happened?"
        return f"{who}: {wanted}" if who else wanted[0].upper() + wanted[1:]
    if 0 <= current < len(players):
        name = players[current]["name"]
        team = _team_name(current, teams) or name
        return f"{name}'s turn" if team == name else f"{name}'s turn ({team})"
    return f"Player {current + 1}'s turn"


def _turn_players(current: int, request) -> list[int]:
    """The seats whose turn it is: the player's, or those who roll or draw what the game waits for."""
    if current == CHANCE:
        return list(request.players) if request is not None else []
    return [current] if current >= 0 else []


def _team_name(seat: int, teams: list[dict[str, Any]] | None) -> str | None:
    return next((t["name"] for t in teams or () if seat in t["players"]), None)


def _seat_name(seat: int, players: list[dict[str, Any]]) -> str:
    return players[seat]["name"] if 0 <= seat < len(players) else f"Player {seat + 1}"


def _odds(name: str, state) -> Any:
    try:
        module = registry.game_module(name)
        if not hasattr(module, "odds_for_state"):
            return None
        return module.odds_for_state(state)
    except Exception as exc:  # odds are a help; a failure there must not hide the game
        return {"error": f"odds unavailable: {exc}"}


def _with_dice_seen(name: str, state, dice_seen: dict[str, tuple[str, ...]] | None):
    """`state`, or a copy of it with the dice seen showing (the game itself is not touched); the state as it
    is if they do not fit it."""
    if not dice_seen:
        return state
    try:
        return _copy_showing(name, state, dice_seen)
    except Exception:  # odds are a help: those of the game as it is rather than none
        return state


def _copy_showing(name: str, state, dice_seen: dict[str, tuple[str, ...]]):
    seen = registry.get_game(name).state_from_json(state.to_json())
    for faces in dice_seen.values():
        seen.apply(seen.chance_action(list(faces)))
    return seen


def _safe(fn, default):
    try:
        return fn()
    except Exception:
        return default
