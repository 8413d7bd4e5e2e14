"""The page as a product: the review's verdicts and names, the move table, the preview disc,
the your-turn title, dark mode, the sound switch, safe shortcut keys and a board that stays put.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from browser.browser_support import column, discs, status, wait_for_discs
from server_support import HTTP

pytestmark = pytest.mark.slow

# X stacks three in column 3 and O three in column 0; X (ann) then plays column 1 instead of
# winning at 3, and O (bob) wins at 0: move 7 throws a win away.
BLUNDER_GAME = [3, 0, 3, 0, 3, 0, 1, 0]
YOUR_TURN = "● Your turn — Connect Four"


def finished_game(service: str, moves: list[int]) -> str:
    """A game between ann and bob played to its end through the API: its id."""
    game = HTTP.post(
        f"{service}/drop_token", json={"players": ["ann", "bob"], "rows": 6, "columns": 7}
    ).json()["gameId"]
    for number, column_played in enumerate(moves):
        player = ("ann", "bob")[number % 2]
        answer = HTTP.post(f"{service}/drop_token/{game}/{player}", json={"column": column_played})
        assert answer.status_code == 200, answer.text
    return str(game)


def test_the_review_shows_each_moves_verdict_and_the_players_names(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(f"{service}/#watch={finished_game(service, BLUNDER_GAME)}")
    expect(status(page)).to_have_text("Game over: bob (O) wins.")
    page.get_by_role("button", name="Review move by move").click()
    table = page.locator("#move-list")
    expect(table.locator("thead th")).to_have_text(["#", "X ann", "O bob"])
    expect(table.locator(".verdict")).to_have_count(8)
    expect(table.locator(".verdict.blunder")).to_have_count(1)
    blunder = table.locator("tbody button").nth(6)
    expect(blunder).to_have_attribute("aria-label", "Move 7, ann (X): column 1, blunder")
    expect(blunder.locator(".verdict")).to_have_text("blunder")
    expect(table.locator("tbody button").nth(7).locator(".verdict")).to_have_text("best")
    expect(table.locator("tfoot")).to_contain_text("1 blunder")
    # Stepping to the blunder says it in words, with the move that was best.
    blunder.click()
    expect(page.locator("#step-line")).to_have_text(
        "Move 7 of 8. ann (X) played column 1: a blunder; column 3 was best."
    )


def test_a_move_in_the_table_of_a_finished_game_shows_that_position(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(f"{service}/#watch={finished_game(service, BLUNDER_GAME)}")
    wait_for_discs(page, 8)
    page.locator("#move-list tbody button").nth(2).click()
    expect(page.locator("#step-line")).to_contain_text("Move 3 of 8.")
    wait_for_discs(page, 3)
    expect(discs(page)).to_have_count(3)
    expect(page.locator("#move-list [aria-current='step']")).to_have_attribute(
        "aria-label", re.compile(r"^Move 3, ann \(X\): column 3")
    )


def test_the_title_says_when_it_becomes_your_turn(
    new_page: Callable[..., Page], service: str
) -> None:
    game = HTTP.post(
        f"{service}/drop_token",
        json={"players": ["ann", "bob"], "rows": 6, "columns": 7, "tokens": True},
    ).json()
    page = new_page()
    page.goto(f"{service}/#game={game['gameId']}&me=bob&t={game['tokens']['bob']}")
    expect(status(page)).to_have_text("ann's turn (X, red): waiting for their move…")
    expect(page).to_have_title(re.compile(r"^ann's turn"))
    answer = HTTP.post(
        f"{service}/drop_token/{game['gameId']}/ann",
        json={"column": 3},
        headers={"Authorization": f"Bearer {game['tokens']['ann']}"},
    )
    assert answer.status_code == 200, answer.text
    expect(page).to_have_title(YOUR_TURN)
    page.keyboard.press("3")
    expect(page).not_to_have_title(YOUR_TURN)
    expect(page).to_have_title(re.compile(r"^ann's turn"))


def test_the_preview_disc_is_over_the_pointed_column_in_the_movers_colour(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(f"{service}/#computer=1&r=6&c=7&you=0&moves=")
    expect(status(page)).to_have_text("Your turn: you are X (red).")
    before = "e => getComputedStyle(e, '::before')"
    # The keyboard's column shows it while the pointer is off the board...
    page.mouse.move(0, 0)
    column(page, 1).focus()
    page.keyboard.press("ArrowRight")
    expect(column(page, 2)).to_be_focused()
    assert column(page, 2).evaluate(f"{before}.content") != "none"
    # ...and the pointed column alone while it is on it.
    column(page, 4).hover()
    assert column(page, 4).evaluate(f"{before}.content") != "none"
    assert column(page, 4).evaluate(f"{before}.backgroundColor") == "rgb(214, 40, 57)"
    for other in (2, 5):
        assert column(page, other).evaluate(f"{before}.content") == "none"
    # O's disc is yellow, shown by pointer and by keyboard alike.
    page.goto(f"{service}/#computer=1&r=6&c=7&you=1&moves=3")
    expect(status(page)).to_have_text("Your turn: you are O (yellow).")
    column(page, 4).hover()
    assert column(page, 4).evaluate(f"{before}.backgroundColor") == "rgb(246, 194, 35)"
    page.mouse.move(0, 0)
    column(page, 1).focus()
    page.keyboard.press("ArrowRight")
    expect(column(page, 2)).to_be_focused()
    assert column(page, 2).evaluate(f"{before}.backgroundColor") == "rgb(246, 194, 35)"
    # A watcher, or a player whose turn it is not, sees no preview.
    page.goto(f"{service}/#watch={finished_game(service, BLUNDER_GAME)}")
    wait_for_discs(page, 8)
    column(page, 4).hover()
    assert column(page, 4).evaluate(f"{before}.content") == "none"


def _background_lightness(page: Page) -> float:
    """The page's background lightness, 0 (black) to 1 (white)."""
    colour = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    red, green, blue = (int(part) for part in re.findall(r"\d+", colour)[:3])
    return (max(red, green, blue) + min(red, green, blue)) / 2 / 255


