"""How camera reads and sensor edges become game inputs, one small rule set per game.

The table never guesses: a die the reader is unsure of, a wrong number of dice, or a squeak the rules
cannot attribute becomes a question on the page instead of an action.

- Matterhorn, Mountain Goats: a `DiceSettled` while the engine waits for dice becomes
  `state.chance_action(values)`. When Matterhorn asks "roll again or stop?", rolling the dice left is the
  answer: a roll with as many dice as rolling again asks for plays "roll again" and the roll as one step.
  A roll that comes before a bonus move, a consolation obstacle or the moves after stopping are tapped (in
  Mountain Goats, before the last player's move is) is kept (`Hold`) and played once they are.
- Magic Mountain: `BallEntered(opening)` plays the legal action that names that opening (when the engine
  waits for one, or once the ball's colour is tapped); `BallLanded` plays the legal action that says the
  ball is down, if the engine has one. The hits themselves are tapped on the page.
- Games without pip dice (Banana Matcho, Magic Mountain): a `DiceSettled` is the pip reader's mistake (it
  finds "pips" on fruit dice): left out without a word.
- Banana Matcho: the table keeps the recent history of both zones (`ZoneHistory`) and, at the time of each
  `BananaSqueaked`, asks `banana_matcho.arbitrate(fruit, matcho)` who may have squeaked; "both" and "neither"
  ask the page who did. A side whose dice were not all seen surely (one in a hand, one read unsure, the
  camera quiet for a second) is not judged on a guess: the page asks, and that side is judged on the nine
  dice a person taps. The squeak that ends a duel is the first hand on the banana: another squeak within
  `SAME_RACE_NS` is the other hand arriving late and counts for nothing, and a squeak while the dice still
  lie as that duel ended (nobody has rolled since) is judged on no dice at all. A side whose dice lie unmoved
  since before the duel began (never picked up: the last duel's roll, or in the first duel dice lying when the
  game began) shows no combination of this duel; a Continue does not begin a duel. A squeak in the game's first
  duel before anyone rolled changes nothing whoever made it (everybody stands on the start space, where nobody
  goes down): it is not asked about. While a squeak is asked about, a later one is not judged: it would be
  scored to that duel's rollers.
"""
from __future__ import annotations

import bisect
import dataclasses
from collections import Counter
from typing import Any, Callable, Sequence

from ..events import (BallEntered, BallLanded, BananaSqueaked, DiceSettled, DieReading, Event, ZoneState)
from ..games import registry
from ..games.api import CHANCE, Action, GameError, IllegalAction, State
from ..vision.settle import part_of_the_roll


@dataclasses.dataclass
class Play:
    """Apply these actions, in order, as one step. `reading` is kept for the page and for corrections, with
    the action at `reading_step` (the roll it is of); `question`, if any, is asked once they are played. `t`:
    when it happened at the table, if not when the event deciding it came (a squeak answered on the page)."""

    actions: list[Action]
    reading: dict[str, Any] | None = None
    reading_step: int = 0
    question: dict[str, Any] | None = None
    t: int | None = None


@dataclasses.dataclass
class Ask:
    """Show this question on the page and wait; nothing changes in the game."""

    question: dict[str, Any]


@dataclasses.dataclass
class Ignore:
    reason: str


@dataclasses.dataclass
class Hold:
    """Keep the event: it comes before a tap the game waits for, and is decided again after each step a
    person plays. `reason` says what it waits for."""

    reason: str


@dataclasses.dataclass
class PutAway:
    """A person's answer that the question asked about nothing: it is cleared, with no step. `reason` says
    so on the page."""

    reason: str


Decision = Play | Ask | Ignore | Hold | PutAway

# Matterhorn's steps a person taps that a roll may come before: the bonus move ("before the next roll of the
# dice", rulebook), the consolation obstacle and the moves after stopping, each of which may be left unused.
TAPS_BEFORE_A_ROLL = ("bonus", "consolation", "moves")


BEFORE_THIS_RUN = -(2**63)  # a zone's dice lain since before the table started: since before any time on its clock


