"""Exact odds for Mountain Goats, by enumerating the 1296 rolls of four dice and every choice they allow.

`companion odds mountain-goats [--roll A B C D] [--big-mountain] [--players N] [--goats M=P ...]
[--others-summit M=P ...] [--big-goats M=S ...] [--others-big S=P ...] [--tokens-left M=K ...] [--held M=K ...]
[--bonus-left V ...] [--json]`
prints one JSON object:

    {"big_mountain": bool, "players": N, "big_mountain_points": [int, ...],        # points only with --big-mountain
     "next_roll": {"rolls": 1296,
                   "mountains": {"5": {"rolls": int, "probability": float}, ... "10": ...},
                   "big_mountain_spaces": {"11": {...}, ... "24": {...}}},        # only with --big-mountain
     "token_chances": {"5": {"rolls": int, "probability": float}, ..., "any": {...}},
     "roll": [A, B, C, D], "moves": [{"action": {...}, "text": str, "points": int, "progress": int}, ...]}
                                                                                   # roll and moves only with --roll

- next_roll.mountains: the chance that the next roll can form at least one group of that sum (the
  mountain can be moved at least once); big_mountain_spaces: for you, the chance that some plan sends a goat to
  that space (so 0 for a space another goat holds), as the page shows for the player on turn (`odds_for_state`);
  big_mountain_points: each player's if the game ended now (you first), as the page shows. --big-goats M=S puts
  your goat of mountain M on Big Mountain space S; --others-big S=P puts a goat of player P (2 to N) there.
- --others-summit M=P: a goat of player P (2 to N) stands on the summit of mountain M; your goat reaching it sends
  that goat back to the foot, and the move's text says so. Where else the other players' goats stand on the paths
  changes nothing for you (any number of goats share a space below a summit).
- token_chances: for your goats as given (default all at the foot), the chance that the next roll lets
  you take a token of that mountain this turn; "any": at least one token.
- moves: the distinct plans for the roll, best first. points = the token and bonus points the plan takes
  now (what the score gains when it is played); progress = spaces your goats climb on ordinary paths (a goat
  sent to the Big Mountain counts as leaving its path, so progress may be negative).
  With --big-mountain, a plan that sends goats to the Big Mountain or brings them back also has
  "big_mountain": {"goats": [{"mountain": m, "space": s, "rank": r, "points_now": p, "sure": q}, ...],
                   "if_ended_now": int, "sure": int}
  Big Mountain points are scored only at the end, by the rank of the goats standing there: goats = the goats
  the plan sends, with their rank among all goats there after the plan, what that rank would score if the
  game ended now and what the goat is sure of (the worst rank it can fall to: every free space above it
  taken by the end); if_ended_now / sure = the change in your Big Mountain points if the game ended now /
  the change in the Big Mountain points you are sure of at the end.
  Ranked by points, then sure Big Mountain points, then progress; ties: plans that send fewer goats to the
  Big Mountain, then the better standing there, the higher spaces, then the engine's order (fewest groups
  first). A standing that can still be lost (if_ended_now beyond sure) never outranks a real gain.
"""
from __future__ import annotations

import argparse
from functools import lru_cache
from typing import Any, Callable

from ..api import CHANCE, BadConfig
from .dice import BIG_SPACES, MOUNTAINS, ROLL_COUNT, ROLLS, big_sums, most_groups, moves
from .plans import candidates
from .state import GAME, ON_BIG, MountainGoatsState, Roll, check_dice


def _chance(rolls: int) -> dict[str, Any]:
    return {"rolls": rolls, "probability": rolls / ROLL_COUNT}


@lru_cache(maxsize=None)
def _reach_counts(big_mountain: bool) -> dict[int, int]:
    counts = {s: 0 for s in MOUNTAINS + (BIG_SPACES if big_mountain else ())}
    for dice, weight in ROLLS:
        reachable = {s for option in moves(dice, big_mountain) for s in option}
        for s in reachable:
            counts[s] += weight
    return counts


