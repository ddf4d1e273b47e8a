"""What a family is told about a name that holds a hidden character (pasted from a contact list or a message)."""
from __future__ import annotations

import pytest

from companion.table.commands import BadCommand, check_command


def refusal(*names: str) -> str:
    with pytest.raises(BadCommand) as refused:
        check_command({"do": "start", "game": "matterhorn", "players": [{"name": name} for name in names]})
    return str(refused.value)


def test_a_hidden_character_that_does_not_turn_the_text_around_is_not_said_to():
    for name in ("Ben\u2063", "Cy\u2061", "\U000e0001Ben"):
        message = refusal(name, "Dee")
        assert "turns the text around" not in message, message
        assert message.startswith(f'the name "{name.strip(chr(0x2063) + chr(0x2061) + chr(0xE0001))}" has a hidden '
                                  "character in it that changes how it reads on every phone"), message


def test_a_name_of_hidden_characters_only_is_told_to_be_typed():
    for name in ("\u202e", "\u2063\u2061"):
        assert refusal(name, "Dee").startswith("a player's name is only hidden characters (it came along when a "
                                               "name was pasted): type the name in"), name
