"""Players are told apart by their colour, so two players cannot have the same one."""
from __future__ import annotations

import pytest

from companion.table.commands import BadCommand, check_command
from companion.table.journal import Journal
from companion.table.owner import Table


def start(*players):
    return {"do": "start", "game": "mountain-goats", "players": [dict(p) for p in players]}


def test_two_players_with_the_same_colour_are_refused_with_both_names_and_the_colour():
    with pytest.raises(BadCommand) as refused:
        check_command(start({"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"},
                            {"name": "Cleo", "colour": " Red"}))
    assert str(refused.value) == "Ada and Cleo both chose red: each player needs a colour of their own"
    # players without a colour are not compared (the board gives them one by their place)
    check_command(start({"name": "Ada"}, {"name": "Ben", "colour": ""}, {"name": "Cleo", "colour": "red"}))


def test_the_table_refuses_the_start_and_no_game_begins(tmp_path):
    table = Table(Journal(tmp_path)).start()
    try:
        outcome = table.request(start({"name": "Ada", "colour": "green"}, {"name": "Ben", "colour": "green"}))
        assert not outcome.ok and "Ada and Ben both chose green" in outcome.message
        assert table.view()["game"] is None
    finally:
        table.stop()
        table.journal.close()