def next_roll_odds(big_mountain: bool) -> dict[str, Any]:
    counts = _reach_counts(big_mountain)
    out = {"rolls": ROLL_COUNT, "mountains": {str(m): _chance(counts[m]) for m in MOUNTAINS}}
    if big_mountain:
        out["big_mountain_spaces"] = {str(s): _chance(counts[s]) for s in BIG_SPACES}
    return out


def big_space_chances(state: MountainGoatsState, player: int) -> dict[str, Any]:
    """For each Big Mountain space, the chance that the next roll lets the player send a goat there: some plan
    of the engine puts one there. A space another goat holds is out of reach (it must be free), unless it is
    the player's own goat and the same plan brings it back to its path."""
    on_big = tuple(at == ON_BIG for at in state.pos[player])
    held = tuple(sorted((space, m if owner == player else 0) for space, (owner, m) in state.big.items()))
    counts = dict.fromkeys(BIG_SPACES, 0)
    for dice, weight in ROLLS:
        sums = big_sums(dice, True)
        occupied = tuple(taken for taken in held if taken[0] in sums)
        reached = {space for _, big, _ in candidates(dice, True, on_big, occupied) for space, _ in big}
        for space in reached:
            counts[space] += weight
    return {str(s): _chance(counts[s]) for s in BIG_SPACES}


def groups_needed(state: MountainGoatsState, player: int) -> list[int | None]:
    """For each mountain, how many groups of its sum the player needs this turn to take one of its
    tokens (None when none are left): the spaces to the summit, one more for a goat on the Big Mountain."""
    out = []
    for i, (position, summit) in enumerate(zip(state.pos[player], state.summits)):
        if state.tokens_left[i] == 0:
            out.append(None)
        elif position == ON_BIG:
            out.append(summit + 1)
        else:
            out.append(max(1, summit - position))
    return out


def token_chances(state: MountainGoatsState, player: int) -> dict[str, Any]:
    needed = groups_needed(state, player)
    per_mountain = [0] * len(MOUNTAINS)
    any_token = 0
    for dice, weight in ROLLS:
        most = most_groups(dice)
        hits = [need is not None and most[i] >= need for i, need in enumerate(needed)]
        for i, hit in enumerate(hits):
            per_mountain[i] += weight * hit
        any_token += weight * any(hits)
    out = {str(m): _chance(n) for m, n in zip(MOUNTAINS, per_mountain)}
    out["any"] = _chance(any_token)
    return out


def ranked_moves(state: MountainGoatsState) -> list[dict[str, Any]]:
    """The current player's plans for the dice on the table, best first (see the module docstring)."""
    player = state.current
    plans = state.legal_actions()
    work = state.scratch()
    table = state.board.big_mountain_points[len(state.players)] if state.big_mountain else ()
    before_points = work.token_points()[player]
    before_progress = _progress(work.pos[player])
    before_now, before_sure = _big_points(work, player, table)
    ranked = []
    for order, plan in enumerate(plans):
        saved = work._save()
        work._apply(plan)
        points = work.token_points()[player] - before_points
        progress = _progress(work.pos[player]) - before_progress
        entry = {"action": plan.to_json(), "text": state.describe(plan), "points": points, "progress": progress}
        now, sure, spaces = before_now, before_sure, ()
        if table:
            now, sure = _big_points(work, player, table)
            if plan.big or now != before_now or sure != before_sure:
                entry["big_mountain"] = {"goats": _sent_goats(work, plan, table),
                                         "if_ended_now": now - before_now, "sure": sure - before_sure}
            spaces = sorted((space for space, _ in plan.big), reverse=True)
        work._load(saved)
        ranked.append(((-points, -(sure - before_sure), -progress, len(plan.big), -(now - before_now),
                        [-s for s in spaces], order), entry))
    return [entry for _, entry in sorted(ranked, key=lambda r: r[0])]


