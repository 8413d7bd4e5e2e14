"""The OpenAPI page at /docs: every file from this service, under the browser page's policy.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline
script: blank without internet, and a foreign script on the origin that
keeps the players' tokens. The browser test (tests/browser/test_api_docs.py)
opens the page with every other host blocked.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from app_client import AppClient
from markup_support import Markup

from connect_four.service.main import create_app
from connect_four.service.routers.page import CONTENT_SECURITY_POLICY

MEDIA_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
}
"""The media type each kind of file the page loads must be answered with (nosniff is strict)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[AppClient]:
    with AppClient(create_app(tmp_path / "games.db")) as test_client:
        yield test_client


def _directives(policy: str) -> dict[str, set[str]]:
    """A Content-Security-Policy's directives, each with its set of sources."""
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {name: set(sources) for name, *sources in parts}


def test_the_docs_page_names_no_other_host_and_runs_no_inline_script(client: AppClient) -> None:
    answer = client.get("/docs")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    markup = Markup(answer.text)
    assert markup.inline == []
    assert markup.urls, "the page loads Swagger UI from somewhere"
    for url in markup.urls:
        address = urlsplit(url)
        assert not address.scheme and not address.netloc and url.startswith("/"), url
    assert not re.search(r"https?:|//[\w.-]", answer.text)


def test_the_docs_page_has_the_browser_pages_policy_and_data_images(client: AppClient) -> None:
    answer = client.get("/docs")
    policy = _directives(answer.headers["content-security-policy"])
    expected = _directives(CONTENT_SECURITY_POLICY)
    # Swagger UI's style sheet draws its icons and arrows as data: images: the one
    # source the page's own policy lacks. No inline script or style, no eval, no host.
    expected["img-src"] |= {"data:"}
    assert policy == expected
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_every_file_the_docs_page_loads_is_served_with_its_media_type(client: AppClient) -> None:
    urls = Markup(client.get("/docs").text).urls
    suffixes = {Path(url).suffix for url in urls}
    assert {".js", ".css"} <= suffixes
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        media_type = answer.headers["content-type"].split(";")[0]
        assert media_type == MEDIA_TYPES[Path(url).suffix], url
        assert answer.headers["x-content-type-options"] == "nosniff", url
        assert answer.headers["content-security-policy"], url


def test_swagger_ui_5_starts_from_the_services_document(client: AppClient) -> None:
    loaded = [client.get(url).text for url in Markup(client.get("/docs").text).urls]
    assert any('url: "/openapi.json"' in text for text in loaded)
    # Swagger UI 5, as service/README.md says: 4 cannot read an OpenAPI 3.1 document.
    versions = {v for text in loaded for v in re.findall(r'PACKAGE_VERSION:"(\d+)\.', text)}
    assert versions == {"5"}
    document = client.get("/openapi.json")
    assert document.status_code == 200
    assert document.json()["paths"]


def test_an_unknown_docs_file_and_redoc_are_the_services_404(client: AppClient) -> None:
    for path in ["/docs/secret.py", "/docs/swagger-ui.js.map", "/redoc"]:
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"] == "not_found", path
