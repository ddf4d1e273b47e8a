"""The Matterhorn rules engine: 2–4 players race both their climbers from line 12 to the summit.

How a game flows (the phase names are the `phase` of the JSON form):

- set-up (`setup_roll`, chance): every player rolls one die, in seat order; a tie for the highest value
  re-rolls among the tied players only. The highest places both climbers on line 12 first (`setup_place`,
  one circle per action), then the others anticlockwise. The last to place starts; turns go clockwise.
  Seats are the player order, clockwise: anticlockwise from seat p is p-1, p-2, ...
- a turn: roll the dice still in play (`roll`, chance). If some choice of dice to eliminate gives a line
  5–12 that has a free circle and no action token of this turn, the player must place: first the choice of
  dice to eliminate (`choose`), then the circle (`place`). Eliminated dice stay out for the rest of the turn;
  every other die, duplicates included, is rolled again. A token on a line that holds any climber (own or
  another's) earns a bonus move at once (`bonus`); it stays done even if the turn is lost later. Then the
  player rolls again or stops (`decide`).
- a roll that can place nothing loses the turn: this turn's action tokens turn to obstacles at once, and the
  player may place one consolation obstacle on a free circle of a line without an action token of this turn
  (`consolation`), or none.
- stopping (`moves`): one move per action token placed this turn, combined freely and in any order:
  an own climber to an adjacent free circle (above, below or beside) or from line 5 to the summit; an
  opponent's climber one step sideways or upwards to an adjacent free numbered circle (never down, never to
  the summit); or removing an obstacle. The player may end the moves early.
- end of a turn (after the moves, or after a lost turn): action tokens turn to obstacles; every line with no
  free circle loses all its tokens back to the supply (climbers stay); the next player clockwise plays.
- the first player with both climbers on the summit wins at once (a bonus move can finish the game).

Readings where the rulebook is open, chosen as a family at the table would expect:

- "Sideways or upwards" for an opponent's climber means one step to an adjacent circle, like an own move.
- A player who can place a token must place it; only a roll that can place nothing loses the turn.
- A bonus move is optional ("Skip the bonus move"), and so is every move after stopping ("End your moves").
- The bonus move and the moves after stopping use the same kinds of move; a bonus move is one move.
- The summit holds any number of climbers; a climber on the summit stays there.
- Variant `two_action_summit`: from line 5 the summit costs two of the moves after stopping, in one go, so
  a bonus move never reaches it.
- The 40 shared tokens: placing a token takes one from the supply. With the supply empty the player can't
  roll (there is no token to place) and must stop; a turn that begins with the supply empty begins with the
  player taking one obstacle of their choice back into the supply (there is always one: every token on the
  board is an obstacle between turns), so the game can't stall. A lost turn with the supply empty gets no
  consolation obstacle.
- The end-of-turn clearing also follows a lost turn (it is the end of that turn).
- Scores: the number of each player's climbers on the summit.
"""
from __future__ import annotations

import random
from itertools import compress, repeat
from operator import attrgetter, is_
from functools import lru_cache
from typing import Any, Mapping

from ..api import (CHANCE, TERMINAL, BadConfig, ChanceRequest, IllegalAction, Player, State, check_field_types,
                   join_words)
from . import dice as dicemath
from .actions import (CODEC, Action, ClimbSummit, Eliminate, EndMoves, MoveClimber, NoObstacle, PlaceClimber,
                      PlaceObstacle, PlaceToken, ReclaimObstacle, RemoveObstacle, Roll, RollAgain, SetupRoll, Stop)
from .board import OFF_BOARD, SUMMIT, Board, load_matterhorn_board
from .tables import tables_for

EMPTY, OBSTACLE, ACTION_TOKEN = 0, 1, 2
CLIMBER = 10
"""A cell holding climber k (k = 2 * player + 0 or 1) holds CLIMBER + k."""

