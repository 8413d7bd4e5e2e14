"""The chromium the tests drive: no address-bar popup page of its own, Playwright's settings kept."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Route

pytestmark = pytest.mark.slow  # a browser


@pytest.mark.both_browsers
def test_no_window_loads_the_address_bars_popup(browser: Browser) -> None:
    context = browser.new_context()
    try:
        context.new_page().goto("about:blank")
        targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
        assert [target["url"] for target in targets if "omnibox" in target["url"]] == []
    finally:
        context.close()


@pytest.mark.both_browsers
def test_playwright_s_own_disabled_features_stay_disabled(browser: Browser) -> None:
    """An http address stays http: Playwright turns HTTPS upgrades off in its --disable-features."""
    asked: list[str] = []

    def answer(route: Route) -> None:
        asked.append(route.request.url)
        route.fulfill(body="<p>answered</p>", content_type="text/html")

    context = browser.new_context()
    try:
        page = context.new_page()
        page.route("**/*", answer)  # nothing leaves the machine
        page.goto("http://example.com/")
        assert asked == ["http://example.com/"]
        assert page.url == "http://example.com/"
    finally:
        context.close()
