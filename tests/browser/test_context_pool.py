"""Nothing a browser test leaves behind reaches the next one, though their contexts are the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Response
from fastapi.responses import HTMLResponse
from playwright.sync_api import BrowserContext, Page

from browser.browser_support import AppServer, own_service
from browser.context_pool import ContextPool, SharedOriginError, lent_pages

pytestmark = pytest.mark.slow

LEAVE_STATE = """async () => {
    localStorage.setItem("left", "1");
    sessionStorage.setItem("left", "1");
    document.cookie = "left=1; max-age=3600";
    await new Promise((done, failed) => {
        const opening = indexedDB.open("left");
        opening.onupgradeneeded = () => opening.result.createObjectStore("things");
        opening.onsuccess = () => { opening.result.close(); done(); };
        opening.onerror = () => failed(opening.error);
    });
    await (await caches.open("left")).put("/left", new Response("left"));
    history.pushState(null, "", "#left");
}"""

STATE = """async () => ({
    local: localStorage.length,
    session: sessionStorage.length,
    cookie: document.cookie,
    indexedDB: (await indexedDB.databases()).map(database => database.name),
    caches: await caches.keys(),
    workers: (await navigator.serviceWorker.getRegistrations()).length,
    geolocation: (await navigator.permissions.query({name: "geolocation"})).state,
})"""

NOTHING = {
    "local": 0,
    "session": 0,
    "cookie": "",
    "indexedDB": [],
    "caches": [],
    "workers": 0,
    "geolocation": "prompt",
}
"""What a page finds of ``STATE`` on an origin that nobody used before."""

LEFT = {
    "local": 1,
    "session": 1,
    "cookie": "left=1",
    "indexedDB": ["left"],
    "caches": ["left"],
    "workers": 0,
    "geolocation": "granted",
}
"""What ``LEAVE_STATE``, with geolocation granted, leaves of ``STATE`` (a worker aside)."""

REGISTER_WORKER = """async () => {
    await navigator.serviceWorker.register("/worker.js");
    await navigator.serviceWorker.ready;
}"""


def _fetch_status(page: Page, url: str) -> int:
    """Fetch ``url`` from the page, body and all (so that a cache has all of it); the status."""
    script = "async url => { const answer = await fetch(url); await answer.text(); return answer.status; }"
    return int(page.evaluate(script, url))


def _site_with_a_worker() -> tuple[FastAPI, list[str]]:
    """An app with a page, a service worker, and a response any cache may keep for an hour."""
    app, served = FastAPI(), []

    @app.get("/")
    def page() -> HTMLResponse:
        return HTMLResponse("<!doctype html><title>a test-only site</title>")

    @app.get("/worker.js")
    def worker() -> Response:
        return Response("// registered, and nothing more", media_type="text/javascript")

    @app.get("/cached")
    def cached() -> Response:
        served.append("/cached")
        return Response("kept", headers={"Cache-Control": "max-age=3600"})

    return app, served


def _a_test(pool: ContextPool, folder: Path, leave: bool) -> tuple[BrowserContext, list[Any]]:
    """One browser test, as the fixtures give it its page and servers: it leaves state, or looks.

    Leaving, it writes every kind of state a context keeps, on the real
    service and on a site with a service worker; looking, it finds them all
    empty. Returns the page's context and what it found.
    """
    app, served = _site_with_a_worker()
    folder.mkdir()
    # The servers stop after the pages close, as the fixtures order them.
    with own_service(folder / "games.db") as service, AppServer(app) as site:
        with lent_pages(pool) as new_page:
            page = new_page()
            found: list[Any] = []
            served_before = len(served)
            for origin in (service, site):
                page.goto(origin + "/")
                if origin == service:
                    found.append(page.evaluate("history.length"))
                if leave:
                    page.context.grant_permissions(["geolocation"], origin=origin)
                    page.evaluate(LEAVE_STATE)
                    if origin == site:
                        page.evaluate(REGISTER_WORKER)
                found.append(page.evaluate(STATE))
            # The HTTP cache, and a route on the page.
            found.append(_fetch_status(page, site + "/cached"))
            if leave:
                assert _fetch_status(page, site + "/cached") == 200
                page.route("**/routed", lambda route: route.fulfill(status=418))
            found.append(_fetch_status(page, site + "/routed"))
            found.append(len(served) - served_before)
            found.append(page.evaluate("history.length"))
            return page.context, found


@pytest.mark.both_browsers
def test_nothing_a_test_leaves_in_its_context_reaches_the_next_test(
    context_pool: ContextPool, tmp_path: Path
) -> None:
    first, left = _a_test(context_pool, tmp_path / "first", leave=True)
    new = left[0]  # a new page's history, one address in (its length differs between versions)
    # Served once, then cached; two entries pushed, and a second address.
    assert left == [new, LEFT, LEFT | {"workers": 1}, 200, 418, 1, new + 3]
    second, found = _a_test(context_pool, tmp_path / "second", leave=False)
    assert second is first  # the same context: what the pool saves
    assert found == [new, NOTHING, NOTHING, 200, 404, 1, new + 1]


@pytest.mark.both_browsers
def test_a_page_going_where_an_earlier_tests_page_went_fails_its_test(
    context_pool: ContextPool,
) -> None:
    app, _ = _site_with_a_worker()
    with AppServer(app) as site:
        page = context_pool.lend(800, 600)
        page.goto(site + "/")
        context_pool.give_back(page)
        again = context_pool.lend(800, 600)
        again.goto(site + "/")
        with pytest.raises(SharedOriginError, match="an earlier test's page went to"):
            context_pool.give_back(again)


@pytest.mark.both_browsers
def test_every_page_lent_is_new_and_starts_blank(context_pool: ContextPool) -> None:
    page = context_pool.lend(800, 600)
    page.set_content("<title>the last test's page</title>")
    context_pool.give_back(page)
    again = context_pool.lend(640, 480)
    assert again.context is page.context and again is not page
    assert page.is_closed() and again.context.pages == [again]
    assert again.url == "about:blank" and again.title() == ""
    assert again.viewport_size == {"width": 640, "height": 480}
    context_pool.give_back(again)


@pytest.mark.both_browsers
def test_a_context_a_test_listened_to_routed_or_closed_is_not_lent_again(
    context_pool: ContextPool,
) -> None:
    listened = context_pool.lend(800, 600)
    listened.context.on("request", lambda request: None)
    context_pool.give_back(listened)
    routed = context_pool.lend(800, 600)
    assert routed.context is not listened.context and listened.context.is_closed()
    routed.context.route("**/*", lambda route: route.abort())
    context_pool.give_back(routed)
    closed = context_pool.lend(800, 600)
    assert closed.context is not routed.context and routed.context.is_closed()
    closed.context.close()
    context_pool.give_back(closed)
    fresh = context_pool.lend(800, 600)
    assert fresh.context not in (listened.context, routed.context, closed.context)
    # A page the test listened to or closed only closes: its context is lent again.
    fresh.on("request", lambda request: None)
    context_pool.give_back(fresh)
    kept = context_pool.lend(800, 600)
    assert kept.context is fresh.context
    kept.close()
    context_pool.give_back(kept)
    last = context_pool.lend(800, 600)
    assert last.context is fresh.context
    context_pool.give_back(last)


@pytest.mark.both_browsers
def test_a_context_whose_clock_a_test_set_is_not_lent_again(context_pool: ContextPool) -> None:
    """Playwright's clock is the context's and stays: the next test's timers would never fire."""
    clocked = context_pool.lend(800, 600)
    clocked.clock.install()
    clocked.clock.pause_at(clocked.evaluate("Date.now()") / 1000 + 60)
    context_pool.give_back(clocked)
    after = context_pool.lend(800, 600)
    assert after.context is not clocked.context and clocked.context.is_closed()
    # Its timers run on the real clock: a 10 ms timeout fires.
    assert after.evaluate("() => new Promise((done) => setTimeout(() => done(true), 10))")
    context_pool.give_back(after)


@pytest.mark.both_browsers
def test_pages_of_other_options_come_from_other_contexts(context_pool: ContextPool) -> None:
    plain = context_pool.lend(800, 600)
    context_pool.give_back(plain)
    default = context_pool.lend(800, 600, reduced_motion="no-preference", device_scale_factor=1)
    assert default.context is plain.context  # Playwright's defaults: the same options as none
    context_pool.give_back(default)
    reduced = context_pool.lend(800, 600, reduced_motion="reduce")
    assert reduced.context is not plain.context
    assert reduced.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    context_pool.give_back(reduced)
