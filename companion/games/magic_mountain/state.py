"""Magic Mountain (Zauberberg, AMIGO 2021): the rules engine.

A turn: the player draws a ball from the bag (chance, "draw"), the players choose the opening it goes in
(a player action; the sensor kit's top gate reports it as BallEntered(opening)), the
ball rolls down and the figures it hit, in order, are entered (an observed outcome, "hits"; the page lists
the figures on the path as buttons and sends the tapped order through `chance_action`; its chance request
has kind "hits", count 0 = any number of values, faces = the figures on the path). A figure that is
hit goes to the next vacant space of the ball's colour below it, or onto the goal tile when there is none.
A ball that hit nothing: the players choose a witch (Team vs. Team: a figure of the other team) that moves
one space on. The bag holds the balls not yet down; when all are down they go back in the bag.

The live table: `state.event_action(event)` turns BallEntered(opening) into the opening action; BallLanded
changes nothing in the engine — it means the ball is down, so the page shows the "hits" prompt (already the
state's chance request) and waits for a person to tap what it hit.

Readings where the rulebook is open, chosen as a family at the table would expect:
- "Move one witch one space further": to the next vacant space (occupied spaces are jumped, as only one
  figure stands on a space); from the last space, onto the goal tile.
- A figure on the goal tile is off the path and cannot be hit or moved again.
- The game ends at once: hits entered after the deciding figure reached the goal tile are refused.
- Easier goals (variant students_to_win 2 or 3): the witches still win with three.
- Flipped goal tile (mode "titles"): the game ends when the third witch reaches the goal tile (no title
  can be won any more), when all six students are in, or when the players choose to stop, which they may
  once they hold a title, when a ball is drawn (instead of putting it in). Every player's score is the title level (0 for none).
- Team Witch vs. Team Student (mode "teams"): the group divides into two teams, the players given 1st, 3rd,
  5th on Team Student (plays first), 2nd, 4th, 6th on Team Witch. The teams take turns, and within a team its
  players take turns in the order given (three players: 1st, 2nd, 3rd, 2nd, 1st, ...). Four students and four
  witches start on the board's `team_spaces`, student first; every player scores their team's figures on the
  goal tile, and the winning team's players all win.
- Co-operative scores: every player scores the students on the goal tile; all win or all lose together.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Mapping

from ...events import BallEntered, Event
from ..api import CHANCE, TERMINAL, Action, BadConfig, ChanceRequest, IllegalAction, Player, State, join_words
from .actions import ChooseOpening, DrawBall, EndWithTitle, Hits, MoveOnMiss
from .board import MountainBoard, load_mountain

COOPERATIVE, TITLES, TEAMS = "cooperative", "titles", "teams"
WITCHES_TO_LOSE = 3
TEAM_FIGURES_TO_WIN = 3
TEAM_NAMES = ("Team Student", "Team Witch")

# (level, title, students at least, witches at most), best first
TITLES_TABLE = (
    (5, "Grand Master", 6, 0),
    (4, "Master", 6, 1),
    (3, "Graduate", 6, 2),
    (2, "Student", 5, 2),
    (1, "Beginner", 4, 2),
)

# How many figures a simulated ball hits: none, one, two or three, with these weights.
SIMULATED_HIT_WEIGHTS = (3, 4, 2, 1)


def title_for(students: int, witches: int) -> tuple[int, str | None]:
    """The best title (level, name) the final count earns on the flipped goal tile; (0, None) for none."""
    for level, name, at_least, at_most in TITLES_TABLE:
        if students >= at_least and witches <= at_most:
            return level, name
    return 0, None


@lru_cache(maxsize=None)
def _openings(count: int) -> tuple[ChooseOpening, ...]:
    """The opening actions, one object each, so `apply` recognises a legal action by identity."""
    return tuple(ChooseOpening(n) for n in range(1, count + 1))


_move_on_miss = lru_cache(maxsize=None)(MoveOnMiss)
_END_WITH_TITLE = EndWithTitle()


def figure_name(figure: str) -> str:
    kind = {"S": "Student ", "W": "Witch "}.get(figure[:1])
    return kind + figure[1:] if kind else repr(figure)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


class MagicMountainState(State):
    game = "magic-mountain"

    def __init__(self, players: tuple[Player, ...], variants: dict[str, Any], board: MountainBoard):
        super().__init__()
        self.players = players
        self.variants = variants
        self.board = board
        self.mode: str = variants["mode"]
        self.students_to_win: int = variants["students_to_win"]
        self.positions: dict[str, int] = self._start_positions()
        self.drawn: list[str] = []
        self.turn = 0
        self.turns = 0  # turns finished: the teams mode takes the next player from it
        self.phase = "draw"
        self.ball: str | None = None
        self.opening: int | None = None

    def _start_positions(self) -> dict[str, int]:
        if self.mode == TEAMS:
            spaces = self.board.team_spaces
            return {**{f"S{i + 1}": spaces[2 * i] for i in range(4)}, **{f"W{i + 1}": spaces[2 * i + 1] for i in range(4)}}
        return {**{f"S{i + 1}": s for i, s in enumerate(self.board.student_spaces)},
                **{f"W{i + 1}": s for i, s in enumerate(self.board.witch_spaces)}}

    # -- counts and queries -------------------------------------------------------------------
    def on_goal(self, kind: str) -> int:
        goal = self.board.goal
        return sum(1 for f, p in self.positions.items() if p == goal and f[0] == kind)

    def figures_on_path(self) -> list[str]:
        goal = self.board.goal
        return [f for f, p in self.positions.items() if p != goal]

    def bag(self) -> list[str]:
        """The balls still in the bag; an empty bag is refilled before the next draw."""
        left = [c for c in self.board.ball_colours if c not in self.drawn]
        return left or list(self.board.ball_colours)

    def title(self) -> tuple[int, str | None]:
        return title_for(self.on_goal("S"), self.on_goal("W"))

    def destination(self, figure: str, colour: str, positions: Mapping[str, int] | None = None) -> int:
        """Where a hit by a ball of `colour` sends `figure`: the next vacant space of that colour, else the goal."""
        positions = self.positions if positions is None else positions
        occupied = set(positions.values())
        for space in self.board.colour_spaces_below(colour, positions[figure]):
            if space not in occupied:
                return space
        return self.board.goal

    def step_on(self, figure: str) -> int:
        """Where one space on takes `figure` (the next vacant space, else the goal tile)."""
        occupied = set(self.positions.values())
        for space in range(self.positions[figure] + 1, len(self.board.path) + 1):
            if space not in occupied:
                return space
        return self.board.goal

    def ending_counts(self) -> dict[str, int]:
        """How many students ("S") or witches ("W") on the goal tile end the game at once."""
        if self.mode == TEAMS:
            return {"S": TEAM_FIGURES_TO_WIN, "W": TEAM_FIGURES_TO_WIN}
        if self.mode == TITLES:
            return {"S": 6, "W": WITCHES_TO_LOSE}
        return {"S": self.students_to_win, "W": WITCHES_TO_LOSE}

    def _decided(self, positions: Mapping[str, int]) -> bool:
        goal = self.board.goal
        ends = self.ending_counts()
        return any(sum(1 for f, p in positions.items() if p == goal and f[0] == kind) >= n for kind, n in ends.items())

    def team_of(self, player: int) -> int:
        """Teams mode: 0 for Team Student (the players given 1st, 3rd, 5th), 1 for Team Witch."""
        return player % 2

    def team_players(self, team: int) -> list[int]:
        return list(range(team, len(self.players), 2))

    def teams(self) -> list[dict[str, Any]] | None:
        """Teams mode: each team's name and players (by seat), Team Student first; None in the other modes."""
        if self.mode != TEAMS:
            return None
        return [{"name": name, "players": self.team_players(team)} for team, name in enumerate(TEAM_NAMES)]

    def player_words(self, player: int) -> str:
        """The player's name, and in a team game their team ("Cleo (Team Student)") unless the name says it."""
        name = self.players[player].name
        team = TEAM_NAMES[self.team_of(player)] if self.mode == TEAMS else name
        return name if team == name else f"{name} ({team})"

    def miss_candidates(self) -> list[str]:
        """The figures a ball that hit nothing lets the players move: witches, or the other team's figures."""
        kind = "S" if self.mode == TEAMS and self.team_of(self.turn) == 1 else "W"
        return [f for f in self.figures_on_path() if f[0] == kind]

    def opening_action(self, opening: int) -> ChooseOpening:
        """The action for the sensor kit's BallEntered(opening)."""
        return ChooseOpening(opening)

    def event_action(self, event: Event) -> Action | None:
        """The action a sensor event stands for: BallEntered -> the opening; BallLanded -> None (the ball
        is down: the page keeps asking what it hit); other events -> None. IllegalAction when a ball
        enters while no drawn ball waits for its opening."""
        if not isinstance(event, BallEntered):
            return None
        if self.phase != "opening":
            missing = "its colour is not entered yet" if self.phase == "draw" else "no drawn ball waits for an opening"
            raise IllegalAction(f"a ball entered opening {event.opening}, but {missing}")
        return self.opening_action(event.opening)

    # -- the game API ---------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        if self.phase in ("draw", "hits"):
            return CHANCE
        return self.turn

    def legal_actions(self) -> list[Action]:
        if self.phase == "opening":
            actions: list[Action] = list(_openings(self.board.openings))
            if self.mode == TITLES and self.title()[0] > 0:
                actions.append(_END_WITH_TITLE)
            return actions
        if self.phase == "miss":
            return [_move_on_miss(f) for f in self.miss_candidates()]
        return []

    def describe(self, action: Action) -> str:
        if isinstance(action, DrawBall):
            return f"The {action.colour} ball was drawn"
        if isinstance(action, ChooseOpening):
            return f"Put the {self.ball + ' ' if self.ball else ''}ball in opening {action.opening}"
        if isinstance(action, Hits):
            if not action.figures:
                return "The ball hit nothing"
            return "The ball hit " + ", then ".join(figure_name(f) for f in action.figures)
        if isinstance(action, MoveOnMiss):
            to = self.step_on(action.figure) if action.figure in self.positions else None
            where = "onto the goal tile" if to == self.board.goal else f"to space {to}"
            return f"Move {figure_name(action.figure)} one space on, {where}"
        if isinstance(action, EndWithTitle):
            name = self.title()[1]
            return f"Stop here with the title {name}" if name else "Stop here (no title yet)"
        raise IllegalAction(f"{action!r} is not a Magic Mountain action")

    def prompt(self) -> str:
        who = self.player_words(self.turn)
        if self.phase == "draw":
            return f"{who}: draw a ball from the bag."
        if self.phase == "opening":
            return f"{who}: which opening for the {self.ball} ball?"
        if self.phase == "hits":
            return self.chance_request().prompt
        if self.phase == "miss":
            whom = "one of Team Student's figures" if self.miss_candidates()[0][0] == "S" else "a witch"
            return f"The ball hit nothing: {who}, choose {whom} to move one space on."
        return self.outcome()

    def outcome(self) -> str:
        """Plain words for the result, once the game is over."""
        students, witches = self.on_goal("S"), self.on_goal("W")
        if self.mode == TEAMS:
            team = 0 if students >= TEAM_FIGURES_TO_WIN else 1
            names = [self.players[p].name for p in self.team_players(team)]
            if names == [TEAM_NAMES[team]]:
                return f"{names[0]} wins."
            return f"{TEAM_NAMES[team]} wins: {join_words(names)}."
        if self.mode == TITLES:
            level, name = self.title()
            got = f"the title {name} (level {level})" if level else "no title"
            return (f"{_count(students, 'student', 'students')} and {_count(witches, 'witch', 'witches')} reached "
                    f"Master Balduin: {got}.")
        if students >= self.students_to_win:
            return f"You all win: {students} students reached Master Balduin."
        return f"You all lose: {witches} witches reached Master Balduin first."

    def chance_request(self) -> ChanceRequest | None:
        if self.phase == "draw":
            who = self.player_words(self.turn)
            return ChanceRequest("draw", 1, tuple(self.bag()), f"{who}: draw a ball from the bag.", (self.turn,))
        if self.phase == "hits":
            return ChanceRequest("hits", 0, tuple(self.figures_on_path()),
                                 f"The {self.ball} ball is down: which figures did it hit, in order? None if it hit nothing.")
        return None

    def chance_action(self, values: list[Any]) -> Action:
        if self.phase in ("draw", "hits") and not isinstance(values, (list, tuple)):
            what = "one ball colour" if self.phase == "draw" else "the figures hit"
            raise IllegalAction(f"expected a list of values ({what}), got {values!r}")
        if self.phase == "draw":
            if len(values) != 1:
                raise IllegalAction(f"a draw is one ball colour, got {len(values)} values")
            action: Action = DrawBall(str(values[0]).strip().lower())
        elif self.phase == "hits":
            known = {key: f for f in self.positions for key in (f.lower(), figure_name(f).lower())}
            unknown = [v for v in values if " ".join(str(v).lower().split()) not in known]
            if unknown:
                raise IllegalAction(f"unknown figure {unknown[0]!r}; the figures are {', '.join(self.positions)}")
            action = Hits(tuple(known[" ".join(str(v).lower().split())] for v in values))
        else:
            raise IllegalAction("Magic Mountain is not waiting for a ball or its hits now")
        self._check_chance(action)
        return action

    def _check_chance(self, action: Action) -> None:
        if self.phase == "draw":
            if not isinstance(action, DrawBall):
                raise self.not_legal_now(action)
            if not isinstance(action.colour, str):
                raise IllegalAction(f"a ball colour is a text, got {action.colour!r}")
            if action.colour not in self.bag():
                raise IllegalAction(f"the bag holds {', '.join(self.bag())}; {action.colour!r} is not in it")
            return
        if not isinstance(action, Hits):
            raise IllegalAction(f"waiting for the figures the {self.ball} ball hit")
        figures = action.figures
        if figures.__class__ is not tuple or not all(f.__class__ is str for f in figures):
            raise IllegalAction(f"the figures hit must be a list of figure names (texts), got {figures!r}")
        self._moves_of(figures)

    def _moves_of(self, figures: tuple[str, ...]) -> dict[str, int]:
        """The positions after the hits, in order; IllegalAction for a figure that cannot be hit."""
        positions = dict(self.positions)
        goal = self.board.goal
        for i, figure in enumerate(figures):
            if figure not in positions:
                raise IllegalAction(f"unknown figure {figure!r}; the figures are {', '.join(positions)}")
            if i and self._decided(positions):
                raise IllegalAction(f"the game ended with the hit of {figure_name(figures[i - 1])}; "
                                    f"{figure_name(figure)} cannot be hit after that")
            if positions[figure] == goal:
                raise IllegalAction(f"{figure_name(figure)} is on the goal tile and cannot be hit")
            positions[figure] = self.destination(figure, self.ball, positions)  # type: ignore[arg-type]
        return positions

    def sample_chance(self, rng: random.Random) -> Action:
        if self.phase == "draw":
            return DrawBall(rng.choice(self.bag()))
        if self.phase != "hits":
            return super().sample_chance(rng)
        count = rng.choices(range(len(SIMULATED_HIT_WEIGHTS)), weights=SIMULATED_HIT_WEIGHTS)[0]
        positions = dict(self.positions)
        goal = self.board.goal
        hits: list[str] = []
        for _ in range(count):
            on_path = [f for f, p in positions.items() if p != goal]
            if not on_path or self._decided(positions):
                break
            figure = rng.choice(on_path)
            positions[figure] = self.destination(figure, self.ball, positions)  # type: ignore[arg-type]
            hits.append(figure)
        return Hits(tuple(hits))

    def _apply(self, action: Action) -> None:
        if isinstance(action, DrawBall):
            self.ball = action.colour
            self.phase = "opening"
        elif isinstance(action, ChooseOpening):
            self.opening = action.opening
            self.phase = "hits"
        elif isinstance(action, Hits):
            self.positions = self._moves_of(action.figures)
            if self._decided(self.positions):
                self.phase = "over"
            elif action.figures or not self.miss_candidates():
                self._next_turn()
            else:
                self.phase = "miss"
        elif isinstance(action, MoveOnMiss):
            self.positions[action.figure] = self.step_on(action.figure)
            if self._decided(self.positions):
                self.phase = "over"
            else:
                self._next_turn()
        elif isinstance(action, EndWithTitle):
            self.phase = "over"

    def _next_turn(self) -> None:
        self.drawn.append(self.ball)  # type: ignore[arg-type]
        if len(self.drawn) == len(self.board.ball_colours):
            self.drawn = []
        self.turns += 1
        if self.mode == TEAMS:
            team = self.team_players(self.turns % 2)
            self.turn = team[self.turns // 2 % len(team)]
        else:
            self.turn = (self.turn + 1) % len(self.players)
        self.phase = "draw"
        self.ball = None
        self.opening = None

    def scores(self) -> list[int]:
        if self.mode == TEAMS:
            return [self.on_goal("W" if self.team_of(p) else "S") for p in range(len(self.players))]
        value = self.title()[0] if self.mode == TITLES else self.on_goal("S")
        return [value] * len(self.players)

    def winners(self) -> list[int]:
        if self.phase != "over":
            return []
        students = self.on_goal("S")
        if self.mode == TEAMS:
            return self.team_players(0 if students >= TEAM_FIGURES_TO_WIN else 1)
        won = self.title()[0] > 0 if self.mode == TITLES else students >= self.students_to_win
        return list(range(len(self.players))) if won else []

    # -- undo and JSON --------------------------------------------------------------------------
    def _save(self) -> Any:
        return (dict(self.positions), list(self.drawn), self.turn, self.turns, self.phase, self.ball, self.opening)

    def _load(self, saved: Any) -> None:
        positions, drawn, self.turn, self.turns, self.phase, self.ball, self.opening = saved
        self.positions, self.drawn = dict(positions), list(drawn)

    def _data(self) -> dict[str, Any]:
        goal = self.board.goal
        return {
            "players": [p.to_json() for p in self.players],
            "variants": dict(self.variants),
            "board": self.board.to_json(),
            "positions": {f: "goal" if p == goal else p for f, p in self.positions.items()},
            "drawn": list(self.drawn),
            "turn": self.turn,
            "turns": self.turns,
            "phase": self.phase,
            "ball": self.ball,
            "opening": self.opening,
        }

    @classmethod
    def _from_data(cls, data: Mapping[str, Any]) -> "MagicMountainState":
        try:
            board = load_mountain(data["board"])
            players = tuple(Player(p["name"], p.get("colour", "")) for p in data["players"])
            state = cls(players, dict(data["variants"]), board)
            state.positions = {f: board.goal if p == "goal" else int(p) for f, p in data["positions"].items()}
            state.drawn = [str(c) for c in data["drawn"]]
            state.turn = int(data["turn"])
            state.turns = int(data.get("turns", state.turn))  # saved before it was kept: right for two players
            state.phase = str(data["phase"])
            state.ball = data["ball"]
            state.opening = data["opening"]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BadConfig(f"not a Magic Mountain state: {exc!r}") from None
        if set(state.positions) != set(state._start_positions()) or state.phase not in ("draw", "opening", "hits", "miss", "over"):
            raise BadConfig("not a Magic Mountain state: wrong figures or phase")
        return state
