"""A Server-Sent Events stream read from an app in its own process, one event at a time.

httpx's ``ASGITransport`` (and so :class:`~app_client.AppClient`) hands a
response over only once the app has finished it: a stream never finishes.
:class:`AppStream` calls the app itself on the client's loop, with a
channel that says ``http.disconnect`` when the test closes the stream, and
hands each message the app sends to the test's thread. Each read waits for
the app, bounded by :data:`READ_TIMEOUT`, which only ever fails a test.
"""

from __future__ import annotations

import asyncio
import json
import queue
from typing import Any

import raw_http
from app_client import AppClient, get_scope
from starlette.types import Message

READ_TIMEOUT = 30.0
"""Seconds any one read may wait for the app."""


class _Events:
    """A stream's body taken a piece at a time (``_take``) and cut into events."""

    buffer: bytes
    complete: bool

    def _take(self) -> None:
        raise NotImplementedError

    def read(self) -> bytes:
        """The next event or comment (its lines, without the blank line that ends it).

        Raises:
            AssertionError: the stream ended first.
        """
        while b"\n\n" not in self.buffer:
            assert not self.complete, f"the stream ended: {self.buffer!r}"
            self._take()
        block, _, self.buffer = self.buffer.partition(b"\n\n")
        return block


class AppStream(_Events):
    """``GET path`` sent to ``client``'s app from ``host``, its answer read as it comes."""

    def __init__(
        self,
        client: AppClient,
        path: str,
        headers: dict[str, str] | None = None,
        host: str = "testclient",
    ) -> None:
        self.messages: queue.Queue[Message] = queue.Queue()
        self.buffer = b""
        self.complete = False
        self._client = client
        self._leave: asyncio.Event | None = None
        scope = get_scope(path, headers, host=host)
        self.call = client.submit(self._run(scope))
        start = self._next()
        assert start["type"] == "http.response.start", start
        self.status: int = start["status"]
        self.headers = {name.decode(): value.decode() for name, value in start["headers"]}

    async def _run(self, scope: dict[str, Any]) -> None:
        self._leave = asyncio.Event()
        leave = self._leave

        async def receive() -> Message:
            await leave.wait()
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            self.messages.put(message)

        await self._client.app(scope, receive, send)

    def _next(self) -> Message:
        try:
            return self.messages.get(timeout=READ_TIMEOUT)
        except queue.Empty:
            raise AssertionError(f"the app sent nothing within {READ_TIMEOUT:g} s") from None

    def body(self) -> bytes:
        """The rest of the answer's body (an error's), once the app has finished it."""
        while not self.complete:
            self._take()
        rest, self.buffer = self.buffer, b""
        return rest

    def _take(self) -> None:
        message = self._next()
        assert message["type"] == "http.response.body", message
        self.buffer += message.get("body", b"")
        self.complete = not message.get("more_body", False)

    def ended(self) -> bool:
        """Wait for the stream's end: True if nothing but its last (empty) message came."""
        while not self.complete:
            self._take()
        self.call.result(timeout=READ_TIMEOUT)
        return self.buffer == b""

    def close(self) -> None:
        """Leave, as a client closing its connection; return once the app has finished."""
        leave = self._leave
        assert leave is not None
        self._client.submit(_set(leave)).result(timeout=READ_TIMEOUT)
        self.call.result(timeout=READ_TIMEOUT)


async def _set(event: asyncio.Event) -> None:
    event.set()


def event_of(block: bytes) -> tuple[int, Any]:
    """An event's id and its data read as JSON."""
    assert block.startswith(b"id: "), f"not an event: {block!r}"
    fields = dict(line.split(b": ", 1) for line in block.split(b"\n"))
    return int(fields[b"id"]), json.loads(fields[b"data"])


class SocketStream(_Events):
    """``GET path`` sent to a real server at ``url`` over a socket, its chunked answer read as it comes."""

    def __init__(self, url: str, path: str, headers: str = "", source: str | None = None) -> None:
        self.sock = raw_http.connect(url, source)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode())
        self.raw = b""
        while b"\r\n\r\n" not in self.raw:
            self._receive()
        head, _, self.raw = self.raw.partition(b"\r\n\r\n")
        self.status = raw_http.status_of(head)
        self.headers = raw_http.headers_of(head)
        self.buffer = b""
        self.complete = False

    def _receive(self) -> None:
        chunk = self.sock.recv(65536)
        assert chunk, f"the server closed the connection: {self.raw!r}"
        self.raw += chunk

    def _take(self) -> None:
        """One chunk of the body into :attr:`buffer` (the empty last one: :attr:`complete`)."""
        while b"\r\n" not in self.raw:
            self._receive()
        size_line, _, self.raw = self.raw.partition(b"\r\n")
        size = int(size_line, 16)
        while len(self.raw) < size + 2:
            self._receive()
        self.buffer += self.raw[:size]
        self.raw = self.raw[size + 2 :]
        self.complete = size == 0

    def ended(self) -> bool:
        """Wait for the stream's end and the connection's close: True if nothing else came."""
        while not self.complete:
            self._take()
        return self.buffer == b"" and raw_http.read_all(self.sock) == self.raw == b""

    def close(self) -> None:
        self.sock.close()
