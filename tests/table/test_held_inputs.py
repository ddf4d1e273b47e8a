"""A roll or a ball that comes before the tap the game waits for is kept, and played once that tap is made:
Matterhorn's dice rolled while a bonus move, a consolation obstacle or the moves after stopping are still
to be tapped; Magic Mountain's ball dropped before its colour is tapped. Nothing is guessed: the page says
what it waits for, and the camera, which does not read dice lying still again, is not needed twice."""
from __future__ import annotations

import pytest

from companion.events import BallEntered, BallLanded
from companion.table.journal import Journal
from companion.table.owner import Table
from tests.table.test_matterhorn_roll_again import legal, phase, rolled

PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]


@pytest.fixture
def matterhorn(tmp_path):
    """Ben to roll, the climbers placed (set-up: Ada 6, Ben 1: the last to place starts)."""
    table = Table(Journal(tmp_path)).start()
    assert table.request({"do": "start", "game": "matterhorn", "players": PLAYERS}).ok
    table.submit(rolled(6)).result(5)
    table.submit(rolled(1)).result(5)
    while phase(table) == "setup_place":
        assert table.request({"do": "play", "action": legal(table)[0]}).ok
    yield table
    table.stop()


def play(table, action):
    outcome = table.request({"do": "play", "action": action})
    assert outcome.ok, outcome.message


def history(table, last):
    return [step["text"] for step in table.view()["game"]["history"][-last:]]


def at_bonus(table):
    """Ben's 3 and 3 set aside for line 12: a climber stands there, so a bonus move waits."""
    assert table.submit(rolled(6, 5, 4, 3, 3)).result(5).ok
    play(table, {"kind": "eliminate", "dice": [3, 6], "line": 12})
    play(table, legal(table)[0])
    assert phase(table) == "bonus"


def test_the_dice_left_rolled_during_a_bonus_move_are_played_once_it_is_skipped(matterhorn):
    table = matterhorn
    at_bonus(table)
    outcome = table.submit(rolled(2, 3, 4)).result(5)
    assert outcome.ok and phase(table) == "bonus", "the bonus move is not skipped for the family"
    assert "kept" in table.view()["notice"] and "2 3 4" in table.view()["notice"], table.view()["notice"]
    play(table, {"kind": "end_moves"})
    assert history(table, 3) == ["Skip the bonus move", "Roll again: 3 dice", "Rolled 2 3 4"]
    assert phase(table) == "choose"
    assert table.view()["game"]["last_reading"]["values"] == [2, 3, 4], "the camera's roll, to correct"


def test_a_bonus_move_tapped_after_the_roll_comes_before_it(matterhorn):
    table = matterhorn
    at_bonus(table)
    table.submit(rolled(2, 3, 4)).result(5)
    bonus = next(a for a in legal(table) if a["kind"] != "end_moves")
    play(table, bonus)
    assert history(table, 2) == ["Roll again: 3 dice", "Rolled 2 3 4"]
    assert table.view()["notice"] == ""


def test_the_next_players_roll_after_a_lost_turn_waits_for_the_consolation_obstacle(matterhorn):
    table = matterhorn
    assert table.submit(rolled(1, 1, 1, 1, 1)).result(5).ok  # nothing can be placed: the turn is lost
    assert phase(table) == "consolation"
    table.submit(rolled(2, 3, 4, 5, 5)).result(5)
    assert phase(table) == "consolation"
    play(table, {"kind": "no_obstacle"})
    assert history(table, 1) == ["Rolled 2 3 4 5 5"]
    assert table.view()["game"]["state"]["player"] == 0 and phase(table) == "choose"


def test_the_next_players_roll_waits_for_the_moves_left_and_survives_a_restart(matterhorn, tmp_path):
    table = matterhorn
    assert table.submit(rolled(6, 5, 4, 3, 3)).result(5).ok
    play(table, {"kind": "eliminate", "dice": [3, 3, 5], "line": 10})
    play(table, legal(table)[0])
    play(table, {"kind": "stop"})
    assert phase(table) == "moves"
    table.submit(rolled(2, 3, 4, 5, 5)).result(5)
    assert phase(table) == "moves", "Ben's moves are not thrown away"
    table.stop()
    table.journal.close()
    again = Table(Journal(tmp_path)).start()
    try:
        assert "2 3 4 5 5" in again.view()["notice"]
        assert again.request({"do": "play", "action": {"kind": "end_moves"}}).ok
        assert history(again, 1) == ["Rolled 2 3 4 5 5"]
        assert again.view()["game"]["state"]["player"] == 0
    finally:
        again.stop()


