"""The table: one event queue, one thread that owns the game.

Sources (camera, sensors, the page, a replayed recording) call `submit(event)`; the owner thread takes one
event at a time, decides what it means for the game (companion.table.inputs), applies it to the engine,
stores it in the journal, and only then resolves the caller's future and publishes the new view to every
listener (the page's live streams). Nothing else touches the engine, so there are no locks around it.

A person's request is a `PlayerAction` whose `action` is a command (companion.table.commands); it is
answered with an `Outcome`: accepted, or rejected with the engine's message, and the game unchanged.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import queue
import secrets
import threading
import time
from concurrent.futures import Future
from typing import Any, Callable

from ..events import (BadEvent, BallEntered, BallLanded, BananaSqueaked, CameraHealth, DiceSettled, DieReading, Event,
                      GameSoFar, PlayerAction, RecordingHealth, SensorHealth, ZoneState, event_from_json)
from ..games import registry
from ..games.api import Action, GameError, Player, State
from .commands import BadCommand, check_command, check_players
from .inputs import (SAME_RACE_NS, Ask, Decision, DuelDice, Hold, Ignore, Play, PutAway, ZoneHistory, answer_decision,
                     decide, duel_began_at, pip_roll_unused, typed_squeak_decision, unrolled_sides)
from .journal import Journal, JournalError
from .view import build_view, step_token


@dataclasses.dataclass(frozen=True)
class Outcome:
    ok: bool
    message: str = ""
    version: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "message": self.message, "version": self.version}


class Rejected(Exception):
    """A request the game refuses; the message is for a person."""


@dataclasses.dataclass
class Game:
    """The game in progress as the owner thread holds it."""

    id: int
    name: str
    setup: dict[str, Any]
    state: State
    history: list[dict[str, Any]]
    last_reading: dict[str, Any] | None = None
    started: int | None = None  # when it began, on the table's clock; None when not on this run's
    clock_from: int = 0  # the steps before it were timed before the table last started (see duel_began_at)


_STOP = object()
REMEMBER_ONLY = -2  # `submit(zone_state, position=REMEMBER_ONLY)`: what the camera saw before a resumed replay


class Table:
    def __init__(self, journal: Journal, *, on_loop: Callable[[], None] | None = None,
                 tap: Callable[[Event], None] | None = None,
                 loop_seconds: float = 1.0):
        self.journal = journal
        self.on_loop = on_loop
        self.tap = tap
        self.loop_seconds = loop_seconds
        self._queue: queue.Queue = queue.Queue()
        self._listeners: list[Callable[[dict[str, Any]], None]] = []
        self._listeners_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.zones = ZoneHistory()
        self.duel_dice = DuelDice()  # Banana Matcho's dice as the camera reads them, for the duel panel
        self.health: dict[str, dict[str, str]] = {}
        self.game: Game | None = None
        self.question: dict[str, Any] | None = None
        # What changed with no step since the last step, the last last, for undo to put back first: each a
        # question asked or put away ({"question": the one open before}), or an event kept ({"held": the one
        # kept before, in its JSON form}).
        self.unstepped: list[dict[str, Any]] = []
        self.held: tuple[Event, str] | None = None  # an event kept until a tap it came before, and why
        # Magic Mountain's balls that went in while the one kept waited for its colour, told on the page until their
        # openings are played: {"since": the steps played when the first came, "openings": theirs in order,
        # "first": the kept ball's opening}, journaled (meta "early_balls") so a restart keeps telling them
        self.early_balls: dict[str, Any] | None = None
        # Banana Matcho's {zone: dice} lying since before the game began, as journaled (meta first_duel_dice)
        self.first_duel_dice: dict[str, list[dict[str, Any]]] = {}
        self.notice = ""
        self.version = 0
        self.run = secrets.token_hex(4)  # versions count again from 0 after a restart: pages tell runs apart
        self.replay_position = int(journal.meta("replay_position") or -1)
        self._view: dict[str, Any] = {}
        self._recover()
        if self.tap is not None and self.game is not None:
            self._record(GameSoFar(t=time.monotonic_ns(), game=self._so_far()))
        self._publish()

    # -- life cycle -----------------------------------------------------------------------------
    def start(self) -> "Table":
        self._thread = threading.Thread(target=self._run, name="table", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(timeout)
            self._thread = None

    # -- what other threads call ------------------------------------------------------------------
    def submit(self, event: Event, position: int | None = None) -> "Future[Outcome]":
        """Queue an event; the future resolves once it is applied and journaled (or rejected)."""
        future: Future[Outcome] = Future()
        self._queue.put((event, position, future))
        return future

    def request(self, command: dict[str, Any], t: int | None = None, source: str = "page",
                timeout: float = 10.0) -> Outcome:
        """A person's command, answered once it is durable."""
        event = PlayerAction(t=time.monotonic_ns() if t is None else t, action=command, source=source)
        return self.submit(event).result(timeout)

    def view(self) -> dict[str, Any]:
        return self._view

    def listen(self, listener: Callable[[dict[str, Any]], None]) -> Callable[[], None]:
        """Call `listener(view)` from the owner thread after every change; returns the way to stop."""
        with self._listeners_lock:
            self._listeners.append(listener)

        def stop() -> None:
            with self._listeners_lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)
        return stop

    # -- the owner thread -------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            if self.on_loop is not None:
                self.on_loop()
            try:
                item = self._queue.get(timeout=self.loop_seconds)
            except queue.Empty:
                self._idle()
                continue
            if item is _STOP:
                return
            event, position, future = item
            try:
                outcome = self._handle(event, position)
            except JournalError as exc:  # every step is rolled back in memory too (`_play`)
                outcome = Outcome(False, f"not saved, so not played: {exc}", self.version)
                self._tell_unanswered(event, outcome.message)
            except Exception as exc:  # the loop must outlive any one bad event
                outcome = Outcome(False, f"internal error: {type(exc).__name__}: {exc}", self.version)
                self._tell_unanswered(event, f"not played: {outcome.message}")
            if not future.set_running_or_notify_cancel():
                continue
            future.set_result(outcome)

    def _tell_unanswered(self, event: Event, failure: str) -> None:
        """A tap's failure goes back to the phone that sent it; a roll the camera read or a sensor's event has
        nobody to answer, and the camera does not read dice lying still again: the page says it was not
        played, and how to tap it in."""
        said = _unplayed_words(event)
        if said is None:
            return
        what, then = said
        self.notice = f"{what} was {failure.rstrip('.')}. Then {then}"
        with contextlib.suppress(Exception):
            self._publish()

    def _idle(self) -> None:
        """Nothing came for a while: a squeak kept for the camera's frames is judged on those read."""
        if not self._held_squeak():
            return
        try:
            changed = self._play_held(waited=True)
        except Exception as exc:  # the loop must outlive it, as any event
            self.notice = f"the squeak could not be judged: {type(exc).__name__}: {exc}"
            changed = True
        if changed:
            self._publish()

    def _handle(self, event: Event, position: int | None) -> Outcome:
        if position == REMEMBER_ONLY and isinstance(event, ZoneState):  # a frame from before a resumed replay
            self.zones.add(event)
            return Outcome(True, "", self.version)
        # A game resumed is recorded as the game so far: its number is this journal's, not the replay's.
        resuming = isinstance(event, PlayerAction) and isinstance(event.action, dict) and \
            event.action.get("do") == "resume"
        if self.tap is not None and not resuming and not self._record(event):
            self._publish()  # the page says the recording stopped now, whatever the event does
        if position is not None:
            self.replay_position = position
        judged = False
        try:
            judged = self._judges_the_held_squeak(event) and self._play_held(waited=True)
            if judged:  # before a tap's "seen" is checked: live, the idle second had shown it already
                self._publish()
            changed, message = self._dispatch(event, recorded=position is not None)
        except (Rejected, GameError, BadCommand) as exc:
            return Outcome(False, str(exc), self.version)
        if resuming and self.tap is not None and self.game is not None:
            self._record(GameSoFar(t=event.t, game=self._so_far()))
        if changed:
            self._publish()
        return Outcome(True, message, self.version)

    def _judges_the_held_squeak(self, event: Event) -> bool:
        """Whether a squeak kept for the camera's frames is judged on those read so far before `event`: where
        the table's idle second judged it live, a replay (which has no pauses) judges it too. Not before a
        frame (it may be the one awaited), the other hand on the banana a moment later, or a pip roll the game
        does not take (the settle detector's, read before that frame's zones)."""
        return (self._held_squeak() and not isinstance(event, ZoneState) and not self._late_hand(event)
                and not pip_roll_unused(self.game.state, event))

    def _late_hand(self, event: Event) -> bool:
        """A squeak within `SAME_RACE_NS` after the squeak kept for the camera's frames: the other hand on the
        banana, arriving late. It counts for nothing, and does not take the kept squeak's place."""
        return (isinstance(event, BananaSqueaked) and self._held_squeak()
                and 0 <= event.t - self.held[0].t < SAME_RACE_NS)

    def _record(self, event: Event) -> bool:
        """A recording that cannot be written (a full disk, a USB stick pulled out) stops; the game goes on,
        kept in the journal as ever, and the page says so."""
        try:
            self.tap(event)
        except OSError as exc:
            self.tap = None
            self.health["recording"] = {"state": "error",
                                        "message": f"the recording stopped ({exc}); the game goes on"}
            return False
        return True

    def _dispatch(self, event: Event, recorded: bool = False) -> tuple[bool, str]:
        if isinstance(event, ZoneState):
            self.zones.add(event)
            self._note_the_first_duels_dice(event)
            shown = self.game is not None and self.game.name == "banana-matcho" and self.duel_dice.add(
                event, lain=self._lain_since_before_the_duel(event))
            return (self._held_squeak() and self._play_held()) or shown, ""
        if isinstance(event, RecordingHealth):
            self.health["recording"] = {"state": event.state, "message": event.message}
            return True, ""
        if isinstance(event, (SensorHealth, CameraHealth)):
            key = f"sensor:{event.sensor}" if isinstance(event, SensorHealth) else "camera"
            self.health[key] = {"state": event.state, "message": event.message}
            return True, ""
        if isinstance(event, PlayerAction):
            return self._command(check_command(event.action, recorded=recorded), event)
        if isinstance(event, GameSoFar):
            self._restore(event)
            return True, "the game so far"
        return self._observation(event)

    def _lain_since_before_the_duel(self, event: ZoneState) -> bool:
        """Whether the Banana Matcho zone's dice lie, never picked up, since before the duel now on began."""
        game = self.game
        began = duel_began_at(game.state, game.history, game.started, game.clock_from)
        return event.zone in unrolled_sides(self.zones, event.t, began)

    def _so_far(self) -> dict[str, Any]:
        game = self.game
        return {"game": game.name, "setup": game.setup, "history": game.history, "question": self.question,
                "held": _held_to_json(self.held), "unstepped": self.unstepped, "started": game.started,
                "clock_from": game.clock_from, "early_balls": self.early_balls,
                "first_duel_dice": self.first_duel_dice}

    def _restore(self, event: GameSoFar) -> None:
        """A recording's game so far, played into a new game of this journal as it stood: its steps (their
        readings and corrections), the question asked and the event kept."""
        data = event.game
        try:
            game_def = registry.get_game(data["game"])
            setup = data["setup"]
            check_players(setup["players"], new=False)  # a shared recording's names reach every page and terminal
            state = game_def.new_state([Player(p["name"], p.get("colour", "")) for p in setup["players"]],
                                       setup.get("variants") or {})
            history = [dict(step) for step in data["history"]]
            for step in history:
                state.apply(game_def.action_from_json(step["action"]))
            question, held, unstepped, early, first_duel_dice = _unstepped_state_from_json(data, None)
            started = None if data.get("started") is None else int(data["started"])  # an older recording: unknown
            clock_from = int(data.get("clock_from", len(history)))
        except (BadEvent, BadCommand, GameError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise Rejected(f"the game so far could not be played: {exc}") from None
        with self.journal.transaction() as tx:
            self._set_aside(tx)
            game_id = tx.new_game(game_def.name, setup, event.t if started is None else started)
            for step in history:
                tx.apply(game_id, step["action"], {k: v for k, v in step.items() if k != "action"},
                         step.get("t", event.t))
            if state.is_over():
                tx.finish(game_id, {"scores": state.scores(), "winners": state.winners()})
            _write_question(tx, question)
            _write_held(tx, held)
            _write_unstepped(tx, unstepped)
            early = {**early, "game": game_id} if early else None
            _write_early_balls(tx, early)
            _write_first_duel_dice(tx, game_id, first_duel_dice)
            self._write_position(tx)
        self._take_up(Game(game_id, game_def.name, setup, state, history, _last_reading(history), started, clock_from),
                      question, held, held[1] if held else "")
        self.first_duel_dice = first_duel_dice
        self.zones.clear(lain=_lain_as_the_duel_began(self.game, first_duel_dice))
        self.unstepped, self.early_balls = unstepped, early

    # -- sensor and camera events -----------------------------------------------------------------
    def _observation(self, event: Event) -> tuple[bool, str]:
        game = self.game
        if game is None or game.state.is_over():
            self._persist_position()
            return False, "no game in progress"
        if pip_roll_unused(game.state, event):
            self._persist_position()
            return False, f"{game.name} takes no pip dice: the roll read is not used"
        if self._late_hand(event):
            self._persist_position()
            return False, ("the banana squeaked again right after the squeak waiting for the camera's picture: only "
                           "the first hand on the banana counts")
        decision = decide(game.state, event, self.zones, game.history, self.question, started=game.started,
                          clock_from=game.clock_from)
        if self._another_ball(event, decision):
            self._keep_early_ball(game, event)
            return True, self.notice
        replaced = self.held if self.held is not None and type(self.held[0]) is type(event) else None
        if replaced:
            self.held = None  # a roll thrown again: the later one counts
        if isinstance(decision, Hold):
            self._hold(event, decision.reason, replaced)
            return True, decision.reason
        if isinstance(decision, Ignore):
            self.notice = self._landed_while_kept(event) or decision.reason
            if replaced:
                self.unstepped = [*self.unstepped, {"held": _held_to_json(replaced)}]
                with self.journal.transaction() as tx:
                    self._write_held(tx)
                    _write_unstepped(tx, self.unstepped)
                    self._write_position(tx)
            else:
                self._persist_position()
            return True, decision.reason
        return True, self._take(decision, event)

    def _take(self, decision: Play | Ask, event: Event, recorded: bool = False) -> str:
        """Play the decision's actions as one step, or ask its question; what the page is asked, if anything.
        `recorded`: the event is in the journal already (it was kept)."""
        if isinstance(decision, Ask):
            self._set_question(decision.question, event, recorded=recorded)
            self.notice = ""  # the question says what is wanted now (a kept squeak's "waits for the picture" is done)
            return decision.question["text"]
        self._play(decision.actions, event, reading=decision.reading, reading_step=decision.reading_step,
                   question=decision.question, t=decision.t, recorded=recorded)
        return decision.question["text"] if decision.question is not None else ""

    # -- a person's commands ------------------------------------------------------------------------
    def _command(self, command: dict[str, Any], event: PlayerAction) -> tuple[bool, str]:
        name = command["do"]
        if "seen" in command and command["seen"] != self._view["step"] and (
                name == "undo" or command["seen"] != step_token(self._view["game"], self._view["question"])):
            # Only an Undo is told apart by what changed with no step; any other tap made on the same game and
            # question (a recording made before the step token counted it) stands.
            if name in ("start", "resume"):
                again = f"tap {'Start' if name == 'start' else 'the game'} again"
                if not _kept_words(self.game):
                    raise Rejected(f"the game changed while you chose (someone played or ended it): {again}")
                raise Rejected("the game was played on while you chose (someone played, or the camera read a roll): "
                               f"{again} to set it aside anyway; it is kept to pick up")
            raise Rejected("the game moved on before your tap arrived (someone else played, or the camera read "
                           "a roll): look again, and tap again if it is still your move")
        if name == "start":
            self._start(command, event)
            return True, "game started"
        if name == "resume":
            self._resume(command["game_id"], event)
            return True, "game resumed"
        game = self._require_game()
        if name == "end":
            with self.journal.transaction() as tx:
                if not game.state.is_over():  # a game played out keeps its scores and winners
                    tx.finish(game.id, None)
                tx.clear_meta("current_game")
                _clear_unstepped_state(tx)
            self._take_up(None)
            return True, "game ended"
        if name == "undo":
            self._undo(event)
            return True, "undone"
        changed, message = self._step(command, game, event)
        self._play_held()
        return changed, message

    def _step(self, command: dict[str, Any], game: Game, event: PlayerAction) -> tuple[bool, str]:
        name = command["do"]
        if name == "correct":
            self._correct(command["index"], command["value"], event)
            return True, "corrected"
        if name == "dice" and (self.question or {}).get("kind") == "squeak":
            decision = typed_squeak_decision(game.state, self.question, command["values"])
            return self._decided(decision, event)
        if name == "dice":
            action = game.state.chance_action(command["values"])
            if self.held is not None and isinstance(self.held[0], DiceSettled):
                self.held = None  # the roll a person types is the one the game asks for, not the one kept
            seen = ((self.question or {}).get("reading") or {}).get("dice") or []
            reading = {"t": event.t, "values": list(command["values"]), "dice": [], "unsure": [], "typed": True,
                       "seen": seen}  # the dice the camera saw, still lying in the tray
            self._play([action], event, reading=reading)
            return True, ""
        if name == "choose":
            return self._decided(answer_decision(game.state, self.question, command["option"]), event)
        action = self._decode(game, command["action"])
        self._play([action], event)
        return True, ""

    def _hold(self, event: Event, reason: str, replaced: tuple[Event, str] | None = None) -> None:
        """Keep `event` (taking the place of `replaced`, the one kept before it, if any)."""
        held = (event, reason)
        unstepped = [*self.unstepped, {"held": _held_to_json(replaced)}]
        with self.journal.transaction() as tx:  # kept only once saved: one not saved is said (`_tell_unanswered`)
            tx.event(self.game.id if self.game else None, event.to_json())
            _write_held(tx, held)
            _write_unstepped(tx, unstepped)
            self._write_position(tx)
        self.held, self.notice, self.unstepped = held, reason, unstepped

    def _another_ball(self, event: Event, decision: Decision) -> bool:
        """Whether `event` is a ball entering while one kept for its colour waits: the next turn's, dropped before
        the first one's colour was tapped. The colour tapped next is the first ball's, so that one is kept with
        its opening, and this one is told (`early_balls`), to be tapped once the first ball's turn is done."""
        return (isinstance(event, BallEntered) and isinstance(decision, Hold) and self.held is not None
                and isinstance(self.held[0], BallEntered))

    def _keep_early_ball(self, game: Game, event: BallEntered) -> None:
        """Journal the ball that went in early with those before it, in the order they went in."""
        first = self.held[0].opening
        kept = self.early_balls if (self.early_balls or {}).get("first") == first and self._early_openings() else None
        early = {"game": game.id, "since": kept["since"] if kept else len(game.history),
                 "openings": [*(kept["openings"] if kept else []), event.opening], "first": first}
        with self.journal.transaction() as tx:
            tx.event(game.id, event.to_json())
            _write_early_balls(tx, early)
            _write_unstepped(tx, self.unstepped)  # after the event: a restart sees nothing journaled after it
            self._write_held(tx)  # so too the ball kept for its colour
            self._write_position(tx)
        self.early_balls, self.notice = early, _another_ball_words(early["openings"], first)

    def _early_openings(self) -> list[int]:
        """The openings of the balls that went in early (`early_balls`) whose own openings are not played yet: each
        opening played since they came is the ball's that went in there (the kept one's, or an early one's), else
        the next one's in order."""
        if self.early_balls is None or self.game is None or self.game.state.is_over():
            return []
        since = self.early_balls["since"]
        if len(self.game.history) < since:  # undone back to before they came
            return []
        waiting = [(False, self.early_balls["first"])] + [(True, opening) for opening in self.early_balls["openings"]]
        for step in self.game.history[since:]:
            if step["action"].get("kind") == "choose_opening" and waiting:
                opening = step["action"].get("opening")
                waiting.pop(next((i for i, (_, o) in enumerate(waiting) if o == opening), 0))
        return [opening for early, opening in waiting if early]

    def _next_ball_words(self) -> str:
        """What the page tells of the balls that went in early, until their openings are played. "" for none."""
        waiting = self._early_openings()
        if len(waiting) == 1:
            return (f"The next ball went into opening {waiting[0]} early: when its turn comes, tap its colour and "
                    f"opening {waiting[0]}")
        return (f"The next balls went into openings {_in_order(waiting)} early, in that order: as each one's turn "
                f"comes, tap its colour and its opening") if waiting else ""

    def notice_shown(self) -> str:
        """The notice, and the balls that went in early for as long as they wait: a later notice (a ball landing,
        the kept ball played) does not make the family forget them."""
        words = self._next_ball_words()
        if not words or self.notice == _another_ball_words(self.early_balls["openings"], self.early_balls["first"]):
            return self.notice
        return f"{self.notice}. {words}" if self.notice else words

    def _landed_while_kept(self, event: Event) -> str:
        """A ball kept for its colour runs through long before a person taps it: its landing is told as that
        ball's, not as a ball nobody played."""
        if isinstance(event, BallLanded) and self.held is not None and isinstance(self.held[0], BallEntered):
            return (f"The ball that went into opening {self.held[0].opening} reached the bottom: tap its colour, "
                    f"then what it hit")
        return ""

    def _held_squeak(self) -> bool:
        return self.held is not None and isinstance(self.held[0], BananaSqueaked)

    def _play_held(self, waited: bool = False) -> bool:
        """The event kept, decided again now that a person played a step or the camera read a frame: played,
        asked about, still kept, or dropped with the reason why. Whether anything changed."""
        if self.held is None or self.game is None:
            return False
        held = event, _ = self.held
        decision = decide(self.game.state, event, self.zones, self.game.history, self.question, waited,
                          self.game.started, self.game.clock_from)
        if isinstance(decision, Hold):
            changed = self.held != (event, decision.reason)
            self.held = (event, decision.reason)
            self.notice = decision.reason
            return changed
        self.held = None
        unstepped = self.unstepped
        if unstepped and "held" in unstepped[-1]:  # the event kept is decided: an undo takes back what it did
            self.unstepped = unstepped[:-1]
        try:
            if isinstance(decision, (Play, Ask)):
                self._take(decision, event, recorded=True)
            else:
                with self.journal.transaction() as tx:
                    self._write_held(tx)
                    _write_unstepped(tx, self.unstepped)
                self.notice = decision.reason
        except JournalError as exc:  # the person's step is saved; the kept event waits for the next one
            self.held, self.unstepped = held, unstepped
            self.notice = f"{held[1]} (not played yet: {exc})"
        return True

    def _write_held(self, tx) -> None:
        _write_held(tx, self.held)

    def _decided(self, decision: Decision, event: Event) -> tuple[bool, str]:
        """A person's answer: played, or asked about again; a squeak that cannot be played is refused."""
        if isinstance(decision, Ignore):
            raise Rejected(decision.reason)
        if isinstance(decision, PutAway):
            self._put_away(event, decision.reason)
            return True, decision.reason
        return True, self._take(decision, event)

    def _put_away(self, event: PlayerAction, reason: str) -> None:
        """The question cleared with no step: the answer is journaled as an event, as the camera's and the
        sensors' are, so the journal says why the question went."""
        unstepped = [*self.unstepped, {"question": self.question}]
        with self.journal.transaction() as tx:
            tx.event(self.game.id if self.game else None, event.to_json())
            tx.clear_meta("question")
            _write_unstepped(tx, unstepped)
            self._write_held(tx)
            self._write_position(tx)
        self.question, self.notice, self.unstepped = None, reason, unstepped

    def _require_game(self) -> Game:
        if self.game is None:
            raise Rejected("no game in progress: start one first")
        return self.game

    @staticmethod
    def _decode(game: Game, data: dict[str, Any]) -> Action:
        return registry.get_game(game.name).action_from_json(data)

    def _start(self, command: dict[str, Any], event: Event) -> None:
        game_def = registry.get_game(command["game"])
        players = [Player(p["name"].strip(), p.get("colour", "")) for p in command["players"]]
        variants = command.get("variants") or {}
        state = game_def.new_state(players, variants)
        setup = {"players": [p.to_json() for p in players], "variants": game_def.check_variants(variants)}
        with self.journal.transaction() as tx:  # a game left unfinished can be picked up again later
            self._set_aside(tx)
            game_id = tx.new_game(game_def.name, setup, event.t)
            _clear_unstepped_state(tx)
            self._write_position(tx)
        self._take_up(Game(game_id, game_def.name, setup, state, [], started=event.t), notice=_kept_words(self.game))
        self.zones.clear(lying_before=event.t)  # the camera reads the zones from now: what lies there was before

    def _take_up(self, game: Game | None, question: dict[str, Any] | None = None,
                 held: tuple[Event, str] | None = None, notice: str = "") -> None:
        """The table on `game` (None: no game), with its question, kept event and notice: the zones' readings
        and the duel's dice so far are another game's (or one ended)."""
        self.game, self.question, self.held, self.notice = game, question, held, notice
        self.unstepped, self.early_balls, self.first_duel_dice = [], None, {}
        self.zones.clear()
        self.duel_dice.clear()

    def _resume(self, game_id: int, event: Event) -> None:
        row = self.journal.game(game_id)
        if row is None:
            raise Rejected(f"there is no game number {game_id}")
        if row["finished"]:
            raise Rejected(f"game {game_id} is over; start a new one")
        game = self._load(row)
        with self.journal.transaction() as tx:
            self._set_aside(tx)
            tx.set_meta("current_game", str(game_id))
            _clear_unstepped_state(tx)
            _pick_up(tx, game_id)
        set_aside = self.game if self.game is not None and self.game.id != game_id else None
        self._take_up(game)
        self._take_up_first_duel_dice()
        self._take_up_unstepped_state("when the game was set aside")
        self.notice = ". ".join(words for words in (_kept_words(set_aside), self.notice) if words)

    def _set_aside(self, tx) -> None:
        """The game on, left for another, keeps what it has with no step (the question asked, the event kept, what
        Undo puts back first, the balls that went in early, the dice lying as it began) as its own meta (`_pick_up`
        gives it back), with its last numbers in the journal: the table-wide meta is the game on's alone."""
        game = self.game
        if game is None:
            return
        kept = {"question": self.question, "held": _held_to_json(self.held), "unstepped": self.unstepped,
                "early_balls": self.early_balls, "first_duel_dice": self.first_duel_dice}
        if game.state.is_over() or not any(kept.values()):
            tx.clear_meta(_set_aside_key(game.id))  # one an older companion left when it picked the game up
        else:
            tx.set_meta(_set_aside_key(game.id), json.dumps({**kept, "seqs": tx.game_seqs(game.id)}))

    def _play(self, actions: list[Action], event: Event, reading: dict[str, Any] | None = None,
              reading_step: int = 0, question: dict[str, Any] | None = None, t: int | None = None,
              recorded: bool = False) -> None:
        """Apply `actions` as one step, journal them in one transaction, or change nothing at all. `reading`
        goes with the action at `reading_step`, the roll it is of; `question` is asked once they are played,
        kept in the same transaction; `t`: when it happened, if not at `event`; `recorded`: the event is in
        the journal already (it was kept)."""
        game = self._require_game()
        applied: list[dict[str, Any]] = []
        try:
            for action in actions:
                text = game.state.describe_safely(action)
                who = game.state.current_player()
                game.state.apply(action)
                applied.append({"action": action.to_json(), "text": text, "who": who,
                                "t": event.t if t is None else t})
            if reading is not None:
                applied[reading_step]["reading"] = reading
            self._note_the_duels_dice(game, applied, event.t if t is None else t)
            if self.question is not None:  # the step answers it: an undo takes the whole step back and asks again
                applied[-1].update(asked=self.question, actions=len(applied))
            if self.held is not None:  # tapped while an event waits: an undo of the step leaves it waiting
                applied[-1]["kept"] = self.unstepped
            self._journal_step(game, event, undos=0, applied=applied, question=question, recorded=recorded)
        except BaseException:
            for _ in applied:
                game.state.undo()
            raise
        game.history.extend(applied)
        if reading is not None:
            game.last_reading = {**reading, "index": len(game.history) - len(applied) + reading_step}
        self.question, self.notice, self.unstepped = question, "", []

    def _undo(self, event: Event) -> None:
        """Take back what was done last: a question asked or put away (the question before it is asked
        again), else the last step (one action; a step that answered a question whole, and it is asked again)."""
        game = self._require_game()
        if self.unstepped:
            self._undo_unstepped(game, event)
            return
        if not game.history:
            raise Rejected("there is nothing to undo")
        last = game.history[-1]
        count = min(int(last.get("actions", 1)), len(game.history)) if "asked" in last else 1
        asked = last.get("asked")
        # An event kept before the step was tapped waits again, with what changed with no step before the step;
        # one kept for the step undone or one before it is dropped: the family takes it up again.
        kept = last.get("kept") if self.held is not None and isinstance(last.get("kept"), list) else None
        held = self.held
        self.held = None if kept is None else held
        popped = [game.state.undo() for _ in range(count)][::-1]
        try:
            self._journal_step(game, event, undos=count, applied=[], question=asked, unstepped=kept or [])
        except BaseException:
            for action in popped:
                game.state.apply(action)
            self.held = held
            raise
        del game.history[-count:]
        if game.last_reading is not None and game.last_reading["index"] >= len(game.history):
            game.last_reading = _last_reading(game.history)
        self.question, self.unstepped, self.notice = asked, kept or [], ""
        self._play_held()  # what it does now is said: still kept (why), dropped (why), or played
        self.notice = f"Undone: {last.get('text') or 'the last step'}" + (
            "; the question is asked again" if asked is not None else "") + (f". {self.notice}" if self.notice else "")

    def _undo_unstepped(self, game: Game, event: Event) -> None:
        """Undo a question asked or put away, or an event kept, with no step: what was there before is back."""
        last, unstepped = self.unstepped[-1], self.unstepped[:-1]
        question = last["question"] if "question" in last else self.question
        held = _held_from_json(last["held"]) if last.get("held") else None
        with self.journal.transaction() as tx:
            tx.event(game.id, event.to_json())
            _write_question(tx, question)
            _write_unstepped(tx, unstepped)
            _write_held(tx, held)
            self._write_position(tx)
        self.notice = f"Undone: {_undone_words(last, self.question, self.held)}" + (f". {held[1]}" if held else "")
        self.question, self.unstepped, self.held = question, unstepped, held

    def _correct(self, index: int, value: Any, event: Event) -> None:
        """Fix one die of the last roll read: undo back to the roll, apply the fixed roll, replay what
        followed as far as it is still legal."""
        game = self._require_game()
        reading = game.last_reading
        if reading is None:
            raise Rejected("there is no roll to correct")
        if (self.question or {}).get("kind") == "dice":
            raise Rejected("a roll is being asked about: tap its dice as they lie and confirm them first (a fix "
                           "to the roll before would take back the moves made from it)")
        values = list(reading["values"])
        if not 0 <= index < len(values):
            raise Rejected(f"that roll has dice 1–{len(values)}, not {index + 1}")
        values[index] = value
        state = game.state
        back = len(game.history) - reading["index"]
        later = [state.undo() for _ in range(back)][::-1]
        try:
            fixed = state.chance_action(values)
            state.apply(fixed)
        except GameError:
            for action in later:
                state.apply(action)
            raise
        fixed_reading = {**reading, "values": values, "corrected": index}
        applied = [{"action": fixed.to_json(), "text": state.describe_safely(fixed), "who": game.history[reading["index"]]["who"],
                    "t": event.t, "reading": fixed_reading}]
        for old in later[1:]:
            try:
                text, who = state.describe_safely(old), state.current_player()
                state.apply(old)
            except GameError:
                break
            was = game.history[reading["index"] + len(applied)]  # played again as it was: when, and the dice kept
            applied.append({"action": old.to_json(), "text": text, "who": who, "t": was.get("t", event.t),
                            **{k: v for k, v in was.items() if k == "lying"}})
        try:
            self._journal_step(game, event, undos=back, applied=applied)
        except BaseException:
            for _ in applied:
                state.undo()
            for action in later:
                state.apply(action)
            raise
        dropped = [step.get("text") or "a move" for step in game.history[reading["index"] + len(applied):]]
        del game.history[reading["index"]:]
        game.history.extend(applied)
        game.last_reading = {**fixed_reading, "index": reading["index"]}
        self.question, self.unstepped = None, []
        self.notice = _taken_back_words(index, value, dropped)

    def _set_question(self, question: dict[str, Any], event: Event, recorded: bool = False) -> None:
        """A squeak asked about keeps the zones' dice of its moment (`lying`): the camera's history holds them only
        ~10 s, and the page may answer later, beginning a duel whose dice must be journaled."""
        if question.get("kind") == "squeak" and (lying := self._lying_at(question["t"])):
            question = {**question, "lying": lying}
        unstepped = [*self.unstepped, {"question": self.question}]
        with self.journal.transaction() as tx:
            if not recorded:
                tx.event(self.game.id if self.game else None, event.to_json())
            tx.set_meta("question", json.dumps(question))
            _write_unstepped(tx, unstepped)
            self._write_held(tx)
            self._write_position(tx)
        self.question, self.unstepped = question, unstepped

    def _journal_step(self, game: Game, event: Event, undos: int, applied: list[dict[str, Any]],
                      question: dict[str, Any] | None = None, recorded: bool = False,
                      unstepped: list[dict[str, Any]] | None = None) -> None:
        """`unstepped`: what changed with no step since the step now last (an undo puts it back)."""
        with self.journal.transaction() as tx:
            if not isinstance(event, PlayerAction) and not recorded:
                tx.event(game.id, event.to_json())
            for _ in range(undos):
                tx.undo(game.id, event.t)
            for step in applied:
                tx.apply(game.id, step["action"], {k: v for k, v in step.items() if k != "action"}, event.t)
            if game.state.is_over():
                tx.finish(game.id, {"scores": game.state.scores(), "winners": game.state.winners()})
            elif undos:
                tx.reopen(game.id)
            _write_question(tx, question)
            if unstepped:
                _write_unstepped(tx, unstepped)
            else:
                tx.clear_meta("unstepped")
            self._write_held(tx)
            self._write_position(tx)

    def _note_the_duels_dice(self, game: Game, applied: list[dict[str, Any]], t: int) -> None:
        """A step that begins a Banana Matcho duel (a squeak that climbs) keeps the zones' dice as the camera saw
        them at `t` (`lying`), where they lie as the duel begins: after a restart, dice still lying so are this
        duel's start's, not rolled in it (`_lain_as_the_duel_began`)."""
        if game.name != "banana-matcho" or game.state.duel_began() != len(game.history) + len(applied):
            return
        asked = self.question if (self.question or {}).get("kind") == "squeak" and self.question["t"] == t else {}
        lying = self._lying_at(t) or asked.get("lying")
        if lying:
            applied[-1]["lying"] = lying

    def _lying_at(self, t: int) -> dict[str, list[dict[str, Any]]]:
        """{zone: dice} of the Banana Matcho zones the camera saw at `t`, as journaled (`_note_the_duels_dice`)."""
        return {zone: [d.to_json() for d in dice] for zone in ("fruit", "matcho")
                if (dice := self.zones.at(zone, t)) is not None}

    def _note_the_first_duels_dice(self, event: ZoneState) -> None:
        """Dice a Banana Matcho zone shows lying since before the game began, seen from its start on this run's clock,
        are journaled (meta first_duel_dice): after a restart in the first duel, where the game's start is on another
        clock, dice still lying so are not taken for rolled in it (`_lain_as_the_duel_began`)."""
        game = self.game
        if (game is None or game.name != "banana-matcho" or game.started is None or game.state.duel_began()
                or event.zone not in ("fruit", "matcho") or event.zone in self.first_duel_dice or not event.dice
                or (self.zones.lying_since(event.zone, event.t) or event.t) > game.started):
            return
        lying = {**self.first_duel_dice, event.zone: [d.to_json() for d in event.dice]}
        with self.journal.transaction() as tx:
            _write_first_duel_dice(tx, game.id, lying)
        self.first_duel_dice = lying

    def _take_up_first_duel_dice(self) -> None:
        """The dice lying since before the game now taken up began, as journaled, and the zones seeded with the dice
        its duel now on began with."""
        with contextlib.suppress(ValueError, TypeError, AttributeError):  # unreadable: none known, as before
            kept = json.loads(self.journal.meta("first_duel_dice") or "null") or {}
            if kept.get("game") == self.game.id:
                self.first_duel_dice = _first_duel_dice_from_json(kept.get("lying"))
        self.zones.clear(lain=_lain_as_the_duel_began(self.game, self.first_duel_dice))

    def _write_position(self, tx) -> None:
        if self.replay_position >= 0:
            tx.set_meta("replay_position", str(self.replay_position))

    def _persist_position(self) -> None:
        if self.replay_position >= 0 and str(self.replay_position) != self.journal.meta("replay_position"):
            with self.journal.transaction() as tx:
                self._write_position(tx)

    # -- recovery ---------------------------------------------------------------------------------
    def _recover(self) -> None:
        game_id = self.journal.current_game_id()
        row = self.journal.game(game_id) if game_id is not None else None
        if row is None:
            return
        try:
            self.game = self._load(row)
            self._take_up_first_duel_dice()
        except (GameError, KeyError, TypeError, ValueError) as exc:
            # An engine that no longer accepts its own journal must not keep the service down: the page
            # says so, and the journal is left as it was for a person to look at.
            self.notice = f"game {game_id} could not be resumed ({exc}); start a new game"
            return
        self._take_up_unstepped_state("before the restart")

    def _take_up_unstepped_state(self, when: str) -> None:
        """The question asked, the balls that went in early, what Undo puts back first and the event kept, as the
        table-wide meta holds them for the game on (`when`: since when they were kept, for the page)."""
        game_id = self.game.id
        question = self.journal.meta("question")
        self.question = json.loads(question) if question else None
        with contextlib.suppress(ValueError):  # one that cannot be read is not told, as before it was journaled
            self.early_balls = _early_balls_from_json(json.loads(self.journal.meta("early_balls") or "null"), game_id)
        self.unstepped = self._unstepped_kept()
        held = self.journal.meta("held")
        if held:
            try:  # a squeak waits for the camera's frames (a resumed replay sends them again), or the idle second
                kept = json.loads(held)
                if "after" in kept and not self._still_holds(kept):
                    what, _ = _unplayed_words(_held_from_json(kept)[0]) or ("The event kept", "")
                    raise ValueError(f"{what} was kept before an older version of the companion played on")
                self.held = _held_from_json(kept)
                self.notice = self.held[1]
                if not self._held_squeak():
                    self._play_held()  # its tap may have been saved just before the power went
            except Exception as exc:  # the service must start all the same
                self.held, self.notice = None, f"the roll or ball kept {when} was not played ({exc})"
                with contextlib.suppress(JournalError), self.journal.transaction() as tx:
                    _write_held(tx, None)  # said once, not at every start

    def _still_holds(self, kept: dict[str, Any]) -> bool:
        """Whether meta written with `_written_at` was written in the current game with nothing journaled since:
        else an older version, which does not know it, played on or started another game (a kept roll played
        now would be a roll nobody made). What a version from before the game was written with is not told."""
        return kept.get("after") == self.journal.last_seqs() and \
            kept.get("game", self.journal.meta("current_game")) == self.journal.meta("current_game")

    def _unstepped_kept(self) -> list[dict[str, Any]]:
        """What changed with no step, as the journal kept it; none if anything was journaled after it (an older
        version played on, which never touches it: its questions would be asked again for the wrong duel) or if
        it cannot be read (undo then takes back a step, as it once did)."""
        with contextlib.suppress(ValueError, KeyError, TypeError):
            kept = json.loads(self.journal.meta("unstepped") or "null")
            if isinstance(kept, dict) and self._still_holds(kept):
                return _unstepped_from_json(kept["items"])
        return []

    def _load(self, row: dict[str, Any]) -> Game:
        """Replay the journal's operations into a fresh engine."""
        game_def = registry.get_game(row["game"])
        setup = row["setup"]
        players = [Player(p["name"], p.get("colour", "")) for p in setup["players"]]
        state = game_def.new_state(players, setup.get("variants") or {})
        history: list[dict[str, Any]] = []
        for op, data in self.journal.ops(row["id"]):
            if op == "undo":
                state.undo()
                history.pop()
                continue
            state.apply(game_def.action_from_json(data["action"]))
            history.append({"action": data["action"], **data["info"]})
        # Its times are the clock's of the run that played them, maybe of another boot of the Pi (a power cut):
        # not comparable with the camera's now, so no side is known not to have rolled in the duel now on.
        return Game(row["id"], row["game"], setup, state, history, _last_reading(history), None, len(history))

    # -- the view every page sees -------------------------------------------------------------------
    def _publish(self) -> None:
        self.version += 1
        if self.game is not None:
            self.duel_dice.step((self.game.id, len(self.game.history)), self.game.history)
        self._view = build_view(self)
        with self._listeners_lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(self._view)


def _taken_back_words(index: int, value: Any, dropped: list[str]) -> str:
    """What a die fixed says of the steps played from its roll that no longer fit it (the page asks again)."""
    if not dropped:
        return ""
    fits, taken = ("fits", "is") if len(dropped) == 1 else ("fit", "are")
    return f"Die {index + 1} is now {value}: {'; '.join(dropped)} no longer {fits} the dice and {taken} taken back"


def _kept_words(game: Game | None) -> str:
    """What a new game says of the game it takes the place of: kept to pick up, if it was begun and not over
    (the other phones saw it go)."""
    if game is None or not game.history or game.state.is_over():
        return ""
    names = [player["name"] for player in game.setup["players"]]
    who = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
    return f"{registry.get_game(game.name).info()['title']} with {who} is kept: New game picks it up"


def _unplayed_words(event: Event) -> tuple[str, str] | None:
    """(what the event was, how to tap it in) for a camera or sensor event; None for any other."""
    if isinstance(event, DiceSettled):
        values = " ".join(str(d.value) for d in event.dice)
        return f"The roll the camera read ({values})", "type it on the page"
    if isinstance(event, BananaSqueaked):
        return "The squeak", "tap the dice as they lay and who squeaked on the page"
    if isinstance(event, BallEntered):
        return f"The ball that went into opening {event.opening}", "tap its colour and opening on the page"
    if isinstance(event, BallLanded):
        return "The ball reaching the bottom", "tap what it did on the page"
    return None


def _another_ball_words(openings: list[int], first: int) -> str:
    """What the page says when a ball goes into the last of `openings` (the balls that went in early, in order)
    while the ball in opening `first` waits for its colour."""
    then = (f"this ball's colour and opening {openings[-1]}" if len(openings) == 1 else
            f"each early ball's colour and opening, in the order they went in: {_in_order(openings)}")
    return (f"Another ball went into opening {openings[-1]} while the ball in opening {first} waits: tap the colour "
            f"of the ball in opening {first}, then what it hit; then {then}")


def _early_balls_from_json(data: Any, game_id: int | None) -> dict[str, Any] | None:
    """The balls that went in early (`Table.early_balls`) as journaled or recorded; None if none, or if they are
    another game's (`game_id`, when it is known)."""
    if data is None:
        return None
    try:
        early = {"game": data.get("game"), "since": int(data["since"]), "openings": [int(o) for o in data["openings"]],
                 "first": int(data["first"])}
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"the balls that went in early are not as journaled: {data!r}"[:200]) from exc
    return early if early["openings"] and (game_id is None or early["game"] == game_id) else None