TOKEN_CHARS = {EMPTY: ".", OBSTACLE: "o", ACTION_TOKEN: "A"}
CHANCE_PHASES = ("setup_roll", "roll")
PHASES = ("setup_roll", "setup_place", "reclaim", "roll", "choose", "place", "bonus", "decide", "moves",
          "consolation", "over")

# Everything but the board lists is immutable, so an undo snapshot is those lists frozen (see _save) and this
# tuple (the base class's deep copy dominated a random game's time).
_SCALARS = ("phase", "player", "supply", "rollers", "setup_rolls", "setup_ties", "place_order", "placed", "dice_in_play",
            "eliminated", "roll", "line", "used_lines", "moves_left", "winner")


_get_scalars = attrgetter(*_SCALARS)

_is_empty, _is_obstacle = EMPTY.__eq__, OBSTACLE.__eq__
_roll = lru_cache(maxsize=None)(Roll)
"""One Roll object per distinct roll (9,330 ordered rolls of one to five dice)."""
_END_MOVES, _ROLL_AGAIN, _STOP, _NO_OBSTACLE = EndMoves(), RollAgain(), Stop(), NoObstacle()


class MatterhornState(State):
    game = "matterhorn"

    def __init__(self, players: tuple[Player, ...], two_action_summit: bool, board: Board):
        super().__init__()
        self.players = players
        self.two_action_summit = two_action_summit
        self.board = board
        self._tables = tables_for(board)
        self.cells = [EMPTY] * board.size
        self.climbers = [OFF_BOARD] * (2 * len(players))
        self.phase = "setup_roll"
        self.player = 0
        self.supply = board.tokens
        self.rollers: tuple[int, ...] = tuple(range(len(players)))
        self.setup_rolls: tuple[int, ...] = ()
        self.setup_ties = 0  # tied rounds so far: when every player tied, `rollers` alone does not tell
        self.place_order: tuple[int, ...] = ()
        self.placed = 0
        self.dice_in_play = dicemath.DICE
        self.eliminated: tuple[int, ...] = ()
        self.roll: tuple[int, ...] | None = None
        self.line: int | None = None
        self.used_lines: tuple[int, ...] = ()
        self.moves_left = 0
        self.winner: int | None = None
        self._legal: list[Action] | None = None

    # -- whose turn and what may happen ---------------------------------------------------------
    def current_player(self) -> int:
        if self.phase in CHANCE_PHASES:
            return CHANCE
        if self.phase == "over":
            return TERMINAL
        return self.player

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _check(self, action: Action) -> None:
        if self.phase in CHANCE_PHASES:
            return self._check_chance(action)
        if self.phase == "over":
            raise IllegalAction("the game is over")
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        # Actions picked from legal_actions() are these very objects, so identity settles most checks.
        if not any(map(is_, legal, repeat(action))):
            if action not in legal:
                raise self.not_legal_now(action)
            check_field_types(action)  # equal to a legal action, but 3.0 and True compare equal to ints too

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        cells, tables = self.cells, self._tables
        if phase == "choose":
            return self._choose_options(self.open_lines_mask())
        if phase == "place":
            start, end = self._line_span(self.line)
            return list(compress(tables.place_token[start:end], map(_is_empty, cells[start:end])))
        if phase == "decide":
            return [_ROLL_AGAIN, _STOP] if self.supply > 0 else [_STOP]
        if phase == "moves" or phase == "bonus":
            moves = self._moves(budget=1 if phase == "bonus" else self.moves_left)
            moves.append(_END_MOVES)
            return moves
        if phase == "consolation":
            options = self._consolation_options()
            options.append(_NO_OBSTACLE)
            return options
        if phase == "setup_place":
            start, end = self._line_span(dicemath.LINES[-1])
            return list(compress(tables.place_climber[start:end], map(_is_empty, cells[start:end])))
        if phase == "reclaim":
            return list(compress(tables.reclaim, map(_is_obstacle, cells)))
        return []

    def _choose_options(self, open_lines: int) -> list[Action]:
        return [action for bit, action in _choices(tuple(sorted(self.roll))) if open_lines & bit]

    def _line_span(self, line: int) -> tuple[int, int]:
        start = self.board.first_cell[line]
        return start, start + self.board.circles_per_line[line]

    def _where(self, cell: int) -> tuple[int, int]:
        return self.board.where[cell]

    def open_lines_mask(self) -> int:
        """Lines that can take an action token now: a free circle and no action token of this turn."""
        mask = 0
        cells, used = self.cells, self.used_lines
        for line, start, end in self.board.spans:
            if line not in used and EMPTY in cells[start:end]:
                mask |= 1 << (line - 5)
        return mask

    def _moves(self, budget: int) -> list[Action]:
        """Own climbers' moves (summit first), then opponents' climbers in seat order, then obstacle removals."""
        tables, cells, climbers = self._tables, self.cells, self.climbers
        mine = 2 * self.player
        out: list[Action] = []
        summit_cost = 2 if self.two_action_summit else 1
        for k in (mine, mine + 1):
            at = climbers[k]
            if at < 0:
                continue
            if at < tables.top_cells and summit_cost <= budget:
                out.append(tables.summit[k])
            for to, move in tables.own_steps[k][at]:
                if cells[to] == EMPTY:
                    out.append(move)
        for k, at in enumerate(climbers):
            if at >= 0 and k != mine and k != mine + 1:
                for to, move in tables.push_steps[k][at]:
                    if cells[to] == EMPTY:
                        out.append(move)
        out += compress(tables.remove, map(_is_obstacle, cells))
        return out

    def _consolation_options(self) -> list[Action]:
        if self.supply == 0:
            return []
        cells, used, place = self.cells, self.used_lines, self._tables.place_obstacle
        out: list[Action] = []
        for line, start, end in self.board.spans:
            if line not in used:
                out += compress(place[start:end], map(_is_empty, cells[start:end]))
        return out

    # -- chance -----------------------------------------------------------------------------------
    def chance_request(self) -> ChanceRequest | None:
        if self.phase == "setup_roll":
            roller = self.rollers[len(self.setup_rolls)]
            again = " again (tie)" if self.setup_ties else ""
            return ChanceRequest("dice", 1, dicemath.FACES,
                                 f"{self.players[roller].name}: roll one die{again} to decide who places climbers first",
                                 (roller,))
        if self.phase == "roll":
            n = self.dice_in_play
            return ChanceRequest("dice", n, dicemath.FACES,
                                 f"{self.players[self.player].name}: roll {n} {'die' if n == 1 else 'dice'}",
                                 (self.player,))
        return None

    def sample_chance(self, rng: random.Random) -> Action:
        if self.phase == "setup_roll":
            return SetupRoll(rng.choice(dicemath.FACES))
        if self.phase == "roll":
            return _roll(tuple(rng.choices(dicemath.FACES, k=self.dice_in_play)))
        return super().sample_chance(rng)

    def chance_action(self, values: list[Any]) -> Action:
        request = self.chance_request()
        if request is None:
            return super().chance_action(values)
        if not isinstance(values, (list, tuple)):
            raise IllegalAction(f"expected a list of {request.count} {'die' if request.count == 1 else 'dice'}, "
                                f"got {values!r}")
        if len(values) != request.count:
            raise IllegalAction(f"expected {request.count} {'die' if request.count == 1 else 'dice'}, "
                                f"got {len(values)}")
        read = tuple(_read_die(v) for v in values)
        return SetupRoll(read[0]) if self.phase == "setup_roll" else Roll(read)

    def _check_chance(self, action: Action) -> None:
        if self.phase == "setup_roll":
            if not isinstance(action, SetupRoll):
                raise self.not_legal_now(action)
            _check_die(action.value)
        else:
            if not isinstance(action, Roll):
                raise self.not_legal_now(action)
            if not isinstance(action.dice, tuple) or len(action.dice) != self.dice_in_play:
                raise IllegalAction(f"expected {self.dice_in_play} dice, got {action.dice!r}")
            for value in action.dice:
                if value.__class__ is not int or value not in _FACE_SET:  # the type first: 1.0 and True equal 1
                    _check_die(value)

    # -- changing the state -----------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """The base class's apply (check, snapshot, change, remember) in one call: it runs for every action."""
        self._check(action)  # before the snapshot: an illegal action changes nothing
        saved = bytes(self.cells), tuple(self.climbers), _get_scalars(self)
        self._legal = None
        _HANDLERS[action.kind](self, action)
        self._undo_stack.append((action, saved))

    def _apply(self, action: Action) -> None:
        self._legal = None
        _HANDLERS[action.kind](self, action)

    def _on_setup_roll(self, action: SetupRoll) -> None:
        self.setup_rolls += (action.value,)
        if len(self.setup_rolls) < len(self.rollers):
            return
        top = max(self.setup_rolls)
        tied = tuple(p for p, v in zip(self.rollers, self.setup_rolls) if v == top)
        self.setup_rolls = ()
        if len(tied) > 1:
            self.rollers = tied
            self.setup_ties += 1
            return
        n = len(self.players)
        self.rollers = ()
        self.place_order = tuple((tied[0] - step) % n for step in range(n))
        self.placed = 0
        self.phase = "setup_place"
        self.player = self.place_order[0]

    def _on_place_climber(self, action: PlaceClimber) -> None:
        cell = self.board.cell(dicemath.LINES[-1], action.circle)
        k = 2 * self.player + (0 if self.climbers[2 * self.player] == OFF_BOARD else 1)
        self.climbers[k] = cell
        self.cells[cell] = CLIMBER + k
        if k % 2 == 1:
            self.placed += 1
            if self.placed == len(self.players):
                self._start_turn(self.place_order[-1])
            else:
                self.player = self.place_order[self.placed]

    def _on_reclaim(self, action: ReclaimObstacle) -> None:
        self.cells[self.board.cell(action.line, action.circle)] = EMPTY
        self.supply += 1
        self.phase = "roll"

    def _on_roll(self, action: Roll) -> None:
        self.roll = tuple(action.dice)
        open_lines = self.open_lines_mask()
        if dicemath.reach_mask(self.roll) & open_lines:
            self.phase = "choose"
            self._legal = self._choose_options(open_lines)
            return
        self._flip_action_tokens()
        self.phase = "consolation" if self._consolation_options() else self._end_turn()

    def _on_eliminate(self, action: Eliminate) -> None:
        self.eliminated = tuple(sorted(self.eliminated + action.dice))
        self.dice_in_play -= len(action.dice)
        self.line = action.line
        self.phase = "place"

    def _on_place_token(self, action: PlaceToken) -> None:
        line = self.line
        self.cells[self.board.cell(line, action.circle)] = ACTION_TOKEN
        self.supply -= 1
        self.used_lines += (line,)
        self.roll = None
        self.line = None
        self.phase = "bonus" if line in self.climber_lines() else "decide"

    def _on_roll_again(self, action: RollAgain) -> None:
        self.phase = "roll"

    def _on_stop(self, action: Stop) -> None:
        self.moves_left = len(self.used_lines)
        self.phase = "moves"

    def _on_move(self, action: MoveClimber) -> None:
        k = 2 * action.owner + action.climber
        to = self.board.cell(action.line, action.circle)
        self.cells[self.climbers[k]] = EMPTY
        self.cells[to] = CLIMBER + k
        self.climbers[k] = to
        self._after_move(1)

    def _on_summit(self, action: ClimbSummit) -> None:
        k = 2 * self.player + action.climber
        self.cells[self.climbers[k]] = EMPTY
        self.climbers[k] = SUMMIT
        if self.climbers[2 * self.player] == self.climbers[2 * self.player + 1] == SUMMIT:
            self.winner = self.player
            self._flip_action_tokens()
            self.phase = "over"
            return
        self._after_move(2 if self.two_action_summit else 1)

    def _on_remove_obstacle(self, action: RemoveObstacle) -> None:
        self.cells[self.board.cell(action.line, action.circle)] = EMPTY
        self.supply += 1
        self._after_move(1)

    def _after_move(self, cost: int) -> None:
        if self.phase == "bonus":
            self.phase = "decide"
            return
        self.moves_left -= cost
        if self.moves_left <= 0:
            self.phase = self._end_turn()

    def _on_end_moves(self, action: EndMoves) -> None:
        self.phase = "decide" if self.phase == "bonus" else self._end_turn()

    def _on_place_obstacle(self, action: PlaceObstacle) -> None:
        self.cells[self.board.cell(action.line, action.circle)] = OBSTACLE
        self.supply -= 1
        self.phase = self._end_turn()

    def _on_no_obstacle(self, action: NoObstacle) -> None:
        self.phase = self._end_turn()

    def _flip_action_tokens(self) -> None:
        if ACTION_TOKEN in self.cells:
            self.cells = [OBSTACLE if v == ACTION_TOKEN else v for v in self.cells]

    def _end_turn(self) -> str:
        """Flip, clear full lines, hand the dice on; returns the next phase."""
        self._flip_action_tokens()
        cells = self.cells
        for _, start, end in self.board.spans:
            if EMPTY not in cells[start:end]:
                for c in range(start, end):
                    if cells[c] == OBSTACLE:
                        cells[c] = EMPTY
                        self.supply += 1
        return self._start_turn((self.player + 1) % len(self.players))

    def _start_turn(self, player: int) -> str:
        self.player = player
        self.dice_in_play = dicemath.DICE
        self.eliminated = ()
        self.roll = None
        self.line = None
        self.used_lines = ()
        self.moves_left = 0
        self.phase = "roll" if self.supply > 0 else "reclaim"
        return self.phase

    # -- words for people -------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        name = self.players
        if isinstance(action, SetupRoll):
            return f"Rolled {action.value} to decide who places first"
        if isinstance(action, Roll):
            return "Rolled " + " ".join(map(str, action.dice))
        if isinstance(action, PlaceClimber):
            return f"Place a climber on line 12, circle {action.circle}"
        if isinstance(action, ReclaimObstacle):
            return f"Take the obstacle on line {action.line}, circle {action.circle} back into the supply"
        if isinstance(action, Eliminate):
            if not action.dice:
                return f"Keep all dice: line {action.line}"
            return f"Eliminate {join_words([str(v) for v in action.dice])}: line {action.line}"
        if isinstance(action, PlaceToken):
            return (f"Place your token on line {self.line}, circle {action.circle}" if self.line is not None
                    else f"Place your token on circle {action.circle}")
        if isinstance(action, MoveClimber):
            at = self.climbers[2 * action.owner + action.climber]
            whose = "your climber" if action.owner == self.player else f"{name[action.owner].name}'s climber"
            return (f"Move {whose} {_direction(self.board.cell_line[at], action.line)} "
                    f"from {self.board.name(at)} to line {action.line}, circle {action.circle}")
        if isinstance(action, ClimbSummit):
            at = self.climbers[2 * self.player + action.climber]
            cost = " (2 moves)" if self.two_action_summit else ""
            return f"Climb from {self.board.name(at)} to the summit{cost}"
        if isinstance(action, RemoveObstacle):
            return f"Remove the obstacle on line {action.line}, circle {action.circle}"
        if isinstance(action, EndMoves):
            if self.phase == "bonus":
                return "Skip the bonus move"
            return f"End your moves ({self.moves_left} unused)"
        if isinstance(action, RollAgain):
            n = self.dice_in_play
            return f"Roll again: {n} {'die' if n == 1 else 'dice'}"
        if isinstance(action, Stop):
            n = len(self.used_lines)
            return f"Stop and move: {n} {'move' if n == 1 else 'moves'}"
        if isinstance(action, PlaceObstacle):
            return f"Place a consolation obstacle on line {action.line}, circle {action.circle}"
        if isinstance(action, NoObstacle):
            return "Place no obstacle"
        raise IllegalAction(f"not a Matterhorn action: {action!r}")

    def prompt(self) -> str:
        if self.phase in CHANCE_PHASES:
            return super().prompt()
        if self.phase == "over":
            return f"{self.players[self.winner].name} has both climbers on the summit and wins!"
        who = self.players[self.player].name
        return {
            "setup_place": f"{who}: place a climber on a free circle of line 12",
            "reclaim": f"{who}: the supply is empty; take one obstacle back before rolling",
            "choose": f"{who}: rolled {' '.join(map(str, self.roll or ()))}; choose which dice to eliminate",
            "place": f"{who}: place your action token on line {self.line}",
            "bonus": f"{who}: a climber stands on that line, so take a bonus move now or skip it",
            "decide": f"{who}: roll again or stop?" if self.supply > 0 else f"{who}: the supply is empty; stop and move",
            "moves": f"{who}: {self.moves_left} {'move' if self.moves_left == 1 else 'moves'} left",
            "consolation": f"{who}: the roll can't be placed, the turn is lost; place a consolation obstacle?",
        }[self.phase]

    # -- results ----------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        climbers = self.climbers
        return [climbers[k:k + 2].count(SUMMIT) for k in range(0, len(climbers), 2)]

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def climber_lines(self) -> set[int]:
        """The lines a climber stands on: a token placed there earns a bonus move."""
        return {self.board.cell_line[at] for at in self.climbers if at >= 0}

    def blocked_lines(self) -> list[int]:
        """Lines the next token can't go on: used this turn, or without a free circle."""
        mask = self.open_lines_mask()
        return [line for line in dicemath.LINES if not mask & dicemath.line_bit(line)]

    # -- JSON and undo ----------------------------------------------------------------------------
    def _data(self) -> dict[str, Any]:
        """`tokens` gives each line's circles from the left: '.' free, 'o' obstacle, 'A' action token of this
        turn, 'c' a climber (which one is in `climbers`: [line, circle], "summit", or null before set-up)."""
        board = self.board
        return {
            "players": [p.to_json() for p in self.players],
            "variants": {"two_action_summit": self.two_action_summit},
            "board": board.to_json(),
            "tokens": {str(line): "".join(TOKEN_CHARS.get(self.cells[c], "c") for c in board.cells_of(line))
                       for line in dicemath.LINES},
            "climbers": [[self._climber_json(2 * p + k) for k in (0, 1)] for p in range(len(self.players))],
            "supply": self.supply,
            "phase": self.phase,
            "player": self.player,
            "setup": {"rollers": list(self.rollers), "rolls": list(self.setup_rolls), "ties": self.setup_ties,
                      "place_order": list(self.place_order), "placed": self.placed},
            "turn": {"dice_in_play": self.dice_in_play, "eliminated": list(self.eliminated),
                     "roll": None if self.roll is None else list(self.roll), "line": self.line,
                     "used_lines": list(self.used_lines), "moves_left": self.moves_left},
            "winner": self.winner,
        }

    def _climber_json(self, k: int) -> Any:
        at = self.climbers[k]
        if at == SUMMIT:
            return "summit"
        if at == OFF_BOARD:
            return None
        return list(self._where(at))

    @classmethod
    def _from_data(cls, data: Mapping[str, Any]) -> "MatterhornState":
        try:
            return cls._build(data)
        except BadConfig:
            raise
        except KeyError as exc:
            raise BadConfig(f"not a Matterhorn state: the field {exc.args[0]!r} is missing") from None
        except (TypeError, ValueError, IndexError) as exc:
            raise BadConfig(f"not a Matterhorn state: {exc}") from None

    @classmethod
    def _build(cls, data: Mapping[str, Any]) -> "MatterhornState":
        players = tuple(Player(p["name"], p.get("colour", "")) for p in data["players"])
        board = load_matterhorn_board(data["board"])
        state = cls(players, bool(data["variants"]["two_action_summit"]), board)
        codes = {char: code for code, char in TOKEN_CHARS.items()}
        for line in dicemath.LINES:
            row = data["tokens"][str(line)]
            if len(row) != board.circles_per_line[line]:
                raise BadConfig(f"tokens of line {line} must have {board.circles_per_line[line]} circles, got {row!r}")
            for c, char in zip(board.cells_of(line), row):
                state.cells[c] = codes.get(char, EMPTY)
        for p, pair in enumerate(data["climbers"]):
            for k, where in enumerate(pair):
                if where == "summit":
                    state.climbers[2 * p + k] = SUMMIT
                elif where is not None:
                    cell = board.cell(*where)
                    state.climbers[2 * p + k] = cell
                    state.cells[cell] = CLIMBER + 2 * p + k
        if data["phase"] not in PHASES:
            raise BadConfig(f"unknown phase {data['phase']!r}")
        setup, turn = data["setup"], data["turn"]
        state.supply = int(data["supply"])
        state.phase = data["phase"]
        state.player = int(data["player"])
        state.rollers = tuple(setup["rollers"])
        state.setup_rolls = tuple(setup["rolls"])
        state.setup_ties = int(setup.get("ties", len(state.rollers) < len(state.players)))
        state.place_order = tuple(setup["place_order"])
        state.placed = int(setup["placed"])
        state.dice_in_play = int(turn["dice_in_play"])
        state.eliminated = tuple(turn["eliminated"])
        state.roll = None if turn["roll"] is None else tuple(turn["roll"])
        state.line = turn["line"]
        state.used_lines = tuple(turn["used_lines"])
        state.moves_left = int(turn["moves_left"])
        state.winner = data["winner"]
        return state

    def _save(self) -> Any:
        """Cells as bytes (every code is below 256) and tuples: a game keeps one snapshot per action, and
        immutable ones cost the garbage collector nothing once it has seen them."""
        return bytes(self.cells), tuple(self.climbers), _get_scalars(self)

    def _load(self, saved: Any) -> None:
        cells, climbers, scalars = saved
        self.cells = list(cells)
        self.climbers = list(climbers)
        for name, value in zip(_SCALARS, scalars):
            setattr(self, name, value)
        self._legal = None

    def clone(self) -> "MatterhornState":
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.cells = self.cells[:]
        twin.climbers = self.climbers[:]
        twin._undo_stack = list(self._undo_stack)
        twin._legal = None
        return twin


@lru_cache(maxsize=None)
def _choices(sorted_roll: tuple[int, ...]) -> tuple[tuple[int, Eliminate], ...]:
    """The eliminations of a roll that reach a line, each with its line's bit, fewest dice first."""
    return tuple((dicemath.line_bit(line), Eliminate(eliminated, line))
                 for eliminated, line in dicemath.eliminations(sorted_roll) if 5 <= line <= 12)


_HANDLERS = {kind: getattr(MatterhornState, "_on_" + kind) for kind in CODEC.classes}
_FACE_SET = frozenset(dicemath.FACES)


def _check_die(value: Any) -> int:
    """A die of an action: an int 1–6 exactly (the action is applied as it is, so a text or a float is refused)."""
    if value.__class__ is not int or not 1 <= value <= 6:
        raise IllegalAction(f"a die shows 1–6, got {value!r}")
    return value


def _read_die(value: Any) -> int:
    """A die as observed or typed (`chance_action`): an int 1–6 or its digits as text, converted to the int."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    return _check_die(value)


def _direction(from_line: int, to_line: int) -> str:
    return "up" if to_line < from_line else "down" if to_line > from_line else "sideways"
