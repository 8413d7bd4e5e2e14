"""Helpers of the browser tests: what a page must never do, and the page's parts by name."""

from __future__ import annotations

import collections
import contextlib
import datetime
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import uvicorn
from fastapi import FastAPI
from playwright.sync_api import ConsoleMessage, Dialog, Error, Locator, Page, Request, expect

from browser.fresh_hosts import fresh_host
from connect_four.engine import Game, column_scores
from connect_four.service.records import drop_token_rules
from server_support import HTTP, Server, listening_socket, stop_later

XSS_NAMES = ("<img src=x onerror=alert(1)>", '"><svg onload=alert(2)>')
"""Player names that run script if a page renders them as HTML (the service accepts both)."""


SEEN_KEPT = 40
"""How many of a page's last console messages and failed requests a failed test's report shows."""


class PageWatch:
    """Records a page's dialogs, JavaScript errors and Content-Security-Policy violations,
    and what a failed test's report shows of it: its console and its failed requests."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        self.seen: collections.deque[str] = collections.deque(maxlen=SEEN_KEPT)
        page.on("dialog", self._dialog)
        page.on("pageerror", self._error)
        page.on("console", self._console)
        page.on("requestfailed", self._request_failed)

    def _dialog(self, dialog: Dialog) -> None:
        self.problems.append(f"a dialog opened: {dialog.type} {dialog.message!r}")
        dialog.dismiss()

    def _error(self, error: Error) -> None:
        self.problems.append(f"JavaScript error: {error}")

    def _console(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            self.problems.append(f"CSP violation: {message.text}")
        self.seen.append(f"{_now()} console.{message.type}: {message.text}")

    def _request_failed(self, request: Request) -> None:
        self.seen.append(f"{_now()} {request.method} {request.url} failed: {request.failure}")

    def check(self) -> None:
        assert not self.problems, self.problems

    def report(self) -> str:
        """The page as a failed test left it: its address, its text, what its console said and
        which of its requests failed (for the report; never raises)."""
        lines = [f"address: {self.page.url}"]
        try:
            text = self.page.inner_text("body", timeout=REPORT_MS)
        except Error as error:
            text = f"(unreadable: {error.message.splitlines()[0]})"
        lines += ["text:", *("    " + line for line in text.splitlines() if line.strip())]
        lines += ["console and failed requests (last first):", *reversed(self.seen)]
        return "\n".join(lines)


REPORT_MS = 2000
"""How long reading a page's text for a failed test's report may take."""


def _now() -> str:
    """The wall clock's time of day, to the millisecond (the report's lines line up with the log)."""
    return datetime.datetime.now().strftime("%H:%M:%S.%f")[:-3]


def status(page: Page) -> Locator:
    return page.locator("#status")


def column(page: Page, number: int) -> Locator:
    return page.locator(f"#board .column[data-column='{number}']")


def discs(page: Page) -> Locator:
    """Every disc on the board, X's and O's."""
    return page.locator("#board .cell.p0, #board .cell.p1")


def wait_for_discs(page: Page, count: int) -> None:
    expect(discs(page)).to_have_count(count)


def wait_for_more_discs(page: Page, count: int) -> None:
    """Wait until the board holds more than ``count`` discs (a reply may follow at once)."""
    # Not page.wait_for_function: its polling evaluates strings, which the page's CSP forbids.
    expect(discs(page).nth(count)).to_be_attached()


def drop(page: Page, number: int) -> None:
    """Drop in a column by its digit key, once the page says it is this player's turn."""
    expect(status(page)).to_contain_text("Your turn")
    page.keyboard.press(str(number))


def no_markup_from_names(page: Page) -> None:
    """The page holds no element a name could have made, and shows the names as text."""
    assert page.locator("img, svg, main [onerror], main [onload]").count() == 0
    expect(page.locator("#play-heading")).to_contain_text(re.compile(re.escape(XSS_NAMES[0])))
    expect(page.locator("#play-heading")).to_contain_text(XSS_NAMES[1])


# --- The engine's scores, and services and test-only apps served for real ---------

SCORE_BUDGET = 1.0
"""The engine's search budget per position for the expected scores, in seconds of a quiet
machine (the service's own is ANALYSIS_SECONDS)."""


def engine_scores(rows: int, columns: int, moves: list[int]) -> dict[int, tuple[int, bool]]:
    """Each playable column's score and exactness, as the engine gives them."""
    game = Game.from_moves(moves, drop_token_rules(rows, columns))
    return {
        number: (score.score, score.exact)
        for number, score in column_scores(game, time_budget=SCORE_BUDGET).items()
    }


def shown(score: int, exact: bool) -> str:
    """A score as the page writes it: +3, 0, -2; an estimate marked ≈."""
    text = f"+{score}" if score > 0 else str(score)
    return text if exact else "≈" + text


@contextlib.contextmanager
def own_service(db: Path) -> Iterator[str]:
    """A real service of one test's own, on a loopback address no other test used: its URL.

    On leaving, the service is told to stop but not waited for
    (server_support.stop_later): nothing can reach it while it ends, its
    address is never used again and its database is its own.
    """
    server = Server(db, host=fresh_host())
    try:
        server.start()
        yield server.url
    finally:
        stop_later(server)


class AppServer:
    """An app served by uvicorn in a thread, on a loopback address no other test used (test-only apps)."""

    def __init__(self, app: FastAPI) -> None:
        host = fresh_host()
        self.socket = listening_socket(host)
        self.url = f"http://{host}:{self.socket.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]})

    def __enter__(self) -> str:
        self.thread.start()
        try:
            # The socket already listens: this request waits in its backlog until uvicorn
            # serves. Any answer will do (a test-only app may have no page at /).
            HTTP.get(self.url + "/", timeout=30)
        except BaseException:
            self.__exit__()  # a server left running would keep the test process alive
            raise
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join()
        self.socket.close()