def _write_early_balls(tx, early: dict[str, Any] | None) -> None:
    if early:
        tx.set_meta("early_balls", json.dumps(early))
    else:
        tx.clear_meta("early_balls")


def _in_order(openings: list[int]) -> str:
    return ", then ".join(map(str, openings))


def _held_to_json(held: tuple[Event, str] | None) -> dict[str, Any] | None:
    return None if held is None else {"event": held[0].to_json(), "reason": held[1]}


def _held_from_json(data: dict[str, Any]) -> tuple[Event, str]:
    return event_from_json(data["event"]), str(data["reason"])


def _undone_words(unstepped: dict[str, Any], question: dict[str, Any] | None,
                  held: tuple[Event, str] | None) -> str:
    """What an undo of `unstepped` takes back, with the question asked and the event kept as they are now."""
    if "held" in unstepped:
        said = _unplayed_words(held[0]) if held else None
        return said[0][0].lower() + said[0][1:] if said else "the event kept"
    if unstepped["question"] is not None:
        return ("the answer; the question is asked again" if question is None
                else "the last question; the one before is asked again")
    kind = (question or {}).get("kind")
    what = {"squeak": "the squeak", "dice": "the roll the camera read"}.get(kind, "the question")
    return f"{what} (nothing was played)"


def _write_unstepped(tx, unstepped: list[dict[str, Any]]) -> None:
    """What changed with no step, with the journal's last numbers, which tell at a restart whether it still holds."""
    tx.set_meta("unstepped", json.dumps({"items": unstepped, **_written_at(tx)}))