def _sure_points(space: int, table: tuple[int, ...]) -> int:
    """What a goat on this Big Mountain space scores at the end at worst: every space above it taken."""
    worst = max(BIG_SPACES) - space
    return table[worst] if worst < len(table) else 0


def _big_points(state: MountainGoatsState, player: int, table: tuple[int, ...]) -> tuple[int, int]:
    """The player's Big Mountain points if the game ended now, and the ones they are sure of at the end."""
    if not table:
        return 0, 0
    sure = sum(_sure_points(space, table) for space, (owner, _) in state.big.items() if owner == player)
    return state.big_mountain_points()[player], sure


def _sent_goats(state: MountainGoatsState, plan: Any, table: tuple[int, ...]) -> list[dict[str, int]]:
    order = sorted(state.big, reverse=True)
    out = []
    for space, mountain in plan.big:
        rank = order.index(space) + 1
        out.append({"mountain": mountain, "space": space, "rank": rank,
                    "points_now": table[rank - 1] if rank <= len(table) else 0, "sure": _sure_points(space, table)})
    return out


def _progress(positions: list[int]) -> int:
    return sum(p for p in positions if p != ON_BIG)


def odds_for_state(state: MountainGoatsState) -> dict[str, Any]:
    """What the live page shows: the next-roll table, and for the player on turn their token chances
    (before the roll) or their ranked plans (once the dice are read)."""
    out: dict[str, Any] = {"big_mountain": state.big_mountain, "next_roll": next_roll_odds(state.big_mountain),
                           "big_mountain_points": state.big_mountain_points() if state.big_mountain else None}
    if state.is_over():
        return out
    out["player"] = state.current
    if state.big_mountain:
        out["next_roll"]["big_mountain_spaces"] = big_space_chances(state, state.current)
    if state.current_player() == CHANCE:
        out["token_chances"] = token_chances(state, state.current)
    else:
        out["roll"] = list(state.dice)
        out["moves"] = ranked_moves(state)
    return out


# -- the command line -------------------------------------------------------------------------------
def _number_pair(text: str, shape: str) -> tuple[int, int]:
    """KEY=VALUE of two whole numbers; `shape` names them for the message ("MOUNTAIN=NUMBER like 7=2")."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip().isdigit() or not value.strip().isdigit():
        raise argparse.ArgumentTypeError(f"expected {shape}, got {text!r}")
    return int(key), int(value)


def _mountain_value(text: str) -> tuple[int, int]:
    mountain, value = _number_pair(text, "MOUNTAIN=NUMBER like 7=2")
    if mountain not in MOUNTAINS:
        raise argparse.ArgumentTypeError(f"mountains are numbered 5 to 10, got {text!r}")
    return mountain, value


def _mountain_big_space(text: str) -> tuple[int, int]:
    mountain, space = _mountain_value(text)
    if space not in BIG_SPACES:
        raise argparse.ArgumentTypeError(f"the Big Mountain's spaces are numbered 11 to 24, got {text!r}")
    return mountain, space


def _big_space_player(text: str) -> tuple[int, int]:
    space, player = _number_pair(text, "SPACE=PLAYER like 18=2")
    if space not in BIG_SPACES:
        raise argparse.ArgumentTypeError(f"the Big Mountain's spaces are numbered 11 to 24, got {text!r}")
    return space, player


def add_big_mountain_arguments(parser: argparse.ArgumentParser, others: str) -> None:
    """--big-goats and --others-big, shared by `odds` and `explain`; `others` names the other players' numbers."""
    parser.add_argument("--big-goats", action="extend", nargs="+", type=_mountain_big_space, default=[], metavar="M=S",
                        help="with --big-mountain: your goat of mountain M stands on Big Mountain space S (11–24)")
    parser.add_argument("--others-big", action="extend", nargs="+", type=_big_space_player, default=[], metavar="S=P",
                        help=f"with --big-mountain: Big Mountain space S holds a goat of player P ({others})")


