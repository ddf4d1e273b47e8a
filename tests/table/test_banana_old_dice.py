"""Banana Matcho through the real zones and the table: a new duel does not count dice still lying, never
picked up, from the duel before. Ben won duel 1 with three Matchos; in duel 2 Ada rolls the Matcho dice, but
before she picks them up Ben (now rolling the fruit dice) squeaks with nothing: Ada climbed on Ben's three
Matchos of the duel before. Dice picked up and rolled in the duel are judged as ever."""
from __future__ import annotations

import pytest

from companion.events import BananaSqueaked, DieReading, GameSoFar, ZoneState
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.vision.sources import Frame
from tests.table.banana_dice import MS, table_image, teach, tracker

CO, ST, OR, BA, PI, PA = "coconut", "starfruit", "orange", "banana", "pineapple", "papaya"
NOTHING = [CO, CO, ST, ST, OR, BA]  # two pairs: no combination
ALSO_NOTHING = [PI, PI, PA, PA, OR, BA]
THREE_MATCHOS = ["matcho"] * 3
SPLIT_X = 755  # between the drawn trays' fruit and Matcho zones


def tray(fruit_seed: int, fruit: list[str], matcho_seed: int, matcho: list[str]):
    """The fruit dice as thrown with `fruit_seed`, the Matcho dice as thrown with `matcho_seed`: each side's
    dice lie where they lay for as long as its seed stays."""
    image = table_image(fruit_seed, fruit, THREE_MATCHOS)
    image[:, SPLIT_X:] = table_image(matcho_seed, NOTHING, matcho)[:, SPLIT_X:]
    return image


class Camera:
    """The zones read frame by frame, 10 a second (or one frame every `frame_ms`), into the table."""

    def __init__(self, table, zones, frame_ms: int = 100):
        self.table, self.zones, self.t, self.frame_ms = table, zones, 0, frame_ms

    def shows(self, image, seconds: float) -> None:
        for _ in range(max(1, round(seconds * 1000 / self.frame_ms))):
            self.t += self.frame_ms * MS
            for state in self.zones.feed(Frame(self.t, image)):
                self.table.submit(state).result(5)

    def squeak(self, image) -> None:
        """The banana slapped just after the last frame; judged on the frame after it."""
        self.table.submit(BananaSqueaked(t=self.t + 50 * MS)).result(5)
        self.shows(image, 0.1)