def test_the_colour_scheme_follows_the_system(new_page: Callable[..., Page], service: str) -> None:
    page = new_page()
    page.emulate_media(color_scheme="dark")
    page.goto(service + "/")
    expect(page.get_by_role("button", name="Create game")).to_be_visible()
    assert _background_lightness(page) < 0.2
    page.emulate_media(color_scheme="light")
    assert _background_lightness(page) > 0.8


def test_shortcut_keys_act_only_on_the_board_and_can_be_turned_off(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(f"{service}/#analysis=&r=6&c=7&moves=")
    expect(page.locator("#step-line")).to_have_text("Move 0 of 0.")
    # Typed in a text field, or with the focus on a control outside the board: no move.
    page.get_by_label("Move list").press("2")
    page.locator("#home-link").focus()
    page.keyboard.press("1")
    # On the board, a digit drops: the one disc is the last key's.
    column(page, 4).focus()
    page.keyboard.press("4")
    expect(page.locator("#step-line")).to_have_text("Move 1 of 1.")
    expect(page.get_by_label("Move list")).to_have_value("4")
    # Turned off, the digits do nothing even on the board, after a reload too.
    page.get_by_label("Digit keys drop").uncheck()
    page.reload()
    expect(page.get_by_label("Digit keys drop")).not_to_be_checked()
    column(page, 2).focus()
    page.keyboard.press("2")
    page.keyboard.press("Enter")  # the focused column's own button still drops
    expect(page.locator("#step-line")).to_have_text("Move 2 of 2.")
    expect(page.get_by_label("Move list")).to_have_value("4,2")


def test_the_sound_is_off_until_turned_on_and_is_remembered(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(f"{service}/#computer=1&r=6&c=7&you=0&moves=")
    sound = page.get_by_label("Sound")
    expect(sound).not_to_be_checked()
    sound.check()
    page.reload()
    expect(page.get_by_label("Sound")).to_be_checked()
    assert page.evaluate("localStorage.getItem('c4.pref.sound')") == "on"


def test_a_notice_does_not_move_the_board(new_page: Callable[..., Page], service: str) -> None:
    page = new_page()
    page.goto(f"{service}/#analysis=&r=6&c=7&moves=3,3")
    wait_for_discs(page, 2)
    before = page.locator("#board").bounding_box()
    page.get_by_label("Move list").fill("3,3,3,3,3,3,3")
    page.get_by_role("button", name="Set up").click()
    expect(page.locator("#notice")).to_be_visible()
    assert page.locator("#board").bounding_box() == before


def test_any_line_on_the_analysis_board_can_be_reviewed_and_a_new_line_on_request(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(f"{service}/#analysis=&r=6&c=7&moves=3,3,4")
    expect(page.locator("#move-list .verdict")).to_have_count(0)
    page.get_by_role("button", name="Review the moves").click()
    expect(page.locator("#move-list .verdict")).to_have_count(3)
    expect(page.get_by_role("button", name="Review the moves")).to_have_count(0)
    # A move off the line makes a new line, without verdicts until asked (each costs seconds).
    column(page, 1).focus()
    page.keyboard.press("1")
    expect(page.get_by_label("Move list")).to_have_value("3,3,4,1")
    expect(page.locator("#move-list .verdict")).to_have_count(0)
    page.get_by_role("button", name="Review the moves").click()
    expect(page.locator("#move-list .verdict")).to_have_count(4)
    # O's column 1 lets X win on the bottom row: a blunder.
    expect(page.locator("#move-list tbody button").nth(3).locator(".verdict")).to_have_text(
        "blunder"
    )


def test_a_touch_phone_is_not_shown_the_keys_hint(
    new_page: Callable[..., Page], service: str
) -> None:
    address = f"{service}/#analysis=&r=6&c=7&moves="
    desktop = new_page()
    desktop.goto(address)
    expect(desktop.locator("#keys")).to_be_visible()
    phone = new_page(360, 740, has_touch=True, is_mobile=True)
    phone.goto(address)
    expect(phone.locator("#step-line")).to_have_text("Move 0 of 0.")
    expect(phone.locator("#keys")).to_be_hidden()


@pytest.mark.parametrize(("width", "per_row"), [(1280, 4), (800, 2), (360, 1)])
def test_the_home_cards_fill_their_rows(
    new_page: Callable[..., Page], service: str, width: int, per_row: int
) -> None:
    page = new_page(width, 900)
    page.goto(service + "/")
    expect(page.locator("#home .card")).to_have_count(4)
    expect(page.locator("#home .card").first).to_be_visible()
    tops = [
        box["y"]
        for box in (card.bounding_box() for card in page.locator("#home .card").all())
        if box
    ]
    rows = [tops.count(top) for top in dict.fromkeys(tops)]
    assert rows == [per_row] * (4 // per_row), rows  # no card alone on a row of its own
