"""The camera read 1 2 3 4, Ada moved her goat on 5 (1+4 and 2+3), then Ben saw the first die was a 6 and fixed it.
The move no longer fits 6 2 3 4: it was taken back without a word, and the page just asked Ada again, as if her
tap had been lost."""
from companion.events import DiceSettled, DieReading
from tests.web.test_new_game_mid_game import page, tap


def read(values):
    return tuple(DieReading(v, (60.0 * i, 0.0), (60.0 * i, 0.0, 60.0 * i + 50, 50.0), 0.99) for i, v in enumerate(values))


def test_a_fixed_die_says_which_moves_it_took_back(served, service):
    base, _ = served()
    tap(base, {"do": "start", "game": "mountain-goats", "players": [{"name": "Ada"}, {"name": "Ben"}]})
    service.table.submit(DiceSettled(t=1, dice=read([1, 2, 3, 4]))).result(5)
    moves = {move["text"]: move["action"] for move in page(base)["game"]["legal"]}
    tap(base, {"do": "play", "action": moves["Move the goat on 5 to space 2"], "seen": page(base)["step"]})
    shown = tap(base, {"do": "correct", "index": 0, "value": 6, "seen": page(base)["step"]})["state"]
    assert shown["game"]["prompt"] == "Ada: choose how to group 6, 2, 3, 4"
    assert shown["notice"] == "Die 1 is now 6: Move the goat on 5 to space 2 no longer fits the dice and is taken back"
    tap(base, {"do": "correct", "index": 0, "value": 5, "seen": page(base)["step"]})
    assert page(base)["notice"] == "", "nothing was played since the roll: nothing to take back"
