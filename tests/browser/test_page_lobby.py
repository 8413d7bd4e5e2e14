"""The page's lobby (#lobby), issue 36's "Done when", against a real service.

Two browser players press "Play someone now" and play a rated game, and
their ratings change as the ``glicko2`` package computes for that result;
a third browser sees the game among the live games and watches it; a
terminal player (connect.py --lobby) accepts a browser player's open
challenge; the example bot accepts a seek and plays it to its end.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import glicko2
import pytest
from playwright.sync_api import Page, expect

from browser.browser_support import (
    column,
    discs,
    drop,
    status,
    wait_for_discs,
    wait_for_more_discs,
)
from connect_support import CONNECT, ROOT
from lobby_player import DEADLINE, bearer, open_seek, register
from server_support import HTTP

pytestmark = pytest.mark.slow

POOL = "6x7c4 untimed"
"""The pool of "Play someone now" as the page starts: the classic board, no clock."""


def enter_lobby(page: Page, service: str, name: str | None) -> None:
    """Open the lobby; with ``name``, choose it (the player is made on first use)."""
    page.goto(service + "/#lobby")
    expect(page.get_by_role("heading", name=re.compile("^Lobby"))).to_be_visible()
    if name is not None:
        page.get_by_label("Name in the lobby").fill(name)


def in_game(page: Page) -> None:
    expect(page).to_have_url(re.compile(r"#game="))
    expect(status(page)).to_have_text(re.compile("Your turn|to move|turn"))


def side_of(page: Page) -> int:
    """0 if the page plays X (it moves first), else 1."""
    heading = page.locator("#play-heading").inner_text()
    return 0 if heading.index("(you)") < heading.index("against") else 1


def play_in_page(page: Page, preferences: list[int], columns: int, rows: int) -> str:
    """Play the page's side until the game ends, the first open column of ``preferences``."""
    over = re.compile("Game over")
    while True:
        expect(status(page)).to_have_text(
            re.compile("Your turn|Game over"), timeout=DEADLINE * 1000
        )
        if over.search(status(page).inner_text()):
            return status(page).inner_text()
        for choice in [*preferences, *range(columns)]:
            if column(page, choice).locator(".cell.p0, .cell.p1").count() < rows:
                break
        before = discs(page).count()
        drop(page, choice)
        wait_for_more_discs(page, before)  # the bot may answer at once


def expected_ratings(winner_first: bool) -> tuple[float, float]:
    """The winner's and loser's new ratings after one game from the defaults, by ``glicko2``."""
    winner, loser = glicko2.Player(), glicko2.Player()
    winner.update_player([1500], [350], [1])
    loser.update_player([1500], [350], [0])
    return winner.getRating(), loser.getRating()


