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
  cannot parse has the service's JSON error shape. It also keeps each
  connection's place in the server's :class:`~connect_four.service.client_limits.ClientLedger`
  (in place of uvicorn's ``limit_concurrency``, whose 503 is plain text):
  connections beyond the server's room or a client's share are answered
  503 or 429 in the JSON shape, with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from http import HTTPStatus
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .client_limits import ClientLedger
from .error_table import HTTP_CODES, answer_for, error_response
from .errors import ServiceError
from .limits import (
    BODY_TIMEOUT,
    HEADER_TIMEOUT,
    MAX_BODY_BYTES,
    MAX_HEADER_BYTES,
    PRESSED_TIMEOUT,
    REFUSAL_GRACE,
)

__all__ = [
    "RequestLimits",
    "BodyTooLargeError",
    "BodyTimeoutError",
    "GuardedHttpToolsProtocol",
    "INCOMPLETE_REQUEST",
    "guarded_protocol",
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
        # Without Content-Length or Transfer-Encoding a request has no body
        # (HTTP/1.1): nothing to time, and receiving costs no timer then.
        body_complete = declared is None and not _has_header(scope, b"transfer-encoding")

        async def limited_receive() -> Message:
            nonlocal received, body_complete
            if body_complete:
                # No body left to time: only the client's leaving is left to
                # learn (http.disconnect), which a long poll waits for as long as it waits.
                return await receive()
            left = deadline - time.monotonic()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.0))
            except TimeoutError:
                raise BodyTimeoutError(self.timeout) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLargeError(self.max_bytes)
                body_complete = not message.get("more_body", False)
            return message

        await self.app(scope, limited_receive, send)