def _unstepped_from_json(data: Any) -> list[dict[str, Any]]:
    """What changed with no step since the last one, as kept in the journal or a recording's game so far."""
    if not isinstance(data, list) or not all(isinstance(item, dict) and (
            isinstance(item.get("question"), (dict, type(None))) if "question" in item
            else "held" in item and isinstance(item["held"], (dict, type(None)))) for item in data):
        raise ValueError(f"what changed with no step is a list of questions and events kept, got {data!r}"[:200])
    try:
        for item in data:
            if item.get("held"):
                _held_from_json(item["held"])
    except KeyError as exc:
        raise ValueError(f"an event kept lacks {exc}") from None
    return data


def _write_question(tx, question: dict[str, Any] | None) -> None:
    """The question asked (or none) in the journal's meta, so that a restart asks it again."""
    if question is None:
        tx.clear_meta("question")
    else:
        tx.set_meta("question", json.dumps(question))


def _write_held(tx, held: tuple[Event, str] | None) -> None:
    """The event kept (or none) in the journal's meta, so that a restart keeps it, with `_written_at`."""
    if held is None:
        tx.clear_meta("held")
    else:
        tx.set_meta("held", json.dumps({**_held_to_json(held), **_written_at(tx)}))


def _written_at(tx) -> dict[str, Any]:
    """The current game and the journal's last numbers as meta is written: an older version that does not know
    that meta never touches it, so if it played on or started a game, they have moved (`Table._still_holds`)."""
    return {"game": tx.meta("current_game"), "after": tx.last_seqs()}


