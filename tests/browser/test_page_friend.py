"""Two people play by link, each in a browser of their own; names are shown as text."""

from __future__ import annotations

import re
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, Route, expect

from browser.browser_support import XSS_NAMES, drop, no_markup_from_names, status, wait_for_discs
from connect_four.service.limits import MAX_NAME_LENGTH
from connect_four.service.names import name_problem
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


@pytest.mark.both_browsers
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
    # The finished game goes to review, move by move, for both: the last mover too.
    expect(ann.get_by_role("button", name="Review move by move")).to_be_visible()
    bob.get_by_role("button", name="Review move by move").click()
    expect(bob.locator("#step-line")).to_have_text("Move 7 of 7.")
    # The review names the players.
    expect(status(bob)).to_have_text(f"{XSS_NAMES[0]} (X, red) has won.")
    expect(bob.locator("#move-list thead th").nth(1)).to_have_text(f"X {XSS_NAMES[0]}")
    expect(bob.locator("#move-list tbody button").first).to_have_attribute(
        "aria-label", re.compile(rf"^Move 1, {re.escape(XSS_NAMES[0])} \(X\): column 0")
    )
    assert bob.locator("img, svg, main [onerror], main [onload]").count() == 0


def fragment_of(link: str) -> dict[str, str]:
    """The parts of a page link's fragment: game, me, t."""
    return dict(part.split("=", 1) for part in link.split("#", 1)[1].split("&"))


def test_the_creator_keeps_the_invite_until_the_friend_has_moved(
    new_page: Callable[..., Page], service: str
) -> None:
    ann, bob = new_page(), new_page()
    link = create_game(ann, service, "ann", "bob")
    drop(ann, 3)
    wait_for_discs(ann, 1)
    expect(ann.locator("#invite-link")).to_be_visible()
    ann.reload()
    wait_for_discs(ann, 1)
    expect(ann.locator("#invite-link")).to_be_visible()
    expect(ann.locator("#invite-link")).to_have_value(link)
    bob.goto(link)
    drop(bob, 4)
    wait_for_discs(ann, 2)
    # The friend has joined: the invite folds away, and opens again on a click.
    expect(ann.locator("#invite-link")).to_be_hidden()
    ann.get_by_text("Invite your friend").click()
    expect(ann.locator("#invite-link")).to_have_value(link)
    expect(bob.locator("#invite")).to_be_hidden()  # the friend never sees an invite


@pytest.mark.parametrize("garbage", ["{not json", '{"friend": 1}', "null", "[]"])
def test_a_corrupted_invite_in_the_browser_is_dropped_and_the_game_plays_on(
    new_page: Callable[..., Page], service: str, garbage: str
) -> None:
    ann = new_page()
    create_game(ann, service, "ann", "bob")
    key = f"c4.invite.{fragment_of(ann.url)['game']}"
    ann.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, garbage])
    ann.reload()
    expect(status(ann)).to_have_text("Your turn: you are X (red).")
    expect(ann.locator("#notice")).to_be_hidden()
    expect(ann.locator("#invite")).to_be_hidden()  # nothing to show: no link, no command
    assert ann.evaluate("(key) => localStorage.getItem(key)", key) is None  # never read again
    drop(ann, 3)
    wait_for_discs(ann, 1)
    expect(status(ann)).to_have_text("bob's turn (O, yellow): waiting for their move…")


def test_a_link_with_a_wrong_or_no_token_never_replaces_a_good_one(
    new_page: Callable[..., Page], service: str
) -> None:
    ann, bob, carol = new_page(), new_page(), new_page()
    link = create_game(ann, service, "ann", "bob")
    game = fragment_of(link)["game"]
    bob.goto(link)
    expect(bob.locator("#play-heading")).to_contain_text("bob (you)")
    wrong = f"{service}/#game={game}&me=bob&t={'0' * 32}"
    bob.goto(wrong)
    expect(bob.locator("#notice-text")).to_have_text(
        "This link's secret token is not bob's. This browser still holds bob's own token "
        "from before, and plays with it."
    )
    drop(ann, 3)
    drop(bob, 4)
    wait_for_discs(ann, 2)
    bob.reload()  # the good token is still the one kept
    wait_for_discs(bob, 2)
    drop(ann, 3)
    drop(bob, 4)
    wait_for_discs(ann, 4)
    # A browser with no good token watches, and is told why and what to do.
    carol.goto(wrong)
    expect(carol.locator("#notice-text")).to_have_text(
        "This link's secret token is not bob's, so you are watching, not playing. "
        "To play as bob, ask whoever created the game to send bob's invite link again."
    )
    expect(status(carol)).to_have_text("ann's turn (X, red).")
    expect(carol.locator("#play-heading")).not_to_contain_text("(you)")
    # (Another browser: this one's address is already that link, the token taken out.)
    dave = new_page()
    dave.goto(f"{service}/#game={game}&me=bob")
    expect(dave.locator("#notice-text")).to_have_text(
        "This link lacks bob's secret token, so you are watching, not playing. To play as bob, "
        "open the whole invite link that whoever created the game sent you: it ends with "
        "“&t=” and the token."
    )
    expect(dave.locator("#play-heading")).not_to_contain_text("(you)")
    expect(status(dave)).to_have_text("ann's turn (X, red).")
    assert dave.locator("#board .column[aria-disabled='false']").count() == 0


def test_quitting_asks_first(new_page: Callable[..., Page], service: str) -> None:
    ann = new_page()
    create_game(ann, service, "ann", "bob")
    expect(status(ann)).to_contain_text("Your turn")
    ann.get_by_role("button", name="Quit this game").click()
    expect(ann.get_by_role("button", name="Yes, quit: bob wins")).to_be_visible()
    ann.get_by_role("button", name="No, keep playing").click()
    expect(ann.get_by_role("button", name="Yes, quit: bob wins")).to_have_count(0)
    drop(ann, 3)  # the game went on
    wait_for_discs(ann, 1)
    ann.get_by_role("button", name="Quit this game").click()
    ann.get_by_role("button", name="Yes, quit: bob wins").click()
    expect(status(ann)).to_have_text("You quit the game.")