class ZoneHistory:
    """What each zone showed over the last few seconds, so a squeak is judged at its own timestamp.

    A zone's states come in time order from one camera; a state older than the zone's last one means a new
    clock (the demo or a replay starting over), and everything kept from the old clock is dropped. The camera
    sends every zone's state with every frame, so a state more than `fresh_ns` before a moment is not what
    the zone showed then: the camera had stopped. A camera that sent a frame within `reading_ns` still counts
    as reading the next one: a busy Pi can take over a second for a frame, and a camera is called stuck only
    after 5 s without one (companion.table.camera.STUCK_AFTER_S). Each state also keeps since when the zone's
    dice have lain as they lie (`lying_since`), over any number of seconds, so long as the camera saw them all
    along. Dice a zone shows first after `clear(lying_before=t)`, within `reading_ns` of `t` (the game's
    start: the camera reads the zones from then on), have lain there since `t`: nobody saw them rolled. Dice a
    zone shows first after `clear(lain={zone: dice})` (a restart: the dice the duel now on began with, as
    journaled), all lying where those lay, showing their faces, have lain there since before the table started
    (`BEFORE_THIS_RUN`), whatever the clock: dice thrown again do not all land so (`part_of_the_roll`)."""

    def __init__(self, keep_ns: int = 10_000_000_000, fresh_ns: int = 1_000_000_000,
                 reading_ns: int = 5_000_000_000):
        self.keep_ns = keep_ns
        self.fresh_ns = fresh_ns
        self.reading_ns = reading_ns
        self._times: dict[str, list[int]] = {}
        self._faces: dict[str, list[tuple[DieReading, ...]]] = {}
        self._since: dict[str, list[int]] = {}
        self._lying_before: int | None = None
        self._lain: dict[str, tuple[DieReading, ...]] = {}

    def __len__(self) -> int:
        return sum(len(times) for times in self._times.values())

    def clear(self, lying_before: int | None = None, lain: dict[str, tuple[DieReading, ...]] | None = None) -> None:
        self._times.clear()
        self._faces.clear()
        self._since.clear()
        self._lying_before = lying_before
        self._lain = dict(lain or {})

    def add(self, event: ZoneState) -> None:
        if self._times.get(event.zone) and event.t < self._times[event.zone][-1]:
            self.clear()
        times = self._times.setdefault(event.zone, [])
        faces = self._faces.setdefault(event.zone, [])
        since = self._since.setdefault(event.zone, [])
        lying = bool(times) and self._lain_on(event, times[-1], faces[-1])
        since.append(since[-1] if lying else self._first_seen(event) if not times else event.t)
        times.append(event.t)
        faces.append(event.dice)
        cut = bisect.bisect_left(times, event.t - self.keep_ns)
        if cut:
            del times[:cut], faces[:cut], since[:cut]

    def _lain_on(self, event: ZoneState, t_before: int, before: tuple[DieReading, ...]) -> bool:
        """Whether the zone's dice are those of its state before, still lying. Over a gap of more than a second (a
        busy Pi's frame) only if each also lies where one lay: three Matchos thrown again often show the same faces."""
        gap = event.t - t_before
        return _lie_alike(event.dice, before) and (
            gap <= self.fresh_ns or gap <= self.reading_ns and len(event.dice) == len(before)
            and part_of_the_roll(event.dice, before))

    def _first_seen(self, event: ZoneState) -> int:
        """Since when the dice a zone shows first have lain there."""
        lain, t = self._lain.pop(event.zone, None), event.t
        if lain and len(event.dice) == len(lain) and part_of_the_roll(event.dice, lain):
            return BEFORE_THIS_RUN
        before = self._lying_before
        return min(t, before) if before is not None and abs(t - before) <= self.reading_ns else t

    def at(self, zone: str, t: int) -> tuple[DieReading, ...] | None:
        """The last state of `zone` seen at or before `t`, or None when nothing was seen lately."""
        times = self._times.get(zone, [])
        at = bisect.bisect_right(times, t)
        return self._faces[zone][at - 1] if at and t - times[at - 1] <= self.fresh_ns else None

    def lying_since(self, zone: str, t: int) -> int | None:
        """Since when the dice `zone` showed at `t` had lain there, none picked up or turned; None when
        nothing was seen lately."""
        times = self._times.get(zone, [])
        at = bisect.bisect_right(times, t)
        return self._since[zone][at - 1] if at and t - times[at - 1] <= self.fresh_ns else None

    def behind(self, t: int) -> bool:
        """Whether the camera, running, has not yet sent the zones' frames of moment `t`: some zone's last
        state is before `t`, within `reading_ns`."""
        return any(times and 0 < t - times[-1] <= self.reading_ns for times in self._times.values())


