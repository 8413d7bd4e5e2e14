"""The context pool lends a page again only once nothing of the last test is left in it."""

from __future__ import annotations

import pytest
from fastapi import FastAPI, Response
from fastapi.responses import HTMLResponse
from playwright.sync_api import Page

from browser.browser_support import AppServer
from browser.context_pool import ContextPool

pytestmark = pytest.mark.slow

LEAVE_TRACES = """() => {
    localStorage.setItem("left", "1");
    sessionStorage.setItem("left", "1");
    document.cookie = "left=1; max-age=3600";
}"""

TRACES = """() => [localStorage.length, sessionStorage.length, document.cookie]"""


def _fetch_status(page: Page, url: str) -> int:
    """Fetch ``url`` from the page, body and all (so that a cache has all of it); the status."""
    script = "async url => { const answer = await fetch(url); await answer.text(); return answer.status; }"
    return int(page.evaluate(script, url))


def _cacheable_site() -> tuple[FastAPI, list[str]]:
    """An app with a page and a response any cache may keep for an hour; the requests it served."""
    app, served = FastAPI(), []

    @app.get("/")
    def page() -> HTMLResponse:
        return HTMLResponse("<!doctype html><title>another origin</title>")

    @app.get("/cached")
    def cached() -> Response:
        served.append("/cached")
        return Response("kept", headers={"Cache-Control": "max-age=3600"})

    return app, served


def test_a_page_lent_again_keeps_nothing_of_the_test_before(
    context_pool: ContextPool, service: str
) -> None:
    app, served = _cacheable_site()
    # A second port: an origin with storage of its own, on the same site (and renderer).
    with AppServer(app) as other:
        origins = [service, other]
        page = context_pool.lend(800, 600)
        for origin in origins:
            page.goto(origin + "/")
            page.evaluate(LEAVE_TRACES)
            assert page.evaluate(TRACES) == [1, 1, "left=1"]
        for _ in range(2):
            assert _fetch_status(page, other + "/cached") == 200
        assert served == ["/cached"]  # the second came from the cache
        page.route("**/", lambda route: route.fulfill(status=418))
        assert _fetch_status(page, other + "/") == 418
        context_pool.give_back(page)

        again = context_pool.lend(640, 480)
        assert again is page  # the same page and renderer: what the pool saves
        assert again.url == "about:blank"
        for origin in origins:
            again.goto(origin + "/")
            assert again.evaluate(TRACES) == [0, 0, ""], origin
        assert _fetch_status(again, other + "/") == 200
        assert _fetch_status(again, other + "/cached") == 200
        assert served == ["/cached", "/cached"]
        assert again.viewport_size == {"width": 640, "height": 480}
        context_pool.give_back(again)


def test_a_page_a_test_left_listening_or_closed_is_not_lent_again(
    context_pool: ContextPool,
) -> None:
    listening = context_pool.lend(800, 600)
    listening.on("request", lambda request: None)
    context_pool.give_back(listening)
    closed = context_pool.lend(800, 600)
    assert closed is not listening and listening.is_closed()
    closed.close()
    context_pool.give_back(closed)
    fresh = context_pool.lend(800, 600)
    assert fresh not in (listening, closed)
    context_pool.give_back(fresh)


def test_pages_of_other_options_come_from_other_contexts(context_pool: ContextPool) -> None:
    plain = context_pool.lend(800, 600)
    context_pool.give_back(plain)
    default = context_pool.lend(800, 600, reduced_motion="no-preference", device_scale_factor=1)
    assert default is plain  # Playwright's defaults: the same options as none
    context_pool.give_back(default)
    reduced = context_pool.lend(800, 600, reduced_motion="reduce")
    assert reduced is not plain
    assert reduced.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    context_pool.give_back(reduced)
