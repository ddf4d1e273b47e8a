"""The game API every rules engine implements.

Modelled on OpenSpiel's state API and python-chess's board:

- A `State` is mutable: `apply(action)` changes it, `undo()` takes the last action back, `clone()` copies it.
- `current_player()` is a player index (0-based), or `CHANCE` when the engine waits for dice or another
  outcome from outside (read by the camera, typed by hand, or drawn by a simulator with a seeded
  generator), or `TERMINAL` when the game is over.
- `legal_actions()` lists the actions that may be applied now; `describe(action)` gives a short human
  text for each, the words the page shows on its buttons. When the current player is `CHANCE`, the
  legal actions are empty; `chance_request()` says what outcome the engine waits for, and
  `sample_chance(rng)` draws one with the generator it is given (the engine has no randomness of its own).
- Actions are frozen dataclasses with a JSON form `{"kind": ..., **fields}`, so a game is journaled
  and replayed exactly. A state serialises to JSON and back with `to_json()` / `Game.state_from_json()`.

Engines are pure: no I/O, no clock, no randomness of their own.
"""
from __future__ import annotations

import copy
import dataclasses
import itertools
import operator
import random
import types
import typing
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Iterable, Mapping

CHANCE = -1
TERMINAL = -2


def join_words(items: list[str]) -> str:
    """["a", "b", "c"] -> "a, b and c": a list in the engines' words for people."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class GameError(ValueError):
    """Base of the engines' precise exceptions; the message is meant for a person."""


class IllegalAction(GameError):
    """The action is well formed but not allowed in this state; the state is unchanged."""


class BadAction(GameError):
    """The action's JSON form is malformed (unknown kind, missing or wrongly typed field)."""


class BadConfig(GameError):
    """A game set-up or a board-layout data file is invalid; the message names the field and the value."""


class NothingToUndo(GameError):
    """`undo()` was called on a state with no action applied."""


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every action and chance outcome. Subclasses set `kind` and add fields.

    Field values must be JSON-friendly: int, str, bool, None, or tuples of these (tuples become lists
    in JSON and are turned back into tuples on load, so actions stay hashable and comparable).
    """

    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for field in dataclasses.fields(self):
            out[field.name] = _to_jsonable(getattr(self, field.name))
        return out


def _to_jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_jsonable(v) for v in value]
    return value


def _to_tuple(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_to_tuple(v) for v in value)
    return value


class ActionCodec:
    """Turns a game's action JSON back into its dataclasses, with precise errors."""

    def __init__(self, *classes: type[Action]):
        self.classes = {cls.kind: cls for cls in classes}
        if len(self.classes) != len(classes) or "" in self.classes:
            raise TypeError("every action class needs a distinct, non-empty kind")
        for cls in classes:
            _checkers_of(cls)  # an annotation the type check can't resolve fails here, at import, not in play

    def decode(self, data: Any) -> Action:
        if not isinstance(data, Mapping):
            raise BadAction(f"an action must be a JSON object, got {data!r}")
        kind = data.get("kind")
        cls = self.classes.get(kind) if isinstance(kind, str) else None  # a list or an object is no kind either
        if cls is None:
            known = ", ".join(sorted(self.classes))
            raise BadAction(f"unknown action kind {kind!r}; expected one of: {known}")
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = set(data) - set(fields) - {"kind"}
        if unknown:
            raise BadAction(f"action {kind!r} has unknown field(s): {', '.join(sorted(unknown))}")
        values = {}
        for name, field in fields.items():
            if name in data:
                values[name] = _to_tuple(data[name])
            elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
                raise BadAction(f"action {kind!r} is missing the field {name!r}")
        problem = _field_type_problem(cls, values, shown=data)
        if problem:
            raise BadAction(problem)
        try:
            return cls(**values)
        except (TypeError, ValueError) as exc:
            raise BadAction(f"action {kind!r}: {exc}") from None


# -- field types: every action field checked against its annotation ------------------------------------------
# A checker is (test, words): test(value) says whether the value fits, words name the type for a person.
_Checker = tuple[Callable[[Any], bool], str]
_FIELD_CHECKERS: dict[type, tuple[tuple[str, _Checker], ...]] = {}


def _checker(annotation: Any) -> _Checker:
    """The test and the words for one annotation: int (not bool), str, bool, float, None, Optional/unions,
    tuple[X, ...] and tuple[X, Y] (a tuple, as the codec turns JSON lists into tuples), Any. An annotation
    it does not know accepts everything (the engine's own checks still run)."""
    if annotation is Any:
        return (lambda value: True), "anything"
    if annotation is None or annotation is type(None):
        return (lambda value: value is None), "null"
    if annotation is int:
        return (lambda value: isinstance(value, int) and not isinstance(value, bool)), "an integer"
    if annotation is bool:
        return (lambda value: isinstance(value, bool)), "true or false"
    if annotation is float:
        return (lambda value: isinstance(value, (int, float)) and not isinstance(value, bool)), "a number"
    if annotation is str:
        return (lambda value: isinstance(value, str)), "a string"
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union or origin is types.UnionType:
        options = [_checker(arg) for arg in args]
        return ((lambda value: any(test(value) for test, _ in options)),
                " or ".join(words for _, words in options))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            test, words = _checker(args[0])
            return ((lambda value: isinstance(value, tuple) and all(map(test, value))),
                    f"a list of {_plural(words)}")
        if args:
            items = [_checker(arg) for arg in args]
            return ((lambda value: isinstance(value, tuple) and len(value) == len(items)
                     and all(test(v) for (test, _), v in zip(items, value))),
                    "[" + ", ".join(words for _, words in items) + "]")
        return (lambda value: isinstance(value, tuple)), "a list"
    return (lambda value: True), "anything"


