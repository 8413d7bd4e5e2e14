"""The lobby's stream (``GET /lobby/events``) on real service processes: across processes, and stopping.

A stream's first event is read before anything changes: the stream is then
following the lobby (its process's feeder watches the lobby before it reads),
so a change made afterwards can reach it only by a wake; here, one from
another process through the database (SQLite's ``move_log``, PostgreSQL's
NOTIFY). Stopping a server (SIGTERM) ends its open streams at once, each
with its last chunk, instead of holding the shutdown for as long as they stay.
"""

from __future__ import annotations

import signal
from collections.abc import Callable

import pytest
from event_stream import SocketStream, event_of

from server_support import HTTP, Server

pytestmark = pytest.mark.slow

StartServer = Callable[..., Server]


def test_a_seek_made_on_one_process_comes_to_a_stream_on_another(start_server: StartServer) -> None:
    first, second = start_server(), start_server()
    response = HTTP.post(f"{first.url}/players", json={"name": "ann"}, timeout=30)
    key = response.json()["key"]
    stream = SocketStream(second.url, "/lobby/events")
    try:
        assert stream.status == 200
        version, _ = event_of(stream.read())
        seek = HTTP.post(
            f"{first.url}/lobby/seeks",
            json={},
            headers={"Authorization": f"Bearer {key}"},
            timeout=30,
        ).json()
        later, view = event_of(stream.read())
        assert later > version
        assert [listed["id"] for listed in view["seeks"]] == [seek["id"]]
    finally:
        stream.close()


def test_stopping_the_server_ends_its_open_streams_at_once(start_server: StartServer) -> None:
    server = start_server()
    streams = [SocketStream(server.url, "/lobby/events") for _ in range(3)]
    for stream in streams:
        event_of(stream.read())
    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)
    # Held open, the streams would keep the server waiting for them (and the reads would fail).
    for stream in streams:
        assert stream.ended()
        stream.close()
    # uvicorn ends by raising the signal it caught again, once it has shut down.
    assert server.process.wait(timeout=30) in (0, -signal.SIGTERM)