def test_a_later_roll_takes_the_place_of_the_one_kept(matterhorn):
    table = matterhorn
    at_bonus(table)
    table.submit(rolled(2, 3, 4)).result(5)
    table.submit(rolled(5, 5, 1)).result(5)  # picked up and thrown again
    play(table, {"kind": "end_moves"})
    assert history(table, 1) == ["Rolled 5 5 1"]


def test_a_kept_roll_is_dropped_by_undo_and_only_it(matterhorn):
    table = matterhorn
    at_bonus(table)
    steps = table.view()["game"]["history_count"]
    table.submit(rolled(2, 3, 4)).result(5)
    assert table.request({"do": "undo"}).ok
    assert table.view()["notice"] == "Undone: the roll the camera read (2 3 4)"
    assert phase(table) == "bonus" and table.view()["game"]["history_count"] == steps, "the token placed is kept"
    play(table, {"kind": "end_moves"})
    assert phase(table) == "decide", "the roll kept before the undo is not played"


def test_a_ball_dropped_before_its_colour_is_tapped_goes_in_once_it_is(tmp_path):
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        assert table.submit(BallEntered(t=5_000_000_000, opening=4)).result(5).ok
        assert "opening 4" in table.view()["notice"] and "colour" in table.view()["notice"]
        assert table.request({"do": "dice", "values": ["red"]}).ok
        assert table.view()["game"]["history"][-1]["text"].endswith("opening 4")
        assert table.view()["game"]["chance"]["kind"] == "hits"
    finally:
        table.stop()


def test_a_second_ball_dropped_before_the_first_ones_colour_is_tapped_leaves_the_first_its_opening(tmp_path):
    """Ada's red ball went into opening 4, Ben's into opening 2 before anyone tapped Ada's colour: the history
    said "Put the red ball in opening 2" (the later ball took the place of the one kept)."""
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        assert table.submit(BallEntered(t=5_000_000_000, opening=4)).result(5).ok
        assert table.submit(BallEntered(t=6_000_000_000, opening=2)).result(5).ok
        notice = table.view()["notice"]
        assert "opening 2" in notice and "colour of the ball in opening 4" in notice, notice
        assert table.request({"do": "dice", "values": ["red"]}).ok
        assert table.view()["game"]["history"][-1]["text"] == "Put the red ball in opening 4"
        assert table.view()["game"]["chance"]["kind"] == "hits"
    finally:
        table.stop()


def test_the_second_ball_dropped_early_is_told_until_its_opening_is_played(tmp_path):
    """Ada's ball went into opening 4, Ben's into opening 2 before Ada's colour was tapped; both balls then ran
    through. The page used to tell of Ben's ball only until the first landing, so the family never learnt of it."""
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        assert table.submit(BallEntered(t=5_000_000_000, opening=4)).result(5).ok
        assert table.submit(BallEntered(t=6_000_000_000, opening=2)).result(5).ok
        assert table.submit(BallLanded(t=7_000_000_000)).result(5).ok
        assert table.submit(BallLanded(t=8_000_000_000)).result(5).ok
        assert "opening 2" in table.view()["notice"], table.view()["notice"]
        assert table.request({"do": "dice", "values": ["red"]}).ok  # Ada's ball: red, in opening 4
        assert table.view()["game"]["history"][-1]["text"] == "Put the red ball in opening 4"
        assert "opening 2" in table.view()["notice"], table.view()["notice"]
        assert table.request({"do": "dice", "values": []}).ok  # it hit nothing
        while table.view()["game"]["legal"]:  # a witch moves on
            play(table, table.view()["game"]["legal"][0]["action"])
        assert table.view()["game"]["chance"]["kind"] == "draw"
        assert "opening 2" in table.view()["notice"], table.view()["notice"]
        assert table.request({"do": "dice", "values": ["blue"]}).ok  # Ben's ball
        assert "opening 2" in table.view()["notice"], table.view()["notice"]
        play(table, {"kind": "choose_opening", "opening": 2})
        assert "opening 2" not in table.view()["notice"], "Ben's ball is played: nothing more to tell"
    finally:
        table.stop()