def _plural(words: str) -> str:
    if words.startswith("["):
        return "lists " + words  # "a list of lists [an integer, an integer]"
    for single, many in (("an integer", "integers"), ("a string", "strings"), ("a number", "numbers"),
                         ("true or false", "true/false values")):
        words = words.replace(single, many)
    return words


def _checkers_of(cls: type) -> tuple[tuple[str, _Checker], ...]:
    checkers = _FIELD_CHECKERS.get(cls)
    if checkers is None:
        hints = typing.get_type_hints(cls)
        checkers = _FIELD_CHECKERS[cls] = tuple((f.name, _checker(hints.get(f.name, Any)))
                                                for f in dataclasses.fields(cls))
    return checkers


def _field_type_problem(cls: type, values: Mapping[str, Any], shown: Mapping[str, Any] | None = None) -> str | None:
    """Words naming the first field of `values` whose value does not fit its annotation in `cls`, or None;
    `shown` holds the values as given (the JSON lists, before they became tuples) for the words."""
    for name, (test, words) in _checkers_of(cls):
        if name in values and not test(values[name]):
            given = (shown or values)[name]
            return f"action {getattr(cls, 'kind', cls.__name__)!r}: the field {name!r} must be {words}, got {given!r}"
    return None


def check_field_types(action: Action) -> None:
    """IllegalAction naming the field when a field of `action` does not fit its annotation (e.g. a float or a
    bool where an int belongs, which compare equal to it). For actions built by Python callers; the codec runs
    the same check on action JSON. Engines call it only off their fast path (actions not produced by the engine)."""
    if not dataclasses.is_dataclass(action):
        raise IllegalAction(f"not an action: {action!r}")
    for name, (test, _) in _checkers_of(type(action)):
        if not test(getattr(action, name)):
            raise IllegalAction(_field_type_problem(type(action), {name: getattr(action, name)}))


@dataclasses.dataclass(frozen=True)
class ChanceRequest:
    """What outcome the engine waits for, so a camera, a person or a simulator can supply it.

    kind: "dice" (count dice with the given faces), "draw" (one item out of `faces`, e.g. a ball colour
    from the bag), or a game-specific kind its docstring explains. `prompt` is the plain words for the page.
    `players`: the seats who roll or draw it, for the page to name; none when nobody does (what a ball hit).
    """

    kind: str
    count: int
    faces: tuple[Any, ...]
    prompt: str
    players: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "count": self.count, "faces": list(self.faces), "prompt": self.prompt}


@dataclasses.dataclass(frozen=True)
class Player:
    name: str
    colour: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour}


