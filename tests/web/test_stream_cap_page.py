"""A phone over the live-stream cap is told so on its page, and goes live once another page closes."""
from __future__ import annotations

import pytest

from tests.web.test_browser import browser, new_page  # noqa: F401 (the module's browser fixture)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def test_a_page_over_the_stream_cap_says_too_many_pages_open_then_goes_live(browser, served):  # noqa: F811
    """Before: the extra page's EventSource met a 503 it cannot read and said "reconnecting…" for ever."""
    base, _ = served(max_streams=1)
    first = new_page(browser, PHONE)
    first.goto(base + "/")
    first.wait_for_selector("#link.on")
    extra = new_page(browser, PHONE)
    extra.set_default_timeout(15000)
    extra.goto(base + "/")
    extra.wait_for_function("document.querySelector('#link').textContent.includes('too many pages open')")
    assert "too many live pages open (1)" in extra.locator("#toast-text").inner_text()
    assert not extra.locator("#toast").is_hidden()
    first.close()
    extra.wait_for_selector("#link.on")
    assert extra.locator("#toast").is_hidden(), "the refusal is not left up once the page is live"
    extra.close()
