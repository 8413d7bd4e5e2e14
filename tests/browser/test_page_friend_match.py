"""A game between friends through the page (issue 35): presence, clocks, offers, claims, rematches.

The service runs in this process (uvicorn in a thread) on a clock the test
sets, so a flag falls and a friend is away long enough without sleeping:
test plumbing only (tests/fake_clock.py), never one of the service's options.
Two friends play in two browsers; then one of them plays from a terminal
(the real ``connect.py --join`` in a tmux pane), the other in the page.
"""

from __future__ import annotations

import re
import shlex
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect
from test_connect_tmux import Tmux, run_in_pane
from test_connect_tmux import tmux as panes  # noqa: F401 (the fixture, by this name here)

from browser.browser_support import AppServer, drop, status, wait_for_discs
from connect_four.service.main import create_app
from fake_clock import FakeClock
from network_support import DEADLINE
from server_support import REPOSITORY

pytestmark = pytest.mark.slow

CLAIM_AFTER = 10.0
"""Seconds a friend must be away on their turn before the other may claim (the service's 60)."""

GRACE = 1.0
"""Seconds a player stays present after their last request (service/friends.py's)."""

LOOKS = 40
"""The most times the test moves the clock on while it waits for the page to see the change."""


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[str, FakeClock]]:
    """A service of the test's own on a clock the test sets: its URL and the clock."""
    clock = FakeClock()
    app = create_app(tmp_path / "games.db", clock=clock, claim_after=CLAIM_AFTER)
    with AppServer(app) as url:
        yield url, clock


def create_game(page: Page, url: str, minutes: str) -> str:
    """ann makes a game against bob with a clock of ``minutes`` (and no increment): the link."""
    page.goto(url + "/")
    page.get_by_label("Your name").fill("ann")
    page.get_by_label("Friend's name").fill("bob")
    page.get_by_label("Time control").select_option("minutes")
    page.get_by_label("Minutes", exact=True).fill(minutes)
    page.get_by_label("+ seconds a move").fill("0")
    page.get_by_role("button", name="Create game").click()
    link = page.locator("#invite-link")
    expect(link).to_have_value(re.compile(r"#game="))
    return link.input_value()


def player(page: Page, name: str) -> Locator:
    """The match panel's line of player ``name``."""
    return page.locator("#match-players li", has_text=name)


def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=name, exact=True)


def advance_until(clock: FakeClock, seconds: float, seen: Callable[[], None]) -> None:
    """Move the clock on by ``seconds`` until ``seen()`` passes (the service may first have to
    notice a closed page: moved before that, the time is that of the player's last request)."""
    for _ in range(LOOKS):
        clock.advance(seconds)
        try:
            seen()
            return
        except AssertionError:
            continue
    seen()


def claim_allowed(clock: FakeClock, page: Page) -> None:
    """Move the clock on until ``page``'s player may claim: :data:`CLAIM_AFTER` seconds after the
    opponent left, as a rule, or after a request of their closing page that the service read
    late (it counts them present then: a likely cause of one failure under load)."""
    clock.advance(CLAIM_AFTER - GRACE)
    advance_until(
        clock, GRACE, lambda: expect(button(page, "Claim the win")).to_be_visible(timeout=1000)
    )


