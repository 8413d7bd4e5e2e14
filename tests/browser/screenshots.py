"""Screenshots of the page's main screens, and its timings, with the tests' own tooling.

Run from the repository (it starts its own services on 127.0.0.1 and stops them):

    PYTHONPATH=tests .venv/bin/python -m browser.screenshots

It writes docs/screenshots/*.png and prints the time to first render and the
time a move takes to reach the other player's screen. ``--lobby`` shoots the
lobby's screens alone (docs/screenshots/lobby*.png, phone-lobby*.png).
"""

from __future__ import annotations

import contextlib
import re
import statistics
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

from browser.browser_support import AppServer, discs, drop, wait_for_discs, wait_for_more_discs
from browser.chromium import launch
from connect_four.service.main import create_app
from fake_clock import FakeClock
from server_support import HTTP, REPOSITORY, Server

SHOTS = REPOSITORY / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 360, "height": 740}


def new_page(browser: Browser, viewport: dict[str, int] = DESKTOP, scheme: str = "light") -> Page:
    """A page of a browser of its own, at ``viewport``, in the ``scheme`` colour scheme."""
    context = browser.new_context(
        viewport=viewport,
        reduced_motion="reduce",
        color_scheme=scheme,  # type: ignore[arg-type]
    )
    return context.new_page()


def friend_game(
    browser: Browser, url: str, viewport: dict[str, int], scheme: str = "light"
) -> tuple[Page, Page]:
    """Two players by link: ann's page and bob's, the game created by ann."""
    ann = new_page(browser, viewport, scheme)
    ann.goto(url + "/")
    ann.get_by_label("Your name").fill("ann")
    ann.get_by_label("Friend's name").fill("bob")
    ann.get_by_role("button", name="Create game").click()
    expect(ann.locator("#invite-link")).to_have_value(re.compile(r"#game="))
    bob = new_page(browser, viewport, scheme)
    bob.goto(ann.locator("#invite-link").input_value())
    expect(bob.locator("#status")).to_contain_text("ann's turn")
    return ann, bob


_BOARD_TIMER = """
new MutationObserver((changes, observer) => {
  if (!document.querySelector("#board .cell")) return;
  observer.disconnect();
  requestAnimationFrame(() => setTimeout(() => { window.boardDrawnAt = performance.now(); }));
}).observe(document, { subtree: true, childList: true });
"""


def first_render(browser: Browser, url: str, fragment: str) -> tuple[float, float]:
    """Milliseconds from navigation to the first paint, and to the board's last cell drawn."""
    page = new_page(browser)
    # Notes the moment the frame that first shows the board is done (the page's own clock).
    page.add_init_script(_BOARD_TIMER)
    page.goto(url + "/" + fragment)
    page.locator("#board .cell").first.wait_for()
    paint = page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"
    )
    board = page.evaluate("""new Promise(done => {
        const look = () => window.boardDrawnAt === undefined ? setTimeout(look) : done(window.boardDrawnAt);
        look();
    })""")
    page.context.close()
    return paint, board


# In-page clocks: the time a disc first shows on a board, and the time a key
# is pressed, both on the epoch clock the pages share (one browser, one
# machine). Playwright's own waits poll every 100 ms or more, too coarse here.
_WATCH_DISCS = """() => {
    if (window.__discShown) return;
    window.__discShown = [];
    const seen = () => document.querySelectorAll("#board .cell.p0, #board .cell.p1").length;
    let count = seen();
    new MutationObserver(() => {
        const now = seen();
        if (now > count) {
            count = now;
            window.__discShown.push(performance.timeOrigin + performance.now());
        }
    }).observe(document.body, {subtree: true, childList: true, attributes: true});
}"""
_WATCH_KEYS = """() => {
    if (window.__keyDown) return;
    window.__keyDown = [];
    const now = () => performance.timeOrigin + performance.now();
    document.addEventListener("keydown", () => window.__keyDown.push(now()), true);
}"""


