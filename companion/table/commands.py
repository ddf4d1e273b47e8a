"""What a person can ask of the table, carried as the `action` mapping of a `PlayerAction` event.

`{"do": "start", "game": "matterhorn", "players": [{"name": "Ada", "colour": "red"}, ...], "variants": {}}`
`{"do": "play", "action": {...}}`        a legal action or a chance outcome in the engine's JSON form
`{"do": "dice", "values": [3, 5, ...]}`  the dice (or a drawn ball colour) typed or confirmed by hand
`{"do": "correct", "index": 2, "value": 6}`  fix one die of the last roll the camera read
`{"do": "choose", "option": "fruit"}`    answer the table's question (who squeaked, ...)
`{"do": "undo"}`, `{"do": "end"}` (stop the current game), `{"do": "resume", "game_id": 7}`

Any of them may carry `"seen": view.step`, the game situation the page showed when it was tapped; it is
refused if the game has moved on since (the page sends it with every tap).

Every command is validated here, before it reaches the owner thread's logic, with a message a person reads.
"""
from __future__ import annotations

import unicodedata

from typing import Any, Mapping


class BadCommand(ValueError):
    """The request itself is malformed; the page shows the message and nothing changes."""


COMMANDS = ("start", "play", "dice", "correct", "choose", "undo", "end", "resume")
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "start": {"game": (str,), "players": (list,), "variants": (dict,)},
    "play": {"action": (dict,)},
    "dice": {"values": (list,)},
    "correct": {"index": (int,), "value": (int, str)},
    "choose": {"option": (str,)},
    "undo": {},
    "end": {},
    "resume": {"game_id": (int,)},
}
_OPTIONAL = {("start", "variants")}
_KIND_WORDS = {str: "a text", int: "a whole number", list: "an array", dict: "an object"}
# The invisible format characters a name may hold: the joiners of emoji (a family, U+200D) and of Persian and
# Indic words (U+200C), and the tags of a flag emoji (Scotland's). Any other would turn the text around on every
# phone (U+202E reverses the turn line and the rest of the player's row) or make two names look the same (U+200B).
_NAME_FORMAT_CHARACTERS = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xE0020, 0xE0080)))
# Invisible characters a name pasted from a contact list or a message brings along, taken out without asking:
# a byte order mark (U+FEFF), a soft hyphen, a zero-width space or word joiner, and the marks that only nudge
# the direction of the text next to them (LRM, RLM, the Arabic letter mark). Without them the name reads the
# same, and a second "Ben" pasted with one looks like the first because it is. The embeddings, overrides and
# isolates (U+202A–U+202E, U+2066–U+2069) turn the text after them around: those are refused.
_NAME_CHARACTERS_DROPPED = frozenset("\ufeff\u00ad\u200b\u2060\u200e\u200f\u061c")
_TEXT_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def check_command(data: Any, *, recorded: bool = False) -> dict[str, Any]:
    """`recorded`: the command comes from a recording (see `check_players`' `new`)."""
    if not isinstance(data, Mapping):
        raise BadCommand("a request must be a JSON object")
    name = data.get("do")
    if name is None:
        raise BadCommand(f"a request names what to do in \"do\": one of {', '.join(COMMANDS)}")
    if not isinstance(name, str) or name not in _FIELDS:
        raise BadCommand(f"unknown request {name!r}; expected one of: {', '.join(COMMANDS)}")
    fields = _FIELDS[name]
    unknown = set(data) - set(fields) - {"do", "seen"}
    if unknown:
        raise BadCommand(f"request {name!r} has unknown field(s): {', '.join(sorted(unknown))}")
    for field, kinds in fields.items():
        if field not in data:
            if (name, field) in _OPTIONAL:
                continue
            raise BadCommand(f"request {name!r} needs the field {field!r}")
        value = data[field]
        if isinstance(value, bool) or not isinstance(value, kinds):
            wanted = " or ".join(_KIND_WORDS[k] for k in kinds)
            raise BadCommand(f"field {field!r} of {name!r} must be {wanted}, got {value!r}")
    if "seen" in data and not isinstance(data["seen"], str):
        raise BadCommand(f"\"seen\" is the step the page showed (view.step), got {data['seen']!r}")
    if name == "start":
        data = {**data, "players": without_dropped_characters(data["players"])}
        check_players(data["players"], new=not recorded)
    if name == "dice":
        for value in data["values"]:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise BadCommand(f"each die is a number or a name, got {value!r}")
            _check_die_text(value)
        if len(data["values"]) > 30:
            raise BadCommand(f"at most 30 values, got {len(data['values'])}")
    if name == "correct":
        _check_die_text(data["value"])
    return dict(data)