def test_two_browsers_play_someone_now_a_rated_game_and_a_third_watches_it(
    new_page: Callable[..., Page], service: str
) -> None:
    ann, bob, carol = new_page(), new_page(), new_page()
    enter_lobby(ann, service, "ann")
    ann.get_by_role("button", name="Play someone now").click()
    expect(ann.locator("#pair-line")).to_contain_text("Looking for an opponent")
    enter_lobby(bob, service, "bob")
    bob.get_by_role("button", name="Play someone now").click()
    # Paired: bob at once (201), ann as the service pushes her new game.
    in_game(bob)
    in_game(ann)
    game_id = re.search(r"game=([^&]+)", ann.url)[1]  # type: ignore[index]
    x, o = (ann, bob) if side_of(ann) == 0 else (bob, ann)

    enter_lobby(carol, service, None)
    live = carol.locator("#live-games a")
    expect(live).to_have_count(1)
    expect(live).to_contain_text("ann")
    expect(live).to_contain_text("bob")
    expect(live).to_contain_text("1500")
    live.click()
    expect(carol).to_have_url(re.compile(f"#watch={game_id}"))
    # Ratings beside the players' names, as the game was paired.
    expect(carol.locator("#play-heading")).to_contain_text("ann (1500)")
    expect(carol.locator("#play-heading")).to_contain_text("bob (1500)")

    for number, choice in enumerate([0, 1, 0, 1, 0, 1, 0]):
        drop((x, o)[number % 2], choice)
        wait_for_discs(carol, number + 1)
    expect(status(x)).to_have_text("Game over: you win!")
    expect(status(carol)).to_contain_text("wins")

    winner = "ann" if x is ann else "bob"
    loser = "bob" if winner == "ann" else "ann"
    won, lost = expected_ratings(True)
    for name, expected in ((winner, won), (loser, lost)):
        answer = HTTP.get(f"{service}/players/{name}", timeout=30).json()
        assert answer["ratings"][POOL]["rating"] == pytest.approx(expected, abs=1e-6)
        assert answer["ratings"][POOL]["games"] == 1
    # The lobby shows the new ratings: beside the player's name, and in the leaderboard.
    x.goto(service + "/#lobby")
    expect(x.locator("#lobby-me")).to_contain_text(f"rated {round(won)} in {POOL}")
    leaders = x.locator("#leaders li")
    expect(leaders).to_have_count(2)
    expect(leaders.first).to_contain_text(f"{winner} {round(won)}")
    expect(leaders.nth(1)).to_contain_text(f"{loser} {round(lost)}")
    expect(x.locator("#my-games li")).to_contain_text("won")


def test_a_terminal_player_accepts_a_browser_players_open_challenge(
    new_page: Callable[..., Page], service: str, tmp_path: Path
) -> None:
    ann = new_page()
    enter_lobby(ann, service, "ann")
    seek = ann.locator("#seek-form")
    seek.get_by_label("Board").select_option("5x8")
    seek.get_by_label("Your colour").select_option("O")
    seek.get_by_role("button", name="Open challenge").click()
    expect(ann.locator("#seeks li")).to_contain_text("5 × 8")
    # One's own challenge is no news for one's screen reader (the list is drawn as it is said).
    expect(ann.locator("#live")).not_to_contain_text("New challenge")
    environment = {name: value for name, value in os.environ.items() if name != "CONNECT_FOUR_KEY"}
    environment.update(XDG_CONFIG_HOME=str(tmp_path), HOME=str(tmp_path))
    typed = tmp_path / "typed.txt"
    typed.write_text("dave\n1\n0\n0\n0\n0\n")
    terminal = subprocess.Popen(
        [sys.executable, str(CONNECT), "--server", service, "--lobby"],
        stdin=typed.open(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=environment,
    )
    try:
        in_game(ann)
        for number in range(3):
            drop(ann, 1)  # once it is ann's turn: dave (X) played 0 each time
            wait_for_more_discs(ann, 2 * number + 1)  # dave may answer at once
        expect(status(ann)).to_contain_text("dave (X) wins")
    except BaseException:
        terminal.kill()  # the test failed: what it says matters, not the terminal's wait
        terminal.communicate()
        raise
    printed, problems = terminal.communicate(timeout=DEADLINE)
    assert terminal.returncode == 0, problems
    assert "You accepted ann's challenge." in printed
    assert "dave (X) wins." in printed


def test_the_example_bot_accepts_a_browser_players_seek_and_plays_it_to_the_end(
    new_page: Callable[..., Page], service: str, tmp_path: Path
) -> None:
    carol = new_page()
    enter_lobby(carol, service, "carol")
    carol.locator("#seek-form").get_by_role("button", name="Open challenge").click()
    expect(carol.locator("#seeks li")).to_contain_text("carol")
    environment = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path), HOME=str(tmp_path))
    environment.pop("CONNECT_FOUR_KEY", None)
    bot = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "connect_four.terminal.bot",
            "--server",
            service,
            "--name",
            "robot",
            "--level",
            "1",
            "--seed",
            "7",
            "--games",
            "1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
        env=environment,
    )
    try:
        in_game(carol)
        expect(carol.locator("#play-heading")).to_contain_text("robot")
        ending = play_in_page(carol, [3, 2, 4], columns=7, rows=6)
    except BaseException:
        bot.kill()
        bot.communicate()
        raise
    printed, _ = bot.communicate(timeout=DEADLINE)
    assert bot.returncode == 0, printed
    assert "Game over" in ending
    assert re.search(r"Game \S+ over: ", printed), printed


