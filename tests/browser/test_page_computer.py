"""Against the computer, and the page driven by the keyboard alone."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from browser.browser_support import column, discs, status, wait_for_discs, wait_for_more_discs
from connect_four.engine.solver import LEVELS
from connect_four.service.limits import MAX_COMPUTER_SIZE, MIN_COMPUTER_SIZE

pytestmark = pytest.mark.slow

MOST_TABS = 40
"""Tab presses allowed to reach a control before the test gives up."""


def tab_to(page: Page, text: str) -> None:
    """Press Tab until the focused element shows ``text`` (a person reading the screen would)."""
    for _ in range(MOST_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent.trim()") == text:
            return
    raise AssertionError(f"Tab never reached {text!r}")


@pytest.mark.both_browsers
def test_a_whole_game_with_the_keyboard_alone(new_page: Callable[..., Page], service: str) -> None:
    page = new_page()
    page.goto(service + "/")
    tab_to(page, "Start")
    page.keyboard.press("Enter")
    expect(status(page)).to_have_text("Your turn: you are X (red).")
    # The focus lands on the board; arrows choose a column, Enter drops.
    expect(column(page, 0)).to_be_focused()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(column(page, 3)).to_be_focused()
    page.keyboard.press("Enter")
    wait_for_discs(page, 2)
    expect(page.locator("#live")).to_contain_text(re.compile(r"The computer played column \d\."))
    # Digits drop at once, wherever the focus is (but in a text field): play on to the end.
    for _ in range(6 * 7):
        expect(status(page)).to_have_text(re.compile(r"^(Your turn|Game over)"))
        if (status(page).text_content() or "").startswith("Game over"):
            break
        before = discs(page).count()
        free = page.locator("#board .column[aria-disabled='false']").first
        page.keyboard.press(free.get_attribute("data-column") or "")
        wait_for_more_discs(page, before)
    expect(status(page)).to_have_text(
        re.compile(r"^Game over: (you win!|the computer wins\.|a draw\.)$")
    )
    assert page.locator("#board .column[aria-disabled='false']").count() == 0


def test_every_level_blocks_a_win_and_says_who_moved(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    # X (the player) threatens four in column 0; the perfect computer blocks it.
    page.goto(service + "/#computer=5&r=6&c=7&you=0&moves=0,6,0,6,0")
    wait_for_discs(page, 6)
    expect(column(page, 0)).to_have_attribute(
        "aria-label", "Column 0: X X X O from the bottom, room for 2"
    )
    expect(page.locator("#live")).to_have_text("The computer played column 0.")
    expect(status(page)).to_have_text("Your turn: you are X (red).")
    # Take back: the player's last move and the computer's reply.
    page.get_by_role("button", name="Take back").click()
    wait_for_discs(page, 4)
    assert "moves=0%2C6%2C0%2C6" in page.url  # a reload resumes the same position


def last_disc_animation(page: Page) -> str:
    name: str = page.evaluate(
        "getComputedStyle(document.querySelector('#board .cell.last')).animationName"
    )
    return name


def test_discs_drop_unless_the_system_asks_for_less_motion(
    new_page: Callable[..., Page], service: str
) -> None:
    for motion, animation in [("no-preference", "drop"), ("reduce", "none")]:
        page = new_page(reduced_motion=motion)
        page.goto(service + "/#computer=1&r=6&c=7&you=1&moves=")
        wait_for_discs(page, 1)
        assert last_disc_animation(page) == animation


@pytest.mark.parametrize(
    ("width", "height", "scale"),
    [(360, 740, 1), (640, 400, 2)],  # a phone; a 1280 x 800 desktop at 200 % zoom
    ids=["phone", "zoom-200"],
)
def test_every_screen_fits_its_width_without_scrolling_sideways(
    new_page: Callable[..., Page], service: str, width: int, height: int, scale: int
) -> None:
    page = new_page(width=width, height=height, device_scale_factor=scale)
    for fragment in ("", "#analysis=&r=6&c=7&moves=3,3", "#computer=1&r=6&c=7&you=0&moves="):
        page.goto(service + "/" + fragment)
        expect(page.locator("h1")).to_be_visible()
        if fragment:
            expect(status(page)).not_to_be_empty()
            box = column(page, 6).bounding_box()
            assert box is not None and box["x"] + box["width"] <= width
            assert box["width"] >= 24  # tap targets of 24 px at least (WCAG 2.2)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, fragment


@pytest.mark.parametrize(
    ("fragment", "said"),
    [
        (
            "computer=3&r=6&c=7&you=0&moves=3,3,3,3,3,3,3",
            "its moves are no game on this 6 × 7 board: move 7, column 3, cannot be played "
            "(that column is full).",
        ),
        (
            "computer=9&r=6&c=7&you=0&moves=",
            f"there is no level “9”: the levels are {min(LEVELS)} to {max(LEVELS)}.",
        ),
        (
            "computer=2&r=3&c=7&you=0&moves=",
            "a board of 3 rows × 7 columns cannot be played here: rows and columns are "
            f"whole numbers from {MIN_COMPUTER_SIZE} to {MAX_COMPUTER_SIZE}.",
        ),
    ],
    ids=["moves", "level", "size"],
)
def test_an_edited_address_is_said_in_words(
    new_page: Callable[..., Page], service: str, fragment: str, said: str
) -> None:
    page = new_page()
    page.goto(service + "/#" + fragment)
    expect(page.locator("#notice-text")).to_have_text(
        "This address is no game against the computer: " + said
    )
    expect(page.locator("#board-area")).to_be_hidden()
    page.keyboard.press("3")  # no board, nothing to drop into (and no error either)
    page.locator("#notice").get_by_role("button", name="New game").click()
    expect(page.get_by_role("button", name="Start")).to_be_visible()
