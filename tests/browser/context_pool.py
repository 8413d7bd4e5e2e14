"""Browser contexts kept from test to test; every test gets pages no test had before.

Nothing here empties anything: what a test leaves in a browser context is
out of the next test's reach by construction, whatever chromium's version.

- Each page lent is new, so its session storage and its history start
  empty. A context is lent to one page at a time: two pages of one test
  are two people's browsers.
- What a context keeps from page to page (cookies, local storage,
  IndexedDB, Cache Storage, service workers, permissions, cached
  responses) belongs to an origin or a host, and every server a browser
  test starts listens on a loopback address no earlier test used
  (tests/browser/fresh_hosts.py). The pool checks it: a page that goes to
  an origin an earlier test's page went to fails its test.
- A context the test itself changed (closed it, listened to it, routed
  its requests) is not lent again. Other context-wide settings a test may
  want (permissions for every origin, a geolocation, offline) are the
  options it asks for its page with: a context is only lent again with
  the options it was made with.

A new context cost chromium about half a second of CPU: a renderer process,
Playwright's scripts compiled into it. A new page in a kept context costs
the same, unless it takes over a renderer that compiled them already: so
the next test's page is opened before the last one closes, and chromium
runs one renderer for all of a context's sites (``CHROMIUM_ARGUMENTS``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, Frame, Page

from browser.browser_support import PageWatch

NEW_CONTEXT_DEFAULTS = {"device_scale_factor": 1, "reduced_motion": "no-preference"}
"""Options a new context has unless told otherwise (Playwright's documented defaults):
a page asked for with them comes from the same contexts as one asked for without."""

_DEFAULT_ITEMS = set(NEW_CONTEXT_DEFAULTS.items())


class SharedOriginError(AssertionError):
    """A test's page went to an origin an earlier test's page went to: their state could meet."""


def _listeners(context: BrowserContext) -> dict[str, int]:
    """How many listeners each of the context's events has (Playwright's own included)."""
    # Playwright's public API can add and remove listeners but not list them.
    events = context._impl_obj
    return {name: len(events.listeners(name)) for name in events.event_names()}


def _origin(url: str) -> str:
    """The origin of an http(s) address, as the storage APIs name it; "" for any other."""
    address = urlsplit(url)
    return f"{address.scheme}://{address.netloc}" if address.scheme in ("http", "https") else ""


CLOCK_CALLS = (
    "install",
    "fast_forward",
    "pause_at",
    "resume",
    "run_for",
    "set_fixed_time",
    "set_system_time",
)
"""Playwright's clock calls; any of them leaves the context's clock changed for good."""


class ContextPool:
    """Lends new pages in browser contexts kept from test to test, one page per context at a time."""

    def __init__(self, browser: Browser, timeout_ms: float) -> None:
        self.browser = browser
        self.timeout_ms = timeout_ms
        self._idle: dict[str, list[Page]] = {}
        """Each kind of context's next pages, each alone in its context, on ``about:blank``."""
        self._key: dict[BrowserContext, str] = {}
        self._visited: dict[Page, set[str]] = {}
        """The origins each open page went to, noted by the page's own listener: an
        event a page sends late is never counted for the next test's page."""
        self._own_listeners: dict[BrowserContext, dict[str, int]] = {}
        self._clocked: set[BrowserContext] = set()
        """Contexts whose clock a test set: Playwright's clock is the whole context's, for good."""
        self._earlier_origins: set[str] = set()

    def lend(self, width: int, height: int, **options: Any) -> Page:
        """A new page on ``about:blank`` in a context made with ``options``, ``width`` x ``height``."""
        key = repr(sorted(item for item in options.items() if item not in _DEFAULT_ITEMS))
        idle = self._idle.setdefault(key, [])
        page = idle.pop() if idle else self._new_context(key, options).new_page()
        page.set_viewport_size({"width": width, "height": height})
        return page

    def give_back(self, *pages: Page) -> None:
        """Close the pages one test was lent, each context keeping a new page for the next test.

        Raises SharedOriginError, once every page is back, if one of them
        went to an origin that a page of an earlier test went to.
        """
        visited: set[str] = set()
        for page in pages:
            context = page.context
            # The page lent (closed by the test, maybe) and any page it opened (popups).
            for opened in (page, *context.pages):
                visited |= self._visited.pop(opened, set())
            if self._reusable(context):
                self._idle[self._key[context]].append(self._next_page(context))
            else:
                self._forget(context)
                context.close()
        shared = visited & self._earlier_origins
        self._earlier_origins |= visited
        if shared:
            raise SharedOriginError(
                f"an earlier test's page went to {sorted(shared)}: start a server of the test's own"
            )

    def close(self) -> None:
        """Close every context the pool holds."""
        for pages in self._idle.values():
            for page in pages:
                page.context.close()
        self._idle.clear()

    def _reusable(self, context: BrowserContext) -> bool:
        """Open, listened to by nobody but the pool, its requests not routed, its clock the real one."""
        return (
            not context.is_closed()
            and _listeners(context) == self._own_listeners[context]
            and not context._impl_obj._routes
            and context not in self._clocked
        )

    def _next_page(self, context: BrowserContext) -> Page:
        """A new page for the next test; every other page of the context closes.

        Opened while the last test's page is still open, the new page shares
        its renderer, which has Playwright's scripts compiled already.
        """
        page = context.new_page()
        for other in context.pages:
            if other is not page:
                other.close()
        return page

    def _new_context(self, key: str, options: dict[str, Any]) -> BrowserContext:
        context = self.browser.new_context(**options)
        context.set_default_timeout(self.timeout_ms)
        # Every page of the context: those lent, and those they open (popups).
        context.on("page", self._note_origins)
        self._key[context] = key
        self._own_listeners[context] = _listeners(context)
        self._watch_clock(context)
        return context

    def _watch_clock(self, context: BrowserContext) -> None:
        """Note a context whose clock a test installs or moves (``page.clock`` is the context's).

        A fake clock stays in the context and every page it opens later: a
        later test's timers would never fire. Playwright cannot uninstall it,
        so such a context is never lent again.
        """
        clock = context._impl_obj.clock
        for name in CLOCK_CALLS:
            call = getattr(clock, name)

            async def noted(*args: Any, _call: Any = call, **kwargs: Any) -> Any:
                self._clocked.add(context)
                return await _call(*args, **kwargs)

            setattr(clock, name, noted)

    def _note_origins(self, page: Page) -> None:
        """Note in ``page``'s own set every origin its frames go to."""
        origins = self._visited.setdefault(page, set())

        def note(frame: Frame) -> None:
            origin = _origin(frame.url)
            if origin:
                origins.add(origin)

        page.on("framenavigated", note)

    def _forget(self, context: BrowserContext) -> None:
        del self._key[context], self._own_listeners[context]
        for page in context.pages:
            self._visited.pop(page, None)
        self._clocked.discard(context)


@contextlib.contextmanager
def lent_pages(
    pool: ContextPool, watches: list[PageWatch] | None = None
) -> Iterator[Callable[..., Page]]:
    """Opens one test's pages, each in a context of its own (another person's browser).

    Once the test is over, fails it if a page raised a JavaScript error,
    broke the Content-Security-Policy or opened a dialog; every page goes
    back to the pool all the same. Each page's watch is added to ``watches``.
    """
    lent: list[PageWatch] = [] if watches is None else watches

    def open_page(width: int = 1000, height: int = 900, **options: Any) -> Page:
        watch = PageWatch(pool.lend(width, height, **options))
        lent.append(watch)
        return watch.page

    try:
        yield open_page
        for watch in lent:
            watch.check()
    finally:
        pool.give_back(*(watch.page for watch in lent))
