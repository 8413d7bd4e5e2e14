"""The page's views (service/static): built without a request, started with one."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.slow

VIEWS = {
    "live_game.js": ("LiveGame", "game=nosuchgame&me=ann"),
    "computer_game.js": ("ComputerGame", "computer=3&r=6&c=7&you=1&moves="),
    "analysis.js": ("AnalysisView", "analysis=&r=6&c=7&moves=3"),
}
"""Each view's module, class, and an address it shows by asking the service."""

REQUESTS_MADE = """async ([module, name, address]) => {
    const { BoardView } = await import("/static/board_view.js");
    const View = (await import(`/static/${module}`))[name];
    const asked = [];
    const fetch = window.fetch;
    window.fetch = (path, options) => {
        asked.push(String(path));
        return fetch(path, options);
    };
    try {
        const view = new View(new URLSearchParams(address), new BoardView(document.createElement("div"), () => {}), () => {});
        const built = asked.length;
        view.start();
        const started = asked.length;
        view.stop();
        return [built, started];
    } finally {
        window.fetch = fetch;
    }
}"""
"""Builds a view, then starts it; how many requests it had sent after each."""


@pytest.mark.parametrize("module", VIEWS)
def test_a_view_sends_no_request_until_it_is_started(
    new_page: Callable[..., Page], service: str, module: str
) -> None:
    page = new_page()
    page.goto(service + "/")
    expect(page.locator("#home")).to_be_visible()
    name, address = VIEWS[module]
    built, started = page.evaluate(REQUESTS_MADE, [module, name, address])
    assert built == 0
    assert started >= 1
