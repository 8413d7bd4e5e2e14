"""Two people play by link, each in a browser of their own; names are shown as text."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from browser.browser_support import XSS_NAMES, drop, no_markup_from_names, status, wait_for_discs
from server_support import HTTP

pytestmark = pytest.mark.slow


def create_game(page: Page, service: str, me: str, friend: str) -> str:
    """Create a game from the home page; return the link for the friend."""
    page.goto(service + "/")
    page.get_by_label("Your name").fill(me)
    page.get_by_label("Friend's name").fill(friend)
    page.get_by_role("button", name="Create game").click()
    link = page.locator("#invite-link")
    expect(link).to_have_value(re.compile(r"#game="))
    return link.input_value()


def test_a_whole_game_by_link_between_players_named_with_markup(
    new_page: Callable[..., Page], service: str
) -> None:
    ann, bob = new_page(), new_page()
    link = create_game(ann, service, *XSS_NAMES)
    assert link.startswith(service + "/#") and "t=" in link  # the token only in the fragment
    bob.goto(link)
    expect(bob.locator("#play-heading")).to_contain_text(XSS_NAMES[1] + " (you)")
    assert "t=" not in bob.url  # taken out of the address bar, kept in the browser
    for move, (page, column) in enumerate([(ann, 0), (bob, 1), (ann, 0), (bob, 1)]):
        drop(page, column)
        wait_for_discs(page, move + 1)
    # A reload rejoins with the token the browser kept.
    bob.reload()
    wait_for_discs(bob, 4)
    for move, (page, column) in enumerate([(ann, 0), (bob, 1), (ann, 0)], start=4):
        drop(page, column)
        wait_for_discs(page, move + 1)
    expect(status(ann)).to_have_text("Game over: you win!")
    expect(status(bob)).to_have_text(f"Game over: {XSS_NAMES[0]} (X) wins.")
    expect(bob.locator("#board .cell.win")).to_have_count(4)
    for page in (ann, bob):
        no_markup_from_names(page)
    # The finished game goes to review, move by move.
    bob.get_by_role("button", name="Review move by move").click()
    expect(bob.locator("#step-line")).to_have_text("Move 7 of 7.")


def test_the_friend_quitting_is_said_with_a_way_on(
    new_page: Callable[..., Page], service: str
) -> None:
    ann = new_page()
    link = create_game(ann, service, "ann", "bob")
    fragment = dict(part.split("=", 1) for part in link.split("#", 1)[1].split("&"))
    drop(ann, 3)
    wait_for_discs(ann, 1)
    answer = HTTP.delete(
        f"{service}/drop_token/{fragment['game']}/bob",
        headers={"Authorization": f"Bearer {fragment['t']}"},
    )
    assert answer.status_code == 202
    expect(status(ann)).to_have_text("bob quit the game: you win.")
    expect(ann.get_by_role("button", name="New game")).to_be_visible()
    ann.get_by_role("button", name="New game").click()
    expect(ann.get_by_role("button", name="Create game")).to_be_visible()


def test_a_refused_or_unsent_move_is_said_with_a_way_on(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    fragment = dict(
        part.split("=", 1)
        for part in create_game(page, service, "ann", "bob").split("#", 1)[1].split("&")
    )
    # The service stops answering: the move cannot be sent, and can be tried again.
    page.route("**/drop_token/*/ann", lambda route: route.abort())
    drop(page, 2)
    expect(page.locator("#notice")).to_contain_text(
        "Your move could not be sent: the service cannot be reached."
    )
    page.unroute("**/drop_token/*/ann")
    page.locator("#notice").get_by_role("button", name="Try again").click()
    wait_for_discs(page, 1)
    expect(page.locator("#notice")).to_be_hidden()
    answer = HTTP.post(
        f"{service}/drop_token/{fragment['game']}/bob",
        json={"column": 4},
        headers={"Authorization": f"Bearer {fragment['t']}"},
    )
    assert answer.status_code == 200, answer.text
    # A move the service refuses is said with its reason, and the game can be reloaded.
    expect(status(page)).to_contain_text("Your turn")
    refusal = '{"error": "not_your_turn", "detail": "it is bob\'s turn, not ann\'s"}'
    page.route(
        "**/drop_token/*/ann",
        lambda route: route.fulfill(status=409, content_type="application/json", body=refusal),
    )
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Enter")  # Enter drops in the chosen column (2) from anywhere
    expect(page.locator("#notice-text")).to_have_text(
        "Your move was refused: it is bob's turn, not ann's."
    )
    page.unroute("**/drop_token/*/ann")
    page.locator("#notice").get_by_role("button", name="Reload the game").click()
    expect(page.locator("#notice")).to_be_hidden()
    wait_for_discs(page, 2)
    expect(status(page)).to_contain_text("Your turn")
