"""Banana Matcho squeaks the camera could not judge alone: dice still in a hand, a die not read surely, a
camera gone quiet, a question left open while the next duel is played. The family answers on the page, and
the squeak is scored on dice a person saw, never on the reader's guess."""
from __future__ import annotations

import pytest

from companion.events import BananaSqueaked, DieReading, ZoneState
from companion.table.journal import Journal
from companion.table.owner import Table
from tests.waiting import wait_for

S = 1_000_000_000
MS = 1_000_000
CO, ST, OR, BA, PI, PA = "coconut", "starfruit", "orange", "banana", "pineapple", "papaya"
NOTHING = (CO, CO, ST, ST, OR, BA)  # two pairs: no combination
NOBODY_LABEL = "Nobody: it was knocked or squeezed, ignore it"


def dice(*faces, unsure=()):
    return tuple(DieReading(f, (float(i), 0.0), (float(i), 0.0, i + 1.0, 1.0), 0.97, i in unsure)
                 for i, f in enumerate(faces))


@pytest.fixture
def table(tmp_path):
    table = Table(Journal(tmp_path)).start()
    table.request({"do": "start", "game": "banana-matcho",
                   "players": [{"name": "Ada"}, {"name": "Ben"}, {"name": "Cleo"}]})
    yield table
    table.stop()


LYING: dict[int, tuple] = {}


def lying(table, t, fruit, matcho):
    LYING[id(table)] = fruit, matcho
    table.submit(ZoneState(t=t, zone="fruit", dice=fruit)).result(5)
    table.submit(ZoneState(t=t, zone="matcho", dice=matcho)).result(5)


def squeak(table, t, frame_after=True):
    """The banana heard at `t`, then (as a running camera does) the zones read again just after."""
    outcome = table.submit(BananaSqueaked(t=t)).result(5)
    if frame_after and id(table) in LYING:
        lying(table, t + 30 * MS, *LYING[id(table)])
    return outcome


def scores(table):
    return table.view()["game"]["scores"]


def test_a_fruit_squeak_while_the_matcho_roller_holds_two_dice_is_asked_and_scored_on_the_answer(table):
    """The commonest moment of a duel: Ben has one Matcho lying and two blanks in his hand when Ada squeaks
    with four coconuts and two star fruits. Every answer used to be refused ('expected 9 dice ... got 7')."""
    lying(table, 1 * S, dice(CO, CO, CO, CO, ST, ST), dice("matcho"))
    squeak(table, 1 * S + 50 * MS)
    question = table.view()["question"]
    assert "1 of the 3 Matcho dice" in question["text"], question["text"]
    assert scores(table) == [0, 0, 0], "a die may be missed by the camera: asked, not guessed"
    answer = table.request({"do": "choose", "option": "fruit"})
    assert answer.ok, answer.message
    assert scores(table) == [7, 0, 0]
    assert table.view()["question"] is None


def test_the_side_whose_dice_were_not_all_seen_is_scored_on_the_dice_a_person_taps(table):
    lying(table, 1 * S, dice(CO, CO, CO, CO, ST), dice("matcho", "matcho", "matcho"))  # a fruit die in a hand
    squeak(table, 1 * S + 50 * MS)
    assert "5 of the 6 fruit dice" in table.view()["question"]["text"]
    refused = table.request({"do": "choose", "option": "fruit"})
    assert not refused.ok and "tap the 9 dice" in refused.message, refused.message
    assert table.view()["question"] is not None and scores(table) == [0, 0, 0]
    assert table.request({"do": "choose", "option": "matcho"}).ok, "the Matcho dice were all seen"
    assert scores(table) == [0, 1, 0]


def test_a_squeak_with_a_die_read_unsure_is_scored_on_the_dice_tapped_not_on_the_guess(table):
    """Ben has three Matchos, the third read unsure (its guess: blank). The family said 'the Matcho roller'
    and Ben went one space down on the guessed blank."""
    lying(table, 10 * S, dice(*NOTHING), dice("matcho", "matcho", "blank", unsure=(2,)))
    heard = 10 * S + 50 * MS
    squeak(table, heard)
    question = table.view()["question"]
    assert "could not read one of the Matcho dice" in question["text"], question["text"]
    refused = table.request({"do": "choose", "option": "matcho"})
    assert not refused.ok and "tap the 9 dice" in refused.message
    assert scores(table) == [0, 0, 0]
    typed = table.request({"do": "dice", "values": list(NOTHING) + ["matcho"] * 3}, t=30 * S)
    assert typed.ok, typed.message
    view = table.view()
    assert view["game"]["scores"] == [0, 1, 0], "three Matchos: Ben climbs, judged on the dice tapped"
    assert view["question"] is None
    assert view["game"]["history"][-1]["action"] == {"kind": "squeak", "side": "matcho"}
    assert view["game"]["history"][-1]["t"] == heard, "the squeak keeps the time it was heard"