def test_a_kept_ball_that_reaches_the_bottom_is_not_called_no_ball(tmp_path):
    """The ball runs through in a second or two, long before a person taps its colour: the page must not
    say that no ball was in play, and the ball still goes in once its colour is tapped."""
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        assert table.submit(BallEntered(t=5_000_000_000, opening=4)).result(5).ok
        assert table.submit(BallLanded(t=6_500_000_000)).result(5).ok
        notice = table.view()["notice"]
        assert "no ball" not in notice
        assert "colour" in notice and "what it hit" in notice
        assert table.request({"do": "dice", "values": ["red"]}).ok
        assert table.view()["game"]["history"][-1]["text"].endswith("opening 4")
        assert table.view()["game"]["chance"]["kind"] == "hits"
    finally:
        table.stop()


def test_a_ball_whose_opening_was_not_seen_is_not_called_no_ball(tmp_path):
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        assert table.request({"do": "dice", "values": ["red"]}).ok
        assert table.submit(BallLanded(t=6_500_000_000)).result(5).ok
        assert table.view()["notice"] == ("a ball reached the bottom before an opening was chosen: if it is the "
                                          "ball just drawn, tap its opening, then what it hit; if it is the last "
                                          "ball, pushed on, there is nothing to do")
    finally:
        table.stop()


def test_the_next_ball_dropped_before_the_last_ones_miss_is_tapped_is_not_called_a_wrong_opening(tmp_path):
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        assert table.request({"do": "dice", "values": ["red"]}).ok
        play(table, {"kind": "choose_opening", "opening": 2})
        assert table.request({"do": "dice", "values": []}).ok  # it hit nothing: a figure moves on
        assert table.view()["game"]["prompt"].startswith("The ball hit nothing")
        assert table.submit(BallEntered(t=9_000_000_000, opening=5)).result(5).ok
        notice = table.view()["notice"]
        assert "undo" not in notice and "opening 2" not in notice
        assert "tap what the last ball did first" in notice
    finally:
        table.stop()


def test_the_last_balls_late_landing_is_not_told_as_the_new_balls(tmp_path):
    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        assert table.request({"do": "dice", "values": ["blue"]}).ok
        assert table.request({"do": "play", "action": {"kind": "choose_opening", "opening": 2}}).ok
        figure = next(f for f in table.game.state.positions if f.startswith("S"))
        outcome = table.request({"do": "dice", "values": [figure]})  # Ada's ball hit a student (tapped)
        assert outcome.ok, outcome.message
        assert table.request({"do": "dice", "values": ["red"]}).ok  # Ben draws red: which opening?
        assert table.submit(BallLanded(t=10**12)).result(5).ok    # Ada's stuck ball, pushed on, lands
        notice = table.view()["notice"]
        assert "opening was not seen" not in notice and "if it is the last ball" in notice, notice
    finally:
        table.stop()
        table.journal.close()


@pytest.fixture
def goats(tmp_path):
    table = Table(Journal(tmp_path)).start()
    assert table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS}).ok
    yield table
    table.stop()


def test_a_mountain_goats_roll_thrown_before_the_last_move_is_tapped_is_the_next_players(goats):
    """Children roll as soon as the dice are free: Ben's roll came before Ada tapped her move, was dropped
    ('the game is not waiting for dice'), and the page then asked Ben to roll the dice already read."""
    table = goats
    assert table.submit(rolled(2, 3, 5, 6)).result(5).ok
    assert table.submit(rolled(4, 4, 1, 3)).result(5).ok
    assert "4 4 1 3" in table.view()["notice"] and "kept" in table.view()["notice"]
    play(table, next(a for a in legal(table) if a.get("steps") == [5, 6]))
    assert table.view()["game"]["state"]["dice"] == [4, 4, 1, 3]
    assert table.view()["game"]["last_reading"]["values"] == [4, 4, 1, 3]


