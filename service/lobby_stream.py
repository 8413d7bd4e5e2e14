"""The lobby's feed as a stream of Server-Sent Events (``GET /lobby/events``).

A long poll costs each watcher a whole request a change (about 0.25 ms of
the framework's own work per watcher: 1,000 watchers, a quarter of a
second of one core). A stream costs a change one write of bytes encoded
once: one task per process, the *feeder*, waits for the lobby's changes in
the :class:`~connect_four.service.events.EventHub` (woken by this
process's changes and, through the database, the other processes', as the
long poll is), reads the view once, encodes it once as an SSE event, and
wakes every open stream, which writes those same bytes to its client.

An event is ``id: <version>`` and ``data: <the JSON of GET /lobby>``; a
stream's first event is the view at connection, left out when the
client's ``Last-Event-ID`` (a browser's reconnection) is that version
already. While nothing changes, a comment every :attr:`LobbyStreams.heartbeat`
seconds keeps proxies and idle-connection guards from closing the stream.
A stream ends when its client goes (``http.disconnect``) or when the
server stops (:meth:`EventHub.close`, which
:class:`~connect_four.service.push_server.WakingServer` calls first): the
server's stop never waits on an open stream.

The feeder runs only while some stream is open, so a process without
streams watches nothing more than before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import Literal

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from .errors import StorageError
from .events import EventHub
from .lobby import Lobby
from .lobby_store import LOBBY_KEY
from .long_poll import client_gone
from .store_calls import call_store

__all__ = ["HEARTBEAT", "STREAM_HEADERS", "LobbyEventStream", "LobbyStreams", "lobby_event"]

HEARTBEAT = 20.0
"""Seconds between two comments on a stream while the lobby does not change: under the
minute after which proxies (nginx's ``proxy_read_timeout``: 60 s) close a silent connection."""

STREAM_HEADERS: Mapping[str, str] = {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Accel-Buffering": "no",
}
"""A stream's headers: never cached, and sent on by nginx as it comes (not buffered)."""

BEAT = b": beat\n\n"
"""A heartbeat: an SSE comment, which clients skip."""

Wake = Literal["news", "beat", "gone"]
"""Why a stream was woken: the lobby changed, a heartbeat is due, or its client went."""

_log = logging.getLogger("connect_four.service.lobby_stream")


def lobby_event(version: int, view: bytes) -> bytes:
    """The SSE event of the lobby's ``view`` (one line of JSON) at ``version``.

    >>> lobby_event(7, b'{"version":7}')
    b'id: 7\\ndata: {"version":7}\\n\\n'
    """
    return b"id: %d\ndata: %s\n\n" % (version, view)


def _body(data: bytes, more: bool = True) -> dict[str, object]:
    return {"type": "http.response.body", "body": data, "more_body": more}


class LobbyStreams:
    """The open streams of one process's lobby feed, and the feeder that wakes them.

    One per app, used from its event loop only. :attr:`heartbeat` is the
    seconds between two comments (tests set it small).
    """

    def __init__(self, lobby: Lobby, events: EventHub, heartbeat: float = HEARTBEAT) -> None:
        self.lobby = lobby
        self.events = events
        self.heartbeat = heartbeat
        self.latest: tuple[int, bytes] | None = None
        """The feeder's last read: the lobby's version and its event, encoded once."""
        self.open = 0
        """Streams open in this process (for tests and benchmarks)."""
        self._waiting: set[asyncio.Future[Wake]] = set()
        self._feeder: asyncio.Task[None] | None = None

    async def serve(
        self,
        send: Send,
        receive: Receive,
        headers: list[tuple[bytes, bytes]],
        last_event_id: str | None,
    ) -> None:
        """Stream the lobby to one client (``headers`` its head's) until it goes or the server stops.

        Raises (before anything is sent, so the client is answered an error):
            StorageError: the lobby's view cannot be read.
        """
        self.open += 1
        self._start_feeder()
        gone: asyncio.Future[None] | None = None
        try:
            version, view = await call_store(self.lobby.store, self.lobby.lobby_json)
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            if last_event_id != str(version):
                await send(_body(lobby_event(version, view)))
            gone = asyncio.ensure_future(client_gone(receive))
            await self._follow(send, gone, version)
            await send(_body(b"", more=False))
        finally:
            if gone is not None:
                gone.cancel()
                if gone.done() and not gone.cancelled():
                    gone.exception()  # Retrieved: the client's leaving needs no more word.
            self.open -= 1
            if not self.open and self._feeder is not None:
                self._feeder.cancel()  # Nobody left to feed: watch the lobby no more.
                self._feeder = None

    async def _follow(self, send: Send, gone: asyncio.Future[None], sent: int) -> None:
        """Write each newer event and each heartbeat, until ``gone`` or the server stops."""
        loop = asyncio.get_running_loop()
        while not (gone.done() or self.events.closing):
            latest = self.latest
            if latest is not None and latest[0] > sent:
                sent = latest[0]
                await send(_body(latest[1]))
                continue  # The feeder may have read again while the client was slow.
            self._start_feeder()  # Again, should it have ended: only a stop ends it for good.
            wake: asyncio.Future[Wake] = loop.create_future()
            self._waiting.add(wake)

            def leave(_: asyncio.Future[None], wake: asyncio.Future[Wake] = wake) -> None:
                if not wake.done():
                    wake.set_result("gone")

            gone.add_done_callback(leave)
            try:
                why = await wake
            finally:
                self._waiting.discard(wake)
                gone.remove_done_callback(leave)
            if why == "beat" and not self.events.closing:
                await send(_body(BEAT))

    def _wake(self, why: Wake) -> None:
        waiting, self._waiting = self._waiting, set()
        for wake in waiting:
            if not wake.done():
                wake.set_result(why)

    def _start_feeder(self) -> None:
        if self._feeder is None or self._feeder.done():
            self._feeder = asyncio.create_task(self._feed())

    async def _feed(self) -> None:
        """Read the lobby at each change and wake the streams, or wake them for a heartbeat."""
        try:
            with self.events.watch(LOBBY_KEY) as watched:
                seen = watched.generation  # Noted before reading: no change is missed.
                await self._read()
                while not self.events.closing:
                    changed = await self.events.changed(watched, seen, self.heartbeat)
                    if self.events.closing:
                        break  # The server stops: end the streams now, without a read.
                    if changed:
                        seen = watched.generation
                        await self._read()
                    else:
                        self._wake("beat")  # Nothing changed: no read (a wake says when).
        finally:
            self._wake("beat")  # Ended: each stream sees the server stopping, or starts another.

    async def _read(self) -> None:
        """Read the lobby's view; if its version moved, encode it once and wake the streams."""
        try:
            version, view = await call_store(self.lobby.store, self.lobby.lobby_json)
        except StorageError as error:
            _log.warning("lobby stream: %s", error)  # The database's fault: the next wake reads.
            return
        except Exception:
            _log.exception("lobby stream: reading the lobby failed")
            return
        latest = self.latest
        if latest is None or latest[0] != version:
            self.latest = (version, lobby_event(version, view))
            self._wake("news")


class LobbyEventStream(Response):
    """The response of ``GET /lobby/events``: the client's stream, holding one of its waits.

    ``hold`` is the client's place among its waits (WaitLedger), taken when
    the response begins: a client over its bound is answered 429 instead.
    """

    media_type = STREAM_HEADERS["Content-Type"]

    def __init__(
        self,
        streams: LobbyStreams,
        hold: AbstractContextManager[None],
        last_event_id: str | None,
    ) -> None:
        self.status_code = 200
        self.background = None
        self.raw_headers = [
            (name.lower().encode(), value.encode()) for name, value in STREAM_HEADERS.items()
        ]
        self.streams = streams
        self.hold = hold
        self.last_event_id = last_event_id

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        with self.hold:
            await self.streams.serve(send, receive, self.raw_headers, self.last_event_id)
