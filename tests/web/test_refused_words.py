"""A step the game refuses is said as a sentence a person reads: what happened and what the game waits for now.
The engines said "The white ball was drawn is not a legal action now", and the page showed the table's words as
they came, starting small and stopping without a full stop ("the game moved on before your tap arrived ..."): the
page's side is in test_browser's test of a tap that arrives after another phone played."""
from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest



def refused(base: str, command: dict) -> str:
    """The message a refused request gets over HTTP, as a page or a script sees it."""
    sent = urllib.request.Request(base + "/api/command", data=json.dumps(command).encode(),
                                  headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(sent, timeout=10)
    return json.loads(answer.value.read())["message"]


def test_a_step_the_game_does_not_take_now_is_named_with_what_it_waits_for(served, service):
    base, _ = served()
    assert service.table.request({"do": "start", "game": "magic-mountain",
                                  "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    assert service.table.request({"do": "dice", "values": ["purple"]}).ok
    message = refused(base, {"do": "play", "action": {"kind": "draw_ball", "colour": "red"}})
    assert message == "“The red ball was drawn” cannot be played now. Ada: which opening for the purple ball?"



@pytest.mark.parametrize("game, action", [
    ("matterhorn", {"kind": "place_climber", "circle": 1}),
    ("mountain-goats", {"kind": "move", "steps": [5]}),
    ("magic-mountain", {"kind": "choose_opening", "opening": 2}),
])
def test_a_move_sent_while_the_game_waits_for_the_dice_or_a_ball_says_so_in_words(served, service, game, action):
    """The same refusal while the game waits for a roll or a draw said "waiting for a roll of 5 dice, got 'move'",
    naming the engine's word for the action."""
    base, _ = served()
    assert service.table.request({"do": "start", "game": game, "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    waits_for = service.table.view()["game"]["prompt"]
    message = refused(base, {"do": "play", "action": action})
    assert message.startswith("“") and message.endswith(f"” cannot be played now. {waits_for}"), message
    assert action["kind"] not in message, message