def _lie_alike(dice: tuple[DieReading, ...], before: tuple[DieReading, ...]) -> bool:
    """Whether `dice` can be the dice `before` still lying: as many (none picked up), and each read surely
    showing one of their faces (a die read unsure for a frame, under a passing shadow, is not a die rolled)."""
    sure = Counter(str(d.value) for d in dice if not d.unsure)
    return len(dice) == len(before) and not sure - Counter(str(d.value) for d in before)


class DuelDice:
    """The duel's dice as the camera last read each zone whole and surely, for the page's duel panel (a squeak
    is judged on `ZoneHistory`, at its own time, not on these). A zone is shown once its dice differ from
    what they were when the last step was played: the dice of a duel just ended, still lying, are not the
    next duel's, and the dice of a Continue are the game's already."""

    def __init__(self) -> None:
        self._last: dict[str, tuple[str, ...]] = {}
        self._at_step: dict[str, tuple[str, ...]] = {}
        self._step: Any = None

    def clear(self) -> None:
        self._last.clear()
        self._at_step.clear()
        self._step = None

    def add(self, event: ZoneState, lain: bool = False) -> bool:
        """Whether the dice shown changed. `lain`: the zone's dice lie, never picked up, since before the duel
        began (`unrolled_sides`): they are not shown."""
        count = {"fruit": FRUIT_DICE, "matcho": MATCHO_DICE}.get(event.zone)
        if count is None or len(event.dice) != count:
            return False
        faces, _ = seen_faces(event.zone, event.dice)
        if faces is None:
            return False
        before = self.showing()
        self._last[event.zone] = tuple(faces)
        if lain:
            self._at_step[event.zone] = tuple(faces)
        return self.showing() != before

    def step(self, step: Any, history: Sequence[dict[str, Any]] = ()) -> None:
        """`step` names the game's last step: when it is another, the dice lying now are that step's; a zone not
        read since a restart or a resume has the dice the game's last step was played on (`history`)."""
        if step != self._step:
            self._step, self._at_step = step, {**_last_dice_shown(history), **self._last}

    def showing(self) -> dict[str, tuple[str, ...]]:
        """{zone: faces} of the zones whose dice were rolled since the last step."""
        return {zone: faces for zone, faces in self._last.items()
                if sorted(faces) != sorted(self._at_step.get(zone, ()))}


def _last_dice_shown(history: Sequence[dict[str, Any]]) -> dict[str, tuple[str, ...]]:
    """{zone: faces} of the last dice a step of the game was played on."""
    for step in reversed(history):
        action = step.get("action") or {}
        if action.get("kind") == "dice_showing":
            return {zone: tuple(action[zone]) for zone in ("fruit", "matcho") if action.get(zone)}
    return {}


def reading_json(dice: tuple[DieReading, ...], t: int) -> dict[str, Any]:
    return {"t": t, "dice": [d.to_json() for d in dice], "values": [d.value for d in dice],
            "unsure": [i for i, d in enumerate(dice) if d.unsure]}


def pip_roll_unused(state: State, event: Event) -> bool:
    """A roll of pip dice read in a game that has none (the pip reader finds "pips" on fruit dice too): not
    this game's, so it says nothing and changes nothing."""
    return isinstance(event, DiceSettled) and not registry.get_game(state.game).takes_pip_dice


def dice_decision(state: State, event: DiceSettled) -> Decision:
    request = state.chance_request()
    if state.current_player() != CHANCE or request is None or request.kind != "dice":
        return (roll_again_decision(state, event) or held_roll(state, event)
                or Ignore("a roll was read, but the game is not waiting for dice"))
    reading = reading_json(event.dice, event.t)
    base = {"kind": "dice", "count": request.count, "faces": list(request.faces), "reading": reading}
    if len(event.dice) != request.count:
        return Ask({**base, "text": f"I see {len(event.dice)} dice but expected {request.count}. "
                                    "Check the tray, or type the dice."})
    if reading["unsure"]:
        which = ", ".join(str(i + 1) for i in reading["unsure"])
        return Ask({**base, "text": f"I am not sure about die {which}. Tap the right faces, then confirm."})
    try:
        action = state.chance_action(reading["values"])
    except GameError as exc:
        return Ask({**base, "text": f"That roll does not fit: {exc}. Type the dice."})
    return Play([action], reading)


