"""A family without the camera's dice zones types the duel's nine dice, and the page asks "who squeaks first?";
then the banana squeaks on the sensor. The page said "First tap the 9 dice below as they lay", but showed no dice
to tap: the game was no longer waiting for dice, so only "Nobody" could be answered and the squeak was lost."""
from tests.web.test_browser import browser  # noqa: F401
from companion.events import BananaSqueaked

from tests.web.test_browser import open_page

START = {"do": "start", "game": "banana-matcho", "players": [{"name": "Ada"}, {"name": "Ben"}]}
FOUR_AND_PAIR = ["coconut"] * 4 + ["papaya"] * 2


def test_a_squeak_heard_after_the_dice_were_typed_can_be_judged_on_the_dice_tapped(browser, served, service):
    base, _ = served()
    table = service.table
    assert table.request(START).ok
    assert table.request({"do": "dice", "values": FOUR_AND_PAIR + ["matcho", "blank", "blank"]}).ok
    page, errors = open_page(browser, base, "phone")
    try:
        page.wait_for_function("window.companionView.game.history_count === 1")
        table.submit(BananaSqueaked(t=20)).result(5)
        page.wait_for_selector("#question:not([hidden])")
        assert "tap the 9 dice below" in page.text_content("#question")
        assert page.is_visible("#chance"), "the question asks for the 9 dice, and the page shows none to tap"
        faces = page.locator("#chance-faces button")
        for i in [0, 0, 0, 0, 5, 5, 6, 7, 7]:  # four coconuts, two papayas; a Matcho and two blanks
            faces.nth(i).click()
        page.click("#chance-send")
        page.wait_for_function("window.companionView.question === null")
        assert page.evaluate("window.companionView.game.scores") == [7, 0], "Ada's four-and-pair climbs 7"
        assert page.evaluate("window.companionView.game.history.at(-1).t") == 20, "the squeak's own time"
        assert errors == []
    finally:
        page.close()


def test_a_squeak_question_kept_by_an_older_companion_offers_the_dice_to_tap(tmp_path):
    """A question journaled before the page was told which dice to tap (no "dice_to_tap") comes back after an
    update and a restart: the page must still offer the 9 dice, or only "Nobody" can be answered."""
    import json

    from companion.table.journal import Journal
    from companion.table.owner import Table

    journal = Journal(tmp_path)
    table = Table(journal).start()
    assert table.request(START).ok
    assert table.request({"do": "dice", "values": FOUR_AND_PAIR + ["matcho", "blank", "blank"]}).ok
    table.submit(BananaSqueaked(t=20)).result(5)
    table.stop()
    old = json.loads(journal.meta("question"))
    old.pop("dice_to_tap", None)
    with journal.transaction() as tx:
        tx.set_meta("question", json.dumps(old))
    table = Table(journal).start()
    try:
        question = table.view()["question"]
        assert question["kind"] == "squeak" and question["unknown"], question
        assert question.get("dice_to_tap", {}).get("count") == 9, question
    finally:
        table.stop()
        journal.close()
