"""A path with a trailing slash is served as the path without it (``POST /drop_token/``).

Starlette would answer such a request with a 307 redirect and an empty body,
which many clients do not follow for a POST (curl without ``-L``, or a
script reading the body as JSON). The service has no route whose path ends
in a slash, so the slash can only be a slip: the request is served as if it
had not been typed. Only routes to endpoints count: a path some endpoint
takes as it is is left alone, and a mounted application (static files,
even at "/") neither keeps nor takes the slash from an endpoint.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.routing import BaseRoute, Match, Mount
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["ServeWithoutTrailingSlash"]


class ServeWithoutTrailingSlash:
    """ASGI middleware: route ``/a/b/`` as ``/a/b`` when only the latter has an endpoint."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] == "http" and len(path) > 1 and path.endswith("/"):
            routes = scope["app"].router.routes
            stripped = dict(scope, path=path.rstrip("/") or "/")
            if "raw_path" in scope:
                stripped["raw_path"] = scope["raw_path"].rstrip(b"/") or b"/"
            if not _endpoint_takes(routes, scope) and _endpoint_takes(routes, stripped):
                scope = stripped
        await self.app(scope, receive, send)


def _endpoint_takes(routes: Sequence[BaseRoute], scope: Scope) -> bool:
    """Whether some route to an endpoint (no mount) takes ``scope``'s path, with any method."""
    return any(
        route.matches(scope)[0] is not Match.NONE
        for route in routes
        if not isinstance(route, Mount)
    )