def _lain_as_the_duel_began(game: Game, first_duel_dice: dict[str, Any]) -> dict[str, tuple[DieReading, ...]]:
    """{zone: dice} as they lay when the Banana Matcho duel now on began, kept with the step that began it
    (`Table._note_the_duels_dice`), or for the first duel those lying since before the game began
    (`first_duel_dice`, `Table._note_the_first_duels_dice`); none when not kept."""
    if game.name != "banana-matcho":
        return {}
    played = game.state.duel_began()
    if not played:
        lying = first_duel_dice
    else:
        lying = game.history[played - 1].get("lying") if played <= len(game.history) else None
    try:
        return {zone: tuple(DieReading.from_json(d) for d in dice) for zone, dice in (lying or {}).items()}
    except (BadEvent, AttributeError, KeyError, TypeError, ValueError):
        return {}


def _first_duel_dice_from_json(data: Any) -> dict[str, list[dict[str, Any]]]:
    """{zone: dice} lying since before a Banana Matcho game began (`Table.first_duel_dice`), as journaled or
    recorded."""
    if not isinstance(data, dict) or not all(isinstance(dice, list) for dice in data.values()):
        raise ValueError(f"the dice lying as the game began are {{zone: [dice]}}, got {data!r}"[:200])
    return data


def _write_first_duel_dice(tx, game_id: int, lying: dict[str, list[dict[str, Any]]]) -> None:
    tx.set_meta("first_duel_dice", json.dumps({"game": game_id, "lying": lying}))


