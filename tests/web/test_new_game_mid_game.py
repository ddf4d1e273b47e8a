"""Mum starts Magic Mountain on her phone while Matterhorn is half played. The Matterhorn game is kept, to pick up
later, but nothing said so: on the other phones the game the family was playing was simply gone."""
import json
import urllib.error
import urllib.request

MATTERHORN = {"do": "start", "game": "matterhorn", "players": [{"name": "Mum"}, {"name": "Kid"}]}
MAGIC_MOUNTAIN = {"do": "start", "game": "magic-mountain", "players": [{"name": "Mum"}, {"name": "Kid"}]}


def tap(base, body):
    request = urllib.request.Request(base + "/api/command", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as reply:
        return json.loads(reply.read())


def refusal(base, body):
    """The message of a tap the companion refuses."""
    try:
        tap(base, body)
    except urllib.error.HTTPError as refused:
        return json.loads(refused.read())["message"]
    raise AssertionError(f"{body} was played, not refused")


def page(base):
    with urllib.request.urlopen(base + "/api/state", timeout=20) as reply:
        return json.loads(reply.read())


def test_starting_a_game_while_one_is_half_played_says_where_the_first_one_is_kept(served):
    base, _ = served()
    tap(base, MATTERHORN)
    tap(base, {"do": "start", "game": "mountain-goats", "players": [{"name": "Mum"}, {"name": "Kid"}]})
    assert page(base)["notice"] == "", "a game no step was played in is not kept: nothing to say"
    tap(base, {"do": "dice", "values": [1, 2, 3, 4], "seen": page(base)["step"]})
    tap(base, {"do": "end"})
    tap(base, MAGIC_MOUNTAIN)
    assert page(base)["notice"] == "", "a game ended is not kept to pick up"
    tap(base, MATTERHORN)
    tap(base, {"do": "dice", "values": [2], "seen": page(base)["step"]})
    shown = tap(base, MAGIC_MOUNTAIN)["state"]
    assert shown["game"]["name"] == "magic-mountain"
    assert shown["notice"] == "Matterhorn with Mum and Kid is kept: New game picks it up"
    tap(base, {"do": "dice", "values": ["red"], "seen": page(base)["step"]})
    assert page(base)["notice"] == "", "said once"


def test_a_start_refused_because_the_game_was_played_on_meanwhile_says_to_tap_start_again(served):
    """Mum fills in the new game's players while Kid rolls in Matterhorn: her Start was refused with "look again,
    and tap again if it is still your move", words for a move, not for a new game."""
    base, _ = served()
    tap(base, MATTERHORN)
    choosing = page(base)["step"]
    tap(base, {"do": "dice", "values": [3], "seen": choosing})
    message = refusal(base, {**MAGIC_MOUNTAIN, "seen": choosing})
    assert message == ("the game was played on while you chose (someone played, or the camera read a roll): tap "
                       "Start again to set it aside anyway; it is kept to pick up")
    assert page(base)["game"]["name"] == "matterhorn"


def test_a_start_refused_because_the_game_was_ended_meanwhile_keeps_nothing_it_says(served):
    """Another phone ended the game while Mum chose the new one: nothing is left to keep."""
    base, _ = served()
    tap(base, MATTERHORN)
    choosing = page(base)["step"]
    tap(base, {"do": "end", "seen": choosing})
    message = refusal(base, {**MAGIC_MOUNTAIN, "seen": choosing})
    assert message == "the game changed while you chose (someone played or ended it): tap Start again"


def test_picking_up_another_game_says_where_the_one_played_is_kept(served):
    base, _ = served()
    tap(base, MATTERHORN)
    tap(base, {"do": "dice", "values": [2], "seen": page(base)["step"]})
    first = page(base)["game"]["id"]
    tap(base, MAGIC_MOUNTAIN)
    tap(base, {"do": "dice", "values": ["red"], "seen": page(base)["step"]})
    shown = tap(base, {"do": "resume", "game_id": first, "seen": page(base)["step"]})["state"]
    assert shown["game"]["name"] == "matterhorn"
    assert shown["notice"] == "Magic Mountain with Mum and Kid is kept: New game picks it up"
    shown = tap(base, {"do": "resume", "game_id": first, "seen": page(base)["step"]})["state"]
    assert shown["notice"] == "", "the game picked up again is the one on the table: nothing set aside"
