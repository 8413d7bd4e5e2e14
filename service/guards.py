"""Bounds on how much a client can make the server read, and how slowly.

Two layers, because uvicorn offers neither a body size limit nor a timeout
for a request still being sent (its ``timeout_keep_alive`` only starts once
a response is sent, and any byte received cancels it):

- :class:`RequestLimits`, an ASGI middleware: headers over their size limit
  are 431, a body over its size limit is 413, one not sent within its time
  limit (a body shorter than its declared length, or trickled in) is 408.
- :class:`GuardedHttpToolsProtocol`, uvicorn's httptools protocol (a C
  parser: a fifth less CPU per request than the pure-Python h11's) with a
  deadline and a size limit for the request line and headers: a
  connection that has not sent them in time is closed, one whose head
  grows past the limit unfinished is refused. Its 400 for a request it
  cannot parse has the service's JSON error shape.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .error_table import HTTP_CODES, error_response
from .limits import BODY_TIMEOUT, HEADER_TIMEOUT, MAX_BODY_BYTES, MAX_HEADER_BYTES

__all__ = [
    "RequestLimits",
    "BodyTooLargeError",
    "BodyTimeoutError",
    "GuardedHttpToolsProtocol",
    "INCOMPLETE_REQUEST",
]

INCOMPLETE_REQUEST = "Invalid HTTP request received."
"""The 400's detail for a request that cannot be parsed (uvicorn's own words for it)."""


class BodyTooLargeError(HTTPException):
    """The request body is over the limit (413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


class BodyTimeoutError(HTTPException):
    """The request body did not arrive in time (408)."""

    def __init__(self, timeout: float) -> None:
        super().__init__(408, f"the request body was not received within {timeout:g} seconds")


class RequestLimits:
    """ASGI middleware: refuse headers over ``max_header_bytes``, a body over ``max_bytes``
    or not received within ``timeout``.

    The errors are HTTPExceptions raised from ``receive``, so the app's one
    error handler turns them into the service's JSON error shape. A declared
    Content-Length over the limit is refused before any byte is read.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int = MAX_BODY_BYTES,
        timeout: float = BODY_TIMEOUT,
        max_header_bytes: int = MAX_HEADER_BYTES,
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.max_header_bytes = max_header_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # The protocol only bounds a head still incomplete (its buffer);
        # one that arrives whole is counted here.
        header_bytes = len(scope.get("raw_path", b"")) + sum(
            len(name) + len(value) + 4 for name, value in scope["headers"]
        )
        if header_bytes > self.max_header_bytes:
            detail = f"the request line and headers are larger than {self.max_header_bytes} bytes"
            response = error_response(431, HTTP_CODES[431], detail)
            await response(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            error = BodyTooLargeError(self.max_bytes)
            response = error_response(413, HTTP_CODES[413], error.detail)
            await response(scope, receive, send)
            return
        deadline = time.monotonic() + self.timeout
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            left = deadline - time.monotonic()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.0))
            except TimeoutError:
                raise BodyTimeoutError(self.timeout) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLargeError(self.max_bytes)
            return message

        await self.app(scope, limited_receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # The server has refused it already.
    return None


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, bounding the time and bytes a request's head may take.

    A connection that has not sent a request's line and headers within
    :attr:`header_timeout` is closed; the deadline starts when the connection
    opens and again when each response is complete, and passes harmlessly
    once the next request's headers are in. A head still incomplete after
    :attr:`max_head_bytes` is answered 400 and closed (the parser would
    buffer it without end); one that arrives whole is the app's to refuse
    (431, :class:`RequestLimits`).
    """

    header_timeout: float = HEADER_TIMEOUT
    max_head_bytes: int = MAX_HEADER_BYTES

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._awaiting_head = True
        self._head_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()

    def data_received(self, data: bytes) -> None:
        if self._awaiting_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._awaiting_head and self._head_bytes > self.max_head_bytes:
            if not self.transport.is_closing():
                self.send_400_response(INCOMPLETE_REQUEST)

    def on_headers_complete(self) -> None:
        self._awaiting_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._awaiting_head = True
        self._head_bytes = 0

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_header_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """An unparseable request (bad request line, head too large): 400, in the one shape."""
        body = json.dumps({"error": HTTP_CODES[400], "detail": msg}, separators=(",", ":")).encode()
        self.transport.write(
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
        )
        self.transport.close()

    def _arm_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
        self._header_deadline = self.loop.call_later(
            self.header_timeout, self._header_deadline_passed, self.cycle
        )

    def _header_deadline_passed(self, cycle: object) -> None:
        # Still no new request since the deadline was set, and none running.
        idle = self.cycle is None or self.cycle.response_complete
        if self.cycle is cycle and idle and not self.transport.is_closing():
            self.transport.close()