def test_two_friends_lose_and_regain_presence_offer_flag_rematch_and_claim_in_the_page(
    clocked: tuple[str, FakeClock], new_page: Callable[..., Page]
) -> None:
    url, clock = clocked
    ann = new_page()
    link = create_game(ann, url, "2")
    expect(player(ann, "ann").locator(".clock")).to_have_text("2:00")
    bob = new_page()
    bob.goto(link)
    # Each sees the other there, pushed by the status's long poll.
    expect(player(ann, "bob").locator(".presence")).to_have_text("connected")
    expect(player(bob, "ann").locator(".presence")).to_have_text("connected")
    for number, (page, column) in enumerate([(ann, 3), (bob, 3), (ann, 4)]):
        drop(page, column)
        wait_for_discs(ann, number + 1)
    wait_for_discs(bob, 3)
    expect(player(ann, "bob")).to_have_class(re.compile(r"\bto-move\b"))
    expect(player(ann, "bob").locator(".clock")).to_have_class(re.compile(r"\brunning\b"))

    # Bob closes his page on his turn: ann sees him away, and may claim once he stays away.
    bob.close()
    away = player(ann, "bob").locator(".presence")
    advance_until(clock, 2 * GRACE, lambda: expect(away).to_contain_text("away for", timeout=1000))
    expect(button(ann, "Claim the win")).to_have_count(0)
    claim_allowed(clock, ann)
    expect(ann.locator("#offer-line")).to_have_text(
        "bob has been away too long: you may claim the win or a draw."
    )
    expect(button(ann, "Claim the win")).to_be_visible()
    expect(button(ann, "Claim a draw")).to_be_visible()
    # He comes back (the link again, in a new page): at once present, and no claim.
    bob = new_page()
    bob.goto(link)
    wait_for_discs(bob, 3)
    expect(away).to_have_text("connected")
    expect(button(ann, "Claim the win")).to_have_count(0)

    # A takeback offered and accepted: bob's move, and only it, is gone from both boards.
    drop(bob, 2)
    wait_for_discs(ann, 4)
    button(bob, "Ask to take back").click()
    expect(bob.locator("#offer-line")).to_have_text(
        "You asked to take back your last move: waiting for ann's answer."
    )
    expect(ann.locator("#offer-line")).to_have_text("bob asks to take back their last move.")
    button(ann, "Accept the takeback").click()
    wait_for_discs(ann, 3)
    wait_for_discs(bob, 3)
    expect(status(bob)).to_contain_text("Your turn")

    # A draw offered and declined: nothing else changes.
    button(bob, "Offer a draw").click()
    expect(ann.locator("#offer-line")).to_have_text("bob offers a draw.")
    button(ann, "Decline the draw").click()
    expect(bob.locator("#offer-line")).to_have_text("ann declined your draw offer.")
    expect(status(bob)).to_contain_text("Your turn")
    button(bob, "Dismiss").click()
    expect(bob.locator("#offer")).to_be_hidden()

    # Bob's flag falls (his two minutes are up): the game's end, with its reason, for both.
    clock.advance(121)
    expect(status(ann)).to_have_text("bob ran out of time: you win.")
    expect(status(bob)).to_have_text("Your time ran out: ann wins.")
    expect(bob.locator("#move-list tbody")).to_contain_text("time out")
    expect(ann.locator("#match-score")).to_have_text("Match: ann 1, bob 0.")

    # A rematch, offered by bob and accepted by ann in one click: both go to it, colours swapped.
    first_game = ann.url
    button(bob, "Offer a rematch").click()
    expect(ann.locator("#offer-line")).to_have_text("bob offers a rematch, colours swapped.")
    button(ann, "Accept the rematch").click()
    for page in (ann, bob):
        expect(page).not_to_have_url(first_game)
        expect(page.locator("#play-heading")).to_contain_text(re.compile(r"^X bob.* against O ann"))
        expect(page.locator("#match-score")).to_have_text("Match: bob 0, ann 1.")
        expect(player(page, "bob").locator(".clock")).to_have_text("2:00")
    for number, column in enumerate([0, 1, 0, 1]):
        drop((bob, ann)[number % 2], column)
        wait_for_discs(ann, number + 1)

    # Bob leaves the rematch on his turn and stays away: ann claims the win, in one click.
    bob.close()
    away = player(ann, "bob").locator(".presence")
    advance_until(clock, 2 * GRACE, lambda: expect(away).to_contain_text("away for", timeout=1000))
    claim_allowed(clock, ann)
    button(ann, "Claim the win").click()
    expect(status(ann)).to_have_text("bob was away too long: you win by claim.")
    expect(ann.locator("#match-score")).to_have_text("Match: bob 0, ann 2.")
    expect(ann.locator("#move-list tbody")).to_contain_text("claimed")

    # The review, with the engine's verdicts and the players' names.
    button(ann, "Review move by move").click()
    expect(ann.locator("#move-list .verdict")).to_have_count(4)
    # A busy machine may leave a move unsettled in the review's time: most are settled.
    expect(ann.locator("#move-list .verdict:not(.unsettled)").first).to_be_attached()
    expect(ann.locator("#move-list tfoot th")).to_have_text("Σ")
    expect(ann.locator("#move-list thead th").nth(1)).to_have_text("X bob")


PROMPT = "Enter a column:"
LEAVE = "Type rematch to offer a rematch, Enter to leave:"


def prompted(tmux: Tmux, pane: str, prompt: str) -> None:
    """Wait until the pane's last line is ``prompt``, standing empty: keys typed before it are
    dropped (the terminal plays no key typed while it waits)."""
    deadline = time.monotonic() + DEADLINE
    while not tmux.screen(pane).rstrip().endswith(prompt):
        if time.monotonic() > deadline:
            raise AssertionError(f"{prompt!r} never stood in {pane}:\n{tmux.screen(pane)}")
        time.sleep(0.05)  # tmux tells no change: its screen is looked at again