def test_the_friend_quitting_is_said_with_a_way_on(
    new_page: Callable[..., Page], service: str
) -> None:
    ann = new_page()
    fragment = fragment_of(create_game(ann, service, "ann", "bob"))
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


def moves_fail_from(first: int) -> Callable[[Route], None]:
    """A route for the move list's requests: those asking from move ``first`` on fail, the
    earlier ones go through (the move before it reaches the page whenever it asks)."""

    def handle(route: Route) -> None:
        start = parse_qs(urlsplit(route.request.url).query).get("start", ["0"])[0]
        if int(start) >= first:
            route.abort()
        else:
            route.continue_()

    return handle


COUNT_TROUBLE_SAID = """() => {
  let said = 0;
  document.body.dataset.troubleSaid = "0";
  new MutationObserver((records) => {
    said += records.filter((record) => record.addedNodes.length).length;
    document.body.dataset.troubleSaid = String(said);
  }).observe(document.getElementById("trouble-actions"), { childList: true });
}"""
"""Counts in the body's ``data-trouble-said`` the times the page says its trouble (each fills
the box's buttons anew). A mutation observer runs once the code that made the change has
gone as far as its next ``await``; follow.js says a failure, then begins the pause before
the next try, so once the count reaches n the n-th pause's timer is set."""


def wait_until_trouble_said(page: Page, times: int) -> None:
    """Wait until the page has said its trouble ``times`` times (COUNT_TROUBLE_SAID counts)."""
    expect(page.locator("body")).to_have_attribute("data-trouble-said", str(times))


def test_an_outage_keeps_the_moves_notice_and_ends_soon_after_the_service_is_back(
    new_page: Callable[..., Page], service: str
) -> None:
    ann = new_page()
    try:
        # The page's clock is the test's: time moves only when the test says.
        ann.clock.install()
        fragment = fragment_of(create_game(ann, service, "ann", "bob"))
        drop(ann, 3)
        wait_for_discs(ann, 1)
        ann.clock.pause_at(ann.evaluate("Date.now()") / 1000 + 1)
        # The clock moves on only once the page has begun the pause it must end: moved on
        # before, it would leave the pause's timer in a future the test never reaches.
        ann.evaluate(COUNT_TROUBLE_SAID)
        moves, own_move = re.compile(r"/moves\?"), "**/drop_token/*/ann"
        ann.route(moves, moves_fail_from(2))
        ann.route(own_move, lambda route: route.abort())
        # bob's move (number 1) reaches the page, in flight or asked for; the next ask fails.
        with ann.expect_event("requestfailed"):
            answer = HTTP.post(
                f"{service}/drop_token/{fragment['game']}/bob",
                json={"column": 4},
                headers={"Authorization": f"Bearer {fragment['t']}"},
            )
            assert answer.status_code == 200, answer.text
        expect(ann.locator("#trouble-text")).to_have_text(
            "The service cannot be reached; trying again…"
        )
        drop(ann, 2)
        expect(ann.locator("#notice-text")).to_have_text(
            "Your move could not be sent: the service cannot be reached."
        )
        expect(ann.locator("#trouble")).to_be_visible()  # both said, neither hides the other
        # The pauses between tries grow, each ended by moving the clock on by it alone, so
        # that one try fails each time: 2 s, 4 s...
        for failures, pause in enumerate([2_000, 4_000, 5_000], start=1):
            wait_until_trouble_said(ann, failures)
            with ann.expect_event("requestfailed"):
                ann.clock.run_for(pause)
        wait_until_trouble_said(ann, 4)
        ann.unroute(moves)
        ann.unroute(own_move)
        # ... to 5 s at most: the service back is seen within them.
        ann.clock.run_for(5_000)
        expect(ann.locator("#trouble")).to_be_hidden()
        ann.locator("#notice").get_by_role("button", name="Try again").click()
        wait_for_discs(ann, 3)
        expect(ann.locator("#notice")).to_be_hidden()
        # The network back (the browser's "online") ends a pause at once.
        ann.route(moves, moves_fail_from(4))
        with ann.expect_event("requestfailed"):
            answer = HTTP.post(
                f"{service}/drop_token/{fragment['game']}/bob",
                json={"column": 4},
                headers={"Authorization": f"Bearer {fragment['t']}"},
            )
            assert answer.status_code == 200, answer.text
        expect(ann.locator("#trouble")).to_be_visible()
        ann.unroute(moves)
        ann.evaluate("window.dispatchEvent(new Event('online'))")
        expect(ann.locator("#trouble")).to_be_hidden()
        wait_for_discs(ann, 4)
    finally:
        ann.close()  # its context's fake clock must not reach another test


@pytest.mark.parametrize("name", ["ann/bob", "..", "a\u0007b"])
def test_the_name_fields_apply_the_services_rule_before_asking(
    new_page: Callable[..., Page], service: str, name: str
) -> None:
    page = new_page()
    page.goto(service + "/")
    me = page.get_by_label("Your name")
    assert me.evaluate("input => input.maxLength") == MAX_NAME_LENGTH
    assert name_problem(name) is not None  # the service refuses it: the page must too
    me.fill(name)
    assert not me.evaluate("input => input.checkValidity()")
    page.get_by_role("button", name="Create game").click()
    expect(page.locator("#invite-link")).to_be_hidden()
    me.fill("ann")
    assert me.evaluate("input => input.checkValidity()")
