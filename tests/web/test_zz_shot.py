from tests.web.test_browser import browser, new_page  # noqa

def test_shot(browser, served, service):
    base, _ = served()
    for size in (None, "27px", "32px"):
        page = new_page(browser, {"width": 320, "height": 640})
        page.goto(base + "/")
        page.wait_for_selector("#link.on")
        if size: page.add_style_tag(content=f"html {{ font-size: {size} !important; }}")
        page.click("button[data-game='matterhorn']")
        page.click("#add-player")
        print(size, page.evaluate("[...document.querySelectorAll('#players li')].map(li => Math.round(li.getBoundingClientRect().height))"))
        page.locator("#setup").screenshot(path=f"/tmp/s30/fix-page/out/players-{size}.png")
        page.close()
