"""The odds a player sees on the page, at the moment they decide, equal what `companion odds` computes for
the same position; the buttons stay big enough to tap, and on the 7-inch screen the decision is in view."""
from __future__ import annotations

import json
import math
import re
import urllib.request

import pytest

from .test_browser import SHOTS, browser  # noqa: F401  (the shared Chromium fixture)
from .test_browser import open_page as open_browser_page

pytestmark = pytest.mark.browser

SEVEN_INCH = {"width": 800, "height": 480}


def post(base, command):
    request = urllib.request.Request(base + "/api/command", data=json.dumps(command).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)["state"]


def start(base, game):
    players = [{"name": "Ada", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
    return post(base, {"do": "start", "game": game, "players": players, "variants": {}})


def play(base, state, **match):
    for move in state["game"]["legal"]:
        if all(move["action"].get(k) == v for k, v in match.items()):
            return post(base, {"do": "play", "action": move["action"]})
    raise AssertionError(f"no legal move with {match}: {state['game']['legal']}")


def cli_json(run_cli, *args):
    code, out, err = run_cli("odds", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def open_page(browser, base, viewport="phone"):  # noqa: F811
    return open_browser_page(browser, base, viewport, ready="#live:not([hidden])")


def chances(locator):
    return [float(x) for x in locator.evaluate_all("nodes => nodes.map(n => n.dataset.chance)")]


def too_small_buttons(page):
    """Visible buttons in the live game under 44 px either way (the touch target guideline)."""
    return page.evaluate("""() => [...document.querySelectorAll('#live button')]
        .filter(b => b.offsetParent !== null)
        .map(b => [b.textContent.trim(), b.getBoundingClientRect()])
        .filter(([, r]) => r.width < 44 || r.height < 44)
        .map(([t, r]) => `${t}: ${Math.round(r.width)}x${Math.round(r.height)}`)""")


def matterhorn_to_first_roll(base):
    state = start(base, "matterhorn")
    state = post(base, {"do": "dice", "values": [2]})
    state = post(base, {"do": "dice", "values": [5]})
    for _ in range(4):  # each player places two climbers on line 12
        state = post(base, {"do": "play", "action": state["game"]["legal"][0]["action"]})
    return post(base, {"do": "dice", "values": [4, 4, 6, 4, 2]})


def test_matterhorn_marks_the_best_elimination_and_each_ones_risk(browser, served, run_cli):  # noqa: F811
    base, _ = served()
    matterhorn_to_first_roll(base)
    expected = cli_json(run_cli, "matterhorn", "--roll", "4", "4", "6", "4", "2")
    page, errors = open_page(browser, base)
    try:
        buttons = page.locator("#moves button.move")
        assert chances(buttons) == [c["bust_next"] for c in expected["choices"]]  # safest first
        best = page.locator("#moves button.move.best")
        assert best.count() == 1
        first = expected["choices"][0]
        assert (first["line"], first["eliminate"]) == (8, [])
        assert "Keep all dice: line 8" in best.text_content()
        assert "★ Best" in best.text_content() and "Safe" in best.text_content()
        risky = buttons.filter(has_text="Eliminate 2, 4, 4 and 4: line 6")
        assert "Very risky, 83% to lose" in risky.text_content()
        assert too_small_buttons(page) == []
        assert errors == []
    finally:
        page.close()


def test_matterhorn_roll_again_carries_the_chance_to_lose_the_turn(browser, served, run_cli):  # noqa: F811
    base, _ = served()
    state = matterhorn_to_first_roll(base)
    state = play(base, state, kind="eliminate", dice=[2], line=6)
    state = play(base, state, kind="place_token")
    expected = cli_json(run_cli, "matterhorn", "--dice", "4", "--blocked", "6")["bust"]
    page, errors = open_page(browser, base, SEVEN_INCH)
    try:
        roll_again = page.locator("#moves button[data-odds=bust]")
        assert float(roll_again.get_attribute("data-chance")) == expected
        assert roll_again.text_content() == "Roll again: 4 diceSafe: about 1 in 28 chance to lose your actions (4%)"
        assert "you keep your moves" in page.locator("#moves button", has_text="Stop").text_content()
        box = roll_again.bounding_box()
        assert box["y"] + box["height"] <= SEVEN_INCH["height"], "roll again is below the fold on the 7-inch screen"
        page.screenshot(path=str(SHOTS / "odds-matterhorn-roll-again-7inch.png"))
        before = int(page.evaluate("window.companionView.version"))
        roll_again.click()
        page.wait_for_function(f"window.companionView.version > {before}")
        tip = page.locator("#tip p[data-odds=bust]")
        assert float(tip.get_attribute("data-chance")) == expected
        assert "lose the turn (4%)" in tip.text_content()
        assert errors == []
    finally:
        page.close()


def test_mountain_goats_shows_each_mountains_chance_then_ranks_moves_by_points(browser, served, run_cli):  # noqa: F811
    base, _ = served()
    start(base, "mountain-goats")
    before_roll = cli_json(run_cli, "mountain-goats", "--players", "2")
    after_roll = cli_json(run_cli, "mountain-goats", "--players", "2", "--roll", "5", "5", "5", "5")
    page, errors = open_page(browser, base)
    try:
        mountains = [str(m) for m in range(5, 11)]
        assert chances(page.locator("#tip td[data-odds=move]")) == [
            before_roll["next_roll"]["mountains"][m]["probability"] for m in mountains]
        assert chances(page.locator("#tip td[data-odds=token]")) == [
            before_roll["token_chances"][m]["probability"] for m in mountains]
        assert "Chance to win a token this turn: 4%" in page.text_content("#tip")
        for face in "5555":
            page.locator("#chance-faces button", has_text=face).click()
        page.click("#chance-send")
        page.wait_for_selector("#moves button.move.best")
        texts = page.locator("#moves button.move .move-text").all_text_contents()
        ranked = [m["text"] for m in after_roll["moves"]]
        assert texts == ranked[:len(texts)]
        top = after_roll["moves"][0]
        assert top["points"] == 10
        assert "+10 points" in page.locator("#moves button.move.best").text_content()
        page.screenshot(path=str(SHOTS / "odds-mountain-goats-phone.png"), full_page=True)
        assert too_small_buttons(page) == []
        assert errors == []
    finally:
        page.close()


def test_mountain_goats_big_mountain_standing_is_not_sold_as_points(browser, served, run_cli):  # noqa: F811
    """A goat on a low Big Mountain space is 1st only until someone goes higher, and scores only at the end:
    the page says so, ranks the ordinary climbs first and shows the goats that could go to one space once."""
    base, _ = served()
    players = [{"name": n, "colour": c} for n, c in (("Ada", "red"), ("Ben", "blue"), ("Cy", "green"))]
    post(base, {"do": "start", "game": "mountain-goats", "players": players, "variants": {"big_mountain": True}})
    state = post(base, {"do": "dice", "values": [2, 3, 5, 6]})
    expected = cli_json(run_cli, "mountain-goats", "--players", "3", "--big-mountain", "--roll", "2", "3", "5", "6")
    page, errors = open_page(browser, base)
    try:
        page.wait_for_selector("#moves button.move .note")
        buttons = page.locator("#moves button.move")
        texts = buttons.locator(".move-text").all_text_contents()
        notes = buttons.locator(".note").all_text_contents()
        assert texts[0] == expected["moves"][0]["text"] and "Big Mountain" not in texts[0]
        assert not [b for b in page.locator("#moves button.move.best").all_text_contents() if "Big Mountain" in b]
        kinds = [re.sub(r"send the \d+ goat", "send a goat", t) for t in texts]
        assert len(kinds) == len(set(kinds)), texts  # one entry per space, not one per goat
        page.click("#moves button.more")
        assert buttons.count() == len(state["game"]["legal"]) == len(expected["moves"])
        texts = buttons.locator(".move-text").all_text_contents()
        notes = buttons.locator(".note").all_text_contents()
        sent = [(t, n) for t, n in zip(texts, notes) if "Big Mountain space" in t]
        assert sent and all("point" not in n and "Big Mountain: 1st for now (scored at the end)" in n
                            for t, n in sent if "space 11" in t), sent
        assert not [n for n in notes if "climbs -" in n]
        assert errors == []
    finally:
        page.close()


def said_as_percent(p):
    """A chance as the odds box says it (odds.js `percent`, rounding halves up as JavaScript does)."""
    if p <= 0 or p >= 1:
        return "0%" if p <= 0 else "100%"
    if p < 0.01 or p > 0.99:
        return "less than 1%" if p < 0.01 else "more than 99%"
    return f"{math.floor(p * 100 + 0.5)}%"


def test_mountain_goats_with_goats_on_the_big_mountain_shows_what_companion_odds_says(browser, served,  # noqa: F811
                                                                                     run_cli):
    """Ada, Ben and Cy each sent a goat to the Big Mountain (22, 19, 16); Ada is about to roll. What the page shows
    her (the Big Mountain spaces she can reach, the points if the game ended now, her token chances) is what
    `companion odds mountain-goats` answers when told where those goats stand."""
    base, _ = served()
    players = [{"name": n, "colour": c} for n, c in (("Ada", "red"), ("Ben", "blue"), ("Cy", "green"))]
    post(base, {"do": "start", "game": "mountain-goats", "players": players, "variants": {"big_mountain": True}})
    for roll, space, mountain in (([6, 6, 5, 5], 22, 10), ([6, 6, 6, 1], 19, 9), ([4, 4, 4, 4], 16, 8)):
        state = play(base, post(base, {"do": "dice", "values": roll}), kind="move", steps=[], big=[[space, mountain]])
    expected = cli_json(run_cli, "mountain-goats", "--players", "3", "--big-mountain", "--big-goats", "10=22",
                        "--others-big", "19=2", "16=3")
    odds = state["game"]["odds"]
    assert odds["player"] == 0 and odds["next_roll"] == expected["next_roll"]
    assert odds["token_chances"] == expected["token_chances"]
    assert odds["big_mountain_points"] == expected["big_mountain_points"] == [16, 12, 8]
    spaces = expected["next_roll"]["big_mountain_spaces"]
    assert spaces["22"]["probability"] == spaces["19"]["probability"] == spaces["16"]["probability"] == 0
    page, errors = open_page(browser, base)
    try:
        mountains = [str(m) for m in range(5, 11)]
        assert chances(page.locator("#tip td[data-odds=token]")) == [
            expected["token_chances"][m]["probability"] for m in mountains]
        page.click("#odds-box summary")
        big = page.locator("#odds table", has=page.locator("caption", has_text="The Big Mountain"))
        shown = dict(zip(big.locator("tbody th").all_text_contents(), big.locator("tbody td").all_text_contents()))
        assert shown == {f"Space {s}": said_as_percent(c["probability"]) for s, c in spaces.items()}
        assert "Big Mountain points if the game ended now: Ada 16, Ben 12 and Cy 8." in page.text_content("#odds")
        assert errors == []
    finally:
        page.close()


def test_banana_matcho_shows_both_rollers_chances(browser, served, run_cli):  # noqa: F811
    base, _ = served()
    start(base, "banana-matcho")
    fruit = ["coconut", "banana", "coconut", "banana", "banana", "pineapple"]
    post(base, {"do": "dice", "values": fruit + ["matcho", "matcho", "blank"]})
    matcho = cli_json(run_cli, "banana-matcho", "--matchos", "2", "--throws", "3")
    improve = cli_json(run_cli, "banana-matcho", "--fruit", *fruit, "--keep", "1,3,4")["improve"]
    page, errors = open_page(browser, base)
    try:
        matcho_line = page.locator("#tip p[data-odds=matcho]")
        assert float(matcho_line.get_attribute("data-chance")) == matcho["by_throw"][0]["probability"]
        assert matcho_line.text_content() == ("Ben (Matcho dice): 2 of 3 monkeys. All 3 on the next throw: "
                                              "1 in 6 (17%); within 3 throws: 42%")
        fruit_line = page.locator("#tip p[data-odds=fruit]")
        assert float(fruit_line.get_attribute("data-chance")) == improve["probability"]
        assert fruit_line.text_content() == ("Ada (fruit dice): three-of-a-kind. Keep the 3 banana dice and roll "
                                             "the rest: 44% chance to do better.")
        assert errors == []
    finally:
        page.close()


def test_magic_mountain_shows_the_next_ball_and_where_a_hit_sends_each_figure(browser, served, run_cli):  # noqa: F811
    base, _ = served()
    start(base, "magic-mountain")
    post(base, {"do": "dice", "values": ["yellow"]})
    expected = cli_json(run_cli, "magic-mountain", "--ball", "yellow")
    page, errors = open_page(browser, base, SEVEN_INCH)
    try:
        head = page.locator("#tip th[data-odds=next-ball]")
        shown = dict(zip(head.all_text_contents(), chances(head)))
        assert shown == {"red25%": 0.25, "yellowin play": 0.0, "blue25%": 0.25, "purple25%": 0.25, "white25%": 0.25}
        assert expected["ball"] == "yellow" and {b["colour"]: b["probability"] for b in expected["next_ball"]} == {
            "red": 0.25, "blue": 0.25, "purple": 0.25, "white": 0.25}
        sends = page.text_content("#tip p[data-odds=sends]")
        assert sends == ("First figure it hits: S1 to S6 → 7; W1 and W2 → 12; W3 and W4 → 22. "
                         "Each one hit after it → the next free yellow space."), sends
        assert targets_said(sends) == {f["figure"]: "Goal!" if f["targets"]["yellow"] == "goal"
                                       else str(f["targets"]["yellow"]) for f in expected["figures"]}
        assert page.locator("#moves.grid button.move").all_text_contents() == ["1", "2", "3", "4", "5", "6"]
        assert page.text_content("#moves .moves-head") == "Put the yellow ball in opening:"
        last = page.locator("#moves button.move").last.bounding_box()
        assert last["y"] + last["height"] <= SEVEN_INCH["height"], "an opening is below the fold on the 7-inch screen"
        assert too_small_buttons(page) == []
        page.screenshot(path=str(SHOTS / "odds-magic-mountain-7inch.png"))
        assert errors == []
    finally:
        page.close()


def test_magic_mountain_a_ball_on_its_way_down_mid_game_shows_what_companion_odds_says(  # noqa: F811
        browser, served, service, run_cli):
    """Two balls down, figures moved by their hits, the blue ball put in opening 4: the page's next-ball chances and
    where the blue ball sends each figure are what `companion odds magic-mountain` answers for that table."""
    base, _ = served()
    start(base, "magic-mountain")
    for colour, opening, hits in (("red", 1, ["S1", "W4"]), ("yellow", 2, ["S2"])):
        state = play(base, post(base, {"do": "dice", "values": [colour]}), kind="choose_opening", opening=opening)
        post(base, {"do": "dice", "values": hits})
    state = play(base, post(base, {"do": "dice", "values": ["blue"]}), kind="choose_opening", opening=4)
    start_at = {"S1": 1, "S2": 2, "W4": 17}
    positions = service.table.view()["game"]["state"]["positions"]
    moved = [f"{f}={positions[f]}" for f in start_at]
    assert all(int(m.split("=")[1]) != start_at[m.split("=")[0]] for m in moved), moved
    expected = cli_json(run_cli, "magic-mountain", "--drawn", "red,yellow", "--ball", "blue", "--opening", "4",
                        "--figures", *moved)
    assert expected.pop("opening") == 4 and expected == state["game"]["odds"]
    page, errors = open_page(browser, base, SEVEN_INCH)
    try:
        head = page.locator("#tip th[data-odds=next-ball]")
        shown = {text.rstrip("%0123456789"): chance for text, chance in zip(head.all_text_contents(), chances(head))}
        assert shown == {"redout": 0.0, "yellowout": 0.0, "bluein play": 0.0,
                         **{b["colour"]: b["probability"] for b in expected["next_ball"]}}, shown
        assert [b["colour"] for b in expected["next_ball"]] == ["purple", "white"]
        sends = page.text_content("#tip p[data-odds=sends]")
        assert targets_said(sends) == {f["figure"]: "Goal!" if f["targets"]["blue"] == "goal"
                                       else str(f["targets"]["blue"]) for f in expected["figures"]}
        assert errors == []
    finally:
        page.close()


def test_magic_mountain_the_last_ball_in_the_bag_is_said_in_words(browser, served):  # noqa: F811
    base, _ = served()
    state = start(base, "magic-mountain")
    for colour in ("red", "yellow", "blue", "purple"):
        state = play(base, post(base, {"do": "dice", "values": [colour]}), kind="choose_opening", opening=1)
        state = post(base, {"do": "dice", "values": []})  # it hit nothing
        state = post(base, {"do": "play", "action": state["game"]["legal"][0]["action"]})  # a witch moves on
    assert [b["probability"] for b in state["game"]["odds"]["next_ball"]] == [1.0]
    page, errors = open_page(browser, base, SEVEN_INCH)
    try:
        assert page.text_content("#tip p[data-odds=next-ball]") == "Next ball: white for sure."
        assert errors == []
    finally:
        page.close()


def targets_said(sends):
    """Each figure's target as the tip says it: 'First figure it hits: S1 to S6 and W1 → 16; W2 and W3 → 21;
    W4 → 26. Each one hit after it → the next free red space.' -> {"S1": "16", ..., "W4": "26"}."""
    said = re.match(r"(?:First figure it hits|If it hits): (.*?)\.(?: Each one hit after it → .*)?$", sends).group(1)
    targets = {}
    for group in said.split("; "):
        names, target = group.split(" → ")
        for name in re.split(r", | and ", names):
            ends = name.split(" to ")
            kind, first, last = ends[0][0], int(ends[0][1:]), int(ends[-1][1:])
            targets.update({f"{kind}{n}": target for n in range(first, last + 1)})
    return targets


def test_magic_mountain_no_two_figures_are_sent_to_one_space(browser, served):  # noqa: F811
    """Red spaces 1, 6, 11, 16, 21, 26: the first figure the red ball hits of the nine behind 16 goes to 16, the
    next ones on to 21, 26 and the goal tile, not all to 16. So W4 goes to 21 only if it is hit first: after one
    of the nine took 21, W4 goes on to 26."""
    base, _ = served()
    start(base, "magic-mountain")
    state = post(base, {"do": "dice", "values": ["red"]})
    page, errors = open_page(browser, base, SEVEN_INCH)
    try:
        sends = page.text_content("#tip p[data-odds=sends]")
        assert sends == ("First figure it hits: S1 to S6 and W1 to W3 → 16; W4 → 21. "
                         "Each one hit after it → the next free red space."), sends
        assert targets_said(sends) == {f["figure"]: str(f["targets"]["red"]) for f in state["game"]["odds"]["figures"]}
        page.click("#odds-box summary")
        box = page.text_content("#odds")
        assert "Where the red ball sends the first figure it hits" in box, box
        assert "goes on to the next free red space" in box, box
        assert errors == []
    finally:
        page.close()


def test_magic_mountain_after_a_ball_hit_nothing_no_hit_is_foretold(browser, served):  # noqa: F811
    base, _ = served()
    start(base, "magic-mountain")
    state = play(base, post(base, {"do": "dice", "values": ["red"]}), kind="choose_opening", opening=1)
    state = post(base, {"do": "dice", "values": []})  # it hit nothing: a witch moves one space on
    assert state["game"]["legal"][0]["action"]["kind"] == "move_on_miss"
    page, errors = open_page(browser, base, SEVEN_INCH)
    try:
        assert page.locator("#tip p[data-odds=sends]").count() == 0, page.text_content("#tip")
        assert page.text_content("#tip h3") == "The next ball"
        assert page.text_content("#tip p[data-odds=next-ball]") == (
            "Next ball: yellow 1 in 4, blue 1 in 4, purple 1 in 4, white 1 in 4.")
        page.click("#odds-box summary")
        box = page.text_content("#odds")
        assert "in play" not in box and "Where the red ball" not in box, box
        assert errors == []
    finally:
        page.close()


def test_magic_mountain_the_tip_names_spaces_for_the_first_hit_only(browser, served, service):  # noqa: F811
    """Yellow spaces 2, 7, 12, 17, 22, 27. The tip said "the first of S1 to S6 → 7; of W1 and W2 → 12": but after
    S1 (→ 7) and S2 (→ 12, the next free yellow space), W1 goes to 22, not 12. Only the first hit's space is
    foretold; every later one goes on to the next free space of the ball's colour."""
    base, _ = served()
    start(base, "magic-mountain")
    state = post(base, {"do": "dice", "values": ["yellow"]})
    page, errors = open_page(browser, base, SEVEN_INCH)
    try:
        sends = page.text_content("#tip p[data-odds=sends]")
        assert errors == []
    finally:
        page.close()
    state = play(base, state, kind="choose_opening", opening=1)
    post(base, {"do": "dice", "values": ["S1", "S2", "W1"]})
    assert service.table.view()["game"]["state"]["positions"]["W1"] == 22
    assert sends == ("First figure it hits: S1 to S6 → 7; W1 and W2 → 12; W3 and W4 → 22. "
                     "Each one hit after it → the next free yellow space."), sends


def test_matterhorn_the_last_token_promises_no_next_roll(browser, served):  # noqa: F811
    """With one token left the choice places it and the player must stop: the page's moves and odds box say
    so, not 'Safe, 0% to lose' nor a chance for a roll that cannot happen. The page's own scripts read the
    engine's odds for that position."""
    from companion.games.matterhorn import GAME, odds_for_state
    from companion.games.matterhorn.actions import Roll

    data = GAME.new_state(["Ada", "Ben"]).to_json()
    data.update(phase="roll", player=0, supply=1)
    data["setup"] = {"rollers": [], "rolls": [], "place_order": [0, 1], "placed": 2}
    state = GAME.state_from_json(data)
    state.apply(Roll((5, 5, 6, 1, 1)))
    game = {"name": "matterhorn", "players": [{"name": "Ada"}, {"name": "Ben"}], "odds": odds_for_state(state),
            "legal": state.describe_legal(), "chance": None}
    base, _ = served()
    page, errors = open_browser_page(browser, base, "phone")
    try:
        moves = page.evaluate("game => window.CompanionOdds.forGame(game)", game)
        notes = [m["note"]["text"] for m in moves["moves"]]
        assert notes and set(notes) == {"Last token: no more rolls, you stop after this"}
        assert not any(m.get("best") for m in moves["moves"]) and moves["tip"] is None
        box = json.dumps(page.evaluate("game => window.CompanionOddsBox.summary(game)", game))
        assert "no next roll (last token)" in box and "%" not in box
        assert errors == []
    finally:
        page.close()
