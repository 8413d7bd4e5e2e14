"""The browser page's tests: Debian's chromium driven by Playwright, against real services.

One browser for each xdist worker, and one real service (``python -m connect_four.service``
on 127.0.0.1, a fresh SQLite file) that every test shares: each test plays
its own games. Each test gets browser contexts of its own, emptied of all
an earlier test left in them (storage, cookies, cache, routes:
tests/browser/context_pool.py), and fails if a page raised a JavaScript
error, broke the Content-Security-Policy, or opened a dialog (the XSS
names' alert()).
These tests never skip: without chromium they fail, saying how to install it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

from browser.browser_support import own_service
from browser.chromium import CHROMIUM, CHROMIUM_ARGUMENTS
from browser.context_pool import ContextPool, lent_pages

WAIT_MS = 20_000
"""The longest any one condition is waited for before the test fails."""

expect.set_options(timeout=WAIT_MS)


# One driver and one chromium for each xdist worker's session: starting
# them took a second of CPU per test module. While Playwright's sync API is
# open its event loop counts as running in this thread, so the tests that
# run a coroutine do it in a thread of their own (tests/loop_support.py).
@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """The session's chromium, headless, with a fresh profile of its own."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)", pytrace=False
        )
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGUMENTS)
    yield browser
    browser.close()


@pytest.fixture
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real service of the test's own, on an address no other test used."""
    with own_service(tmp_path_factory.mktemp("service") / "games.db") as url:
        yield url


@pytest.fixture(scope="session")
def context_pool(browser: Browser) -> Iterator[ContextPool]:
    """The session's browser contexts, kept from test to test (tests/browser/context_pool.py)."""
    pool = ContextPool(browser, timeout_ms=WAIT_MS)
    yield pool
    pool.close()


@pytest.fixture
def new_page(context_pool: ContextPool) -> Iterator[Callable[..., Page]]:
    """Opens new pages, each in a context of its own (another person's browser)."""
    with lent_pages(context_pool) as open_page:
        yield open_page