def test_a_fix_to_the_roll_before_is_refused_while_a_roll_is_asked_about(goats):
    """Ben's roll has an unsure die: the page asks. A tap on the roll before (Ada's, whose move is made)
    corrected it, took back her move and dropped Ben's question."""
    table = goats
    assert table.submit(rolled(2, 3, 5, 6)).result(5).ok
    play(table, next(a for a in legal(table) if a.get("steps") == [5, 6]))
    table.submit(rolled(4, 4, 2, 6, unsure=(1,))).result(5)
    asked = table.view()["question"]
    assert asked["kind"] == "dice"
    refused = table.request({"do": "correct", "index": 1, "value": 5})
    assert not refused.ok and "asked about" in refused.message
    assert table.view()["question"] == asked and len(table.view()["game"]["history"]) == 2


def ada_moves_and_the_power_goes_before_bens_kept_roll_is_played(tmp_path):
    """Mountain Goats: Ben's roll kept while Ada chooses; Ada's move is saved, and the power goes before the
    kept roll's own step is. Returns the journal's folder, ready to open again."""
    table = Table(Journal(tmp_path)).start()
    assert table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS}).ok
    assert table.submit(rolled(2, 3, 5, 6)).result(5).ok
    assert table.submit(rolled(4, 4, 1, 3)).result(5).ok
    real = Table._play_held
    Table._play_held = lambda self, waited=False: False
    try:
        play(table, next(a for a in legal(table) if a.get("steps") == [5, 6]))
    finally:
        Table._play_held = real
    table.stop()
    table.journal.close()
    return tmp_path


def test_a_kept_roll_whose_tap_was_saved_before_a_power_cut_is_played_at_the_restart(tmp_path):
    again = Table(Journal(ada_moves_and_the_power_goes_before_bens_kept_roll_is_played(tmp_path))).start()
    try:
        assert again.view()["game"]["state"]["dice"] == [4, 4, 1, 3]
        assert "kept" not in again.view()["notice"]
    finally:
        again.stop()


def test_a_kept_roll_the_journal_cannot_read_back_does_not_stop_the_start(tmp_path):
    """A roll kept by an older version with a die today's checks refuse (a confidence of 1.5) is dropped with
    a word on the page; the game itself resumes."""
    import json

    table = Table(Journal(tmp_path)).start()
    assert table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS}).ok
    table.stop()
    die = {"value": 4, "center": [10, 10], "box": [0, 0, 20, 20], "confidence": 1.5}
    event = {"type": "dice_settled", "t": 5, "dice": [die] * 4}
    with table.journal.transaction() as tx:
        tx.set_meta("held", json.dumps({"event": event, "reason": "kept"}))
    table.journal.close()
    again = Table(Journal(tmp_path)).start()
    try:
        assert again.view()["game"]["name"] == "mountain-goats"
        assert "not played" in again.view()["notice"]
    finally:
        again.stop()
        again.journal.close()
    third = Table(Journal(tmp_path)).start()
    try:
        assert "not played" not in third.view()["notice"], "the same notice at every start"
    finally:
        third.stop()


def test_a_roll_typed_in_takes_the_place_of_the_one_kept(goats):
    """The page asks for Ben's roll while a roll is still kept (a journal error kept it back): the roll a
    person types is his, and the kept one is not played again as the next player's."""
    table = goats
    assert table.submit(rolled(2, 3, 5, 6)).result(5).ok
    play(table, next(a for a in legal(table) if a.get("steps") == [5, 6]))
    table.held = (rolled(4, 4, 1, 3), "kept")  # as a failed save leaves it
    assert table.request({"do": "dice", "values": [4, 4, 1, 3]}).ok
    play(table, legal(table)[0])
    rolls = [step["text"] for step in table.view()["game"]["history"] if step["who"] == -1]
    assert len(rolls) == 2, rolls


def test_a_pip_roll_read_in_magic_mountain_leaves_the_kept_balls_notice(tmp_path):
    from companion.events import DiceSettled, DieReading

    table = Table(Journal(tmp_path)).start()
    try:
        assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
        assert table.submit(BallEntered(t=5_000_000_000, opening=3)).result(5).ok
        notice = table.view()["notice"]
        roll = DiceSettled(t=6_000_000_000, dice=(DieReading(4, (1.0, 1.0), (0.0, 0.0, 2.0, 2.0), 0.9),))
        assert table.submit(roll).result(5).ok
        assert table.view()["notice"] == notice, "Magic Mountain has no dice: the ball's notice stays"
    finally:
        table.stop()


