from tests.web.test_browser import browser  # noqa
from tests.web.test_page_long_moves import placed, request
from tests.web.test_page_a11y import open_page

def test_shot(browser, served, service):
    base, _ = served()
    placed(service.table)
    page, _ = open_page(browser, base, "#board svg")
    page.locator("#board").screenshot(path="/tmp/s30/fix-page/out_mh.png")
    six = [{"name": n} for n in ["Ada", "Ben", "Cy", "Dan", "Eve", "Fay"]]
    request(service.table, {"do": "start", "game": "banana-matcho", "players": six})
    page.wait_for_timeout(800)
    page.locator("#board").screenshot(path="/tmp/s30/fix-page/out_bm.png")