def add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--roll", nargs=4, metavar="DIE", help="the four dice just rolled: rank their moves")
    parser.add_argument("--big-mountain", action="store_true", help="with the Big Mountain expansion")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 6), help="players at the table (2–5)")
    parser.add_argument("--goats", action="extend", nargs="+", type=_mountain_value, default=[], metavar="M=P",
                        help="your goat's position on mountain M (0 = the foot; default 0)")
    parser.add_argument("--tokens-left", action="extend", nargs="+", type=_mountain_value, default=[], metavar="M=K",
                        help="tokens left on mountain M (default: the full stack)")
    parser.add_argument("--held", action="extend", nargs="+", type=_mountain_value, default=[], metavar="M=K",
                        help="tokens of mountain M you hold (default 0)")
    parser.add_argument("--others-summit", action="extend", nargs="+", type=_mountain_value, default=[], metavar="M=P",
                        help="the summit of mountain M holds a goat of player P (2 to --players); yours reaching it "
                             "sends that goat back to the foot")
    add_big_mountain_arguments(parser, "2 to --players")
    parser.add_argument("--bonus-left", nargs="*", type=int, metavar="V",
                        help="the bonus tokens still in the supply, e.g. 9 6 (default: all but those your "
                             "complete sets took)")


def _check_each_mountain_once(option: str, pairs: list[tuple[int, int]]) -> None:
    """One value per mountain: a second one would silently win over the first."""
    for mountain in MOUNTAINS:
        given = [f"{m}={v}" for m, v in pairs if m == mountain]
        if len(given) > 1:
            raise BadConfig(f"{option} gives mountain {mountain} twice ({', '.join(given)}); give it once")


def player_names(players: int) -> list[str]:
    """You are the first player, on turn; the others are numbered as --others-summit and --others-big name
    them, in the words the command's messages use ("player 2's goat")."""
    return ["you"] + [f"player {n}" for n in range(2, players + 1)]


def state_from_args(args: argparse.Namespace) -> MountainGoatsState:
    """A table where you are the first player, with your goats, tokens and the roll as given."""
    for option, pairs in (("--goats", args.goats), ("--tokens-left", args.tokens_left), ("--held", args.held)):
        _check_each_mountain_once(option, pairs)
    state = GAME.new_state(player_names(args.players), {"big_mountain": args.big_mountain})
    for mountain, position in args.goats:
        summit = state.summits[mountain - 5]
        if position > summit:
            raise BadConfig(f"mountain {mountain} has {summit} spaces; a goat cannot stand on space {position}")
        state.pos[0][mountain - 5] = position
    _place_summit_goats(state, args)
    place_big_mountain_goats(state, args)
    stacks = list(state.tokens_left)
    given = {}
    for mountain, left in args.tokens_left:
        stack = stacks[mountain - 5]
        if left > stack:
            raise BadConfig(f"mountain {mountain} has {stack} tokens with {args.players} players, not {left}")
        state.tokens_left[mountain - 5] = given[mountain] = left
    for mountain, held in args.held:
        stack = stacks[mountain - 5]
        if mountain in given:  # --tokens-left says what lies on the mountain: what you hold is not on it
            if given[mountain] + held > stack:
                raise BadConfig(f"you cannot hold {held} tokens of mountain {mountain} with {given[mountain]} "
                                f"left on it: it has only {stack} with {args.players} players")
        else:  # the full stack less what you hold
            if held > stack:
                raise BadConfig(f"you cannot hold {held} tokens of mountain {mountain}: only {stack} are in play")
            state.tokens_left[mountain - 5] = stack - held
        state.held[0][mountain - 5] = held
    if args.bonus_left is None:
        while state.bonus_left and len(state.bonus_held[0]) < min(state.held[0]):
            state.bonus_held[0].append(state.bonus_left.pop(0))
    else:
        _set_bonus_left(state, args.bonus_left)
    if args.roll:
        state.apply(state.chance_action(args.roll))
    return state


