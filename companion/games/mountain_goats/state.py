"""The Mountain Goats rules engine, with the Big Mountain expansion as the variant `big_mountain`.

A turn is two actions: the chance outcome `Roll` (four dice, read by the camera or drawn by a simulator),
then the player's one `Move`: the whole plan for the roll (the extra-1s changes and the grouping reduced to
what acts). `legal_actions()` lists each distinct effect once, the plan with the fewest acting groups first.

Readings where the rulebook leaves a choice open (what a family at the table would expect):
- A path of N spaces: a goat starts at the foot (position 0) and stands on the summit at position N.
- Every group of 5–10 must act (moving up is never harmful), except a group whose mountain's goat stands on
  the Big Mountain: bringing it back is the player's choice ("you may move goats back and forth").
- Big Mountain: a group of 11–24 may send one of the player's goats from an ordinary path (any position,
  the summit included, the player chooses which) to the free Big Mountain space of that number. A goat
  comes back when the player uses a group whose sum is the mountain it left: it returns to the foot of that
  mountain, and that group's move is spent on the return (further groups of that sum climb). Goats on the
  Big Mountain never move up or down on it. In one plan the 5–10 groups resolve first, then the Big
  Mountain groups.
- Big Mountain points are scored at the end only (scores() adds them once the game is over); the goats on
  the Big Mountain are ranked from the highest space down and the n-th goat gets the n-th value of the
  board's list for that player count (5 players: 18/15/12/9/6/3, an assumption kept in the board file).
- The game ends after the turn of the last player in turn order (the round is finished) once the bonus
  tokens are gone or three mountains have no tokens left.
- Tie-breaks: most goats standing on summits at the end; then the goat on the highest-numbered summit;
  players still tied share the win.
"""
from __future__ import annotations

import copy
import random
from typing import Any, Iterable, Mapping

from ..api import (CHANCE, TERMINAL, Action, ActionCodec, BadConfig, ChanceRequest, Game, IllegalAction, Player,
                   State, Variant, check_field_types, join_words)
from . import board as boards
from .actions import Move, Roll
from .dice import BIG_SPACES, DICE_COUNT, FACES, MOUNTAINS
from .plans import ON_BIG, distinct_plans


def check_dice(values: Any) -> tuple[int, ...]:
    """Four dice 1–6 from ints or digit strings; IllegalAction naming the problem otherwise."""
    if not isinstance(values, (list, tuple)):
        raise IllegalAction(f"Mountain Goats needs a list of {DICE_COUNT} dice, got {values!r}")
    if len(values) != DICE_COUNT:
        raise IllegalAction(f"Mountain Goats rolls {DICE_COUNT} dice, got {len(values)}")
    out = []
    for value in values:
        number = value
        if isinstance(value, str) and value.strip().isdigit():
            number = int(value)
        if isinstance(number, bool) or not isinstance(number, int) or number not in FACES:
            raise IllegalAction(f"a die shows a number from 1 to 6, got {value!r}")
        out.append(number)
    return tuple(out)


_FACE_SET = frozenset(FACES)


def check_roll(dice: Any) -> None:
    """The dice of a Roll action as it will be applied: a tuple of four ints 1–6 exactly (no digit strings, floats
    or bools, which `check_dice` converts or which compare equal to ints); IllegalAction naming the problem."""
    if dice.__class__ is not tuple or len(dice) != DICE_COUNT:
        check_dice(dice)  # names a wrong count or a value that is not a list
        raise IllegalAction(f"Mountain Goats needs a tuple of {DICE_COUNT} dice, got {dice!r}")
    for value in dice:
        if value.__class__ is not int or value not in _FACE_SET:
            raise IllegalAction(f"a die shows a number from 1 to 6, got {value!r}")


Event = tuple[str, int, int]
"""What a plan makes happen, in order: ("back", mountain, Big Mountain space left), ("climb", mountain, space
reached), ("stay", mountain, summit), ("knock", mountain, player sent to the foot), ("token", mountain, 1 taken or 0
when none is left), ("send", mountain, Big Mountain space), ("bonus", 0, value)."""

COUNT_WORDS = {1: "a", 2: "two", 3: "three", 4: "four"}