def roll_again_decision(state: State, event: DiceSettled) -> Decision | None:
    """A roll read while the player may roll again: "roll again" and the roll, when it has as many dice as
    rolling again asks for (a roll that cannot be read is asked about once "roll again" is played); None
    for any other roll (all five dice: the next player's, the player having stopped without saying so)."""
    again = find_legal(state, lambda a: a["kind"] == "roll_again")
    if again is None:
        return None
    state.apply(again)
    try:
        request = state.chance_request()
        if state.current_player() != CHANCE or request is None or request.count != len(event.dice):
            return None
        decision = dice_decision(state, event)
    finally:
        state.undo()
    if isinstance(decision, Play):
        return Play([again, *decision.actions], decision.reading, reading_step=1)
    if isinstance(decision, Ask):
        return Play([again], question=decision.question)
    return None


def held_roll(state: State, event: DiceSettled) -> Hold | None:
    """A roll read while the game waits for a tap that comes before it (a bonus move; in Mountain Goats the
    last player's move, tapped after the next player rolled): kept, not played, for the family may have
    moved the piece and not yet tapped it."""
    if state.game == "matterhorn":
        if getattr(state, "phase", None) not in TAPS_BEFORE_A_ROLL:
            return None
    elif state.game != "mountain-goats" or state.current_player() < 0:
        return None
    values = " ".join(str(d.value) for d in event.dice)
    return Hold(f"The roll {values} is kept, and played once this is tapped: {state.prompt()}")


def find_legal(state: State, test: Callable[[dict[str, Any]], bool]) -> Action | None:
    for action in state.legal_actions():
        if test(action.to_json()):
            return action
    return None


def ball_entered_decision(state: State, event: BallEntered) -> Decision:
    action = find_legal(state, lambda a: a.get("opening") == event.opening)
    if action is not None:
        return Play([action])
    request = state.chance_request()
    if state.current_player() == CHANCE and request is not None and request.kind == "draw":
        return Hold(f"The ball went into opening {event.opening}: it is played once its colour is tapped")
    next_ball = (f"if it is the next ball, tap what the last ball did first, then this ball's colour and opening "
                 f"{event.opening}")
    if getattr(state, "phase", None) == "miss":
        return Ignore(f"a ball went into opening {event.opening} before the last ball's turn was finished: "
                      f"{next_ball}")
    chosen = getattr(state, "opening", None)
    if chosen is not None and chosen != event.opening:
        return Ignore(f"the ball went into opening {event.opening}, but opening {chosen} was chosen: if it really "
                      f"went into {event.opening}, undo and choose {event.opening}; {next_ball}")
    return Ignore(f"a ball entered opening {event.opening}, but the game is not waiting for an opening")


def ball_landed_decision(state: State, event: BallLanded) -> Decision:
    action = find_legal(state, lambda a: "land" in a["kind"] or a["kind"] in ("ball_down", "down"))
    if action is not None:
        return Play([action])
    request = state.chance_request()
    if request is not None and request.kind == "hits":
        return Ignore("a ball reached the bottom; tap what it hit")
    if getattr(state, "phase", None) == "opening":
        return Ignore("a ball reached the bottom before an opening was chosen: if it is the ball just drawn, tap "
                      "its opening, then what it hit; if it is the last ball, pushed on, there is nothing to do")
    return Ignore("a ball reached the bottom, but no ball was in play")