def test_the_same_match_with_one_friend_at_the_terminal(
    clocked: tuple[str, FakeClock],
    new_page: Callable[..., Page],
    panes: Tmux,  # noqa: F811 (the fixture imported above)
) -> None:
    url, clock = clocked
    ann = new_page()
    create_game(ann, url, "1")
    command = ann.locator("#invite-command").input_value()
    bob = panes.new_pane(
        run_in_pane(f"cd {shlex.quote(str(REPOSITORY))} && {command} --commands"), first=True
    )
    panes.wait_for(bob, "Waiting for ann to move")
    expect(player(ann, "bob").locator(".presence")).to_have_text("connected")
    drop(ann, 3)
    prompted(panes, bob, PROMPT)
    panes.type_line(bob, "2")
    wait_for_discs(ann, 2)
    drop(ann, 4)
    prompted(panes, bob, PROMPT)

    # A draw offered in the page, declined at the terminal.
    button(ann, "Offer a draw").click()
    panes.wait_for(bob, "ann offers a draw: type accept or decline.")
    prompted(panes, bob, PROMPT)
    panes.type_line(bob, "decline")
    expect(ann.locator("#offer-line")).to_have_text("bob declined your draw offer.")

    # A takeback asked at the terminal, accepted in the page: bob's move and ann's reply go.
    prompted(panes, bob, PROMPT)
    panes.type_line(bob, "takeback")
    expect(ann.locator("#offer-line")).to_have_text("bob asks to take back their last move.")
    button(ann, "Accept the takeback").click()
    wait_for_discs(ann, 1)
    for column in (0, 0, 0):
        prompted(panes, bob, PROMPT)
        panes.type_line(bob, str(column))
        drop(ann, 3)
    expect(status(ann)).to_have_text("Game over: you win!")

    # The rematch: offered in the page, taken at the terminal; colours swapped.
    prompted(panes, bob, LEAVE)
    button(ann, "Offer a rematch").click()
    panes.wait_for(bob, "ann offers a rematch: type rematch to play it")
    prompted(panes, bob, "Enter to leave:")
    panes.type_line(bob, "rematch")
    expect(ann.locator("#play-heading")).to_contain_text(re.compile(r"^X bob.* against O ann"))
    expect(ann.locator("#match-score")).to_have_text("Match: bob 0, ann 1.")
    expect(player(ann, "bob").locator(".presence")).to_have_text("connected")
    prompted(panes, bob, PROMPT)
    panes.type_line(bob, "3")
    drop(ann, 3)
    # Bob's flag falls on his turn, in the page and at the terminal alike.
    expect(player(ann, "bob")).to_have_class(re.compile(r"\bto-move\b"))
    clock.advance(61)
    expect(status(ann)).to_have_text("bob ran out of time: you win.")
    prompted(panes, bob, LEAVE)
    panes.type_line(bob, "")
    assert panes.exit_status(bob) == 0, panes.screen(bob)


def test_a_correspondence_clock_shows_days_a_move_a_draw_is_claimed_and_a_plain_game_shows_none(
    clocked: tuple[str, FakeClock], new_page: Callable[..., Page]
) -> None:
    url, clock = clocked
    ann = new_page()
    ann.goto(url + "/")
    ann.get_by_label("Time control").select_option("days")
    ann.get_by_label("Days", exact=True).fill("2")
    ann.get_by_role("button", name="Create game").click()
    expect(player(ann, "player2").locator(".clock")).to_have_text("2 d 0 h")
    drop(ann, 3)
    wait_for_discs(ann, 1)  # the move stored (its answer came): player2's clock runs
    clock.advance(3 * 3600 + 60)  # player2 thinks for three hours and a minute
    ann.reload()  # a status read now: the clock as the service keeps it
    expect(player(ann, "player2").locator(".clock")).to_have_text("1 d 20 h")
    # player2 never came and it is their turn: ann takes the draw instead of the win.
    button(ann, "Claim a draw").click()
    expect(status(ann)).to_have_text("Game over: a draw, claimed while a player was away.")
    expect(button(ann, "Claim the win")).to_have_count(0)
    ann.goto(url + "/")
    ann.get_by_label("Time control").select_option("")
    ann.get_by_role("button", name="Create game").click()
    expect(player(ann, "player2").locator(".presence")).to_have_text(re.compile(r"^away for"))
    expect(player(ann, "player2").locator(".clock")).to_be_hidden()
