"""Watching a game live by its id, then reviewing it move by move."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from browser.browser_support import XSS_NAMES, discs, no_markup_from_names, status, wait_for_discs
from server_support import HTTP

pytestmark = pytest.mark.slow


def test_a_watcher_sees_every_move_live_and_reviews_the_game(
    new_page: Callable[..., Page], service: str
) -> None:
    created = HTTP.post(
        f"{service}/drop_token",
        json={"players": list(XSS_NAMES), "rows": 6, "columns": 7, "tokens": True},
    ).json()
    game, tokens = created["gameId"], created["tokens"]

    def play(player: str, column: int) -> None:
        answer = HTTP.post(
            f"{service}/drop_token/{game}/{player}",
            json={"column": column},
            headers={"Authorization": f"Bearer {tokens[player]}"},
        )
        assert answer.status_code == 200, answer.text

    page = new_page()
    page.goto(service + "/")
    page.get_by_label("Game id, link or join command").fill(game)
    page.get_by_label("Game id, link or join command").press("Enter")
    expect(status(page)).to_have_text(f"{XSS_NAMES[0]}'s turn (X, red).")
    no_markup_from_names(page)
    play(XSS_NAMES[0], 0)
    play(XSS_NAMES[1], 1)
    wait_for_discs(page, 2)
    expect(page.locator("#live")).to_contain_text(f"{XSS_NAMES[1]} (O) played column 1.")
    # The service unreachable: said on the page, retried, and gone once it answers again.
    # (The request already waiting for the next move is answered by it; the next one fails.)
    page.route(re.compile(r"/moves\?"), lambda route: route.abort())
    play(XSS_NAMES[0], 0)
    expect(page.locator("#trouble-text")).to_have_text(
        "The service cannot be reached; trying again…"
    )
    page.unroute(re.compile(r"/moves\?"))
    expect(page.locator("#trouble")).to_be_hidden()
    wait_for_discs(page, 3)
    for player, column in [(1, 1), (0, 0), (1, 1), (0, 0)]:
        play(XSS_NAMES[player], column)
    expect(status(page)).to_have_text(f"Game over: {XSS_NAMES[0]} (X) wins.")
    wait_for_discs(page, 7)
    assert page.locator("#board .column[aria-disabled='false']").count() == 0  # watchers never drop
    no_markup_from_names(page)

    page.get_by_role("button", name="Review move by move").click()
    expect(page.locator("#step-line")).to_have_text("Move 7 of 7.")
    expect(status(page)).to_have_text(f"{XSS_NAMES[0]} (X, red) has won.")
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    expect(page.locator("#step-line")).to_have_text("Move 4 of 7.")
    wait_for_discs(page, 4)
    page.keyboard.press("ArrowUp")
    # Announcements made before the page's next turn are read together, and
    # key presses may come faster than its turns: the last one is what counts.
    expect(page.locator("#live")).to_have_text(re.compile(r"(^|\. )Move 5 of 7\.$"))
    page.get_by_role("button", name="« Start").click()
    expect(discs(page)).to_have_count(0)
    page.get_by_role("button", name="End »").click()
    wait_for_discs(page, 7)


UNKNOWN_GAME = "0123456789abcdef0123456789abcdef"


def expect_only_the_notice(page: Page, text: str) -> None:
    """The page says ``text``, and shows no board, heading, status or keys of any game."""
    expect(page.locator("#notice-text")).to_have_text(text)
    expect(page.locator("#board-area")).to_be_hidden()
    expect(page.locator("#play")).to_be_hidden()
    assert page.locator("#title").text_content() == ""


def test_an_unknown_game_is_said_with_a_way_on(new_page: Callable[..., Page], service: str) -> None:
    page = new_page()
    page.goto(f"{service}/#watch={UNKNOWN_GAME}")
    expect_only_the_notice(page, "There is no game with this id on this service.")
    page.locator("#notice").get_by_role("button", name="New game").click()
    expect(page.get_by_role("button", name="Create game")).to_be_visible()


def test_an_error_page_keeps_nothing_of_the_game_shown_before(
    new_page: Callable[..., Page], service: str
) -> None:
    game = HTTP.post(
        f"{service}/drop_token", json={"players": ["ann", "bob"], "rows": 6, "columns": 7}
    ).json()["gameId"]
    page = new_page()
    page.goto(f"{service}/#watch={game}")
    expect(status(page)).to_have_text("ann's turn (X, red).")
    page.goto(f"{service}/#watch={UNKNOWN_GAME}")
    expect_only_the_notice(page, "There is no game with this id on this service.")
    page.goto(f"{service}/#watch={game}")
    expect(status(page)).to_have_text("ann's turn (X, red).")
    page.goto(f"{service}/#watch=")
    expect_only_the_notice(page, "This link names no game: it needs a game id after “=”.")
    page.keyboard.press("3")  # no board, nothing to drop into (and no error either)
    assert page.title() == "Connect Four"  # not "Loading the game…"


def test_a_service_that_refuses_wait_is_asked_at_a_slow_pace(
    new_page: Callable[..., Page], service: str
) -> None:
    game = HTTP.post(
        f"{service}/drop_token", json={"players": ["ann", "bob"], "rows": 6, "columns": 7}
    ).json()["gameId"]
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    refusal = (
        '{"error": "malformed_request", "detail": "query.wait: extra inputs are not permitted"}'
    )
    page.route(
        re.compile(r"/moves\?.*wait="),
        lambda route: route.fulfill(status=400, content_type="application/json", body=refusal),
    )
    page.goto(f"{service}/#watch={game}")
    expect(status(page)).to_have_text("ann's turn (X, red).")
    answer = HTTP.post(f"{service}/drop_token/{game}/ann", json={"column": 3})
    assert answer.status_code == 200, answer.text
    wait_for_discs(page, 1)
    polls = [url for url in asked if "/moves?" in url]
    assert "wait=" in polls[0]
    assert polls[1:] and not any("wait=" in url for url in polls[1:])


COUNT_LEFT_LISTENERS = """async () => {
    const { sleep } = await import("/static/follow.js");
    const left = [];
    const watched = (target) => {
        const listeners = new Set();
        left.push(listeners);
        const [add, remove] = [target.addEventListener, target.removeEventListener];
        target.addEventListener = (type, listener, options) => {
            listeners.add(listener);
            add.call(target, type, listener, options);
        };
        target.removeEventListener = (type, listener, options) => {
            listeners.delete(listener);
            remove.call(target, type, listener, options);
        };
        return target;
    };
    const signal = watched(new AbortController().signal), wake = watched(new EventTarget());
    // Each pause ends by `wake`, not by its timer: a page in the background runs timers late.
    for (let pause = 0; pause < 20; pause++) {
        const paused = sleep(60_000, signal, wake);
        wake.dispatchEvent(new Event("wake"));
        await paused;
    }
    return left.map((listeners) => listeners.size);
}"""
"""Pauses as the follower pauses (follow.js's sleep); the listeners left on the signal and on `wake`."""


def test_the_followers_pauses_leave_no_listener_behind(
    new_page: Callable[..., Page], service: str
) -> None:
    # A game followed for hours pauses thousands of times on one AbortSignal.
    page = new_page()
    page.goto(service + "/")
    expect(page.locator("#home")).to_be_visible()
    assert page.evaluate(COUNT_LEFT_LISTENERS) == [0, 0]