SAME_RACE_NS = 1_500_000_000
FRUIT_DICE, MATCHO_DICE = 6, 3
SIDE_NAMES = {"fruit": "fruit", "matcho": "Matcho"}
SQUEAK_OPTIONS = [{"option": "fruit", "label": "The fruit roller"}, {"option": "matcho", "label": "The Matcho roller"}]
# The banana squeaks with nobody slapping it too: set down between the next two rollers, squeezed by a child.
NOBODY_OPTION = {"option": "nobody", "label": "Nobody: it was knocked or squeezed, ignore it"}
TAP_THE_DICE = "tap the 9 dice below as they lay when the banana squeaked, and the squeak is judged on them"


def duel_ended_at(state: State, history: Sequence[dict[str, Any]], clock_from: int = 0) -> int | None:
    """When the squeak that ended the last duel was heard; None if there was none, if the last squeak was
    a Continue (the duel went on, with the dice as they lay), or if it was timed on another clock (see
    `duel_began_at`)."""
    last = getattr(state, "last_squeak", None)
    if not last or not last.get("climbed"):
        return None
    index = next((i for i in range(len(history) - 1, -1, -1) if history[i]["action"].get("kind") == "squeak"), None)
    return history[index].get("t") if index is not None and index >= clock_from else None


def duel_began_at(state: State, history: Sequence[dict[str, Any]], started: int | None,
                  clock_from: int = 0) -> int | None:
    """When the duel now on began: the squeak that ended the duel before it, or the game's start (`started`)
    for the first duel; None if not known. The steps before `clock_from` were timed before the table last
    started (the journal's), maybe on the clock of another boot of the Pi: not comparable with the camera's."""
    played = state.duel_began()
    if not played:
        return started
    return history[played - 1].get("t") if clock_from < played <= len(history) else None


def lain_since_words(state: State) -> str:
    """How the dice of a side that has not rolled in this duel lie, for the page."""
    return "as the last duel left them" if state.duel_began() else "as they lay when the game began"


def who_squeaked(t: int, text: str, fruit: list[Any] | None = None, matcho: list[Any] | None = None,
                 unknown: Sequence[str] = ()) -> Ask:
    """Ask the page who squeaked; the answer is judged on `fruit` and `matcho` (None: on no dice). A side in
    `unknown` had dice nobody saw surely: it is not offered, and is judged on the dice a person taps, which
    the page offers (`with_dice_to_tap`)."""
    options = [option for option in SQUEAK_OPTIONS if option["option"] not in unknown] + [NOBODY_OPTION]
    return Ask({"kind": "squeak", "t": t, "fruit": fruit, "matcho": matcho, "unknown": list(unknown),
                "options": options, "text": text})


def with_dice_to_tap(question: dict[str, Any]) -> dict[str, Any]:
    """A squeak question judged on dice a person taps, with the dice the page offers for that ("dice_to_tap"):
    the game itself waits for no dice once they were typed and it asks who squeaks. Added to the page's view,
    not journaled, so a question an older companion kept offers them too."""
    if question.get("kind") != "squeak" or not question.get("unknown"):
        return question
    from ..games.banana_matcho.combinations import FRUITS, MATCHO_FACES

    return {**question, "dice_to_tap": {"kind": "duel-dice", "count": FRUIT_DICE + MATCHO_DICE,
                                        "faces": [*FRUITS, *MATCHO_FACES]}}


def _faces(dice: tuple[DieReading, ...] | None) -> list[Any] | None:
    return None if dice is None else sorted(map(str, (d.value for d in dice)))


def seen_faces(side: str, dice: tuple[DieReading, ...] | None) -> tuple[list[str] | None, str]:
    """The faces of `side` a squeak is judged on, or None and why they are not known: the zone not seen
    lately, dice missing (in a hand, or not found by the camera), a die not read surely. A blank lying,
    read surely, settles the Matcho side (not three Matchos) whatever its other dice show."""
    from ..games.banana_matcho.combinations import BLANK, check_fruit_faces, check_matcho_faces

    count, name = FRUIT_DICE if side == "fruit" else MATCHO_DICE, SIDE_NAMES[side]
    if dice is None:
        return None, f"the camera has not seen the {name} dice"
    values = [str(d.value) for d in dice]
    try:
        if side == "matcho" and len(dice) <= count and any(v == BLANK and not d.unsure for v, d in zip(values, dice)):
            return list(check_matcho_faces(values + [BLANK] * (count - len(dice)))), ""
        if len(dice) != count:
            return None, (f"I see {len(dice)} of the {count} {name} dice" if len(dice) < count
                          else f"I see {len(dice)} {name} dice, not {count}")
        unsure = sum(d.unsure for d in dice)
        if unsure:
            return None, f"I could not read {'one' if unsure == 1 else unsure} of the {name} dice"
        return list((check_fruit_faces if side == "fruit" else check_matcho_faces)(values)), ""
    except ValueError as exc:
        return None, f"the {name} dice read make no sense ({exc})"