def test_your_key_moves_the_player_to_another_browser(
    new_page: Callable[..., Page], service: str
) -> None:
    phone, laptop = new_page(), new_page()
    enter_lobby(phone, service, "gina")
    phone.get_by_role("button", name="Enter the lobby").click()
    expect(phone.locator("#lobby-me")).to_contain_text("You play as gina")
    phone.get_by_text("Your key").click()
    key = phone.locator("#key-field").input_value()
    assert len(key) >= 22 and key not in phone.url
    enter_lobby(laptop, service, None)
    laptop.get_by_text("Your key").click()
    laptop.get_by_label("A key from another device").fill(key)
    laptop.get_by_role("button", name="Use this key").click()
    expect(laptop.locator("#lobby-me")).to_contain_text("You play as gina")
    expect(laptop.locator("#key-field")).to_have_value(key)
    laptop.get_by_text("Your key").click()  # the page was loaded again, as gina
    laptop.get_by_label("A key from another device").fill("not-a-key")
    laptop.get_by_role("button", name="Use this key").click()
    expect(laptop.locator("#notice")).to_contain_text("That key could not be used")
    expect(laptop.locator("#lobby-me")).to_contain_text("You play as gina")


def test_the_open_challenges_come_and_go_on_an_open_page(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    enter_lobby(page, service, None)
    expect(page.locator("#seeks-empty")).to_be_visible()
    hal = register(service, "hal", bot=True)
    seek = open_seek(service, hal, rows=7, columns=8, colour="X", rated=False)
    # Pushed by the lobby's event stream: no reload, no button, no long poll.
    expect(page.locator("#seeks li")).to_have_count(1)
    expect(page.locator("#seeks li")).to_contain_text("hal 1500 · bot")
    expect(page.locator("#seeks li")).to_contain_text(
        "7 × 8, 4 in a row, untimed, casual, colour X"
    )
    expect(page.locator("#seeks-empty")).to_be_hidden()
    # Said once in the live region (screen readers), not again at the lobby's next change.
    live = page.locator("#live")
    expect(live).to_have_text(
        "New challenge: hal (bot, 1500): 7 × 8, 4 in a row, untimed, casual, colour X."
    )
    jon = register(service, "jon")
    seeks = [seek, open_seek(service, jon, rows=6, columns=7, colour="random", rated=True)]
    expect(page.locator("#seeks li")).to_have_count(2)
    expect(live).to_have_text(
        "New challenge: jon (1500): 6 × 7, 4 in a row, untimed, rated, colour random."
    )
    page.evaluate("document.getElementById('live').textContent = ''")  # heard
    answer = HTTP.delete(f"{service}/lobby/seeks/{seek['id']}", headers=bearer(hal), timeout=30)
    assert answer.status_code == 204, answer.text
    expect(page.locator("#seeks li")).to_have_count(1)  # drawn and said in one go: nothing said
    expect(live).to_have_text("")
    answer = HTTP.delete(f"{service}/lobby/seeks/{seeks[1]['id']}", headers=bearer(jon), timeout=30)
    assert answer.status_code == 204, answer.text
    expect(page.locator("#seeks li")).to_have_count(0)
    expect(page.locator("#seeks-empty")).to_be_visible()
    assert f"{service}/lobby/events" in asked
    assert not [url for url in asked if url.startswith(f"{service}/lobby?")], asked


def test_the_page_follows_the_lobby_by_long_poll_when_the_stream_fails(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    # What a proxy that mangles the stream might answer: not an event stream.
    page.route("**/lobby/events", lambda route: route.fulfill(status=502, body="Bad Gateway"))
    enter_lobby(page, service, None)
    expect(page.locator("#seeks-empty")).to_be_visible()
    ike = register(service, "ike", bot=True)
    seek = open_seek(service, ike, rows=7, columns=8, colour="O", rated=False)
    expect(page.locator("#seeks li").filter(has_text="ike")).to_have_count(1)
    answer = HTTP.delete(f"{service}/lobby/seeks/{seek['id']}", headers=bearer(ike), timeout=30)
    assert answer.status_code == 204, answer.text
    expect(page.locator("#seeks li").filter(has_text="ike")).to_have_count(0)


def test_a_name_taken_is_said_and_another_can_be_chosen(
    new_page: Callable[..., Page], service: str
) -> None:
    register(service, "ivan")
    page = new_page()
    enter_lobby(page, service, "IVAN")  # names are unique whatever their case
    page.get_by_role("button", name="Enter the lobby").click()
    expect(page.locator("#notice")).to_contain_text("That name is taken on this service")
    page.get_by_label("Name in the lobby").fill("ivan2")
    page.get_by_role("button", name="Enter the lobby").click()
    expect(page.locator("#lobby-me")).to_contain_text("You play as ivan2")


def test_a_kept_key_the_service_does_not_know_asks_for_a_name_again(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    page.goto(service + "/")
    page.evaluate(
        """localStorage.setItem("c4.player", JSON.stringify({name: "old", key: "gone"}))"""
    )
    page.goto(service + "/#lobby")
    expect(page.locator("#notice")).to_contain_text("does not know the key this browser kept")
    expect(page.get_by_label("Name in the lobby")).to_be_visible()
    assert page.evaluate("""localStorage.getItem("c4.player")""") is None
    expect(page.locator("#online")).to_contain_text("online")  # the lobby's feed goes on


def test_a_connect_3_challenge_from_the_page_is_won_and_shown_by_its_three(
    new_page: Callable[..., Page], service: str
) -> None:
    page = new_page()
    enter_lobby(page, service, "iris")
    seek = page.locator("#seek-form")
    seek.get_by_label("Board").select_option("4x5")
    seek.get_by_label("Wins with").select_option("3")
    seek.get_by_label("Your colour").select_option("X")
    seek.get_by_role("button", name="Open challenge").click()
    expect(page.locator("#seeks li")).to_contain_text("4 × 5, 3 in a row, untimed, rated")
    jon = register(service, "jon")
    (listed,) = HTTP.get(f"{service}/lobby", timeout=30).json()["seeks"]
    assert (listed["connect"], listed["pool"]) == (3, "4x5c3 untimed")
    ticket = HTTP.post(
        f"{service}/lobby/seeks/{listed['id']}/accept", json={}, headers=bearer(jon), timeout=30
    ).json()
    in_game(page)
    expect(page.locator("#title")).to_contain_text("iris (1500) against jon (1500), 3 in a row")
    game = f"{service}/drop_token/{ticket['gameId']}/jon"
    for number in range(2):
        drop(page, 0)
        wait_for_discs(page, 2 * number + 1)
        moved = HTTP.post(game, json={"column": 1}, headers=bearer(ticket["token"]), timeout=30)
        assert moved.status_code == 200, moved.text
        wait_for_discs(page, 2 * number + 2)
    drop(page, 0)  # The third of column 0: three in a row win this game.
    expect(status(page)).to_have_text("Game over: you win!")
    expect(page.locator("#board .cell.win")).to_have_count(3)
    # Its review on the analysis board replays it with its chain too.
    page.get_by_role("button", name="Review move by move").click()
    expect(page.locator("#title")).to_contain_text("4 rows × 5 columns, 3 in a row")
    expect(page.locator("#board .cell.win")).to_have_count(3)
