"""Synthetic recorded sessions: a whole game as the camera and the sensors would report it.

A seeded playout of the real engine is turned into the events the table would receive at a real table:
the start request from the page, a `DiceSettled` for every roll the camera reads (Matterhorn, Mountain
Goats), `BallEntered`/`BallLanded` from the gates (Magic Mountain), `ZoneState`s and a `BananaSqueaked`
for every duel (Banana Matcho), and a `PlayerAction` for every choice a person taps. Deterministic from
the seed, small (a few hundred lines of JSON), used by the tests, the demo and `companion record
--synthetic`.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

from ..events import (BallEntered, BallLanded, BananaSqueaked, DiceSettled, DieReading, Event, PlayerAction,
                      ZoneState)
from ..games import registry
from ..games.api import CHANCE, Player, State
from ..games.simulate import player_names

CAMERA_GAMES = ("matterhorn", "mountain-goats")
COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"]


class SessionTooLong(RuntimeError):
    pass


def start_command(game: str, players: int, variants: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"do": "start", "game": game, "variants": variants or {},
            "players": [{"name": name, "colour": COLOURS[i] if i < len(COLOURS) else ""}
                        for i, name in enumerate(player_names(players))]}


def die_readings(values: list[Any], rng: random.Random) -> tuple[DieReading, ...]:
    out = []
    for i, value in enumerate(values):
        x, y = 80.0 + 110 * i + rng.randint(-15, 15), 200.0 + rng.randint(-40, 40)
        out.append(DieReading(value=value, center=(x, y), box=(x - 30, y - 30, x + 30, y + 30),
                              confidence=round(rng.uniform(0.9, 1.0), 3)))
    return tuple(out)


def generate(game: str, seed: int, players: int = 2, variants: dict[str, Any] | None = None,
             step_ns: int = 1_200_000_000, max_events: int = 5000) -> list[Event]:
    return playout(game, seed, players, variants, step_ns, max_events)[0]


def playout(game: str, seed: int, players: int = 2, variants: dict[str, Any] | None = None,
            step_ns: int = 1_200_000_000, max_events: int = 5000) -> tuple[list[Event], State]:
    """The session's events and the final state the engine reached while making them."""
    rng = random.Random(seed)
    game_def = registry.get_game(game)
    command = start_command(game, players, variants)
    state = game_def.new_state([Player(p["name"], p["colour"]) for p in command["players"]], variants or {})
    t = 1_000_000_000
    events: list[Event] = [PlayerAction(t=t, action=command, source="page")]
    while not state.is_over():
        if len(events) > max_events:
            raise SessionTooLong(f"{game} did not end within {max_events} events (seed {seed})")
        t += step_ns + rng.randint(0, step_ns // 2)
        events.extend(_next_events(game, state, rng, t))
    return events, state


def _next_events(game: str, state: State, rng: random.Random, t: int) -> list[Event]:
    """The events for one step of the playout; applies that step to `state`."""
    if state.current_player() == CHANCE:
        request = state.chance_request()
        if game in CAMERA_GAMES and request is not None and request.kind == "dice":
            values = [rng.choice(request.faces) for _ in range(request.count)]
            state.apply(state.chance_action(values))
            return [DiceSettled(t=t, dice=die_readings(values, rng))]
        if game == "banana-matcho":
            return _duel_events(state, rng, t)
        action = state.sample_chance(rng)
        state.apply(action)
        return [PlayerAction(t=t, action={"do": "play", "action": action.to_json()})]
    action = _pick(game, state, rng)
    if game == "banana-matcho":
        return _banana_choice(state, action, rng, t)
    data = action.to_json()
    state.apply(action)
    if game == "magic-mountain" and "opening" in data:
        return [BallEntered(t=t, opening=data["opening"]), BallLanded(t=t + 900_000_000)]
    return [PlayerAction(t=t, action={"do": "play", "action": data})]


def _duel_events(state: State, rng: random.Random, t: int) -> list[Event]:
    """One throw of both rollers, as the camera's two zones report it."""
    state.apply(state.sample_chance(rng))
    return _zone_states(state, rng, t)


def _zone_states(state: State, rng: random.Random, t: int) -> list[Event]:
    data = state.to_json()
    return [ZoneState(t=t, zone="fruit", dice=die_readings(list(data["fruit"] or []), rng)),
            ZoneState(t=t + 1_000_000, zone="matcho", dice=die_readings(list(data["matcho"] or []), rng))]


def _banana_choice(state: State, action: Any, rng: random.Random, t: int) -> list[Event]:
    """A squeak is heard by the banana sensor; the table judges it on the zones, and asks the page only
    when the rules cannot tell who squeaked. "Keep rolling" is nothing the table sees: the next throw is."""
    from ..games.banana_matcho import arbitrate

    data = action.to_json()
    if data["kind"] != "squeak":
        state.apply(action)
        return []
    seen = _zone_states(state, rng, t - 50_000_000)  # the camera reads the zones with every frame
    shown = state.to_json()
    fruit, matcho = list(shown["fruit"] or []), list(shown["matcho"] or [])
    verdict = arbitrate(fruit, matcho) if fruit and matcho else "neither"
    side = verdict if verdict in ("fruit", "matcho") else data["side"]
    if fruit and matcho:
        state.apply(state.chance_action(fruit + matcho))
    state.apply(registry.get_game(state.game).action_from_json({"kind": "squeak", "side": side}))
    after = [dataclasses.replace(zone, t=zone.t + 80_000_000) for zone in seen]  # the frame after the squeak
    events: list[Event] = [*seen, BananaSqueaked(t=t), *after]
    if verdict not in ("fruit", "matcho"):
        events.append(PlayerAction(t=t + 700_000_000, action={"do": "choose", "option": side}))
    return events


def _pick(game: str, state: State, rng: random.Random):
    """A random legal choice; for Matterhorn leaning towards climbing, so a demo game ends in minutes."""
    if game == "matterhorn":
        from ..games.matterhorn.policy import climbing_choice

        return climbing_choice(state, rng)
    return rng.choice(state.legal_actions())