def _has_header(scope: Scope, name: bytes) -> bool:
    return any(header == name for header, _ in scope["headers"])


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # The server has refused it already.
    return None


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, bounding the time and bytes a request's head may take,
    and the connections each client holds.

    A connection that has not sent a request's line and headers within
    :attr:`header_timeout` is closed; the deadline starts when the connection
    opens and again when each response is complete, and passes harmlessly
    once the next request's headers are in. A head still incomplete after
    :attr:`max_head_bytes` is answered 400 and closed (the parser would
    buffer it without end); one that arrives whole is the app's to refuse
    (431, :class:`RequestLimits`).

    With a :attr:`ledger` (:func:`guarded_protocol`), each connection takes
    a place in it when it opens and gives it back when it closes. One
    refused (the server full: 503; its address holding its share: 429) is
    answered at once, in the JSON shape with ``Retry-After``, and closed
    once the client has sent its request and closed its end, or after
    :data:`REFUSAL_GRACE` seconds. While the ledger says the server or the
    client is pressed, a head (and a body) must come within
    :attr:`pressed_timeout`.
    """

    header_timeout: float = HEADER_TIMEOUT
    pressed_timeout: float = PRESSED_TIMEOUT
    max_head_bytes: int = MAX_HEADER_BYTES
    ledger: ClientLedger | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._give_up_at = math.inf
        self._body_deadline = False
        self._awaiting_head = True
        self._head_bytes = 0
        self._host: str | None = None
        self._admitted = False
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._host = self.client[0] if self.client else None
        if self.ledger is None:
            self._arm_deadline(self.header_timeout)
            return
        refusal = self.ledger.admit(self._host, running=len(self.tasks))
        if refusal is None:
            self._admitted = True
            self._arm_deadline(self._head_timeout())
        elif self.ledger.refused >= self.ledger.max_refused:
            transport.close()  # Refused faster than they can be answered: no room to say so.
        else:
            # Answered at once, before its request is even read: the answer
            # costs no parsing, and no task. The connection stays open (its
            # end half-closed) for the client to send its request and read
            # the answer; closing with the request unread would reset it.
            self.ledger.refused += 1
            self._refused = True
            transport.write(_refusal_bytes(refusal))
            try:
                transport.write_eof()
            except OSError:  # The client has gone already.
                transport.close()
                return
            self._arm_deadline(REFUSAL_GRACE)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # Read and dropped: its answer is sent already.
        if self._awaiting_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if self._awaiting_head and self._head_bytes > self.max_head_bytes:
            if not self.transport.is_closing():
                self.send_400_response(INCOMPLETE_REQUEST)

    def on_headers_complete(self) -> None:
        self._awaiting_head = False
        super().on_headers_complete()
        if self._deadline is not None and not self._body_deadline:
            self._deadline.cancel()
            self._deadline = None
        if self._admitted and any(name in _BODY_HEADERS for name, _ in self.headers):
            # A body still coming is cut if the server or its client becomes
            # pressed (else RequestLimits answers 408 at the body timeout).
            self._arm_deadline(math.inf, body=True)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._awaiting_head = True
        self._head_bytes = 0
        if self._body_deadline and self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm_deadline(self._head_timeout())

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        if self.ledger is not None:
            if self._admitted:
                self.ledger.release(self._host)
            elif self._refused:
                self.ledger.refused -= 1
            self._admitted = self._refused = False
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """An unparseable request (bad request line, head too large): 400, in the one shape."""
        self.transport.write(_error_bytes(400, HTTP_CODES[400], msg))
        self.transport.close()

    def _pressed(self) -> bool:
        return self.ledger is not None and self.ledger.pressed(self._host)

    def _head_timeout(self) -> float:
        """The time the next head may take: shorter while the server or this client is pressed."""
        if self._pressed():
            return min(self.header_timeout, self.pressed_timeout)
        return self.header_timeout

    def _arm_deadline(self, timeout: float, body: bool = False) -> None:
        """Close the connection if its head (or ``body``) is still coming after ``timeout``
        seconds, or after :attr:`pressed_timeout` at a check made while pressed."""
        if self._deadline is not None:
            self._deadline.cancel()
        self._body_deadline = body
        self._give_up_at = self.loop.time() + timeout
        self._check_later(self.cycle, body)

    def _check_later(self, cycle: object, body: bool) -> None:
        # Pressure can come at any time: look again every pressed_timeout.
        left = min(self._give_up_at - self.loop.time(), self.pressed_timeout)
        self._deadline = self.loop.call_later(left, self._deadline_passed, cycle, body)

    def _deadline_passed(self, cycle: object, body: bool) -> None:
        if self.transport.is_closing() or self.cycle is not cycle:
            return  # A new request has come since the deadline was set.
        if self._refused:
            self.transport.close()  # The refused client's time to read why is up.
            return
        if body:
            # The request's body is still coming (the app may be answering already).
            late = self.cycle is not None and self.cycle.more_body
        else:
            # Still no new request, and none running.
            late = self.cycle is None or self.cycle.response_complete
        if not late:
            return
        if self._pressed() or self.loop.time() >= self._give_up_at - _CLOCK_SLACK:
            self.transport.close()
        else:
            self._check_later(cycle, body)


_BODY_HEADERS = frozenset({b"content-length", b"transfer-encoding"})
"""The headers that announce a body (HTTP/1.1: without them, a request has none)."""

_CLOCK_SLACK = 0.001
"""Seconds early a timer may fire (the loop's clock resolution), still counted as on time."""


def guarded_protocol(
    ledger: ClientLedger, header_timeout: float = HEADER_TIMEOUT
) -> type[GuardedHttpToolsProtocol]:
    """The protocol class for one server: its connections counted in ``ledger``."""

    class ServerProtocol(GuardedHttpToolsProtocol):
        pass

    ServerProtocol.ledger = ledger
    ServerProtocol.header_timeout = header_timeout
    return ServerProtocol


def _refusal_bytes(error: ServiceError) -> bytes:
    """The whole response refusing a connection for ``error``, as the error table answers it."""
    answer = answer_for(error)
    return _error_bytes(answer.status, answer.code, str(error), answer.headers)


def _error_bytes(
    status: int, code: str, detail: str, headers: tuple[tuple[str, str], ...] = ()
) -> bytes:
    """An error response in the one shape, written by the protocol itself; it closes the connection."""
    body = json.dumps({"error": code, "detail": detail}, separators=(",", ":")).encode()
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", "content-type: application/json"]
    lines += [f"{name.lower()}: {value}" for name, value in headers]
    lines += [f"content-length: {len(body)}", "connection: close", "", ""]
    return "\r\n".join(lines).encode("latin-1") + body