LONGEST_DIE_TEXT = 40  # "pineapple", "Student 4", a ball colour of the board data (editable): a face as typed


def _check_die_text(value: int | str) -> None:
    """A die typed is kept as typed (the journal, every page's view): a text the engine reads as a face after
    thousands of spaces would go to every phone with each update, for the rest of the game."""
    if isinstance(value, str) and len(value) > LONGEST_DIE_TEXT:
        raise BadCommand(f"a die is a number or a name of at most {LONGEST_DIE_TEXT} characters, "
                         f"got {len(value)} characters: {value[:LONGEST_DIE_TEXT]!r}…")


def without_dropped_characters(players: list[Any]) -> list[Any]:
    """`players` with the invisible characters a name may lose without harm (`_NAME_CHARACTERS_DROPPED`) taken
    out of each name; anything else as it came, for `check_players` to judge."""
    def cleaned(player: Any) -> Any:
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str):
            return player
        return {**player, "name": "".join(c for c in player["name"] if c not in _NAME_CHARACTERS_DROPPED)}

    return [cleaned(player) for player in players]


def check_players(players: list[Any], *, new: bool = True) -> None:
    """`new`: players a page starts a game with. A game so far (a recording of a game an older companion began)
    may hold invisible or text-direction characters that older companions let in: only control characters, which
    a terminal would act on, are refused there."""
    if not players:
        raise BadCommand("choose at least one player")
    for player in players:
        if not isinstance(player, Mapping) or not isinstance(player.get("name"), str):
            raise BadCommand(f"each player is an object with a name, got {player!r}")
        if set(player) - {"name", "colour"}:
            raise BadCommand(f"a player has a name and a colour only, got {sorted(player)}")
        if len(player["name"].strip()) == 0 or len(player["name"]) > 24:
            raise BadCommand("each player's name has 1–24 letters")
        if any(unicodedata.category(c) in ("Cc", "Cs") for c in player["name"]):
            raise BadCommand(f"a player's name cannot hold control characters, got {player['name']!r}")
        hidden = [c for c in player["name"] if unicodedata.category(c) == "Cf" and c not in _NAME_FORMAT_CHARACTERS]
        if hidden and new:
            seen = "".join(c for c in player["name"] if c not in hidden).strip()
            codes = ", ".join(f"U+{ord(c):04X}" for c in dict.fromkeys(hidden))
            if not seen:
                raise BadCommand("a player's name is only hidden characters (it came along when a name was pasted): "
                                 f"type the name in ({codes})")
            does = ("turns the text around" if _TEXT_DIRECTION_CONTROLS.intersection(hidden) else
                    "changes how it reads")
            raise BadCommand(f"the name \"{seen}\" has a hidden character in it that {does} on every phone (it comes "
                             f"along when a name is pasted): type the name in instead ({codes})")
        colour = player.get("colour", "")
        if not isinstance(colour, str) or len(colour) > 24:
            raise BadCommand(f"a colour is a short word, got {colour!r}")
    # Players are told apart by their colour on the board: two with the same colour could not be.
    holder: dict[str, str] = {}
    for player in players:
        colour = player.get("colour", "").strip().lower()
        if not colour:
            continue
        if colour in holder:
            raise BadCommand(f"{holder[colour]} and {player['name'].strip()} both chose {colour}: "
                             "each player needs a colour of their own")
        holder[colour] = player["name"].strip()
