"""Banana Matcho's zones: the table judges a squeak only on dice seen on the clock and in the game it is in."""
from __future__ import annotations

from companion.events import BananaSqueaked, DieReading, ZoneState
from companion.table.inputs import ZoneHistory
from companion.table.journal import Journal
from companion.table.owner import Table

S = 1_000_000_000
PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]


def dice(*faces):
    return tuple(DieReading(f, (float(i), 0.0), (float(i), 0.0, i + 1.0, 1.0), 0.97) for i, f in enumerate(faces))


def test_a_demo_that_starts_over_again_and_again_keeps_only_its_latest_round():
    """The demo's clock goes back to its start with every round: nothing of the round before stays."""
    history = ZoneHistory(keep_ns=10 * S)
    for round_ in range(20):
        for second in range(1, 6):
            history.add(ZoneState(t=second * S, zone="fruit", dice=dice(f"round {round_}")))
    assert len(history) == 5
    assert history.at("fruit", 3 * S) == dice("round 19")
    assert history.at("fruit", S // 2) is None


def test_a_squeak_in_a_new_game_is_not_judged_on_the_dice_of_the_game_before(tmp_path):
    table = Table(Journal(tmp_path)).start()
    try:
        table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS})
        table.submit(ZoneState(t=1 * S, zone="fruit", dice=dice(*["coconut"] * 4, "papaya", "papaya"))).result(5)
        table.submit(ZoneState(t=1 * S, zone="matcho", dice=dice("matcho", "blank", "blank"))).result(5)
        table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS})
        table.submit(BananaSqueaked(t=2 * S)).result(5)
        view = table.view()
    finally:
        table.stop()
    assert view["game"]["scores"] == [0, 0]
    assert view["question"]["text"].startswith("The banana squeaked, but the camera has not seen the dice. "
                                                "Who squeaked? First tap the 9 dice below")
    assert [o["option"] for o in view["question"]["options"]] == ["nobody"], "judged on the dice tapped, not on none"