class _Climb:
    """The words for one goat's groups of one plan: where it ends, whose goat goes back, the tokens taken."""

    def __init__(self, mountain: int, summit: int):
        self.mountain, self.summit = mountain, summit
        self.reached: int | None = None
        self.knocked: list[int] = []
        self.tokens = 0
        self.empty = False

    def add(self, what: str, detail: int) -> None:
        if what == "climb":
            self.reached = detail
        elif what == "knock":
            self.knocked.append(detail)
        elif what == "token":
            self.tokens += detail
            self.empty = self.empty or not detail

    def words(self, names: list[str]) -> str:
        m = self.mountain
        if self.reached is None:
            head = f"the goat on {m} stays on the summit"
        else:
            where = "the summit" if self.reached == self.summit else f"space {self.reached}"
            head = f"move the goat on {m} to {where}"
        then = [f"{names[p]}'s goat goes back to the foot" for p in self.knocked]
        if self.tokens:
            count = "an" if (self.tokens, m) == (1, 8) else COUNT_WORDS.get(self.tokens, str(self.tokens))
            then.append(f"take {count} {m} token{'s' if self.tokens > 1 else ''}")
        elif self.empty:
            then.append(f"no {m} tokens left")
        return head + (": " + ", ".join(then) if then else "")


class MountainGoatsState(State):
    game = "mountain-goats"

    def __init__(self, players: tuple[Player, ...], big_mountain: bool, board: boards.Board):
        super().__init__()
        count = len(players)
        self.players = players
        self.big_mountain = big_mountain
        self.board = board
        self.summits = [board.summit(m) for m in MOUNTAINS]
        self.pos = [[0] * len(MOUNTAINS) for _ in range(count)]
        self.big: dict[int, tuple[int, int]] = {}
        self.tokens_left = board.tokens(count)
        self.held = [[0] * len(MOUNTAINS) for _ in range(count)]
        self.bonus_left = list(board.bonus_tokens)
        self.bonus_held: list[list[int]] = [[] for _ in range(count)]
        self.current = 0
        self.dice: tuple[int, ...] | None = None
        self.turns = 0
        self.over = False
        self._legal: tuple[Move, ...] | None = None

    # -- whose turn ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return CHANCE if self.dice is None else self.current

    def chance_request(self) -> ChanceRequest | None:
        if self.over or self.dice is not None:
            return None
        return ChanceRequest("dice", DICE_COUNT, FACES,
                             f"{self.players[self.current].name}: roll the four dice{self._last_round_words()}",
                             (self.current,))

    def sample_chance(self, rng: random.Random) -> Action:
        return Roll(tuple(rng.randint(1, 6) for _ in range(DICE_COUNT)))

    def chance_action(self, values: list[Any]) -> Action:
        if self.current_player() != CHANCE:
            raise IllegalAction("Mountain Goats is not waiting for dice now")
        return Roll(check_dice(values))

    def _check_chance(self, action: Action) -> None:
        if not isinstance(action, Roll):
            raise self.not_legal_now(action)
        check_roll(action.dice)

    def prompt(self) -> str:
        if self.over:
            names = [self.players[p].name for p in self.winners()]
            return f"Game over: {join_words(names)} {'wins' if len(names) == 1 else 'share the win'}"
        if self.dice is None:
            return super().prompt()
        dice = ", ".join(map(str, self.dice))
        return f"{self.players[self.current].name}: choose how to group {dice}{self._last_round_words()}"

    def _last_round_words(self) -> str:
        """Once the end is triggered the round is played to its end: the players on turn are told so, and whose
        turn ends the game."""
        if self.over or not self.end_reached():
            return ""
        if self.current == len(self.players) - 1:
            return " (last round: the game ends after this turn)"
        return f" (last round: the game ends after {self.players[-1].name}'s turn)"

    # -- the plans of a roll -------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.over or self.dice is None:
            return []
        if self._legal is None:
            self._legal = self._plans()
        return list(self._legal)

    def _check(self, action: Action) -> None:
        if self.over:
            raise IllegalAction("the game is over")
        if self.dice is None:
            return self._check_chance(action)
        if self._legal is None:
            self._legal = self._plans()
        for legal in self._legal:  # actions picked from legal_actions() are these very objects
            if legal is action:
                return
        if action not in self._legal:
            raise self.not_legal_now(action)
        check_field_types(action)  # equal to a legal plan, but 5.0 and True compare equal to ints too

    def _plans(self) -> tuple[Move, ...]:
        current, summits = self.current, self.summits
        rivals = [row for player, row in enumerate(self.pos) if player != current]
        rivals_on_summit = [top in column for top, column in zip(summits, zip(*rivals))]
        occupied = tuple(sorted((space, m if player == current else 0) for space, (player, m) in self.big.items()))
        return distinct_plans(tuple(sorted(self.dice)), self.big_mountain, self.pos[current], summits,
                              self.tokens_left, rivals_on_summit, occupied)

    def _summit_goat(self, i: int) -> int | None:
        """The player (other than the current one) whose goat stands on the summit of mountain index i."""
        for player, row in enumerate(self.pos):
            if player != self.current and row[i] == self.summits[i]:
                return player
        return None

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, action: Action) -> None:
        self._legal = None
        if isinstance(action, Roll):
            self.dice = action.dice
            return
        assert isinstance(action, Move)
        self._carry_out(action)
        self._end_turn()

    def _carry_out(self, move: Move) -> list[Event]:
        """Move the goats and take the tokens of the player on turn's plan; what happened, in order, for the
        words of `describe`."""
        player = self.current
        pos = self.pos[player]
        events: list[Event] = []
        for m in move.steps:
            i = m - 5
            if pos[i] == ON_BIG:
                space = next(s for s, goat in self.big.items() if goat == (player, m))
                del self.big[space]
                pos[i] = 0
                events.append(("back", m, space))
                continue
            if pos[i] < self.summits[i]:
                pos[i] += 1
                events.append(("climb", m, pos[i]))
                if pos[i] < self.summits[i]:
                    continue
                knocked = self._summit_goat(i)
                if knocked is not None:
                    self.pos[knocked][i] = 0
                    events.append(("knock", m, knocked))
            else:
                events.append(("stay", m, pos[i]))
            if self.tokens_left[i] > 0:
                self.tokens_left[i] -= 1
                self.held[player][i] += 1
                events.append(("token", m, 1))
            else:
                events.append(("token", m, 0))
        for space, m in move.big:
            pos[m - 5] = ON_BIG
            self.big[space] = (player, m)
            events.append(("send", m, space))
        sets = min(self.held[player])
        while self.bonus_left and len(self.bonus_held[player]) < sets:
            self.bonus_held[player].append(self.bonus_left.pop(0))
            events.append(("bonus", 0, self.bonus_held[player][-1]))
        return events

    def _end_turn(self) -> None:
        self.dice = None
        self.turns += 1
        if self.end_reached() and self.current == len(self.players) - 1:
            self.over = True
        else:
            self.current = (self.current + 1) % len(self.players)

    def end_reached(self) -> bool:
        """The end is triggered: the bonus tokens are gone or three mountains have no tokens left."""
        bonus_gone = bool(self.board.bonus_tokens) and not self.bonus_left
        return bonus_gone or sum(1 for t in self.tokens_left if t == 0) >= 3

    # -- describing ----------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        if isinstance(action, Roll):
            return "Dice " + ", ".join(map(str, action.dice))
        if not isinstance(action, Move):
            raise TypeError(f"not a Mountain Goats action: {action!r}")
        unknown = [m for m in (*action.steps, *(m for _, m in action.big)) if m not in MOUNTAINS]
        if unknown:
            raise IllegalAction(f"Mountain Goats has the mountains 5 to 10, not {unknown[0]!r}")
        events = self.scratch()._carry_out(action)
        if not events:
            return "No move: pass"
        text = "; ".join(self._event_words(events))
        return text[0].upper() + text[1:]

    def _event_words(self, events: list[Event]) -> list[str]:
        """In the order they happen: one clause per goat that climbs or stays on its summit (with whose goat goes
        back to the foot and the tokens taken), per goat brought back from or sent to the Big Mountain, then the
        bonus tokens."""
        parts: list[str | _Climb] = []
        climb: _Climb | None = None
        bonus = []
        for what, m, detail in events:
            if what in ("climb", "stay", "knock", "token"):
                if climb is None or climb.mountain != m:
                    climb = _Climb(m, self.summits[m - 5])
                    parts.append(climb)
                climb.add(what, detail)
                continue
            climb = None
            if what == "back":
                parts.append(f"bring the {m} goat back from the Big Mountain to the foot")
            elif what == "send":
                parts.append(f"send the {m} goat to Big Mountain space {detail}")
            else:
                bonus.append(str(detail))
        names = [player.name for player in self.players]
        clauses = [part.words(names) if isinstance(part, _Climb) else part for part in parts]
        if bonus:
            clauses.append(f"take the {join_words(bonus)} bonus token{'s' if len(bonus) > 1 else ''}")
        return clauses

    # -- scoring -------------------------------------------------------------------------------
    def token_points(self) -> list[int]:
        return [sum(n * m for n, m in zip(row, MOUNTAINS)) + sum(bonus)
                for row, bonus in zip(self.held, self.bonus_held)]

    def big_mountain_points(self) -> list[int]:
        """The Big Mountain ranking points each player would get if the game ended now."""
        points = [0] * len(self.players)
        table = self.board.big_mountain_points[len(self.players)]
        for rank, space in enumerate(sorted(self.big, reverse=True)[:len(table)]):
            points[self.big[space][0]] += table[rank]
        return points

    def scores(self) -> list[int]:
        tokens = self.token_points()
        if not self.over:
            return tokens
        return [t + b for t, b in zip(tokens, self.big_mountain_points())]

    def summit_goats(self, player: int) -> list[int]:
        return [m for m, p, top in zip(MOUNTAINS, self.pos[player], self.summits) if p == top]

    def winners(self) -> list[int]:
        if not self.over:
            return []
        scores = self.scores()
        tied = [p for p, s in enumerate(scores) if s == max(scores)]
        for tie_break in (lambda p: len(self.summit_goats(p)), lambda p: max(self.summit_goats(p), default=0)):
            best = max(tie_break(p) for p in tied)
            tied = [p for p in tied if tie_break(p) == best]
        return tied

    # -- saving --------------------------------------------------------------------------------
    def _save(self) -> Any:
        """Tuples only: a game keeps one snapshot per action, and immutable ones cost the garbage collector
        nothing once it has seen them."""
        return (self.current, self.dice, self.over, self.turns, tuple(map(tuple, self.pos)), tuple(self.big.items()),
                tuple(self.tokens_left), tuple(map(tuple, self.held)), tuple(self.bonus_left),
                tuple(map(tuple, self.bonus_held)))

    def _load(self, saved: Any) -> None:
        (self.current, self.dice, self.over, self.turns, pos, big, tokens_left, held, bonus_left, bonus_held) = saved
        self.pos = [list(row) for row in pos]
        self.big = dict(big)
        self.tokens_left = list(tokens_left)
        self.held = [list(row) for row in held]
        self.bonus_left = list(bonus_left)
        self.bonus_held = [list(row) for row in bonus_held]
        self._legal = None

    def scratch(self) -> "MountainGoatsState":
        """A copy to try plans on with `_save`/`_apply`/`_load`: own game data, no undo history."""
        work = copy.copy(self)
        work._undo_stack = []
        work._load(self._save())
        return work

    def clone(self) -> "MountainGoatsState":
        legal, self._legal = self._legal, None
        try:
            return copy.deepcopy(self)
        finally:
            self._legal = legal

    def _data(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "variants": {"big_mountain": self.big_mountain},
            "board": dict(self.board.raw),
            "current": self.current,
            "dice": list(self.dice) if self.dice is not None else None,
            "turns": self.turns,
            "over": self.over,
            "goats": [row[:] for row in self.pos],
            "big_mountain": [[space, p, m] for space, (p, m) in sorted(self.big.items())],
            "tokens_left": self.tokens_left[:],
            "held": [row[:] for row in self.held],
            "bonus_left": self.bonus_left[:],
            "bonus_held": [row[:] for row in self.bonus_held],
        }

    @classmethod
    def _from_data(cls, data: Mapping[str, Any]) -> "MountainGoatsState":
        try:
            players = GAME.check_players(Player(p["name"], p.get("colour", "")) for p in data["players"])
            state = cls(players, bool(data["variants"]["big_mountain"]), boards.parse_board(data["board"], "saved board"))
            state.current = int(data["current"])
            state.dice = tuple(data["dice"]) if data["dice"] is not None else None
            state.turns = int(data["turns"])
            state.over = bool(data["over"])
            state.pos = [list(map(int, row)) for row in data["goats"]]
            state.big = {int(space): (int(p), int(m)) for space, p, m in data["big_mountain"]}
            state.tokens_left = list(map(int, data["tokens_left"]))
            state.held = [list(map(int, row)) for row in data["held"]]
            state.bonus_left = list(map(int, data["bonus_left"]))
            state.bonus_held = [list(map(int, row)) for row in data["bonus_held"]]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, BadConfig):
                raise
            raise BadConfig(f"saved Mountain Goats state is malformed: {exc!r}") from None
        if len(state.pos) != len(players) or any(s not in BIG_SPACES for s in state.big):
            raise BadConfig("saved Mountain Goats state is malformed: goats do not match the players")
        return state


class MountainGoats(Game):
    name = "mountain-goats"
    title = "Mountain Goats"
    min_players = 2
    max_players = 5
    variants = (Variant("big_mountain", "Big Mountain expansion: groups of 11–24 send goats to the Big Mountain"),)
    actions = ActionCodec(Roll, Move)

    def new_state(self, players: Iterable[Player | str], variants: Mapping[str, Any] | None = None,
                  board: Mapping[str, Any] | None = None) -> MountainGoatsState:
        checked = self.check_players(players)
        chosen = self.check_variants(variants)
        return MountainGoatsState(checked, chosen["big_mountain"], boards.load(board))

    def state_from_json(self, data: Mapping[str, Any]) -> MountainGoatsState:
        if not isinstance(data, Mapping) or data.get("game") != self.name:
            raise BadConfig(f"not a saved Mountain Goats game: game is {data.get('game') if isinstance(data, Mapping) else data!r}")
        return MountainGoatsState._from_data(data)


GAME = MountainGoats()
