"""Magic Mountain's path as data (companion/games/data/magic-mountain.json), validated on load.

Spaces are numbered from the top of the path (1) to the bottom (len(path)); "below" means a higher number.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Mapping

from ..boarddata import Fields, load_board

GAME_NAME = "magic-mountain"


@dataclasses.dataclass(frozen=True)
class MountainBoard:
    ball_colours: tuple[str, ...]
    path: tuple[str, ...]
    student_spaces: tuple[int, ...]
    witch_spaces: tuple[int, ...]
    team_spaces: tuple[int, ...]
    openings: int
    about: str = ""

    @property
    def goal(self) -> int:
        """The goal tile, numbered as the space after the last one of the path."""
        return len(self.path) + 1

    def colour_spaces_below(self, colour: str, space: int) -> list[int]:
        """The spaces of `colour` below `space`, nearest first."""
        return [s for s in range(space + 1, len(self.path) + 1) if self.path[s - 1] == colour]

    def to_json(self) -> dict[str, Any]:
        out = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        return {k: list(v) if isinstance(v, tuple) else v for k, v in out.items()}


def _where(override: Mapping[str, Any] | str | Path | None) -> str:
    if override is None:
        return f"companion/games/data/{GAME_NAME}.json"
    if isinstance(override, Mapping):
        return f"{GAME_NAME} board data"
    return str(override)


def _spaces(fields: Fields, name: str, count: int, path_length: int) -> tuple[int, ...]:
    values = fields.list(name, count, count)
    spaces = tuple(fields.check_int(f"{name}[{i}]", v, 1, path_length) for i, v in enumerate(values))
    if len(set(spaces)) != len(spaces):
        raise fields.fail(name, f"must not repeat a space, got {list(spaces)}")
    return spaces


def _colour_name(colour: Any) -> Any:
    """A colour as the page, the command line and the sensors name it: trimmed, in lower case ("Red" in an edited
    file is the ball they call "red"). Anything but text is left for the checks to refuse."""
    return colour.strip().lower() if isinstance(colour, str) else colour


def load_mountain(override: Mapping[str, Any] | str | Path | None = None) -> MountainBoard:
    """The shipped path, or `override` (a mapping or a JSON file), checked field by field (BadConfig)."""
    fields = Fields(load_board(GAME_NAME, override), _where(override))
    written = fields.list("ball_colours", 1, 12)
    for i, colour in enumerate(written):
        if not isinstance(colour, str) or not colour.strip():
            raise fields.fail(f"ball_colours[{i}]", f"must be a colour name, got {colour!r}")
    colours = [_colour_name(colour) for colour in written]
    if len(set(colours)) != len(colours):
        raise fields.fail("ball_colours", f"must not repeat a colour (names are read in lower case), got {written}")
    path = [_colour_name(colour) for colour in fields.list("path", 10, 500)]
    for i, colour in enumerate(path):
        if colour not in colours:
            raise fields.fail(f"path[{i}]", f"must be one of the ball colours {colours}, got {colour!r}")
    students = _spaces(fields, "student_spaces", 6, len(path))
    witches = _spaces(fields, "witch_spaces", 4, len(path))
    shared = sorted(set(students) & set(witches))
    if shared:
        raise fields.fail("witch_spaces", f"must not share a space with student_spaces, got {shared}")
    team = _spaces(fields, "team_spaces", 8, len(path))
    about = fields.data.get("about", "")
    return MountainBoard(tuple(colours), tuple(path), students, witches, team, fields.int("openings", 1, 20),
                         about if isinstance(about, str) else "")