def place_big_mountain_goats(state: MountainGoatsState, args: argparse.Namespace) -> None:
    """Your goats (--big-goats) and the other players' (--others-big) on the Big Mountain. Which mountain an other
    player's goat left does not change your odds: each takes the next of that player's goats at the foot, from
    the 5 up."""
    given = [f"--{name} {' '.join(f'{a}={b}' for a, b in pairs)}" for name, pairs in
             (("big-goats", args.big_goats), ("others-big", args.others_big)) if pairs]
    if given and not args.big_mountain:
        raise BadConfig(f"{given[0]} places goats on the Big Mountain: add --big-mountain")
    _check_each_mountain_once("--big-goats", args.big_goats)
    # a goat on the Big Mountain comes back to the foot: --goats M=0 (the default, said) agrees with it
    on_path = {mountain: position for mountain, position in args.goats if position}
    for mountain, space in args.big_goats:
        if mountain in on_path:
            raise BadConfig(f"your goat of mountain {mountain} cannot stand on its path (--goats {mountain}="
                            f"{on_path[mountain]}) and on the Big Mountain (--big-goats {mountain}={space}) at once")
        state.pos[0][mountain - 5] = ON_BIG
        _put_on_big(state, space, 0, mountain)
    players = len(state.players)
    for space, player in args.others_big:
        _check_other_player(f"--others-big {space}={player}", player, players, "--big-goats")
        goats = state.pos[player - 1]
        at_foot = [i for i, at in enumerate(goats) if at == 0]
        if not at_foot:
            where = "on the Big Mountain and its summits (--others-summit)" if goats.count(ON_BIG) < len(goats) \
                else "on the Big Mountain"
            raise BadConfig(f"player {player} has {len(goats)} goats: --others-big puts more {where}")
        goats[at_foot[0]] = ON_BIG
        _put_on_big(state, space, player - 1, MOUNTAINS[at_foot[0]])


def _place_summit_goats(state: MountainGoatsState, args: argparse.Namespace) -> None:
    """The other players' goats on summits (--others-summit): one goat to a summit."""
    _check_each_mountain_once("--others-summit", args.others_summit)
    mine = dict(args.goats)
    for mountain, player in args.others_summit:
        given = f"--others-summit {mountain}={player}"
        _check_other_player(given, player, len(state.players), "--goats")
        summit = state.summits[mountain - 5]
        if mine.get(mountain) == summit:
            raise BadConfig(f"a summit holds one goat: yours (--goats {mountain}={summit}) and player {player}'s "
                            f"({given}) cannot both stand on mountain {mountain}'s")
        state.pos[player - 1][mountain - 5] = summit


def _check_other_player(given: str, player: int, players: int, yours: str) -> None:
    """`player` is one of the other players, 2 to `players`; `yours` is the option that gives your own goats."""
    if not 2 <= player <= players:
        mine = f"; your own goats are given by {yours}" if player == 1 else ""
        others = "the other player is 2" if players == 2 else f"the other players are 2 to {players}"
        raise BadConfig(f"{given}: {others}{mine}")


def _put_on_big(state: MountainGoatsState, space: int, player: int, mountain: int) -> None:
    if space in state.big:
        raise BadConfig(f"Big Mountain space {space} is given twice: a space holds one goat")
    state.big[space] = (player, mountain)


def _set_bonus_left(state: MountainGoatsState, given: list[int]) -> None:
    """The bonus supply as given; your complete sets hold the highest of the others (which ones does not
    change the odds)."""
    tokens = list(state.bonus_left)
    for value in given:
        if value not in tokens:
            raise BadConfig(f"the bonus tokens are {', '.join(map(str, tokens))}; got {value}")
        if given.count(value) > 1:
            raise BadConfig(f"--bonus-left gives the {value} twice")
    gone = [value for value in tokens if value not in given]
    sets = min(state.held[0])
    if len(gone) < sets:
        took = "a bonus token" if sets == 1 else f"{sets} bonus tokens"
        raise BadConfig(f"your complete set{'' if sets == 1 else 's'} of tokens took {took}, but --bonus-left "
                        f"leaves {'only ' + str(len(gone)) if gone else 'none'} taken")
    state.bonus_left = [value for value in tokens if value in given]
    state.bonus_held[0] = gone[:sets]


