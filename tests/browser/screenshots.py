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
from browser.chromium import CHROMIUM, CHROMIUM_ARGUMENTS
from server_support import REPOSITORY, Server

SHOTS = REPOSITORY / "docs" / "screenshots"
DESKTOP = {"width": 960, "height": 720}
PHONE = {"width": 360, "height": 740}


def friend_game(browser: Browser, url: str, viewport: dict[str, int]) -> tuple[Page, Page]:
    """Two players by link: ann's page and bob's, the game created by ann."""
    ann = browser.new_context(viewport=viewport, reduced_motion="reduce").new_page()
    ann.goto(url + "/")
    ann.get_by_label("Your name").fill("ann")
    ann.get_by_label("Friend's name").fill("bob")
    ann.get_by_role("button", name="Create game").click()
    expect(ann.locator("#invite-link")).to_have_value(re.compile(r"#game="))
    bob = browser.new_context(viewport=viewport, reduced_motion="reduce").new_page()
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
    page = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
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
        browser = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGUMENTS)
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
            bob.screenshot(path=SHOTS / "play.png")
            times += delivery(ann, bob, [5, 4, 6])
            expect(ann.locator("#status")).to_have_text("Game over: you win!")
            ann.screenshot(path=SHOTS / "game-over.png")

            watcher = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
            watcher.goto(f"{url}/#watch={game}")
            wait_for_discs(watcher, 7)
            watcher.screenshot(path=SHOTS / "watch.png")

            analysis = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
            analysis.goto(url + "/#analysis=&r=6&c=7&moves=3,3,4,2,2")
            expect(analysis.locator("#scores .score")).to_have_count(7)
            analysis.screenshot(path=SHOTS / "analysis.png")

            home = browser.new_context(viewport=DESKTOP, reduced_motion="reduce").new_page()
            home.goto(url + "/")
            home.screenshot(path=SHOTS / "home.png")

            phone = browser.new_context(viewport=PHONE, reduced_motion="reduce").new_page()
            phone.goto(url + "/#computer=2&r=6&c=7&you=0&moves=")
            for move, column in enumerate((3, 3, 2)):
                drop(phone, column)
                wait_for_discs(phone, 2 * move + 2)  # the move and the computer's reply
            expect(phone.locator("#status")).to_contain_text("Your turn")
            phone.screenshot(path=SHOTS / "phone.png", full_page=True)
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
