"""The OpenAPI page at /docs works on a host without internet: nothing from another host."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Route, expect

from server_support import HTTP

pytestmark = pytest.mark.slow  # a browser and a real service


@pytest.mark.both_browsers
def test_the_docs_page_lists_every_operation_with_every_other_host_blocked(
    new_page: Callable[..., Page], service: str
) -> None:
    blocked: list[str] = []

    def only_this_service(route: Route) -> None:
        url = route.request.url
        if urlsplit(url).netloc == urlsplit(service).netloc:  # the service's own loopback origin
            route.continue_()
        else:
            blocked.append(url)
            route.abort("internetdisconnected")

    page = new_page()
    page.route("**/*", only_this_service)
    page.goto(service + "/docs")
    assert blocked == [], "the page asked another host"
    operations = HTTP.get(service + "/openapi.json").json()["paths"]
    listed = page.locator(".opblock")
    expect(listed).to_have_count(sum(len(methods) for methods in operations.values()))
    for path, methods in operations.items():
        for method, operation in methods.items():
            block = page.locator(f".opblock-{method}:has([data-path='{path}'])")
            expect(block.locator(".opblock-summary-method")).to_have_text(method.upper())
            expect(block.locator(".opblock-summary-description")).to_have_text(operation["summary"])
    # An operation opens with its responses (Swagger UI's icons are data: images), and
    # runs against this service.
    read_games = page.locator(".opblock-get:has([data-path='/drop_token'])")
    read_games.locator(".opblock-summary").click()
    read_games.get_by_role("button", name="Try it out").click()
    read_games.get_by_role("button", name="Execute").click()
    expect(read_games.locator(".live-responses-table .response .response-col_status")).to_have_text(
        "200"
    )
    assert blocked == []
