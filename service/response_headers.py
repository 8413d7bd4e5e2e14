"""Headers every answer of the app carries, whatever route or error made it.

``X-Content-Type-Options: nosniff`` on every answer: a browser never reads
an answer as another type than the one it declares (a JSON error echoing a
player's name must not run as a page). ``Cache-Control: no-store`` on every
answer to a request that changes something (``POST``, ``DELETE``): the
answer that creates a game holds its players' secret tokens, and no cache
between the service and the client may keep it.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ALWAYS", "FOR_CHANGES", "AnswerHeaders"]

ALWAYS = ((b"x-content-type-options", b"nosniff"),)
"""Headers of every answer."""

FOR_CHANGES = ((b"cache-control", b"no-store"),)
"""Headers of every answer to a request that may change something (and may carry tokens)."""

_CHANGING_METHODS = frozenset({"POST", "DELETE", "PUT", "PATCH"})


class AnswerHeaders:
    """ASGI middleware: add :data:`ALWAYS`, and :data:`FOR_CHANGES` where they apply."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = ALWAYS + (FOR_CHANGES if scope["method"] in _CHANGING_METHODS else ())

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers.extend(header for header in extra if header[0] not in present)
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)
