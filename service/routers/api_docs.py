"""The OpenAPI page at ``/docs``: Swagger UI, every file of it served by this service.

FastAPI's own ``/docs`` loads Swagger UI from a CDN (a floating major version,
no integrity hash) and starts it with an inline script: a blank page on a host
without internet, and another host's script running on the origin where the
browser page keeps the players' tokens. Here the page and its start-up script
are ``service/static/docs.html`` and ``docs.js``; Swagger UI's built files come
from the ``fastapi-offline`` package (its 1.7.7 ships Swagger UI 5.32.6), read
on first request. Everything is answered under the browser page's policy plus
``data:`` images, which Swagger UI's style sheet draws its icons with. FastAPI's
``/redoc`` is not served: the one API page is this one.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

import fastapi_offline
from fastapi import APIRouter
from fastapi.responses import Response

from .page import (
    CONTENT_SECURITY_POLICY,
    FILE_RESPONSES,
    STATIC_FILES,
    no_such_file,
    page_headers,
)

__all__ = ["DOCS_CONTENT_SECURITY_POLICY", "SWAGGER_UI_FILES", "router"]

DOCS_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
    "img-src 'self';", "img-src 'self' data:;"
)
"""The browser page's policy (routers/page.py), and images from ``data:`` URLs."""
assert DOCS_CONTENT_SECURITY_POLICY != CONTENT_SECURITY_POLICY, "the page's img-src moved"

SWAGGER_UI_FILES = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
}
"""The files of Swagger UI that ``/docs`` loads, by name, with their media types."""

_HEADERS = page_headers(DOCS_CONTENT_SECURITY_POLICY)

router = APIRouter(tags=["docs"])


@cache
def _swagger_ui_file(name: str) -> bytes:
    """One of Swagger UI's files, read once (1.7 MB in all: most processes never serve them)."""
    return files(fastapi_offline).joinpath("static", name).read_bytes()


@router.get("/docs", include_in_schema=False)
def read_docs() -> Response:
    """The OpenAPI page: every operation of ``/openapi.json``, to read and to try."""
    content, media_type = STATIC_FILES["docs.html"]
    return Response(content, media_type=media_type, headers=_HEADERS)


@router.get("/docs/{name}", include_in_schema=False, responses=FILE_RESPONSES)
def read_swagger_ui_file(name: str) -> Response:
    """Swagger UI's script or style sheet."""
    if name not in SWAGGER_UI_FILES:
        raise no_such_file("the API page", name)
    return Response(_swagger_ui_file(name), media_type=SWAGGER_UI_FILES[name], headers=_HEADERS)