def delivery(ann: Page, bob: Page, moves: list[int]) -> list[float]:
    """Milliseconds from a player's key press to the disc on the other player's board."""
    players = [ann, bob]
    for page in players:
        page.evaluate(_WATCH_DISCS)
        page.evaluate(_WATCH_KEYS)
    sent: list[float] = []
    shown: list[float] = []
    for number, column in enumerate(moves):
        mover, other = players[number % 2], players[1 - number % 2]
        expect(mover.locator("#status")).to_contain_text("Your turn")
        before = discs(other).count()
        mover.keyboard.press(str(column))
        wait_for_more_discs(other, before)
        sent.append(mover.evaluate("() => window.__keyDown.at(-1)"))
        shown.append(other.evaluate("() => window.__discShown.at(-1)"))
    return [later - earlier for earlier, later in zip(sent, shown, strict=True)]


def shoot_the_rest(browser: Browser, url: str, game: str) -> None:
    """The screens after a game: dark play, watch, review, home, and a phone in both schemes."""
    ann, bob = friend_game(browser, url, DESKTOP, "dark")
    for number, column in enumerate([3, 3, 4]):
        drop((ann, bob)[number % 2], column)
        wait_for_discs(ann, number + 1)
    expect(bob.locator("#status")).to_contain_text("Your turn")
    bob.evaluate("scrollTo(0, 0)")
    bob.locator("#board .column").nth(4).hover()
    bob.screenshot(path=SHOTS / "play-dark.png")

    watcher = new_page(browser)
    watcher.goto(f"{url}/#watch={game}")
    wait_for_discs(watcher, 7)
    watcher.screenshot(path=SHOTS / "watch.png")

    review = "#analysis=&r=6&c=7&moves=3,0,3,0,3,0,1,0&x=ann&o=bob&review=&at=7"
    for scheme, name in (("light", "review.png"), ("dark", "review-dark.png")):
        page = new_page(browser, DESKTOP, scheme)
        page.goto(url + "/" + review)
        expect(page.locator("#move-list .verdict.blunder")).to_have_count(1)
        expect(page.locator("#scores .score")).to_have_count(7)
        page.screenshot(path=SHOTS / name)

    for scheme, name in (("light", "home.png"), ("dark", "home-dark.png")):
        home = new_page(browser, DESKTOP, scheme)
        home.goto(url + "/")
        home.screenshot(path=SHOTS / name)

    for scheme, name in (("light", "phone.png"), ("dark", "phone-dark.png")):
        phone = new_page(browser, PHONE, scheme)
        phone.goto(url + "/#computer=2&r=6&c=7&you=0&moves=")
        for move, column in enumerate((3, 3, 2)):
            drop(phone, column)
            wait_for_discs(phone, 2 * move + 2)  # the move and the computer's reply
        expect(phone.locator("#status")).to_contain_text("Your turn")
        phone.screenshot(path=SHOTS / name, full_page=True)
    phone = new_page(browser, PHONE)
    phone.goto(url + "/" + review)
    expect(phone.locator("#move-list .verdict.blunder")).to_have_count(1)
    phone.screenshot(path=SHOTS / "phone-review.png", full_page=True)


