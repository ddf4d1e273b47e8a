"""A game set aside for another keeps what it had with no step: New game, another game, then New game and the
first one picked up again brings back its open question ("who squeaked?"), the event kept, the balls that went
in early and what Undo puts back first, as if it had never been left; a restart of the service between does not
lose them either. They were the table's, not the game's, and starting or picking up any game cleared them: the
squeak had to be played by hand. Through the real page server, as a phone sends its taps."""
from __future__ import annotations

import contextlib
import json
import threading
import types
import urllib.request

from companion.events import BallEntered, BananaSqueaked
from companion.table.journal import Journal
from companion.table.owner import Table
from tests.web.conftest import run_quietly
from tests.web.test_undo_questions import page, post

PLAYERS = [{"name": "Ada"}, {"name": "Ben"}]
FOUR_AND_PAIR = ["coconut"] * 4 + ["papaya"] * 2
DUEL = FOUR_AND_PAIR + ["matcho", "blank", "blank"]  # Ada's four-and-pair, and one Matcho for Ben: Ada climbs 7
S = 1_000_000_000


@contextlib.contextmanager
def serving(folder):
    """The companion on the games in `folder`, its page served as `companion serve` serves it: (base URL, table).
    Leaving it stops the service (a restart is another `serving` of the same folder)."""
    from companion.web.app import create_app
    from companion.web.cli_serve import page_server

    journal = Journal(folder)
    table = Table(journal).start()
    app = create_app(types.SimpleNamespace(table=table, journal=journal, camera=None, messages={}))
    server = page_server(app, "127.0.0.1", 0, threads=8)
    thread = threading.Thread(target=run_quietly, args=(server,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", table
    finally:
        app.extensions["companion"]["broadcaster"].stop()
        server.close()
        thread.join(5)
        table.stop()
        journal.close()


def start(base, game):
    answer = post(base, {"do": "start", "game": game, "players": PLAYERS})
    assert answer["ok"], answer
    return page(base)["game"]["id"]


def pick_up(base, game_id):
    """New game, then the game in the list of games to pick up."""
    rows = json.load(urllib.request.urlopen(f"{base}/api/history", timeout=10))["games"]
    offered = [row["id"] for row in rows if not row["finished"] and row["steps"]]
    assert game_id in offered, rows
    answer = post(base, {"do": "resume", "game_id": game_id})
    assert answer["ok"], answer
    assert page(base)["game"]["id"] == game_id


def squeak_asked(base, table):
    """Banana Matcho without the camera's zones: the duel's dice typed, then the banana squeaks on the sensor and the
    page asks who squeaked, with the 9 dice to tap. Its game number and the view."""
    banana = start(base, "banana-matcho")
    assert post(base, {"do": "dice", "values": DUEL})["ok"]
    assert table.submit(BananaSqueaked(t=20 * S)).result(5).ok
    view = page(base)
    assert view["question"] and view["question"]["kind"] == "squeak", view["question"]
    return banana, view


def answered_as_before(base, asked):
    """The question picked up is the one left, and answering it scores the squeak at its own time."""
    view = page(base)
    assert view["question"] == asked["question"], "the squeak's question was lost when the game was set aside"
    assert view["game"]["history"] == asked["game"]["history"]
    assert post(base, {"do": "dice", "values": DUEL})["ok"]
    view = page(base)
    assert view["question"] is None and view["game"]["scores"] == [7, 0], (view["question"], view["game"]["scores"])
    assert view["game"]["history"][-1]["t"] == 20 * S, "the squeak's own time"


def test_a_squeak_asked_about_is_asked_again_when_its_game_is_picked_up(tmp_path):
    with serving(tmp_path) as (base, table):
        banana, asked = squeak_asked(base, table)
        start(base, "mountain-goats")
        assert page(base)["question"] is None, "a new game starts with no question"
        pick_up(base, banana)
        answered_as_before(base, asked)


def test_undo_after_picking_a_game_up_takes_back_the_squeak_it_had_asked_about(tmp_path):
    """What Undo puts back first (the squeak asked about, with no step) is kept with the game too: Undo after the
    pick-up takes back the squeak's question, not the duel's typed dice."""
    with serving(tmp_path) as (base, table):
        banana, asked = squeak_asked(base, table)
        start(base, "mountain-goats")
        pick_up(base, banana)
        assert post(base, {"do": "undo"})["ok"]
        view = page(base)
        assert view["question"] is None and view["game"]["history"] == asked["game"]["history"], \
            "Undo took back a step instead of the squeak's question"


def test_a_squeak_asked_about_survives_setting_its_game_aside_and_a_restart(tmp_path):
    with serving(tmp_path) as (base, table):
        banana, asked = squeak_asked(base, table)
        start(base, "mountain-goats")
    with serving(tmp_path) as (base, table):  # the service restarts (a power cut, an update)
        assert page(base)["game"]["name"] == "mountain-goats" and page(base)["question"] is None
        pick_up(base, banana)
        answered_as_before(base, asked)


def test_the_question_follows_its_game_through_a_restart_and_another_set_aside(tmp_path):
    """Set aside, picked up, restarted, then set aside and picked up again: the question follows the game."""
    with serving(tmp_path) as (base, table):
        banana, asked = squeak_asked(base, table)
        goats = start(base, "mountain-goats")
        pick_up(base, banana)
    with serving(tmp_path) as (base, table):
        assert page(base)["question"] == asked["question"]
        answer = post(base, {"do": "resume", "game_id": goats})
        assert answer["ok"], answer
        assert page(base)["question"] is None, "the squeak's question is Banana Matcho's, not Mountain Goats'"
        pick_up(base, banana)
        answered_as_before(base, asked)


def test_a_new_game_of_the_same_kind_starts_with_no_question(tmp_path):
    with serving(tmp_path) as (base, table):
        squeak_asked(base, table)
        start(base, "banana-matcho")
        view = page(base)
        assert view["question"] is None and view["notice"].endswith("is kept: New game picks it up"), view["notice"]
        assert post(base, {"do": "undo"})["ok"] is False, "a new game has nothing to undo"


def balls_dropped_early(base, table):
    """Magic Mountain: Ada's first ball played; then Ben's ball went into opening 2 and Ada's next into opening 6
    before anyone tapped the colour of Ben's."""
    game = start(base, "magic-mountain")
    assert table.submit(BallEntered(t=5 * S, opening=4)).result(5).ok
    for command in ({"do": "dice", "values": ["red"]}, {"do": "dice", "values": []}):
        assert post(base, command)["ok"]
    while page(base)["game"]["legal"]:
        assert post(base, {"do": "play", "action": page(base)["game"]["legal"][0]["action"]})["ok"]
    assert table.submit(BallEntered(t=9 * S, opening=2)).result(5).ok
    assert table.submit(BallEntered(t=10 * S, opening=6)).result(5).ok
    notice = page(base)["notice"]
    assert "opening 6" in notice and "opening 2 waits" in notice, notice
    return game


def test_the_balls_dropped_early_are_told_again_when_magic_mountain_is_picked_up(tmp_path):
    with serving(tmp_path) as (base, table):
        magic = balls_dropped_early(base, table)
        start(base, "mountain-goats")
        assert "opening" not in page(base)["notice"], page(base)["notice"]
    with serving(tmp_path) as (base, table):
        pick_up(base, magic)
        notice = page(base)["notice"]
        assert "opening 6" in notice and "opening 2" in notice, f"the balls in the box were forgotten: {notice!r}"
        assert post(base, {"do": "dice", "values": ["blue"]})["ok"], "the ball kept in opening 2 waits for its colour"
        assert page(base)["game"]["history"][-1]["text"] == "Put the blue ball in opening 2"
        assert "opening 6" in page(base)["notice"], "the ball that went in early is still told"


def test_an_older_companions_journal_keeps_its_question_on_its_game(tmp_path):
    """A journal written before games kept their own table (the question as the table's, the game then on its
    owner): opened by this version, the question is the Banana Matcho game's, and stays with it across another
    game."""
    journal = Journal(tmp_path)
    table = Table(journal).start()
    assert table.request({"do": "start", "game": "mountain-goats", "players": PLAYERS}).ok
    goats = table.view()["game"]["id"]
    assert table.request({"do": "start", "game": "banana-matcho", "players": PLAYERS}).ok
    assert table.request({"do": "dice", "values": DUEL}).ok
    assert table.submit(BananaSqueaked(t=20 * S)).result(5).ok
    table.stop()
    with journal._reading() as db:
        keys = {key for (key,) in db.execute("SELECT key FROM meta")}
    journal.close()
    assert keys <= {"current_game", "question", "held", "unstepped", "early_balls", "first_duel_dice", "writable"}, \
        f"not as an older companion left it: {keys}"
    with serving(tmp_path) as (base, table):
        asked = page(base)
        assert asked["question"] and asked["question"]["kind"] == "squeak", asked["question"]
        banana = asked["game"]["id"]
        answer = post(base, {"do": "resume", "game_id": goats})
        assert answer["ok"] and page(base)["question"] is None, answer
        pick_up(base, banana)
        answered_as_before(base, asked)
