"""The duel panel (odds box) shows only dice rolled since the last step: the dice of a duel that just ended, still
lying on the table, are not the next duel's, after a power cut and restart as without one."""
from __future__ import annotations

from companion.table.journal import Journal
from companion.table.owner import Table
from tests.table.test_banana_squeaks import CO, MS, S, ST, dice, lying, squeak

PLAYERS = [{"name": "Ada"}, {"name": "Ben"}, {"name": "Cleo"}]


def fruit_shown(table):
    odds = table.view()["game"]["odds"]
    return odds and odds.get("fruit") and odds["fruit"]["faces"]


def test_the_ended_duels_dice_are_not_shown_as_the_next_duels_after_a_restart(tmp_path):
    ended_fruit, ended_matcho = dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "blank")
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS}).ok
        lying(table, 1 * S, ended_fruit, ended_matcho)
        squeak(table, 1 * S + 50 * MS)  # Ada wins duel 1
        assert table.view()["game"]["scores"] == [7, 0, 0]
        lying(table, 3 * S, ended_fruit, ended_matcho)  # the camera reads the same dice, still lying
        without_restart = fruit_shown(table)
    finally:
        table.stop()
        table.journal.close()
    assert not without_restart, "control: without a restart the ended duel's dice are not shown"

    table = Table(Journal(tmp_path)).start()  # a power cut, the service restarts
    try:
        lying(table, 10 * S, ended_fruit, ended_matcho)  # the same dice, still lying
        assert not fruit_shown(table), f"after a restart the odds box shows the ended duel's dice: {fruit_shown(table)}"
    finally:
        table.stop()
        table.journal.close()


def test_dice_lying_since_before_the_game_began_are_not_shown_as_the_first_duels(tmp_path):
    """The odds box does not give Ada odds on fruit dice left by the last game: the squeak is not judged on
    them either (tests/table/test_banana_old_dice.py). Dice rolled in the duel are shown."""
    old_fruit, old_matcho = dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "blank")
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS}, t=1 * S).ok
        for k in range(5):
            lying(table, 1 * S + (k + 1) * 100 * MS, old_fruit, old_matcho)
        assert not fruit_shown(table), f"the last game's dice shown as the first duel's: {fruit_shown(table)}"
        lying(table, 2 * S, (), old_matcho)  # Ada picks the fruit dice up
        lying(table, 3 * S, dice(ST, ST, ST, CO, CO, CO), old_matcho)
        assert sorted(fruit_shown(table)) == sorted([ST] * 3 + [CO] * 3), "Ada's roll is shown"
    finally:
        table.stop()
        table.journal.close()
