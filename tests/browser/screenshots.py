"""Screenshots of the page's main screens, and its timings, with the tests' own tooling.

Run from the repository (it starts its own services on 127.0.0.1 and stops them):

    PYTHONPATH=tests .venv/bin/python -m browser.screenshots

It writes docs/screenshots/*.png and prints the time to first render and the
time a move takes to reach the other player's screen.
"""

from __future__ import annotations

import contextlib
import re
import statistics
import tempfile
from collections.abc import Iterator
from pathlib import Path

from playwright.sync_api import Browser, Page, expect, sync_playwright

from browser.browser_support import discs, drop, wait_for_discs, wait_for_more_discs
from browser.chromium import launch
from server_support import REPOSITORY, Server

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