def test_dice_tapped_for_a_squeak_that_both_could_have_made_ask_who_was_first(table):
    lying(table, 1 * S, dice(CO, CO, CO, ST, OR, BA, unsure=(5,)), dice("matcho", "matcho", "matcho"))
    squeak(table, 1 * S + 50 * MS)
    assert table.request({"do": "dice", "values": [CO, CO, CO, ST, OR, PA, "matcho", "matcho", "matcho"]}).ok
    assert table.view()["question"]["text"] == "Both sides have a combination. Who squeaked first?"
    assert table.request({"do": "choose", "option": "fruit"}).ok
    assert scores(table) == [2, 0, 0], "three coconuts climb 2"


def test_a_sure_blank_settles_the_matcho_side_whatever_the_die_beside_it(table):
    lying(table, 1 * S, dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "matcho", unsure=(2,)))
    squeak(table, 1 * S + 50 * MS)
    assert table.view()["question"] is None
    assert scores(table) == [7, 0, 0], "Ben cannot have three Matchos with a blank lying: Ada's squeak"


def test_a_squeak_is_not_judged_on_dice_the_camera_saw_a_minute_ago(table):
    """The camera stopped sending what the zones show (unplugged, its thread ended); the banana squeaks."""
    lying(table, 1 * S, dice(CO, CO, CO, ST, OR, BA), dice("matcho", "blank", "blank"))
    squeak(table, 61 * S)
    question = table.view()["question"]
    assert question is not None and "has not seen" in question["text"], question
    assert scores(table) == [0, 0, 0]


def test_a_quick_squeak_after_the_page_answered_the_last_duel_counts(table):
    """Duel 1 ended in 'both' and was answered on the page at 20 s, its squeak heard at 10 s. Ben, rolling
    the fruit dice of duel 2, squeaks at 20.5 s: that is not the other hand of duel 1 arriving late."""
    lying(table, 10 * S, dice(CO, CO, CO, ST, ST, ST), dice("matcho", "matcho", "matcho"))
    squeak(table, 10 * S)
    assert table.request({"do": "choose", "option": "fruit"}, t=20 * S).ok  # Ada +6; duel 2: Ben and Cleo
    lying(table, 20 * S + 400 * MS, dice(CO, ST, OR, BA, PI, PA), dice("matcho", "blank", "blank"))
    squeak(table, 20 * S + 500 * MS)
    assert scores(table) == [6, 12, 0]


def test_the_next_duels_squeak_is_not_scored_into_the_duel_still_asked_about(table):
    """Duel 1 (Ada and Ben) ended in 'both'; the family plays duel 2 (Ben and Cleo) before anyone answers.
    Duel 2's squeak (Ben's six different fruits) was played as Ada's, and duel 1's question dropped."""
    lying(table, 10 * S, dice(CO, CO, CO, ST, ST, ST), dice("matcho", "matcho", "matcho"))
    squeak(table, 10 * S)
    asked = table.view()["question"]
    lying(table, 30 * S, dice(CO, ST, OR, BA, PI, PA), dice("matcho", "blank", "blank"))
    outcome = squeak(table, 30 * S)
    assert scores(table) == [0, 0, 0]
    assert table.view()["question"] == asked, "duel 1's question is still there to answer"
    assert "answer it first" in outcome.message
    assert table.request({"do": "choose", "option": "matcho"}).ok
    assert scores(table) == [0, 1, 0]


def test_the_other_hand_a_moment_after_a_squeak_asked_about_counts_for_nothing(table):
    lying(table, 10 * S, dice(CO, CO, CO, ST, ST, ST), dice("matcho", "matcho", "matcho"))
    squeak(table, 10 * S)
    asked = table.view()["question"]
    outcome = squeak(table, 10 * S + 300 * MS)
    assert table.view()["question"] == asked
    assert "only the first hand on the banana counts" in outcome.message