def squeak_decision(state: State, event: BananaSqueaked, zones: ZoneHistory,
                    history: Sequence[dict[str, Any]] = (), question: dict[str, Any] | None = None,
                    waited: bool = False, started: int | None = None, clock_from: int = 0) -> Decision:
    """`waited`: judge on the frames read so far, without waiting for the camera to catch up; `started`: when
    the game began (its first duel), None if not on this run's clock; `clock_from`: see `duel_began_at`."""
    if question is not None and question.get("kind") == "squeak":
        if 0 <= event.t - question["t"] < SAME_RACE_NS:
            return Ignore("the banana squeaked again right after the squeak asked about: only the first hand on "
                          "the banana counts")
        return Ignore("the banana squeaked again, but the squeak before is still asked about on the page: answer "
                      "it first. This squeak is not judged: tap its dice and who squeaked once that is done")
    ended = duel_ended_at(state, history, clock_from)
    if ended is not None and 0 <= event.t - ended < SAME_RACE_NS:
        return Ignore("the banana squeaked again right after the squeak that ended the duel: only the first "
                      "hand on the banana counts")
    if not waited and zones.behind(event.t):  # the sensor is heard sooner than a frame is read
        return Hold("The banana squeaked: it is judged once the camera's picture of that moment is read")
    fruit = zones.at("fruit", event.t)
    matcho = zones.at("matcho", event.t)
    unrolled = unrolled_sides(zones, event.t, duel_began_at(state, history, started, clock_from))
    if len(unrolled) == 2 or (ended is not None and fruit is not None and matcho is not None and (
            (_faces(fruit), _faces(matcho)) == (_faces(zones.at("fruit", ended)), _faces(zones.at("matcho", ended))))):
        lie = lain_since_words(state)
        if not state.duel_began():  # nobody has climbed yet: a squeak without a combination sends nobody down
            return Ignore(f"The banana squeaked, but the dice lie {lie}: nobody has rolled yet, and everybody "
                          "stands on the start space, so whoever squeaked, it changes nothing. Roll the dice")
        return who_squeaked(event.t, f"The banana squeaked, but the dice lie {lie}: nobody has rolled yet. Who "
                                     "squeaked?")
    if fruit is None and matcho is None:
        return judge_squeak(state, event.t, (None, "the camera has not seen the dice"), (None, ""))
    sides = {side: (None, "") if side in unrolled else seen_faces(side, dice)
             for side, dice in (("fruit", fruit), ("matcho", matcho))}
    return judge_squeak(state, event.t, sides["fruit"], sides["matcho"], unrolled)


def unrolled_sides(zones: ZoneHistory, t: int, duel_began: int | None) -> list[str]:
    """The sides whose dice lay at `t` as they had since before the duel began (at `duel_began`), never
    picked up: the last duel's roll, not this duel's. A duel begun after `t` began on another clock (before
    the Pi restarted): no side is known not to have rolled but one whose dice lie as the duel began with them
    since before the table started (`ZoneHistory`); the same when the duel's start is not known (None)."""
    began = BEFORE_THIS_RUN if duel_began is None or duel_began > t else duel_began
    return [side for side in ("fruit", "matcho")
            if (since := zones.lying_since(side, t)) is not None and since <= began]


