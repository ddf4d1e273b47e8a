"""Banana Matcho: the squeak that begins a duel keeps where the dice lay (its step's `lying`), so after a restart the
dice still lying so are the last duel's, whatever happened between the squeak and the step: a page that answered
the squeak long after it, a die of an earlier roll corrected."""
from __future__ import annotations

from companion.events import BananaSqueaked
from companion.table.journal import Journal
from companion.table.owner import Table
from tests.table.test_banana_old_dice import MS, SECOND, TWO_PAIRS, zone_frames

ADA_AND_BEN = [{"name": "Ada"}, {"name": "Ben"}]
FOUR_COCONUTS = ["coconut"] * 4 + ["starfruit"] * 2
THREE_MATCHOS = ["matcho"] * 3


def both_squeak_on(table, t, fruit, matcho):
    """The dice lie from `t`; the banana squeaks 1 s later, then the camera reads them on for 0.2 s."""
    zone_frames(table, t, t + SECOND, fruit, matcho)
    table.submit(BananaSqueaked(t=t + SECOND + 50 * MS)).result(5)
    zone_frames(table, t + SECOND + 100 * MS, t + SECOND + 200 * MS, fruit, matcho)


def asked_after_a_restart(tmp_path, played) -> dict:
    """The game `played` on the table; the Pi restarts; nobody picked the dice up; the banana squeaks on them: the
    question asked."""
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "banana-matcho", "players": ADA_AND_BEN}, t=1 * SECOND).ok
        played(table)
        assert table.view()["game"]["scores"] == [7, 0]
    finally:
        table.stop()
        table.journal.close()
    table = Table(Journal(tmp_path)).start()
    try:
        both_squeak_on(table, 5 * SECOND, FOUR_COCONUTS, THREE_MATCHOS)
        view = table.view()
        assert view["question"], (view["notice"], [step["text"] for step in view["game"]["history"]])
        return view["question"]
    finally:
        table.stop()
        table.journal.close()


def test_a_squeak_answered_long_after_it_keeps_the_dice_the_duel_began_with(tmp_path):
    """Both sides had a combination; the family argued over who was first and tapped Ada 20 s later, the dice
    still lying. The camera's history no longer held the squeak's moment, so nothing was kept: after a restart
    the same dice were judged as rolled in the new duel ('Both sides have a combination')."""
    def played(table):
        zone_frames(table, 2 * SECOND, 2 * SECOND, [], [])  # both dice in hand
        both_squeak_on(table, 3 * SECOND, FOUR_COCONUTS, THREE_MATCHOS)
        assert "Who squeaked first" in table.view()["question"]["text"]
        assert "lying" not in table.view()["question"], "the page is not sent where each die lay"
        zone_frames(table, 4 * SECOND + 300 * MS, 24 * SECOND, FOUR_COCONUTS, THREE_MATCHOS)
        assert table.request({"do": "choose", "option": "fruit"}, t=24 * SECOND).ok

    question = asked_after_a_restart(tmp_path, played)
    assert "as the last duel left them" in question["text"], question["text"]


def test_a_correction_before_the_squeak_keeps_the_dice_the_duel_began_with(tmp_path):
    """The family typed a roll the camera missed, the camera read the duel's dice and judged the squeak that won it,
    then the family fixed a die of the typed roll: the squeak, played again after the fix, lost the dice it kept."""
    def played(table):
        assert table.request({"do": "dice", "values": TWO_PAIRS + ["blank"] * 3}, t=2 * SECOND).ok
        zone_frames(table, 3 * SECOND, 3 * SECOND, [], [])  # both dice in hand
        both_squeak_on(table, 4 * SECOND, FOUR_COCONUTS, THREE_MATCHOS)
        assert table.request({"do": "choose", "option": "fruit"}).ok
        assert table.request({"do": "correct", "index": 0, "value": "pineapple"}).ok

    question = asked_after_a_restart(tmp_path, played)
    assert "as the last duel left them" in question["text"], question["text"]


def test_dice_rolled_in_the_next_duel_before_a_correction_are_judged_as_rolled(tmp_path):
    """The family fixed a die of the typed roll only after the next duel's dice were thrown: the squeak that won duel
    1, played again, was timed at the fix, so the next duel seemed to begin then, and Ada's three Matchos, thrown
    before it, were taken for dice lying as the last duel left them (or her squeak for the other hand on the banana)."""
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "banana-matcho", "players": ADA_AND_BEN}, t=1 * SECOND).ok
        assert table.request({"do": "dice", "values": TWO_PAIRS + ["blank"] * 3}, t=2 * SECOND).ok
        zone_frames(table, 3 * SECOND, 3 * SECOND, [], [])  # both dice in hand
        both_squeak_on(table, 4 * SECOND, FOUR_COCONUTS, THREE_MATCHOS)
        assert table.request({"do": "choose", "option": "fruit"}, t=6 * SECOND).ok
        assert table.view()["game"]["scores"] == [7, 0]
        zone_frames(table, 7 * SECOND, 7 * SECOND, [], [])  # both pick their dice up
        zone_frames(table, 8 * SECOND, 9 * SECOND, TWO_PAIRS, THREE_MATCHOS)  # and throw them
        assert table.request({"do": "correct", "index": 0, "value": "pineapple"}, t=9 * SECOND).ok
        both_squeak_on(table, 9 * SECOND + 100 * MS, TWO_PAIRS, THREE_MATCHOS)
        view = table.view()
        assert view["question"] is None and view["game"]["scores"] == [8, 0], (
            view["notice"], (view["question"] or {}).get("text"), [step["text"] for step in view["game"]["history"]])
    finally:
        table.stop()