def test_picking_up_another_game_does_not_carry_the_kept_rolls_notice(goats, tmp_path):
    """Game 2 (Mountain Goats) keeps a roll for Ada's tap; the family picks up game 1 (Matterhorn): the kept
    roll is dropped, and the Matterhorn page must not say a roll is kept, with a Mountain Goats instruction."""
    table = goats
    assert table.request({"do": "start", "game": "matterhorn", "players": PLAYERS}).ok
    assert table.request({"do": "resume", "game_id": 1}).ok
    assert table.submit(rolled(2, 3, 5, 6)).result(5).ok
    assert table.submit(rolled(4, 4, 1, 3)).result(5).ok
    assert "is kept" in table.view()["notice"]
    assert table.request({"do": "resume", "game_id": 2}).ok
    view = table.view()
    assert view["game"]["name"] == "matterhorn", view["game"]["name"]
    assert view["notice"] == "Mountain Goats with Ada and Ben is kept: New game picks it up", "no word of the roll"


def test_ending_a_game_with_a_kept_roll_does_not_carry_its_notice_to_the_start_screen(goats):
    """The kept roll goes with the game ended: the start screen must not say a roll is kept for Ada's tap."""
    table = goats
    assert table.submit(rolled(2, 3, 5, 6)).result(5).ok
    assert table.submit(rolled(4, 4, 1, 3)).result(5).ok
    assert "is kept" in table.view()["notice"]
    assert table.request({"do": "end"}).ok
    view = table.view()
    assert view["game"] is None and view["notice"] == "", view["notice"]


def test_a_roll_kept_before_a_tap_that_is_undone_still_waits_after_a_restart(matterhorn, tmp_path):
    """Ben's move tapped while Ada's roll waits, then undone, then the power goes: the roll still waits, and
    Undo after the restart takes it back, as it would have before."""
    table = matterhorn
    assert table.submit(rolled(6, 5, 4, 3, 3)).result(5).ok
    play(table, {"kind": "eliminate", "dice": [3, 3, 5], "line": 10})
    play(table, legal(table)[0])
    play(table, {"kind": "roll_again"})
    assert table.submit(rolled(6, 6)).result(5).ok
    play(table, legal(table)[0])
    play(table, legal(table)[0])
    play(table, {"kind": "stop"})
    table.submit(rolled(2, 3, 4, 5, 5)).result(5)
    play(table, {"kind": "move", "owner": 1, "climber": 0, "line": 11, "circle": 2})
    assert table.request({"do": "undo"}).ok
    table.stop()
    table.journal.close()
    again = Table(Journal(tmp_path)).start()
    try:
        assert "2 3 4 5 5" in again.view()["notice"] and phase(again) == "moves"
        assert again.request({"do": "undo"}).ok
        assert again.view()["notice"] == "Undone: the roll the camera read (2 3 4 5 5)"
        assert again.request({"do": "play", "action": {"kind": "end_moves"}}).ok
        assert history(again, 1) != ["Rolled 2 3 4 5 5"] and phase(again) == "roll", "the roll undone is not played"
    finally:
        again.stop()


def magic_mountain_with_two_balls_early(tmp_path):
    """Ada's ball went into opening 4; Ben's into opening 2 and Ada's next into opening 6 before anyone tapped
    the colour of Ada's first ball."""
    table = Table(Journal(tmp_path)).start()
    assert table.request({"do": "start", "game": "magic-mountain", "players": PLAYERS}).ok
    assert table.submit(BallEntered(t=5_000_000_000, opening=4)).result(5).ok
    assert table.submit(BallEntered(t=6_000_000_000, opening=2)).result(5).ok
    assert table.submit(BallEntered(t=7_000_000_000, opening=6)).result(5).ok
    return table


