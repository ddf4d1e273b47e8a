"""Banana Matcho (Zoch 2012): the rules engine.

A duel: the fruit roller (the active player) rolls the six fruit dice, the left neighbour the three Matcho
dice, both at once, until the banana squeaks. The engine is told what both sets of dice show
(`DiceShowing`, from the camera's ZoneState readings or typed; `chance_action` takes 9, 6 or 3 values) and
who squeaked first (`Squeak(side)`). A squeak is judged on the dice showing at that moment
(`arbitration.arbitrate`): a legitimate fruit squeak climbs the combination's value, three Matchos climb
one space, and the other roller goes away empty-handed; then the fruit dice pass to the left neighbour and
the Matcho dice to that player's left neighbour. The first monkey on the fruit basket wins.

Flow for the game API: at the start of a duel, and after "keep rolling" or a Continue, the engine waits
for the dice (CHANCE); once it has seen them, the fruit roller's "player" node offers: the fruit roller
squeaks, the Matcho roller squeaks, or both keep rolling. The live table does not wait for that rhythm:
dice readings and squeaks are accepted at any moment of a duel (`_check` is overridden for that).
`state.event_action(event)` turns a camera ZoneState into a `DiceShowing` and a BananaSqueaked into the
squeak of the only side that can have squeaked legitimately; when both or neither can, it returns None and
the page asks who squeaked (`verdict()` says which case it is).

Readings where the rulebook is open, chosen as a family at the table would expect:
- A squeak without a valid combination is a Continue: that monkey goes one space down (not below the start
  space) and the duel goes on. The same holds for a Matcho roller who squeaks without three Matchos.
- A squeak before any dice were seen is judged on nothing: a Continue.
- A monkey that climbs past the fruit basket stops on it (and wins).
- With two players the duel roles simply swap each duel.
- Scores are the monkeys' spaces (0 = start).
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any, Mapping

from ...events import BananaSqueaked, Event, ZoneState
from ..api import CHANCE, TERMINAL, Action, BadConfig, ChanceRequest, IllegalAction, Player, State
from .actions import DiceShowing, KeepRolling, Squeak
from .arbitration import arbitrate
from .combinations import (BLANK, FRUITS, MATCHO, MATCHO_FACES, NO_COMBINATION, THREE_MATCHOS_VALUE, BadFaces,
                           Combination, check_fruit_faces, check_matcho_faces, combination)

SIDES = ("fruit", "matcho")
# A simulated fruit roller keeps everything once the dice are worth this much, and squeaks hopefully.
SIMULATED_CONTENT_VALUE = 7


class BananaMatchoState(State):
    game = "banana-matcho"

    def __init__(self, players: tuple[Player, ...], variants: dict[str, Any], top_space: int):
        super().__init__()
        self.players = players
        self.variants = variants
        self.top_space = top_space
        self.monkey_faces: int = variants["monkey_faces"]
        self.positions = [0] * len(players)
        self.fruit_roller = 0
        self.fruit: tuple[str, ...] | None = None
        self.matcho: tuple[str, ...] | None = None
        self.awaiting_dice = True
        self.last_squeak: dict[str, Any] | None = None

    # -- the duel -------------------------------------------------------------------------------
    @property
    def matcho_roller(self) -> int:
        return (self.fruit_roller + 1) % len(self.players)

    def roller(self, side: str) -> int:
        return self.fruit_roller if side == "fruit" else self.matcho_roller

    def fruit_combination(self) -> Combination:
        return combination(self.fruit) if self.fruit else NO_COMBINATION

    def matchos_showing(self) -> int:
        return sum(1 for face in self.matcho or () if face == MATCHO)

    def duel_began(self) -> int:
        """How many actions had been played when the duel now on began (0: the game's first duel). A squeak
        that climbs ends a duel and passes the fruit dice on; a Continue does not."""
        after = self.fruit_roller
        for played in range(len(self._undo_stack), 0, -1):
            before = self._undo_stack[played - 1][1][1]  # the fruit roller saved before that action (`_save`)
            if before != after:
                return played
        return 0

    def verdict(self) -> str:
        """Who can have squeaked legitimately now: "fruit", "matcho", "both" or "neither" (see arbitrate)."""
        return arbitrate(self.fruit, self.matcho or None)

    def squeak_action(self) -> Squeak | None:
        """The squeak to apply when the banana squeaks: the side that alone can have squeaked legitimately;
        None when the page must ask who squeaked (verdict "both" or "neither")."""
        verdict = self.verdict()
        return Squeak(verdict) if verdict in SIDES else None

    def event_action(self, event: Event) -> Action | None:
        """The action a camera or sensor event stands for, or None: a ZoneState of the six fruit or three
        Matcho dice that differs from what the engine knows (readings with an unsure die are ignored, as
        are zones with another number of dice: a die still rolling); a BananaSqueaked -> `squeak_action`."""
        if isinstance(event, BananaSqueaked):
            return self.squeak_action()
        if not isinstance(event, ZoneState) or any(d.unsure for d in event.dice):
            return None
        values = [d.value for d in event.dice]
        try:
            if event.zone == "fruit" and len(values) == 6:
                showing = DiceShowing(fruit=check_fruit_faces(values))
                return showing if showing.fruit != self.fruit else None
            if event.zone == "matcho" and len(values) == 3:
                showing = DiceShowing(matcho=check_matcho_faces(values))
                return showing if showing.matcho != self.matcho else None
        except BadFaces:
            return None
        return None

    def _squeak_result(self, side: str) -> tuple[bool, int]:
        """(legitimate, spaces climbed) of a squeak by `side` now."""
        if side == "fruit":
            value = self.fruit_combination().value
            return value > 0, value
        return self.matchos_showing() == 3, THREE_MATCHOS_VALUE

    # -- the game API ---------------------------------------------------------------------------
    def is_over(self) -> bool:
        return max(self.positions) >= self.top_space

    def current_player(self) -> int:
        if self.is_over():
            return TERMINAL
        return CHANCE if self.awaiting_dice else self.fruit_roller

    def legal_actions(self) -> list[Action]:
        if self.is_over() or self.awaiting_dice:
            return []
        return [Squeak("fruit"), Squeak("matcho"), KeepRolling()]

    def _check(self, action: Action) -> None:
        if self.is_over():
            raise IllegalAction("the game is over")
        if isinstance(action, DiceShowing):
            return self._check_showing(action)
        if isinstance(action, Squeak):
            if action.side.__class__ is not str or action.side not in SIDES:
                raise IllegalAction(f"a squeak comes from side 'fruit' or 'matcho', got {action.side!r}")
            return
        if isinstance(action, KeepRolling):
            if self.awaiting_dice:
                raise IllegalAction("the dice are already rolling; tell me what they show")
            return
        raise IllegalAction(f"{action!r} is not a Banana Matcho action")

    def _check_chance(self, action: Action) -> None:
        self._check(action)

    def _check_showing(self, action: DiceShowing) -> None:
        for name in ("fruit", "matcho"):
            faces = getattr(action, name)
            if faces is not None and faces.__class__ is not tuple:
                raise IllegalAction(f"the {name} dice must be a list of faces or None, got {faces!r}")
        try:
            if action.fruit is not None and check_fruit_faces(action.fruit) != action.fruit:
                raise IllegalAction(f"fruit faces must be written as {', '.join(FRUITS)}, got {list(action.fruit)}")
            if action.matcho is not None and check_matcho_faces(action.matcho) != action.matcho:
                raise IllegalAction(f"Matcho faces must be written as {MATCHO} or {BLANK}, got {list(action.matcho)}")
        except BadFaces as exc:
            raise IllegalAction(str(exc)) from None
        if action.fruit is None and action.matcho is None:
            raise IllegalAction("a dice reading needs the fruit dice, the Matcho dice or both")

    def describe(self, action: Action) -> str:
        if isinstance(action, DiceShowing):
            parts = []
            if action.fruit is not None:
                parts.append("fruit dice " + ", ".join(action.fruit))
            if action.matcho is not None:
                count = sum(1 for f in action.matcho if f == MATCHO)
                parts.append(f"{count} Matcho{'s' if count != 1 else ''}")
            return "The dice show " + " and ".join(parts)
        if isinstance(action, Squeak):
            name = self.players[self.roller(action.side)].name
            legit, spaces = self._squeak_result(action.side)
            if not legit:
                return f"{name} squeaked too early: Continue, one space down"
            what = self.fruit_combination().name if action.side == "fruit" else "three Matchos"
            return f"{name} squeaked with {what}: climb {spaces}"
        if isinstance(action, KeepRolling):
            return "Nobody squeaks yet: keep rolling"
        raise IllegalAction(f"{action!r} is not a Banana Matcho action")

    def prompt(self) -> str:
        if self.is_over():
            return f"{self.players[self.winners()[0]].name}'s monkey reached the fruit basket and wins!"
        fruit, matcho = self.players[self.fruit_roller].name, self.players[self.matcho_roller].name
        if self.awaiting_dice:
            return f"{fruit} rolls the fruit dice, {matcho} the Matcho dice: what do they show?"
        return f"{fruit} (fruit) against {matcho} (Matcho): who squeaks first?"

    def chance_request(self) -> ChanceRequest | None:
        if self.current_player() != CHANCE:
            return None
        return ChanceRequest("duel-dice", 9, FRUITS + MATCHO_FACES, self.prompt(),
                             (self.fruit_roller, self.matcho_roller))

    def chance_action(self, values: list[Any]) -> Action:
        """9 values (six fruit, then three Matcho faces), or one set alone: 6 fruit names or 3 Matcho faces."""
        if not isinstance(values, (list, tuple)):
            raise IllegalAction(f"expected a list of 9 dice (6 fruit, 3 Matcho), 6 fruit dice or 3 Matcho dice; got {values!r}")
        try:
            if len(values) == 9:
                action = DiceShowing(check_fruit_faces(values[:6]), check_matcho_faces(values[6:]))
            elif len(values) == 6:
                action = DiceShowing(fruit=check_fruit_faces(values))
            elif len(values) == 3:
                action = DiceShowing(matcho=check_matcho_faces(values))
            else:
                raise IllegalAction(f"expected 9 dice (6 fruit, 3 Matcho), 6 fruit dice or 3 Matcho dice; got {len(values)}")
        except BadFaces as exc:
            raise IllegalAction(str(exc)) from None
        self._check(action)
        return action

    def sample_chance(self, rng: random.Random) -> Action:
        """One throw of each roller: the Matcho roller keeps Matchos and re-rolls blanks; the fruit roller
        keeps the fruits that show at least twice (everything once the dice are worth 7 or more)."""
        matcho = tuple(face if face == MATCHO else (MATCHO if rng.randrange(6) < self.monkey_faces else BLANK)
                       for face in self.matcho or (BLANK,) * 3)
        if self.fruit is None:
            fruit = tuple(rng.choice(FRUITS) for _ in range(6))
        elif self.fruit_combination().value >= SIMULATED_CONTENT_VALUE:
            fruit = self.fruit
        else:
            counts = Counter(self.fruit)
            fruit = tuple(face if counts[face] >= 2 else rng.choice(FRUITS) for face in self.fruit)
        return DiceShowing(fruit, matcho)

    def _apply(self, action: Action) -> None:
        if isinstance(action, DiceShowing):
            if action.fruit is not None:
                self.fruit = action.fruit
            if action.matcho is not None:
                self.matcho = action.matcho
            self.awaiting_dice = False
        elif isinstance(action, KeepRolling):
            self.awaiting_dice = True
        elif isinstance(action, Squeak):
            self._apply_squeak(action.side)

    def _apply_squeak(self, side: str) -> None:
        player = self.roller(side)
        legit, spaces = self._squeak_result(side)
        if legit:
            self.positions[player] = min(self.top_space, self.positions[player] + spaces)
            self.last_squeak = {"player": player, "side": side, "climbed": spaces,
                                "combination": self.fruit_combination().name if side == "fruit" else "three-matchos"}
            self.fruit_roller = (self.fruit_roller + 1) % len(self.players)
            self.fruit = self.matcho = None
        else:
            self.positions[player] = max(0, self.positions[player] - 1)
            self.last_squeak = {"player": player, "side": side, "climbed": 0, "combination": None}
        self.awaiting_dice = True

    def scores(self) -> list[int]:
        return list(self.positions)

    def winners(self) -> list[int]:
        return [i for i, p in enumerate(self.positions) if p >= self.top_space]

    # -- undo and JSON --------------------------------------------------------------------------
    def _save(self) -> Any:
        return (list(self.positions), self.fruit_roller, self.fruit, self.matcho, self.awaiting_dice, self.last_squeak)

    def _load(self, saved: Any) -> None:
        positions, self.fruit_roller, self.fruit, self.matcho, self.awaiting_dice, self.last_squeak = saved
        self.positions = list(positions)

    def _data(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "variants": dict(self.variants),
            "board": {"top_space": self.top_space},
            "positions": list(self.positions),
            "fruit_roller": self.fruit_roller,
            "fruit": list(self.fruit) if self.fruit else None,
            "matcho": list(self.matcho) if self.matcho else None,
            "awaiting_dice": self.awaiting_dice,
            "last_squeak": dict(self.last_squeak) if self.last_squeak else None,
        }

    @classmethod
    def _from_data(cls, data: Mapping[str, Any]) -> "BananaMatchoState":
        from .board import load_top_space

        try:
            players = tuple(Player(p["name"], p.get("colour", "")) for p in data["players"])
            state = cls(players, dict(data["variants"]), load_top_space(data["board"]))
            state.positions = [int(p) for p in data["positions"]]
            state.fruit_roller = int(data["fruit_roller"])
            state.fruit = check_fruit_faces(data["fruit"]) if data["fruit"] is not None else None
            state.matcho = check_matcho_faces(data["matcho"]) if data["matcho"] is not None else None
            state.awaiting_dice = bool(data["awaiting_dice"])
            state.last_squeak = dict(data["last_squeak"]) if data["last_squeak"] else None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadConfig(f"not a Banana Matcho state: {exc!r}") from None
        if len(state.positions) != len(players) or not 0 <= state.fruit_roller < len(players):
            raise BadConfig("not a Banana Matcho state: positions or fruit roller do not fit the players")
        return state