def test_a_squeak_heard_before_the_camera_read_the_frame_before_it_waits_for_that_frame(table):
    """Ben's third Matcho lands at 0.9 s and he slaps at 1.0 s; the sensor's event reaches the table before
    the camera has read its frame of 0.9 s. Judged on the frame of 0.5 s (two Matchos), he was asked about."""
    lying(table, 500 * MS, dice(*NOTHING), dice("matcho", "matcho", "blank"))
    outcome = squeak(table, 1 * S, frame_after=False)
    assert outcome.ok and table.view()["question"] is None and scores(table) == [0, 0, 0]
    lying(table, 900 * MS, dice(*NOTHING), dice("matcho", "matcho", "matcho"))
    lying(table, 1 * S + 33 * MS, dice(*NOTHING), dice("matcho", "matcho", "matcho"))
    assert scores(table) == [0, 1, 0], table.view()["game"]["history"]
    assert table.view()["game"]["history"][-1]["t"] == 1 * S


def test_a_squeak_asked_about_once_its_frame_is_read_no_longer_says_it_waits_for_that_frame(table):
    """The squeak waited for the camera's frame; once read, the page asked who squeaked, while the words beside the
    prompt still said it would be judged once the camera's picture was read."""
    lying(table, 500 * MS, dice(*NOTHING), dice("matcho", "blank", "blank"))
    squeak(table, 1 * S, frame_after=False)
    assert "judged once the camera's picture" in table.view()["notice"]
    lying(table, 1 * S + 33 * MS, dice(*NOTHING), dice("matcho", "blank", "blank"))
    view = table.view()
    assert view["question"] and view["question"]["text"].startswith("Nobody has a combination yet"), view["question"]
    assert "judged once the camera's picture" not in view["notice"], view["notice"]


def test_the_other_hand_while_the_first_squeak_waits_for_its_frame_counts_for_nothing(table):
    lying(table, 500 * MS, dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "blank"))
    squeak(table, 1 * S, frame_after=False)
    squeak(table, 1 * S + 200 * MS, frame_after=False)
    lying(table, 1 * S + 250 * MS, dice(CO, CO, CO, CO, ST, ST), dice("matcho", "matcho", "matcho"))
    assert scores(table) == [7, 0, 0], "Ada's squeak came first, with Ben's third Matcho not yet down"
    assert [step["action"]["kind"] for step in table.view()["game"]["history"]] == ["dice_showing", "squeak"]


def test_a_squeak_waiting_for_a_frame_that_never_comes_is_judged_when_the_camera_stops(tmp_path):
    table = Table(Journal(tmp_path), loop_seconds=0.05).start()
    try:
        table.request({"do": "start", "game": "banana-matcho", "players": [{"name": "Ada"}, {"name": "Ben"}]})
        lying(table, 500 * MS, dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "blank"))
        squeak(table, 1 * S, frame_after=False)
        wait_for(lambda: scores(table) != [0, 0], "the squeak to be judged once no frame came")
        assert scores(table) == [7, 0], "judged on the last frame read once nothing more came"
    finally:
        table.stop()


