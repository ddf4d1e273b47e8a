from tests.web.test_browser import browser, new_page  # noqa
import companion.web.joincode as joincode
from companion.web.joincode import JoinCodes, install
from tests.web.test_phones_layout import overflow

def test_shot(browser, served, service, tmp_path, monkeypatch):
    monkeypatch.setattr(joincode, "is_own_screen", lambda address: False)
    base, app = served()
    install(app, JoinCodes(tmp_path / "join"))
    assert service.table.request({"do": "start", "game": "matterhorn", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    page = new_page(browser, {"width": 320, "height": 640})
    page.goto(base + "/")
    page.wait_for_selector("#join:not([hidden])")
    page.context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": 32}})
    page.wait_for_timeout(200)
    print(overflow(page))
    page.screenshot(path="/tmp/s30/fix-page/out/join.png")
