"""The browser page's tests: Debian's chromium driven by Playwright, against real services.

Two browsers for each xdist worker, both Debian's, of one version: every
test drives chromium-headless-shell, the same Blink and V8 without the
browser around the page, at about half chromium's CPU; a test marked
``both_browsers`` runs on the full ``chromium`` too, the browser users run
(the isolation below, a game of each kind, the docs). Each test that asks
for ``service`` gets a real service of its own (``python -m
connect_four.service``, a fresh SQLite file). No test can see what another
left in the browser, by construction rather than by emptying anything
(tests/browser/context_pool.py):

- each test's pages are new pages (session storage and history start
  empty), each in a browser context of its own, kept from test to test;
- the test's service, and any test-only app it serves (``AppServer``),
  listens on a loopback address no earlier test used
  (tests/browser/fresh_hosts.py), so cookies, local storage, IndexedDB,
  Cache Storage, service workers, permissions granted to an origin and
  cached responses of earlier tests belong to origins this test never
  visits; a page that goes to an earlier test's origin fails its test.
- what a test would set for a whole context through Playwright (permissions
  for every origin, a geolocation, offline) it asks for as ``new_page``'s
  options, which make a context of their own; a context the test closed,
  listened to or routed is not lent again.

A test fails, too, if a page raised a JavaScript error, broke the
Content-Security-Policy, or opened a dialog (the XSS names' alert()).
These tests never skip: without a browser they fail, saying how to install it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright
from slow_support import starts_processes

from browser.browser_support import PageWatch, own_service
from browser.chromium import BROWSERS, SHELL_NAME, launch
from browser.context_pool import ContextPool, lent_pages

WAIT_MS = 20_000
"""The longest any one condition is waited for before the test fails."""

expect.set_options(timeout=WAIT_MS)


# One driver and one chromium for each xdist worker's session: starting
# them took a second of CPU per test module. While Playwright's sync API is
# open its event loop counts as running in this thread, so the tests that
# run a coroutine do it in a thread of their own (tests/loop_support.py).
@pytest.fixture(scope="session")
@starts_processes
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``both_browsers`` runs once on each browser, named in its id."""
    if metafunc.definition.get_closest_marker("both_browsers") is not None:
        metafunc.parametrize("browser_name", list(BROWSERS), indirect=True)


@pytest.fixture
def browser_name(request: pytest.FixtureRequest) -> str:
    """The name (in BROWSERS) of the browser the test drives: the headless shell unless marked."""
    return str(getattr(request, "param", SHELL_NAME))


@pytest.fixture(scope="session")
@starts_processes
def browsers(playwright: Playwright) -> Iterator[dict[str, Browser]]:
    """Each browser this worker drives, launched when a test first asks for it."""
    launched: dict[str, Browser] = {}
    yield launched
    for browser in launched.values():
        browser.close()


@pytest.fixture
def browser(browsers: dict[str, Browser], browser_name: str, playwright: Playwright) -> Browser:
    """The browser the test drives, headless, with a fresh profile of its own for the session."""
    if browser_name not in browsers:
        executable = BROWSERS[browser_name]
        if not executable.exists():
            pytest.fail(
                f"{executable} is missing: apt-get install {executable.name} (.ci/run does)",
                pytrace=False,
            )
        browsers[browser_name] = launch(playwright, executable)
    return browsers[browser_name]


@pytest.fixture
@starts_processes
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real service of the test's own, on an address no other test used."""
    with own_service(tmp_path_factory.mktemp("service") / "games.db") as url:
        yield url


@pytest.fixture(scope="session")
def context_pools() -> Iterator[dict[str, ContextPool]]:
    """Each browser's contexts, kept from test to test (tests/browser/context_pool.py)."""
    pools: dict[str, ContextPool] = {}
    yield pools
    for pool in pools.values():
        pool.close()


@pytest.fixture
def context_pool(
    browser: Browser, context_pools: dict[str, ContextPool], browser_name: str
) -> ContextPool:
    """The contexts of the browser the test drives (closed before it: asked for after it)."""
    if browser_name not in context_pools:
        context_pools[browser_name] = ContextPool(browser, timeout_ms=WAIT_MS)
    return context_pools[browser_name]


PAGE_WATCHES = pytest.StashKey[list[PageWatch]]()
"""The watches of the pages a test was lent, for its report if it fails."""


@pytest.fixture
def new_page(
    context_pool: ContextPool, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Page]]:
    """Opens new pages, each in a context of its own (another person's browser)."""
    if "service" in request.fixturenames:
        # Started first, the test's service stops last: the pages are checked
        # and closed while it still answers them.
        request.getfixturevalue("service")
    watches = request.node.stash.setdefault(PAGE_WATCHES, [])
    with lent_pages(context_pool, watches) as open_page:
        yield open_page


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A browser test that failed reports each page it still has open as it was at the failure:
    its address, its text, its console and its failed requests (a race seen once is then read)."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if call.when != "call" or not report.failed:
        return
    for number, watch in enumerate(item.stash.get(PAGE_WATCHES, []), start=1):
        if not watch.page.is_closed():
            report.sections.append((f"page {number} at the failure", watch.report()))
