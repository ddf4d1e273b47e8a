"""Undo while the page asks a question, or just after one was answered: a family that tapped the wrong answer
(or wants a squeak's question gone) taps Undo and is back where it was, with the question that was open then,
and no real step of the game lost. Through the real page server, as a phone sends it."""
import json
import urllib.error
import urllib.request

from tests.table.test_banana_squeaks import dice, knocked_between_duels, lying, scores, squeak, CO, ST, S, MS


def post(base, command):
    """The command as the page sends it: with the step the page showed."""
    state = json.load(urllib.request.urlopen(f"{base}/api/state", timeout=10))
    body = json.dumps({**command, "seen": state["step"]}).encode()
    request = urllib.request.Request(f"{base}/api/command", body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as exc:
        return json.load(exc)


def page(base):
    return json.load(urllib.request.urlopen(f"{base}/api/state", timeout=10))


def shown(view):
    """What a family sees of the game: the board, the scores, the steps, and the question asked."""
    game = view["game"]
    return game["board"], game["scores"], game["history_count"], game["legal"], view["question"]


def start_banana(table):
    assert table.request({"do": "start", "game": "banana-matcho",
                          "players": [{"name": "Ada"}, {"name": "Ben"}, {"name": "Cleo"}]}).ok


def test_undo_after_answering_nobody_asks_the_squeak_again_and_keeps_the_duel_before(served, service):
    base, _ = served()
    start_banana(service.table)
    knocked_between_duels(service.table)
    before = shown(page(base))
    assert post(base, {"do": "choose", "option": "nobody"})["ok"]
    assert page(base)["question"] is None
    answer = post(base, {"do": "undo"})
    assert answer["ok"], answer
    assert shown(page(base)) == before
    assert scores(service.table) == [7, 0, 0]


def test_undo_after_answering_who_squeaked_asks_again_with_the_game_as_it_was(served, service):
    base, _ = served()
    start_banana(service.table)
    knocked_between_duels(service.table)
    before = shown(page(base))
    assert post(base, {"do": "choose", "option": "fruit"})["ok"]
    assert page(base)["question"] is None and page(base)["game"]["history_count"] > before[2]
    steps = page(base)["game"]["history"]
    assert not [key for step in steps for key in ("asked", "actions", "kept") if key in step], \
        "what a step keeps for undo (the whole question answered) is not sent to every page at every change"
    assert post(base, {"do": "undo"})["ok"]
    assert shown(page(base)) == before


def test_undo_while_a_squeak_is_asked_about_takes_back_the_squeak_not_the_duel_before(served, service):
    base, _ = served()
    start_banana(service.table)
    fruit, matcho = dice(CO, CO, CO, CO, ST, ST), dice("matcho", "blank", "blank")
    lying(service.table, 1 * S, fruit, matcho)
    squeak(service.table, 1 * S + 50 * MS)
    for k in range(30):
        lying(service.table, 2 * S + k * S // 10, fruit, matcho)
    before_knock = shown(page(base))
    squeak(service.table, 5 * S)
    assert page(base)["question"] is not None
    assert post(base, {"do": "undo"})["ok"]
    assert shown(page(base)) == before_knock
    assert scores(service.table) == [7, 0, 0]


def test_undo_after_a_restart_still_asks_again_the_squeak_answered_nobody(tmp_path):
    """The power goes between the mistaken "nobody" and the Undo: the journal keeps what Undo puts back, and a
    replay of the recording ends where the live table did."""
    from companion.table.journal import Journal
    from companion.table.owner import Table
    from companion.table.recording import replay

    recorded = []
    live = Table(Journal(tmp_path / "live"), tap=recorded.append).start()
    try:
        start_banana(live)
        knocked_between_duels(live)
        question = live.view()["question"]
        assert live.request({"do": "choose", "option": "nobody"}).ok
    finally:
        live.stop()
        live.journal.close()
    again = Table(Journal(tmp_path / "live"), tap=recorded.append).start()
    try:
        assert again.view()["game"]["can_undo"]
        assert again.request({"do": "undo"}).ok
        assert again.view()["question"] == question and scores(again) == [7, 0, 0]
        played = again.view()
    finally:
        again.stop()
        again.journal.close()
    replayed = Table(Journal(tmp_path / "replay")).start()
    try:
        refused = []
        replay(recorded, replayed, fast=True, on_ack=lambda _p, outcome: outcome.ok or refused.append(outcome.message))
        assert refused == [] and replayed.view()["step"] == played["step"]
    finally:
        replayed.stop()


def pips(*values, t=5 * S):
    from companion.events import DiceSettled, DieReading
    return DiceSettled(t=t, dice=tuple(DieReading(v, (float(i), 0.0), (float(i), 0.0, i + 1.0, 1.0), 0.97)
                                       for i, v in enumerate(values)))


def test_undo_right_after_a_roll_kept_for_a_move_drops_the_roll_and_keeps_the_roll_before(served, service):
    """Mountain Goats: Ben rolls before Ada has tapped her move, the camera's roll is kept; Undo takes back that
    roll only. It used to take back Ada's roll too, a real step of the game."""
    base, _ = served()
    assert service.table.request({"do": "start", "game": "mountain-goats",
                                  "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    assert post(base, {"do": "dice", "values": [1, 2, 3, 4]})["ok"]
    before = shown(page(base))
    assert service.table.submit(pips(5, 5, 6, 6)).result(5).ok
    assert "kept" in page(base)["notice"]
    assert post(base, {"do": "undo"})["ok"]
    assert shown(page(base)) == before and "kept" not in page(base)["notice"]
    assert post(base, {"do": "play", "action": before[3][0]["action"]})["ok"]
    assert page(base)["game"]["history_count"] == 2, "the roll undone is not played"


def test_the_page_says_what_undo_took_back(served, service):
    """Every phone at the table sees what the Undo tapped on one of them took back, not a board that changed
    without a word."""
    base, _ = served()
    assert service.table.request({"do": "start", "game": "mountain-goats",
                                  "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    assert post(base, {"do": "dice", "values": [1, 2, 3, 4]})["ok"]
    assert post(base, {"do": "play", "action": page(base)["game"]["legal"][0]["action"]})["ok"]
    move = page(base)["game"]["history"][-1]["text"]
    assert post(base, {"do": "undo"})["ok"]
    assert page(base)["notice"] == f"Undone: {move}"
    assert service.table.submit(pips(5, 5, 6, 6)).result(5).ok
    assert post(base, {"do": "undo"})["ok"]
    assert page(base)["notice"] == "Undone: the roll the camera read (5 5 6 6)"


def test_the_page_says_undo_asked_the_squeak_again(served, service):
    base, _ = served()
    start_banana(service.table)
    knocked_between_duels(service.table)
    assert post(base, {"do": "choose", "option": "nobody"})["ok"]
    assert post(base, {"do": "undo"})["ok"]
    assert page(base)["notice"] == "Undone: the answer; the question is asked again"
    assert post(base, {"do": "undo"})["ok"]
    assert page(base)["notice"] == "Undone: the squeak (nothing was played)"



def bens_moves_with_adas_roll_kept(base, table):
    """Matterhorn: Ben stopped with two lines used, so two moves to tap; Ada has already rolled 2 3 4 5 5, and
    the camera's roll is kept until Ben's moves are done."""
    from tests.table.test_held_inputs import PLAYERS
    from tests.table.test_matterhorn_roll_again import phase, rolled

    assert table.request({"do": "start", "game": "matterhorn", "players": PLAYERS}).ok
    table.submit(rolled(6)).result(5)
    table.submit(rolled(1)).result(5)
    while phase(table) == "setup_place":
        assert post(base, {"do": "play", "action": page(base)["game"]["legal"][0]["action"]})["ok"]
    assert table.submit(rolled(6, 5, 4, 3, 3)).result(5).ok
    assert post(base, {"do": "play", "action": {"kind": "eliminate", "dice": [3, 3, 5], "line": 10}})["ok"]
    assert post(base, {"do": "play", "action": page(base)["game"]["legal"][0]["action"]})["ok"]
    assert post(base, {"do": "play", "action": {"kind": "roll_again"}})["ok"]
    assert table.submit(rolled(6, 6)).result(5).ok
    for _ in range(2):  # line 6 chosen, its token placed
        assert post(base, {"do": "play", "action": page(base)["game"]["legal"][0]["action"]})["ok"]
    assert post(base, {"do": "play", "action": {"kind": "stop"}})["ok"]
    assert phase(table) == "moves"
    assert table.submit(rolled(2, 3, 4, 5, 5)).result(5).ok
    assert "2 3 4 5 5" in page(base)["notice"]
    return phase


ONE_MOVE = {"kind": "move", "owner": 1, "climber": 0, "line": 11, "circle": 2}  # one circle up: one of two moves


def test_undo_of_a_tap_made_while_a_roll_is_kept_keeps_the_roll_and_says_so(served, service):
    """Ben taps a move, then Undo (the wrong climber): the move is taken back and Ada's roll still waits, as
    the page says; it is played once Ben is done. It used to be dropped without a word, and the camera does
    not read dice lying still again."""
    base, _ = served()
    phase = bens_moves_with_adas_roll_kept(base, service.table)
    assert post(base, {"do": "play", "action": ONE_MOVE})["ok"]
    assert phase(service.table) == "moves" and "2 3 4 5 5" in page(base)["notice"], "a move left: the roll waits"
    steps = page(base)["game"]["history_count"]
    moved = page(base)["game"]["history"][-1]["text"]

    assert post(base, {"do": "undo"})["ok"]
    notice = page(base)["notice"]
    assert notice.startswith(f"Undone: {moved}. ") and "The roll 2 3 4 5 5 is kept" in notice, notice
    assert page(base)["game"]["history_count"] == steps - 1
    assert post(base, {"do": "play", "action": {"kind": "end_moves"}})["ok"]
    view = page(base)
    assert view["game"]["history"][-1]["text"] == "Rolled 2 3 4 5 5", "Ada's roll, kept, is played"
    assert view["game"]["last_reading"]["values"] == [2, 3, 4, 5, 5]


def test_undo_after_undo_takes_back_the_tap_then_the_roll_kept_before_it_then_the_step_before(served, service):
    base, _ = served()
    phase = bens_moves_with_adas_roll_kept(base, service.table)
    stopped = page(base)["game"]["history"][-1]["text"]
    assert post(base, {"do": "play", "action": ONE_MOVE})["ok"]
    assert post(base, {"do": "undo"})["ok"]
    assert post(base, {"do": "undo"})["ok"]
    assert page(base)["notice"] == "Undone: the roll the camera read (2 3 4 5 5)"
    assert phase(service.table) == "moves"
    assert post(base, {"do": "undo"})["ok"]
    assert page(base)["notice"] == f"Undone: {stopped}" and phase(service.table) == "decide"