def judge_squeak(state: State, t: int, fruit: tuple[list[str] | None, str],
                 matcho: tuple[list[str] | None, str], unrolled: Sequence[str] = ()) -> Decision:
    """The squeak heard at `t`, judged on each side's (faces, why they are not known): played when the dice
    say who may have squeaked, else asked. A side in `unrolled` has not rolled in this duel: no combination."""
    from ..games import banana_matcho

    unknown = [side for side, (faces, _) in (("fruit", fruit), ("matcho", matcho))
               if faces is None and side not in unrolled]
    if unknown:
        why = " and ".join(reason for faces, reason in (fruit, matcho) if faces is None and reason)
        ask = ("First " + TAP_THE_DICE + "." if len(unknown) == 2 else
               f"If it was the {SIDE_NAMES[unknown[0]]} roller, first {TAP_THE_DICE}.")
        return who_squeaked(t, f"The banana squeaked, but {why}. Who squeaked? {ask}", fruit[0], matcho[0], unknown)
    verdict = banana_matcho.arbitrate(fruit[0], matcho[0])
    if verdict in ("fruit", "matcho"):
        return squeak_play(state, verdict, fruit[0], matcho[0], t)
    lying = "".join(f" (the {SIDE_NAMES[side]} dice still lie {lain_since_words(state)})" for side in unrolled)
    text = {"both": "Both sides have a combination. Who squeaked first?",
            "neither": f"Nobody has a combination yet{lying}: whoever squeaked goes one space down. Who squeaked?"}
    return who_squeaked(t, text.get(verdict, f"Who squeaked? ({verdict})"), fruit[0], matcho[0])


def squeak_play(state: State, side: str, fruit: list[Any] | None, matcho: list[Any] | None,
                t: int | None = None) -> Decision:
    """What the dice showed at the squeak (the sides whose faces are known), then the squeak of `side`."""
    game = registry.get_game(state.game)
    actions: list[Action] = []
    try:
        if fruit is not None or matcho is not None:
            actions.append(state.chance_action(list(fruit or []) + list(matcho or [])))
        actions.append(game.action_from_json({"kind": "squeak", "side": side}))
    except GameError as exc:
        return Ignore(f"the squeak could not be applied: {exc}")
    return Play(actions, t=t)


def typed_squeak_decision(state: State, question: dict[str, Any], values: list[Any]) -> Decision:
    """The 9 dice a person tapped for the squeak asked about, judged as the camera's would have been."""
    showing = state.chance_action(values)
    fruit, matcho = getattr(showing, "fruit", None), getattr(showing, "matcho", None)
    if fruit is None or matcho is None:
        raise IllegalAction(f"{TAP_THE_DICE}: the 6 fruit dice and the 3 Matcho dice")
    return judge_squeak(state, question["t"], (list(fruit), ""), (list(matcho), ""))


def decide(state: State, event: Event, zones: ZoneHistory, history: Sequence[dict[str, Any]] = (),
           question: dict[str, Any] | None = None, waited: bool = False, started: int | None = None,
           clock_from: int = 0) -> Decision:
    """What `event` does to the game; `question`: the one the page is asking now; `waited`: an event kept
    for the camera to catch up is decided on what it has read (it stopped, or another event came); `started`
    and `clock_from`: when the game began, and from which step its times are on this run's clock."""
    if isinstance(event, DiceSettled):
        return dice_decision(state, event)
    if isinstance(event, (BallEntered, BallLanded)) and state.game != "magic-mountain":
        return Ignore("a ball went through Magic Mountain, but this game has no balls")
    if isinstance(event, BallEntered):
        return ball_entered_decision(state, event)
    if isinstance(event, BallLanded):
        return ball_landed_decision(state, event)
    if isinstance(event, BananaSqueaked):
        if state.game != "banana-matcho":
            return Ignore("the banana squeaked, but this game has no banana")
        return squeak_decision(state, event, zones, history, question, waited, started, clock_from)
    return Ignore(f"{event.type} does not change the game")


def answer_decision(state: State, question: dict[str, Any] | None, option: str) -> Decision:
    if question is None or question.get("kind") != "squeak":
        raise IllegalAction("there is no question to answer")
    if option == NOBODY_OPTION["option"]:
        return PutAway("The squeak is ignored: nobody slapped the banana")
    if option not in ("fruit", "matcho"):
        raise IllegalAction(f"choose 'fruit', 'matcho' or 'nobody', not {option!r}")
    if option in question.get("unknown", ()):
        raise IllegalAction(f"the {SIDE_NAMES[option]} dice were not all seen surely: {TAP_THE_DICE}")
    return squeak_play(state, option, question.get("fruit"), question.get("matcho"), question["t"])