# The table-wide meta of the game on: what it has with no step. A game set aside keeps its own (`_set_aside_key`).
UNSTEPPED_STATE = ("question", "held", "unstepped", "early_balls", "first_duel_dice")


def _clear_unstepped_state(tx) -> None:
    for key in UNSTEPPED_STATE:
        tx.clear_meta(key)


def _set_aside_key(game_id: int) -> str:
    return f"set_aside:{game_id}"


def _unstepped_state_from_json(data: dict[str, Any], game_id: int | None) -> tuple[
        dict[str, Any] | None, tuple[Event, str] | None, list[dict[str, Any]], dict[str, Any] | None,
        dict[str, list[dict[str, Any]]]]:
    """(question, event kept, unstepped, early balls, first duel dice) as a recording's game so far or a game set
    aside holds them (`Table._so_far`, `Table._set_aside`); ValueError (or KeyError, TypeError) when not so."""
    if not isinstance(data.get("question"), (dict, type(None))):
        raise ValueError(f"a question is a JSON object, got {data['question']!r}"[:200])
    held = _held_from_json(data["held"]) if data.get("held") else None
    return (data.get("question"), held, _unstepped_from_json(data.get("unstepped") or []),
            _early_balls_from_json(data.get("early_balls"), game_id),
            _first_duel_dice_from_json(data.get("first_duel_dice") or {}))


def _pick_up(tx, game_id: int) -> None:
    """What the game `game_id` kept when it was set aside (`Table._set_aside`), as the table-wide meta again, written
    now (`_written_at`); nothing if anything was journaled for the game since (an older companion, which does not
    know it, played the game on) or it cannot be read."""
    key = _set_aside_key(game_id)
    kept = tx.meta(key)
    tx.clear_meta(key)
    try:
        data = json.loads(kept or "null")
        if not isinstance(data, dict) or data.get("seqs") != tx.game_seqs(game_id):
            return
        question, held, unstepped, early, first_duel_dice = _unstepped_state_from_json(data, game_id)
    except (AttributeError, KeyError, TypeError, ValueError):
        return
    _write_question(tx, question)
    _write_held(tx, held)
    _write_unstepped(tx, unstepped)
    _write_early_balls(tx, early)
    if first_duel_dice:
        _write_first_duel_dice(tx, game_id, first_duel_dice)


def _last_reading(history: list[dict[str, Any]]) -> dict[str, Any] | None:
    for index in range(len(history) - 1, -1, -1):
        if "reading" in history[index]:
            return {**history[index]["reading"], "index": index}
    return None
