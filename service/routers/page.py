"""The browser page at ``/``: its files, from ``service/static``.

The page is plain HTML, CSS and JavaScript modules shipped in the package,
and one module made from the service's and the engine's limits and defaults
(``limits.js``): no build step, nothing fetched from elsewhere. Every file is answered with a
Content-Security-Policy that allows scripts, styles, images and requests
from this service only, and no inline script at all, so a player's name
that holds markup can never run.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response

from connect_four.engine import Rules
from connect_four.engine.notation import DIGIT_COLUMNS
from connect_four.engine.solver import LEVELS

from .. import limits
from ..names import DOT_NAMES, NAME_PATTERN
from ..records import CONNECT
from ..schemas import error_responses

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "FILE_RESPONSES",
    "PAGE_LIMITS",
    "STATIC_FILES",
    "no_such_file",
    "page_headers",
    "router",
]

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'"
)
"""Only this service's own files run or load; no inline script, no eval, no other host."""

_MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}

_STATIC = Path(__file__).resolve().parents[1] / "static"

_TERMINAL_RULES = Rules()
"""The terminal game's board (the engine's default rules): its join command needs no size."""

PAGE_LIMITS: dict[str, int | str | list[str] | dict[str, str]] = {
    "CONNECT": CONNECT,
    "LEVELS": {str(level): text for level, text in LEVELS.items()},
    "MAX_SIZE": limits.MAX_SIZE,
    "MAX_NAME_LENGTH": limits.MAX_NAME_LENGTH,
    "NAME_PATTERN": NAME_PATTERN,
    "DOT_NAMES": list(DOT_NAMES),
    "MIN_COMPUTER_SIZE": limits.MIN_COMPUTER_SIZE,
    "MAX_COMPUTER_SIZE": limits.MAX_COMPUTER_SIZE,
    "MAX_ANALYSIS_SIZE": limits.MAX_ANALYSIS_SIZE,
    "TERMINAL_ROWS": _TERMINAL_RULES.rows,
    "TERMINAL_COLUMNS": _TERMINAL_RULES.columns,
    "DIGIT_COLUMNS": DIGIT_COLUMNS,
    "MAX_CLOCK_MINUTES": limits.MAX_CLOCK_MINUTES,
    "MAX_INCREMENT": limits.MAX_INCREMENT,
    "MAX_CLOCK_DAYS": limits.MAX_CLOCK_DAYS,
}
"""The service's limits and the engine's defaults that the page applies before it
asks, by name: the page imports them from ``/static/limits.js``, made here from
each value's one home, so they are never written twice."""


def _limits_module() -> bytes:
    """``limits.js``: :data:`PAGE_LIMITS` as a JavaScript module (each value in JSON)."""
    lines = ["// The service's limits and the engine's defaults, made by service/routers/page.py."]
    lines += [f"export const {name} = {json.dumps(value)};" for name, value in PAGE_LIMITS.items()]
    return "\n".join(lines).encode() + b"\n"


STATIC_FILES: dict[str, tuple[bytes, str]] = {
    entry.name: (entry.read_bytes(), _MEDIA_TYPES[suffix])
    for entry in _STATIC.iterdir()
    if (suffix := entry.suffix) in _MEDIA_TYPES
} | {"limits.js": (_limits_module(), _MEDIA_TYPES[".js"])}
"""Every file of the page, by name, read (or, for ``limits.js``, made) once at
import: its bytes and media type."""


def page_headers(policy: str) -> dict[str, str]:
    """The headers of every file of the service's pages, under ``policy``."""
    return {
        "Content-Security-Policy": policy,
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        # A new version of the service serves a new page at once.
        "Cache-Control": "no-cache",
    }


FILE_RESPONSES = error_responses(e404="No such file.")
"""The errors of a route that answers one of a page's files by its name."""


def no_such_file(page: str, name: str) -> HTTPException:
    """The error for a file ``page`` does not have, which the app's one handler answers
    as every unknown path: 404 not_found."""
    return HTTPException(status_code=404, detail=f"{page} has no file {name!r}")


_HEADERS = page_headers(CONTENT_SECURITY_POLICY)

router = APIRouter(tags=["page"])


def _file(name: str) -> Response:
    content, media_type = STATIC_FILES[name]
    return Response(content, media_type=media_type, headers=_HEADERS)


@router.get("/", include_in_schema=False)
def read_page() -> Response:
    """The page: play a friend or the computer, watch a game, analyse a position."""
    return _file("index.html")


@router.get("/static/{name}", include_in_schema=False, responses=FILE_RESPONSES)
def read_static(name: str) -> Response:
    """One of the page's files (scripts, style sheet, icon)."""
    if name not in STATIC_FILES:
        raise no_such_file("the page", name)
    return _file(name)