class State(ABC):
    """One game in progress. Subclasses keep all game data in plain attributes that `_save`/`_load` copy."""

    game: ClassVar[str] = ""

    def __init__(self) -> None:
        self._undo_stack: list[tuple[Action, Any]] = []

    # -- what subclasses implement -------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int: ...

    @abstractmethod
    def legal_actions(self) -> list[Action]: ...

    @abstractmethod
    def describe(self, action: Action) -> str: ...

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Change the state; called only with an action already checked by `_check`."""

    @abstractmethod
    def scores(self) -> list[int]: ...

    @abstractmethod
    def winners(self) -> list[int]:
        """Indices of the winning players (empty while the game goes on, or when all lose together)."""

    @abstractmethod
    def _data(self) -> dict[str, Any]:
        """The JSON form of everything that defines the state (without the undo history)."""

    @classmethod
    @abstractmethod
    def _from_data(cls, data: Mapping[str, Any]) -> "State": ...

    def chance_request(self) -> ChanceRequest | None:
        return None

    def sample_chance(self, rng: random.Random) -> Action:
        raise GameError(f"{self.game} is not waiting for a chance outcome")

    def chance_action(self, values: list[Any]) -> Action:
        """The chance outcome for what was observed (dice read by the camera, a colour drawn, typed by
        hand), ready for `apply`. Raises IllegalAction naming the problem when it does not fit
        `chance_request()` (wrong count, a value that no face shows)."""
        raise IllegalAction(f"{self.game} is not waiting for a chance outcome")

    def prompt(self) -> str:
        """Plain words for the page: what happens next ("Roll again or stop?")."""
        request = self.chance_request()
        return request.prompt if request else ""

    def _check(self, action: Action) -> None:
        """Raise IllegalAction unless `action` may be applied now. Chance outcomes are checked too."""
        if self.is_over():
            raise IllegalAction("the game is over")
        if self.current_player() == CHANCE:
            return self._check_chance(action)
        legal = self.legal_actions()
        if any(map(operator.is_, legal, itertools.repeat(action))):  # picked from legal_actions(): that very object
            return
        if action not in legal:
            raise self.not_legal_now(action)
        check_field_types(action)  # equal to a legal action, but 1.0 or True equal 1 too

    def _check_chance(self, action: Action) -> None:
        raise IllegalAction(f"{self.game} does not take chance outcomes")

    # -- shared behaviour ---------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        self._check(action)
        saved = self._save()
        self._apply(action)
        self._undo_stack.append((action, saved))

    def undo(self) -> Action:
        if not self._undo_stack:
            raise NothingToUndo("there is nothing to undo")
        action, saved = self._undo_stack.pop()
        self._load(saved)
        return action

    def history(self) -> list[Action]:
        return [action for action, _ in self._undo_stack]

    def is_over(self) -> bool:
        return self.current_player() == TERMINAL

    def clone(self) -> "State":
        return copy.deepcopy(self)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, **self._data()}

    def _save(self) -> Any:
        return copy.deepcopy({k: v for k, v in self.__dict__.items() if k != "_undo_stack"})

    def _load(self, saved: Any) -> None:
        stack = self._undo_stack
        self.__dict__.clear()
        self.__dict__.update(copy.deepcopy(saved))
        self._undo_stack = stack

    def not_legal_now(self, action: Action) -> IllegalAction:
        """The refusal of an action the game does not take now, in words a person reads at the table: the action
        named (quoted: it may be a sentence of its own, "The red ball was drawn") and what the game waits for."""
        try:
            waits_for = self.prompt()
        except Exception:  # the refusal is said whatever the prompt does
            waits_for = ""
        return IllegalAction(f"“{self.describe_safely(action)}” cannot be played now. {waits_for}".strip())

    def describe_safely(self, action: Action) -> str:
        try:
            return self.describe(action)
        except Exception:  # a malformed action may not be describable; say what it is instead
            return repr(action.to_json())

    def teams(self) -> list[dict[str, Any]] | None:
        """Games played in teams: [{"name": team name, "players": [seats]}, ...]; None when each plays alone."""
        return None

    def describe_legal(self) -> list[dict[str, Any]]:
        """The legal actions with their texts, as the page and the API show them."""
        return [{"action": a.to_json(), "text": self.describe(a)} for a in self.legal_actions()]


@dataclasses.dataclass(frozen=True)
class Variant:
    name: str
    description: str
    default: Any = False
    choices: tuple[Any, ...] = (False, True)


class Game(ABC):
    """A game's entry point, one instance per game module (`GAME`), found through `games.registry`."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    variants: ClassVar[tuple[Variant, ...]] = ()
    # A game played in two teams under one variant value: {"variant": name, "value": value, "names": [first
    # team, second team]}. The teams are formed by seat: the players given 1st, 3rd, 5th on the first team.
    teams: ClassVar[dict[str, Any] | None] = None
    # Whether the camera's pip dice rolls (DiceSettled) can be this game's. Banana Matcho's fruit and Matcho
    # dice are read in their zones; Magic Mountain has no dice: a pip roll read there is the reader's mistake.
    takes_pip_dice: ClassVar[bool] = True
    # Whether the camera reads the dice zones (camera.zones) for this game: they cost the most of a frame's
    # reading, and only Banana Matcho's duel is read there.
    reads_dice_zones: ClassVar[bool] = False
    actions: ClassVar[ActionCodec]

    @abstractmethod
    def new_state(self, players: Iterable[Player | str], variants: Mapping[str, Any] | None = None,
                  board: Mapping[str, Any] | None = None) -> State:
        """A new game. `board` overrides the shipped board-layout data (validated the same way)."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> State: ...

    def action_from_json(self, data: Any) -> Action:
        return self.actions.decode(data)

    def check_players(self, players: Iterable[Player | str]) -> tuple[Player, ...]:
        out = tuple(p if isinstance(p, Player) else Player(str(p)) for p in players)
        if not self.min_players <= len(out) <= self.max_players:
            raise BadConfig(f"{self.title} takes {self.min_players}–{self.max_players} players, got {len(out)}")
        names = [p.name for p in out]
        if any(not n.strip() for n in names):
            raise BadConfig("every player needs a name")
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise BadConfig(f"player names must differ; given more than once: {', '.join(twice)}")
        return out

    def check_variants(self, variants: Mapping[str, Any] | None) -> dict[str, Any]:
        known = {v.name: v for v in self.variants}
        out = {v.name: v.default for v in self.variants}
        for key, value in (variants or {}).items():
            if key not in known:
                raise BadConfig(f"unknown variant {key!r} for {self.title}; known: {', '.join(known) or 'none'}")
            if value not in known[key].choices:
                raise BadConfig(f"variant {key!r} takes one of {list(known[key].choices)}, got {value!r}")
            out[key] = value
        return out

    def info(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "variants": [dataclasses.asdict(v) for v in self.variants],
            **({"teams": self.teams} if self.teams else {}),
        }