def test_matchos_left_lying_from_the_last_duel_give_the_new_matcho_roller_no_climb(tmp_path):
    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    camera = Camera(table, tracker(tmp_path / "state"))
    try:
        assert table.request({"do": "start", "game": "banana-matcho",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
        duel_1 = tray(1, NOTHING, 2, THREE_MATCHOS)
        camera.shows(duel_1, 0.6)
        camera.squeak(duel_1)
        assert table.view()["game"]["scores"] == [0, 1], "duel 1: Ben's three Matchos climb"

        camera.shows(tray(1, [], 2, THREE_MATCHOS), 0.5)  # Ben picks up the fruit dice; Ada has not yet
        duel_2 = tray(3, ALSO_NOTHING, 2, THREE_MATCHOS)
        camera.shows(duel_2, 1.5)
        camera.squeak(duel_2)  # Ben, with nothing
        view = table.view()
        assert view["game"]["scores"] == [0, 1], [step["text"] for step in view["game"]["history"]]
        assert view["question"] and view["question"]["text"].startswith("Nobody has a combination yet"), \
            view["question"]
        assert table.request({"do": "choose", "option": "fruit"}).ok
        assert table.view()["game"]["scores"] == [0, 0], "Ben's squeak: Continue, one space down"

        ada_squeaks_on_her_own_matchos(camera)
        view = table.view()
        assert view["question"] is None and view["game"]["scores"] == [1, 0], "Ada's three Matchos of this duel climb"
    finally:
        table.stop()


def ada_squeaks_on_her_own_matchos(camera) -> None:
    """Ada picks up the Matcho dice at last, rolls three Matchos and squeaks."""
    camera.shows(tray(3, ALSO_NOTHING, 4, []), 0.5)
    rolled = tray(3, ALSO_NOTHING, 5, THREE_MATCHOS)
    camera.shows(rolled, 0.6)
    camera.squeak(rolled)


def test_matchos_lying_since_before_the_game_began_give_the_first_matcho_roller_no_climb(tmp_path):
    """No duel ended yet: the first duel began with the game. Matchos left by the last game (or set out by a
    child while the family sat down) were never picked up, so Ben, rolling the Matcho dice, has not rolled."""
    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    camera = Camera(table, tracker(tmp_path / "state"))
    try:
        camera.shows(tray(1, [], 2, THREE_MATCHOS), 0.3)  # the last game's Matchos, before this game
        assert table.request({"do": "start", "game": "banana-matcho",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}, t=camera.t).ok
        camera.shows(tray(1, [], 2, THREE_MATCHOS), 0.5)
        rolled = tray(3, NOTHING, 2, THREE_MATCHOS)  # Ada rolls the fruit dice; Ben has not picked his up
        camera.shows(rolled, 1.0)
        camera.squeak(rolled)  # Ada, hopefully
        view = table.view()
        assert view["game"]["scores"] == [0, 0], [step["text"] for step in view["game"]["history"]]
        assert view["question"] and view["question"]["text"].startswith("Nobody has a combination yet"), \
            view["question"]
        assert "as they lay when the game began" in view["question"]["text"], view["question"]["text"]
    finally:
        table.stop()


def started_on_old_matchos(tmp_path, games: int = 1):
    """The last game's Matchos lie in their zone; `games` Banana Matcho games started one after another on them,
    each seen for a while. (table, camera, the tray with the old Matchos)."""
    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    camera = Camera(table, tracker(tmp_path / "state"))
    old_matchos = tray(1, [], 2, THREE_MATCHOS)
    camera.shows(old_matchos, 0.3)
    for _ in range(games):
        assert table.request({"do": "start", "game": "banana-matcho",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}, t=camera.t).ok
        camera.shows(old_matchos, 0.5)
    return table, camera, old_matchos


def test_matchos_lying_since_before_the_game_began_give_no_climb_when_it_is_picked_up_again(tmp_path):
    """The family set the game aside in the first duel for another Banana Matcho game, whose start found the same
    Matchos lying, then picked the first game up again: the dice lying when it began were the other game's now,
    and Ben climbed on Matchos he never rolled."""
    table, camera, old_matchos = started_on_old_matchos(tmp_path, games=2)
    try:
        assert table.request({"do": "resume", "game_id": 1}, t=camera.t).ok
        squeak_on_the_old_matchos_climbs_nobody(table, camera, old_matchos)
    finally:
        table.stop()


def squeak_on_the_old_matchos_climbs_nobody(table, camera, old_matchos) -> None:
    """The old Matchos still lie; Ada rolls the fruit dice, nothing, and squeaks before Ben picks his up: nobody
    climbs, and the page says the Matchos lay so when the game began."""
    camera.shows(old_matchos, 0.5)
    rolled = tray(3, NOTHING, 2, THREE_MATCHOS)
    camera.shows(rolled, 1.0)
    camera.squeak(rolled)
    view = table.view()
    assert view["game"]["scores"] == [0, 0], [step["text"] for step in view["game"]["history"]]
    assert view["question"] and "as they lay when the game began" in view["question"]["text"], \
        (view["notice"], view["question"])


def ben_wins_duel_1(table, camera) -> None:
    """The game starts; Ben wins duel 1 with three Matchos and picks up the fruit dice; Ada has not picked up his
    Matchos yet."""
    assert table.request({"do": "start", "game": "banana-matcho",
                          "players": [{"name": "Ada"}, {"name": "Ben"}]}, t=camera.t).ok
    camera.shows(tray(1, [], 2, []), 0.3)  # both dice in hand
    duel_1 = tray(1, NOTHING, 2, THREE_MATCHOS)
    camera.shows(duel_1, 0.6)
    camera.squeak(duel_1)
    assert table.view()["game"]["scores"] == [0, 1], "duel 1: Ben's three Matchos climb"
    camera.shows(tray(1, [], 2, THREE_MATCHOS), 0.5)


def test_after_a_continue_the_last_duels_matchos_still_give_no_climb(tmp_path):
    """A Continue does not begin a new duel: the dice lying since before the duel began stay the last duel's."""
    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    camera = Camera(table, tracker(tmp_path / "state"))
    try:
        ben_wins_duel_1(table, camera)
        duel_2 = tray(3, ALSO_NOTHING, 2, THREE_MATCHOS)
        camera.shows(duel_2, 1.5)
        camera.squeak(duel_2)  # Ben, with nothing
        assert table.request({"do": "choose", "option": "fruit"}).ok
        assert table.view()["game"]["scores"] == [0, 0], "Ben's squeak: Continue, one space down"

        camera.shows(tray(1, [], 2, THREE_MATCHOS), 0.5)  # Ben rolls again; Ada's Matcho dice still lie
        again = tray(5, NOTHING, 2, THREE_MATCHOS)
        camera.shows(again, 1.5)
        camera.squeak(again)  # Ben squeaks again, still with nothing
        view = table.view()
        assert view["game"]["scores"] == [0, 0], [step["text"] for step in view["game"]["history"]]
        assert view["question"] and view["question"]["text"].startswith("Nobody has a combination yet"), \
            view["question"]
        assert "as the last duel left them" in view["question"]["text"], view["question"]["text"]
    finally:
        table.stop()


def test_the_duels_start_is_known_on_the_clock_it_was_timed_by_and_a_replay_agrees(tmp_path):
    """The duel's start comes from what is journaled (the game's start, the steps' times). A recording's game so far
    taken live replays with the same start; after a restart those times are another run's clock, maybe another boot
    of the Pi's (a power cut), so the restarted table, and a recording it starts, know no duel's start."""
    from companion.table.inputs import duel_began_at

    def began(table):
        game = table.game
        return duel_began_at(game.state, game.history, game.started, game.clock_from)

    table = Table(Journal(tmp_path / "journal")).start()
    assert table.request({"do": "start", "game": "banana-matcho",
                          "players": [{"name": "Ada"}, {"name": "Ben"}]}, t=7 * MS).ok
    assert began(table) == 7 * MS, "the first duel began with the game"
    assert table.request({"do": "dice", "values": NOTHING + THREE_MATCHOS}, t=9 * MS).ok
    assert table.request({"do": "play", "action": {"kind": "squeak", "side": "matcho"}}, t=11 * MS).ok
    assert table.request({"do": "play", "action": {"kind": "squeak", "side": "fruit"}}, t=13 * MS).ok  # Continue
    assert began(table) == 11 * MS
    so_far = table._so_far()
    table.stop()
    table.journal.close()

    restarted = Table(Journal(tmp_path / "journal")).start()
    replayed = Table(Journal(tmp_path / "replayed")).start()
    replayed_after_restart = Table(Journal(tmp_path / "replayed-after")).start()
    try:
        assert replayed.submit(GameSoFar(t=20 * MS, game=so_far)).result(5).ok
        assert began(replayed) == 11 * MS and replayed.game.started == 7 * MS
        assert began(restarted) is None and restarted.game.started is None
        assert replayed_after_restart.submit(GameSoFar(t=20 * MS, game=restarted._so_far())).result(5).ok
        assert began(replayed_after_restart) is None
    finally:
        restarted.stop()
        replayed.stop()
        replayed_after_restart.stop()


def test_on_a_busy_pi_reading_a_frame_a_second_old_matchos_still_give_no_climb(tmp_path):
    """A busy Pi can take over a second a frame: the Matchos left from the last duel, seen 1.2 s apart, still lie
    where they lay, and the new Matcho roller does not climb on them (the chain broke at every gap over a second)."""
    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    camera = Camera(table, tracker(tmp_path / "state"), frame_ms=1200)
    try:
        assert table.request({"do": "start", "game": "banana-matcho",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
        duel_1 = tray(1, NOTHING, 2, THREE_MATCHOS)
        camera.shows(duel_1, 2.4)
        camera.squeak(duel_1)
        assert table.view()["game"]["scores"] == [0, 1]
        camera.shows(tray(1, [], 2, THREE_MATCHOS), 1.2)
        duel_2 = tray(3, ALSO_NOTHING, 2, THREE_MATCHOS)
        camera.shows(duel_2, 2.4)
        camera.squeak(duel_2)
        view = table.view()
        assert view["game"]["scores"] == [0, 1], [s["text"] for s in view["game"]["history"]]
    finally:
        table.stop()


SECOND = 1000 * MS
TWO_PAIRS = ["coconut", "coconut", "starfruit", "starfruit", "orange", "banana"]  # two pairs: nothing


def zone_state(t, name, faces, x0):
    return ZoneState(t=t, zone=name, dice=tuple(DieReading(f, (x0 + 40.0 * i, 50.0), (0, 0, 9, 9), 0.95)
                                                for i, f in enumerate(faces)))


def zone_frames(table, t0, t1, fruit, matcho):
    t = t0
    while t <= t1:
        table.submit(zone_state(t, "fruit", fruit, 0)).result(5)
        table.submit(zone_state(t, "matcho", matcho, 600)).result(5)
        t += 100 * MS


def test_matchos_rolled_after_a_power_cut_climb(tmp_path):
    """The Pi loses power in the first duel and boots again: its clock starts again near 0, while the game's start
    is journaled on the old one. Ben's three Matchos, rolled after the reboot at a time before that number, were
    taken for dice lying since before the duel began, and gave no climb."""
    table = Table(Journal(tmp_path)).start()
    try:  # the family started the game 10 minutes after the Pi booted
        assert table.request({"do": "start", "game": "banana-matcho",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}, t=600 * SECOND).ok
    finally:
        table.stop()
        table.journal.close()
    # power cut; the Pi boots again, the game resumes by itself; now 9.5 minutes since boot, both roll
    table = Table(Journal(tmp_path)).start()
    try:
        zone_frames(table, 590 * SECOND, 590 * SECOND, [], [])  # both dice in hand
        zone_frames(table, 598 * SECOND, 601 * SECOND, TWO_PAIRS, ["matcho"] * 3)  # Ada's fruit, Ben's three Matchos
        table.submit(BananaSqueaked(t=601 * SECOND + 50 * MS)).result(5)
        zone_frames(table, 601 * SECOND + 100 * MS, 601 * SECOND + 200 * MS, TWO_PAIRS, ["matcho"] * 3)
        view = table.view()
        assert view["game"]["scores"] == [0, 1], (view["notice"], (view["question"] or {}).get("text"),
                                                 [s["text"] for s in view["game"]["history"]])
    finally:
        table.stop()


def test_matchos_left_from_the_last_duel_give_no_climb_after_a_power_cut_mid_duel(tmp_path):
    """Ben won duel 1 with three Matchos; duel 2 is on, Ada has not picked his Matchos up, and the Pi loses power.
    It boots again on a new clock, where the duel's start is not known: the Matchos seen first after the restart
    counted as rolled in this duel, and Ada, squeaking on them, climbed. Lying where they lay when the duel began
    (journaled with the squeak that began it), they are still the last duel's."""
    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    camera = Camera(table, tracker(tmp_path / "state"))
    try:
        ben_wins_duel_1(table, camera)
    finally:
        table.stop()
        table.journal.close()

    table = Table(Journal(tmp_path / "journal")).start()  # the Pi boots again: a new clock, a new camera
    camera = Camera(table, tracker(tmp_path / "state"))
    try:
        camera.shows(tray(1, [], 2, THREE_MATCHOS), 0.5)
        duel_2 = tray(3, ALSO_NOTHING, 2, THREE_MATCHOS)  # Ben throws the fruit dice: nothing
        camera.shows(duel_2, 1.5)
        camera.squeak(duel_2)  # Ada, on Ben's Matchos of the last duel
        view = table.view()
        assert view["game"]["scores"] == [0, 1], [step["text"] for step in view["game"]["history"]]
        assert view["question"], (view["notice"], [step["text"] for step in view["game"]["history"]])
        assert view["question"] and view["question"]["text"].startswith("Nobody has a combination yet"), \
            view["question"]
        assert "as the last duel left them" in view["question"]["text"], view["question"]["text"]

        assert table.request({"do": "choose", "option": "matcho"}).ok  # Continue: Ada stays at the start
        ada_squeaks_on_her_own_matchos(camera)
        view = table.view()
        assert view["question"] is None and view["game"]["scores"] == [1, 1], "Ada's own three Matchos climb"
    finally:
        table.stop()


def test_a_squeak_before_anyone_rolled_in_the_first_duel_asks_nothing(tmp_path):
    """The family threw the dice before starting Banana Matcho on the page; the game starts and the camera reads
    the zones from then on; a child squeezes the banana before anyone picked the dice up. Those dice count for
    nobody, and both monkeys stand on the start space, where a squeak without a combination sends nobody down:
    whoever squeaked, nothing changes, so the page asked 'Who squeaked?' for nothing."""
    teach(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    camera = Camera(table, tracker(tmp_path / "state"))
    try:
        assert table.request({"do": "start", "game": "banana-matcho",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}, t=camera.t).ok
        thrown_before = tray(1, NOTHING, 2, THREE_MATCHOS)
        camera.shows(thrown_before, 1.0)
        camera.squeak(thrown_before)
        view = table.view()
        assert view["question"] is None, view["question"]["text"]
        assert view["game"]["scores"] == [0, 0] and view["game"]["history"] == []
        assert "nobody has rolled yet" in view["notice"] and "changes nothing" in view["notice"], view["notice"]

        rolled = tray(3, ALSO_NOTHING, 5, THREE_MATCHOS)  # both roll; Ben's three Matchos of this duel climb
        camera.shows(tray(1, [], 2, []), 0.3)
        camera.shows(rolled, 0.6)
        camera.squeak(rolled)
        assert table.view()["game"]["scores"] == [0, 1]
    finally:
        table.stop()


@pytest.mark.parametrize("resumed", ["restarted", "recording"])
def test_matchos_lying_since_before_the_game_began_give_no_climb_after_a_restart_in_the_first_duel(tmp_path, resumed):
    """The last game's Matchos lay when the family started; the Pi restarted in the first duel (the game's start is
    on the old clock) before Ben picked them up: Ada, rolling nothing, squeaked, and Ben climbed on them. Where
    they lay since before the game began is journaled, so they still count for nobody; a recording started after
    the restart, resumed in another journal, agrees."""
    table, camera, old_matchos = started_on_old_matchos(tmp_path)
    table.stop()
    table.journal.close()

    table = Table(Journal(tmp_path / "journal")).start()  # the Pi boots again: a new clock, a new camera
    if resumed == "recording":
        so_far = table._so_far()
        table.stop()
        table = Table(Journal(tmp_path / "replayed")).start()
        assert table.submit(GameSoFar(t=0, game=so_far)).result(5).ok
    camera = Camera(table, tracker(tmp_path / "state"))
    try:
        squeak_on_the_old_matchos_climbs_nobody(table, camera, old_matchos)
    finally:
        table.stop()