def odds(args: argparse.Namespace) -> dict[str, Any]:
    if args.roll:
        check_dice(args.roll)
    state = state_from_args(args)
    out: dict[str, Any] = {"big_mountain": args.big_mountain, "players": args.players,
                           "next_roll": next_roll_odds(args.big_mountain)}
    before = state.clone()
    if args.roll:
        before.undo()
    if args.big_mountain:
        out["next_roll"]["big_mountain_spaces"] = big_space_chances(before, 0)
        out["big_mountain_points"] = state.big_mountain_points()
    out["token_chances"] = token_chances(before, 0)
    if args.roll:
        out["roll"] = list(state.dice)
        out["moves"] = ranked_moves(state)
    return out


def _percent(chance: dict[str, Any]) -> str:
    return f"{100 * chance['probability']:5.1f}%"


def odds_text(result: dict[str, Any]) -> str:
    lines = [f"Next roll ({result['players']} players{', Big Mountain' if result['big_mountain'] else ''}):",
             "  mountain  rolls its number  you take a token"]
    for m in MOUNTAINS:  # the chance of dice adding up to m: a goat on m's summit, say, does not move for it
        lines.append(f"  {m:>8}  {_percent(result['next_roll']['mountains'][str(m)]):>16}  "
                     f"{_percent(result['token_chances'][str(m)]):>16}")
    lines.append(f"  any token this turn: {_percent(result['token_chances']['any']).strip()}")
    if "big_mountain_spaces" in result["next_roll"]:
        spaces = result["next_roll"]["big_mountain_spaces"]
        lines.append("  Big Mountain spaces: " + ", ".join(f"{s} {_percent(c).strip()}" for s, c in spaces.items()))
    if "big_mountain_points" in result:
        names = player_names(result["players"])
        lines.append("  Big Mountain points if the game ended now: "
                     + ", ".join(f"{name} {points}" for name, points in zip(names, result["big_mountain_points"])))
    if "moves" in result:
        lines.append(f"Roll {' '.join(map(str, result['roll']))}: {len(result['moves'])} moves, best first")
        for entry in result["moves"]:
            big = entry.get("big_mountain")
            extra = (f" (Big Mountain, scored at the end: {big['if_ended_now']:+} if the game ended now, "
                     f"{big['sure']:+} sure)") if big else ""
            lines.append(f"  {entry['points']:>3} points, {entry['progress']:>2} spaces: {entry['text']}{extra}")
    return "\n".join(lines)


def odds_queries() -> list[tuple[str, Callable[[], object]]]:
    """Worst cases: the next-roll tables (built on first use), token chances, and ranking the roll with
    the most plans (four 1s, Big Mountain, goats spread out and some already on the Big Mountain)."""
    busy = GAME.new_state(["A", "B", "C", "D"], {"big_mountain": True})
    busy.pos[0] = [2, 3, 1, 2, ON_BIG, 1]
    busy.big = {20: (0, 9), 15: (1, 7)}
    busy.pos[1][2] = ON_BIG
    before_roll = busy.clone()
    busy.apply(Roll((1, 1, 1, 1)))
    return [
        ("next-roll-big-mountain", lambda: next_roll_odds(True)),
        ("next-roll", lambda: next_roll_odds(False)),
        ("token-chances", lambda: token_chances(before_roll, 0)),
        ("rank-roll-1111-big-mountain", lambda: ranked_moves(busy)),
        ("odds-for-state-rolled", lambda: odds_for_state(busy)),
    ]