def play_the_ball(table, colour, opening=None):
    """Its colour tapped (and its opening, unless it went in before), it hit nothing, and a witch moves on."""
    assert table.request({"do": "dice", "values": [colour]}).ok
    if opening is not None:
        play(table, {"kind": "choose_opening", "opening": opening})
    assert table.request({"do": "dice", "values": []}).ok
    while table.view()["game"]["legal"]:
        play(table, table.view()["game"]["legal"][0]["action"])


def test_every_ball_dropped_early_is_told_in_order_until_its_opening_is_played(tmp_path):
    """The third ball took the place of the second: the page forgot Ben's ball in opening 2."""
    table = magic_mountain_with_two_balls_early(tmp_path)
    try:
        notice = table.view()["notice"]
        assert "opening 6" in notice and "2, then 6" in notice, notice
        play_the_ball(table, "red")
        assert table.view()["game"]["history"][-3]["text"] == "Put the red ball in opening 4"
        assert "openings 2, then 6" in table.view()["notice"], table.view()["notice"]
        play_the_ball(table, "blue", 2)
        notice = table.view()["notice"]
        assert "opening 6" in notice and "opening 2" not in notice, notice
        play_the_ball(table, "yellow", 6)
        assert "opening 6" not in table.view()["notice"], "every ball is played: nothing more to tell"
    finally:
        table.stop()


def test_an_early_ball_played_after_the_kept_ball_was_undone_is_no_longer_told(tmp_path):
    """The kept ball was undone (a false sensor reading), then Ben played his ball, the one in opening 2: the first
    opening played was taken for the kept ball's, and the page went on telling a child to tap opening 2."""
    table = magic_mountain_with_two_balls_early(tmp_path)
    try:
        assert table.request({"do": "undo"}).ok
        assert table.view()["notice"].startswith("Undone: the ball that went into opening 4"), table.view()["notice"]
        play_the_ball(table, "blue", 2)
        notice = table.view()["notice"]
        assert "opening 2" not in notice and "opening 6" in notice, notice
    finally:
        table.stop()


def test_the_balls_dropped_early_are_told_after_a_restart(tmp_path):
    """The service restarted (a power cut) before Ada's first ball's colour was tapped: the balls that went in
    early lived only in memory, and the page no longer told of them."""
    before = magic_mountain_with_two_balls_early(tmp_path)
    before.stop()
    before.journal.close()
    table = Table(Journal(tmp_path)).start()
    try:
        assert "openings 2, then 6" in table.view()["notice"], table.view()["notice"]
        assert table.request({"do": "undo"}).ok
        assert table.view()["notice"].startswith("Undone: the ball that went into opening 4"), table.view()["notice"]
        assert table.submit(BallEntered(t=9_000_000_000, opening=4)).result(5).ok  # dropped again, at last
        play_the_ball(table, "red")
        assert table.view()["game"]["history"][-3]["text"] == "Put the red ball in opening 4"
        assert "openings 2, then 6" in table.view()["notice"], table.view()["notice"]
    finally:
        table.stop()


def test_the_ball_kept_for_its_colour_still_waits_after_a_restart_with_balls_dropped_early(tmp_path):
    """Journaling a ball that went in early moved the journal on after the kept ball's stamp: at a restart the kept
    ball looked as if an older companion had played on, was dropped, and the page said so, which was untrue."""
    before = magic_mountain_with_two_balls_early(tmp_path)
    before.stop()
    before.journal.close()
    table = Table(Journal(tmp_path)).start()
    try:
        assert "not played" not in table.view()["notice"], table.view()["notice"]
        play_the_ball(table, "red")
        assert table.view()["game"]["history"][-3]["text"] == "Put the red ball in opening 4"
    finally:
        table.stop()


def test_a_recording_resumed_elsewhere_tells_the_balls_dropped_early(tmp_path):
    """A recording's game so far, replayed into another journal, tells the balls that went in early as it did."""
    from companion.events import GameSoFar

    live = magic_mountain_with_two_balls_early(tmp_path / "live")
    replayed = Table(Journal(tmp_path / "replayed")).start()
    try:
        assert replayed.submit(GameSoFar(t=8_000_000_000, game=live._so_far())).result(5).ok
        assert "openings 2, then 6" in replayed.view()["notice"], replayed.view()["notice"]
    finally:
        live.stop()
        replayed.stop()
