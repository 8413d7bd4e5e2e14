"""Browser contexts kept from test to test, each emptied before it is lent again.

A new context cost chromium about a second of CPU: a renderer process, and
Playwright's scripts compiled into it again. A third of the browser tests'
CPU went to that. A lent context keeps its page, and the page keeps its
renderer for the next test. Before a page is lent again, the pool removes
everything a test can leave in it:

- the document (the page goes to ``about:blank``);
- the storage of every origin the page visited: cookies, local and session
  storage, IndexedDB and the rest;
- the HTTP cache;
- the page's routes.

A page that a test closed or left with listeners of its own is not lent
again: its context closes.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, Frame, Page

NEW_CONTEXT_DEFAULTS = {"device_scale_factor": 1, "reduced_motion": "no-preference"}
"""Options a new context has unless told otherwise (Playwright's documented defaults):
a page asked for with them comes from the same contexts as one asked for without."""

_DEFAULT_ITEMS = set(NEW_CONTEXT_DEFAULTS.items())


def _listeners(page: Page) -> dict[str, int]:
    """How many listeners each of the page's events has (Playwright's own included)."""
    # Playwright's public API can add and remove listeners but not list them.
    events = page._impl_obj
    return {name: len(events.listeners(name)) for name in events.event_names()}


def _origin(url: str) -> str:
    """The origin of an http(s) address, as the storage APIs name it; "" for any other."""
    address = urlsplit(url)
    return f"{address.scheme}://{address.netloc}" if address.scheme in ("http", "https") else ""


class ContextPool:
    """Lends pages, each in a browser context of its own, emptied between tests."""

    def __init__(self, browser: Browser, timeout_ms: float) -> None:
        self.browser = browser
        self.timeout_ms = timeout_ms
        self._idle: dict[str, list[Page]] = {}
        self._key: dict[Page, str] = {}
        self._visited: dict[Page, set[str]] = {}
        self._own_listeners: dict[Page, dict[str, int]] = {}

    def lend(self, width: int, height: int, **options: Any) -> Page:
        """A page on ``about:blank`` in a context made with ``options``, ``width`` x ``height``."""
        key = repr(sorted(item for item in options.items() if item not in _DEFAULT_ITEMS))
        idle = self._idle.setdefault(key, [])
        page = idle.pop() if idle else self._new_page(key, options)
        page.set_viewport_size({"width": width, "height": height})
        return page

    def give_back(self, page: Page) -> None:
        """Empty the page's context for the next test, or close it if it cannot be emptied."""
        visited = self._visited[page]
        if not self._reusable(page):
            self._forget(page)
            page.context.close()
            return
        page.unroute_all(behavior="ignoreErrors")
        page.goto("about:blank")
        cdp = page.context.new_cdp_session(page)
        try:
            for origin in visited:
                cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
            cdp.send("Network.clearBrowserCache")
        finally:
            cdp.detach()
        page.context.clear_cookies()
        visited.clear()
        self._idle[self._key[page]].append(page)

    def close(self) -> None:
        """Close every context the pool holds."""
        for pages in self._idle.values():
            for page in pages:
                page.context.close()
        self._idle.clear()

    def _reusable(self, page: Page) -> bool:
        """Open, and listened to by nobody but the pool."""
        return not page.is_closed() and _listeners(page) == self._own_listeners[page]

    def _new_page(self, key: str, options: dict[str, Any]) -> Page:
        context: BrowserContext = self.browser.new_context(**options)
        context.set_default_timeout(self.timeout_ms)
        page = context.new_page()
        visited: set[str] = set()

        def note_origin(frame: Frame) -> None:
            origin = _origin(frame.url)
            if origin:
                visited.add(origin)

        page.on("framenavigated", note_origin)
        self._key[page] = key
        self._visited[page] = visited
        self._own_listeners[page] = _listeners(page)
        return page

    def _forget(self, page: Page) -> None:
        del self._key[page], self._visited[page], self._own_listeners[page]