def test_a_squeak_judged_after_the_idle_second_replays_the_same(tmp_path):
    """Live, the camera's last frame came before the squeak and then nothing: the table's idle second asks who
    squeaked and the family answers. A replay sends the events without the pause; the squeak must be judged
    before the answer there too, or the answer is refused and the replay gives another game."""
    from companion.table.recording import replay

    recorded = []
    live = Table(Journal(tmp_path / "live"), tap=recorded.append, loop_seconds=0.05).start()
    try:
        assert live.request({"do": "start", "game": "banana-matcho", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
        lying(live, 1 * S, dice(*NOTHING), dice("blank", "blank", "matcho"))
        squeak(live, 1 * S + 50 * MS, frame_after=False)
        wait_for(lambda: live.view()["question"] is not None, "the question the idle second asks")
        assert live.request({"do": "choose", "option": "fruit"}).ok
        played = live.view()["game"]
    finally:
        live.stop()
    again = Table(Journal(tmp_path / "replay")).start()
    try:
        refused = []
        replay(recorded, again, fast=True, on_ack=lambda position, outcome: outcome.ok or refused.append(outcome.message))
        assert refused == []
        assert again.view()["game"]["history"] == played["history"]
    finally:
        again.stop()


def test_a_squeak_judged_just_before_a_refused_request_is_shown(table):
    lying(table, 1 * S, dice(*NOTHING), dice("blank", "blank", "matcho"))
    squeak(table, 1 * S + 50 * MS, frame_after=False)
    assert not table.request({"do": "correct", "index": 0, "value": "coconut"}).ok  # no roll to correct yet
    assert table.view()["question"] is not None, "the squeak, judged first, asks who squeaked"


def test_the_other_hand_does_not_judge_the_squeak_waiting_for_its_frame_on_old_frames(table):
    """Ben rolls his third Matcho at 0.95 s and slaps at 1.2 s; Ada (four coconuts, two star fruits) slaps
    150 ms later. The camera has read up to 0.9 s when both are heard. Ada's hand used to force Ben's squeak
    to be judged on the old frames (two Matchos): Ada climbed 7 and Ben's squeak was dropped as late."""
    fruit = dice(CO, CO, CO, CO, ST, ST)
    for ms in range(0, 1000, 100):
        lying(table, ms * MS, fruit, dice("matcho", "matcho", "blank"))
    assert squeak(table, 1200 * MS, frame_after=False).ok
    late = squeak(table, 1350 * MS, frame_after=False)
    assert "only the first hand on the banana counts" in late.message
    assert scores(table) == [0, 0, 0] and table.view()["question"] is None, "still waiting for the frames"
    for ms in range(1000, 1500, 100):
        lying(table, ms * MS, fruit, dice("matcho", "matcho", "matcho"))
    assert scores(table) == [0, 0, 0]
    assert "Who squeaked first" in table.view()["question"]["text"]
    assert table.request({"do": "choose", "option": "matcho"}).ok
    assert scores(table) == [0, 1, 0]


NOBODY = {"do": "choose", "option": "nobody"}


def knocked_between_duels(table):
    """Ada wins duel 1 with four and a pair; the banana, passed on to Ben and Cleo, squeaks as it is set down
    with the dice lying as duel 1 ended: asked, every answer but "nobody" a space down for Ben or Cleo."""
    fruit, matcho = dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "blank")
    lying(table, 1 * S, fruit, matcho)
    squeak(table, 1 * S + 50 * MS)
    assert scores(table) == [7, 0, 0]
    for k in range(30):
        lying(table, 2 * S + k * S // 10, fruit, matcho)
    squeak(table, 5 * S)
    assert table.view()["question"] is not None


def test_a_knock_on_the_banana_can_be_put_away_with_no_step(table):
    knocked_between_duels(table)
    history = table.view()["game"]["history"]
    assert {"option": "nobody", "label": NOBODY_LABEL} in table.view()["question"]["options"]
    answer = table.request(NOBODY)
    assert answer.ok, answer.message
    view = table.view()
    assert view["question"] is None and scores(table) == [7, 0, 0] and view["game"]["history"] == history
    assert "ignored" in view["notice"]
    lying(table, 8 * S, dice(CO, ST, OR, BA, PI, PA), dice("matcho", "blank", "blank"))
    squeak(table, 8 * S + 50 * MS)
    assert scores(table) == [7, 12, 0], "the next squeak is judged, not refused as 'answer it first'"


def test_nobody_is_offered_when_no_side_was_seen_and_refused_without_a_question(table):
    assert not table.request(NOBODY).ok
    squeak(table, 1 * S)  # the camera has seen nothing
    assert [o["option"] for o in table.view()["question"]["options"]] == ["nobody"]
    assert table.request(NOBODY).ok
    assert table.view()["question"] is None and scores(table) == [0, 0, 0]


def test_a_squeak_put_away_stays_put_away_after_a_restart_and_in_a_replay(tmp_path):
    from companion.table.recording import replay

    recorded = []
    live = Table(Journal(tmp_path / "live"), tap=recorded.append).start()
    try:
        assert live.request({"do": "start", "game": "banana-matcho",
                             "players": [{"name": "Ada"}, {"name": "Ben"}, {"name": "Cleo"}]}).ok
        knocked_between_duels(live)
        assert live.request(NOBODY).ok
        played = live.view()
    finally:
        live.stop()
        live.journal.close()
    again = Table(Journal(tmp_path / "live")).start()
    try:
        assert again.view()["question"] is None and again.view()["step"] == played["step"]
    finally:
        again.stop()
    replayed = Table(Journal(tmp_path / "replay")).start()
    try:
        refused = []
        replay(recorded, replayed, fast=True, on_ack=lambda _p, outcome: outcome.ok or refused.append(outcome.message))
        assert refused == [] and replayed.view()["step"] == played["step"]
    finally:
        replayed.stop()


def pip_roll(t):
    """The pip reader 'finding' pip dice on the fruit dice lying still: Banana Matcho has no pip dice."""
    from companion.events import DiceSettled

    return DiceSettled(t=t, dice=tuple(DieReading(v, (float(i), 0.0), (float(i), 0.0, i + 1.0, 1.0), 0.9)
                                       for i, v in enumerate((3, 1, 1, 1))))


def test_a_pip_roll_read_on_the_duel_dice_says_nothing_and_judges_no_squeak(table):
    fruit = dice(CO, CO, CO, CO, ST, ST)
    for ms in range(0, 1000, 100):
        lying(table, ms * MS, fruit, dice("matcho", "matcho", "blank"))
    assert table.submit(pip_roll(500 * MS)).result(5).ok
    assert table.view()["notice"] == "", "no word about a roll in a game without pip dice"
    squeak(table, 1200 * MS, frame_after=False)
    waiting = table.view()["notice"]
    assert table.submit(pip_roll(1250 * MS)).result(5).ok
    assert table.view()["notice"] == waiting and table.view()["question"] is None, "the squeak still waits"
    for ms in range(1000, 1500, 100):
        lying(table, ms * MS, fruit, dice("matcho", "matcho", "matcho"))
    assert "Who squeaked first" in table.view()["question"]["text"], "judged on the frames of its moment"


def test_the_duel_panel_follows_the_dice_the_camera_reads(table):
    """The odds box said "Ada's fruit dice are not rolled yet", "0 of 3 show a Matcho" and "Nobody can make
    the banana squeak yet" while the camera read four coconuts, two star fruits and three Matchos."""
    step = table.view()["step"]
    lying(table, 1 * S, dice(CO, CO, CO, CO, ST, OR), dice("matcho", "matcho", "blank"))
    odds = table.view()["game"]["odds"]
    assert odds["fruit"]["faces"] == [CO, CO, CO, CO, ST, OR] and odds["matcho"]["matchos"] == 2
    lying(table, 2 * S, dice(CO, CO, CO, CO, ST, ST), dice("matcho", "matcho", "matcho", unsure=(2,)))
    odds = table.view()["game"]["odds"]
    assert odds["fruit"]["current"]["value"] == 7 and odds["matcho"]["matchos"] == 2, "an unsure die: as before"
    lying(table, 3 * S, dice(CO, CO, CO, CO, ST, ST), dice("matcho", "matcho", "matcho"))
    assert table.view()["game"]["odds"]["verdict"] == "both"
    assert table.view()["step"] == step, "what the camera reads is no step: a tap sent meanwhile still counts"


def test_the_duel_panel_does_not_show_the_last_duels_dice_as_the_next_ones(table):
    fruit = dice(CO, CO, CO, CO, ST, ST)
    lying(table, 1 * S, fruit, dice("matcho", "blank", "blank"))
    squeak(table, 1 * S + 50 * MS)
    assert scores(table) == [7, 0, 0]
    lying(table, 2 * S, fruit, dice("matcho", "blank", "blank"))  # still lying as the duel ended
    odds = table.view()["game"]["odds"]
    assert odds["fruit"] is None and odds["matcho"]["matchos"] == 0, "Ben and Cleo have not rolled yet"
    lying(table, 3 * S, dice(OR, OR, OR, BA, PI, PA), dice("blank", "blank", "blank"))
    assert table.view()["game"]["odds"]["fruit"]["faces"] == [OR, OR, OR, BA, PI, PA]


def test_a_squeak_while_a_slow_camera_reads_a_frame_for_over_a_second_waits_for_that_frame(table):
    """A Pi busy beside the camera (a browser on its screen, the first frames' models loading) can take over a
    second for one frame. Ada's four coconuts land at 1.1 s, the camera's frame of 1.2 s is still being read
    when she slaps at 1.3 s, and the last frame the table has is of 0.2 s: the squeak was judged at once on no
    dice ('the camera has not seen the dice'), a frame later than a camera that kept up."""
    lying(table, 200 * MS, dice(*NOTHING), dice("matcho", "blank", "blank"))
    outcome = squeak(table, 1300 * MS, frame_after=False)
    assert outcome.ok and table.view()["question"] is None, table.view()["question"]
    lying(table, 1200 * MS, dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "blank"))
    lying(table, 2400 * MS, dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "blank"))
    assert scores(table) == [7, 0, 0], table.view()["question"]