def shoot_the_match(browser: Browser, folder: Path) -> None:
    """A game between friends with a clock: presence, clocks and an offer, in both schemes and
    at both widths; and the friend away, the win to claim. The service runs here, on a clock
    this script moves (tests/fake_clock.py), so the clocks show time spent without waiting."""
    clock = FakeClock()
    app = create_app(folder / "match.db", clock=clock, claim_after=30)
    with AppServer(app) as url:
        for viewport, scheme, name in (
            (DESKTOP, "light", "match.png"),
            (DESKTOP, "dark", "match-dark.png"),
            (PHONE, "light", "match-phone.png"),
            (PHONE, "dark", "match-phone-dark.png"),
        ):
            ann = new_page(browser, viewport, scheme)
            ann.goto(url + "/")
            ann.get_by_label("Your name").fill("ann")
            ann.get_by_label("Friend's name").fill("bob")
            ann.get_by_label("Time control").select_option("minutes")
            ann.get_by_label("Minutes", exact=True).fill("5")
            ann.get_by_label("+ seconds a move").fill("3")
            ann.get_by_role("button", name="Create game").click()
            expect(ann.locator("#invite-link")).to_have_value(re.compile(r"#game="))
            bob = new_page(browser, viewport, scheme)
            bob.goto(ann.locator("#invite-link").input_value())
            for number, column in enumerate([3, 3, 4, 2, 4]):
                clock.advance(7 + 5 * number)  # each player's thinking, on the service's clock
                drop((ann, bob)[number % 2], column)
                wait_for_discs(ann, number + 1)
            wait_for_discs(bob, 5)
            bob.get_by_role("button", name="Offer a draw", exact=True).click()
            expect(ann.locator("#offer-line")).to_have_text("bob offers a draw.")
            expect(ann.locator("#match-players li", has_text="bob")).to_contain_text("connected")
            ann.evaluate("scrollTo(0, 0)")
            ann.screenshot(path=SHOTS / name)
            if name == "match.png":
                ann.get_by_role("button", name="Decline the draw", exact=True).click()
                drop(bob, 5)
                drop(ann, 2)
                bob.context.close()  # bob leaves on his turn, and stays away
                away = ann.locator("#match-players li", has_text="bob")
                for _ in range(40):
                    clock.advance(2)
                    try:
                        expect(away).to_contain_text("away for", timeout=1000)
                        break
                    except AssertionError:
                        continue
                clock.advance(30)
                expect(ann.get_by_role("button", name="Claim the win")).to_be_visible()
                ann.evaluate("scrollTo(0, 0)")
                ann.screenshot(path=SHOTS / "match-away.png")
            ann.context.close()
            if not bob.is_closed():
                bob.context.close()


def _lobby_player(url: str, name: str, bot: bool = False) -> str:
    """A lobby player made over HTTP; their key."""
    answer = HTTP.post(f"{url}/players", json={"name": name, "bot": bot}, timeout=30)
    answer.raise_for_status()
    key: str = answer.json()["key"]
    return key


def _as(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _paired_game(url: str, first: str, second: str, moves: list[int]) -> str:
    """A rated 6 x 7 game between two new players, paired, with ``moves`` played; its id."""
    keys = [_lobby_player(url, first), _lobby_player(url, second)]
    body = {"rows": 6, "columns": 7, "clock": None, "rated": True}
    HTTP.post(f"{url}/lobby/pair", json=body, headers=_as(keys[0]), timeout=30).raise_for_status()
    ticket = HTTP.post(f"{url}/lobby/pair", json=body, headers=_as(keys[1]), timeout=30).json()
    tokens = {ticket["you"]: ticket["token"]}
    mine = HTTP.get(f"{url}/lobby/me", headers=_as(keys[0]), timeout=30).json()
    tokens[first] = mine["games"][0]["token"]
    for number, column in enumerate(moves):
        player = ticket["players"][number % 2]
        HTTP.post(
            f"{url}/drop_token/{ticket['gameId']}/{player}",
            json={"column": column},
            headers=_as(tokens[player]),
            timeout=30,
        ).raise_for_status()
    return str(ticket["gameId"])


@contextlib.contextmanager
def _present(url: str, keys: list[str]) -> Iterator[None]:
    """The players of ``keys`` hold the lobby's wait, as a client in the lobby does: their seeks stay."""
    stop = threading.Event()

    def hold(key: str) -> None:
        while not stop.is_set():
            HTTP.get(
                f"{url}/lobby/me", params={"since": 0, "wait": 1}, headers=_as(key), timeout=30
            )

    threads = [threading.Thread(target=hold, args=(key,), daemon=True) for key in keys]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def shoot_the_lobby(browser: Browser, url: str) -> None:
    """The lobby (#lobby): challenges, a live game, a finished rated game's leaderboard; both schemes, desktop and phone."""
    _paired_game(url, "ann", "bob", [3, 2, 3, 2, 3, 2, 3])
    _paired_game(url, "dave", "erin", [3, 3, 4, 2])
    robot, carol = _lobby_player(url, "robot", bot=True), _lobby_player(url, "carol")
    seeks = [
        (robot, {"rows": 6, "columns": 7, "clock": None, "rated": True}),
        (carol, {"rows": 5, "columns": 8, "clock": {"minutes": 5, "increment": 3}, "rated": False}),
    ]
    with _present(url, [robot, carol]):
        for key, seek in seeks:
            HTTP.post(
                f"{url}/lobby/seeks", json=seek, headers=_as(key), timeout=30
            ).raise_for_status()
        for viewport, scheme, name in (
            (DESKTOP, "light", "lobby.png"),
            (DESKTOP, "dark", "lobby-dark.png"),
            (PHONE, "light", "phone-lobby.png"),
            (PHONE, "dark", "phone-lobby-dark.png"),
        ):
            page = new_page(browser, viewport, scheme)
            page.goto(url + "/#lobby")
            page.get_by_label("Name in the lobby").fill(f"zoe-{scheme}-{viewport['width']}")
            page.get_by_role("button", name="Enter the lobby").click()
            expect(page.locator("#lobby-me")).to_contain_text("You play as zoe")
            expect(page.locator("#seeks li")).to_have_count(2)
            expect(page.locator("#live-games li")).to_have_count(1)
            expect(page.locator("#leaders li")).to_have_count(2)
            page.screenshot(path=SHOTS / name, full_page=True)
            page.context.close()


@contextlib.contextmanager
def real_service(db: Path) -> Iterator[str]:
    """``python -m connect_four.service`` in a process of its own, as a user runs it: its URL."""
    server = Server(db)
    server.start()
    try:
        yield server.url
    finally:
        server.close()


def main() -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
        browser = launch(driver)
        if sys.argv[1:] == ["--lobby"]:  # the lobby's screens alone
            with real_service(Path(folder) / "games.db") as url:
                shoot_the_lobby(browser, url)
            browser.close()
            return
        with real_service(Path(folder) / "games.db") as url:
            renders = [
                first_render(browser, url, "#computer=3&r=6&c=7&you=0&moves=3,3") for _ in range(5)
            ]
            watch_renders = []
            ann, bob = friend_game(browser, url, DESKTOP)
            times = delivery(ann, bob, [3, 3, 4, 2])
            game = bob.url.split("game=")[1].split("&")[0]
            for _ in range(3):
                watch_renders.append(first_render(browser, url, f"#watch={game}"))
            ann.evaluate("scrollTo(0, 0)")  # a key press scrolled the focused column into view
            ann.locator("#board .column").nth(2).hover()  # the preview disc over column 2
            ann.screenshot(path=SHOTS / "play.png")
            times += delivery(ann, bob, [5, 4, 6])
            expect(ann.locator("#status")).to_have_text("Game over: you win!")
            ann.evaluate("scrollTo(0, 0)")
            ann.screenshot(path=SHOTS / "game-over.png")
            shoot_the_rest(browser, url, game)
            shoot_the_lobby(browser, url)
        shoot_the_match(browser, Path(folder))
        browser.close()
    paints = [paint for paint, _ in renders]
    boards = [board for _, board in renders]
    print(
        f"computer game: first paint median {statistics.median(paints):.0f} ms, "
        f"board drawn median {statistics.median(boards):.0f} ms (max {max(boards):.0f})"
    )
    print(
        "watch (2 requests before the board): board drawn median "
        f"{statistics.median(b for _, b in watch_renders):.0f} ms"
    )
    print(
        f"move delivery: median {statistics.median(times):.0f} ms, "
        f"max {max(times):.0f} ms over {len(times)} moves "
        f"({', '.join(f'{value:.0f}' for value in times)})"
    )
    for path in sorted(SHOTS.glob("*.png")):
        print(f"{path.relative_to(REPOSITORY)}: {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
