"""The lobby's feed as Server-Sent Events (``GET /lobby/events``), read from the app in-process.

Each stream is read event by event (tests/event_stream.py); nothing sleeps:
a change is made once the stream's first event is read, when the stream
is following the lobby already, and a heartbeat is waited for with the
app's interval set to a hundredth of a second.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_client import AppClient
from event_stream import AppStream, event_of
from lobby_support import register

from connect_four.service.errors import StorageBusyError
from connect_four.service.lobby_stream import LobbyStreams
from connect_four.service.main import create_app


def streams_of(client: AppClient) -> LobbyStreams:
    streams: LobbyStreams = client.app.state.lobby_streams  # type: ignore[attr-defined]
    return streams


def test_the_first_event_is_the_lobby_as_get_lobby_answers_it(client: AppClient) -> None:
    register(client, "ann").seek()
    stream = AppStream(client, "/lobby/events")
    try:
        assert stream.status == 200
        assert stream.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert stream.headers["x-accel-buffering"] == "no"
        assert stream.headers["cache-control"] == "no-store"
        version, view = event_of(stream.read())
        assert view == client.get("/lobby").json()
        assert version == view["version"] and len(view["seeks"]) == 1
    finally:
        stream.close()


def test_a_change_comes_as_the_next_event(client: AppClient) -> None:
    ann = register(client, "ann")
    stream = AppStream(client, "/lobby/events")
    try:
        first, _ = event_of(stream.read())
        seek = ann.seek()
        version, view = event_of(stream.read())
        assert version > first
        assert [listed["id"] for listed in view["seeks"]] == [seek["id"]]
        ann.delete(f"/lobby/seeks/{seek['id']}")
        later, view = event_of(stream.read())
        assert later > version and view["seeks"] == []
    finally:
        stream.close()


def test_a_client_that_has_the_version_gets_only_the_next_change(client: AppClient) -> None:
    ann = register(client, "ann")
    current = client.get("/lobby").json()["version"]
    stream = AppStream(client, "/lobby/events", {"Last-Event-ID": str(current)})
    try:
        seek = ann.seek()
        version, view = event_of(stream.read())  # Not the view of `current` again.
        assert version > current
        assert [listed["id"] for listed in view["seeks"]] == [seek["id"]]
    finally:
        stream.close()


def test_a_client_with_an_older_version_gets_the_view_at_once(client: AppClient) -> None:
    register(client, "ann").seek()
    current = client.get("/lobby").json()["version"]
    stream = AppStream(client, "/lobby/events", {"Last-Event-ID": str(current - 1)})
    try:
        assert event_of(stream.read())[0] == current
    finally:
        stream.close()


def test_a_heartbeat_comment_comes_while_nothing_changes(client: AppClient) -> None:
    streams_of(client).heartbeat = 0.01
    stream = AppStream(client, "/lobby/events")
    try:
        event_of(stream.read())
        assert stream.read() == b": beat"
        assert stream.read() == b": beat"  # Again and again.
    finally:
        stream.close()


@pytest.fixture
def bounded(tmp_path: Path) -> Iterator[AppClient]:
    """An app on SQLite whose clients may each hold two waits."""
    with AppClient(create_app(tmp_path / "games.db", max_client_waits=2)) as client:
        yield client


def test_a_client_holds_no_more_streams_than_its_waits(bounded: AppClient) -> None:
    first = AppStream(bounded, "/lobby/events")
    second = AppStream(bounded, "/lobby/events")
    third = AppStream(bounded, "/lobby/events")
    assert third.status == 429
    assert b'"too_many_waits"' in third.body()
    # Another address has its own.
    other = AppStream(bounded, "/lobby/events", host="192.0.2.7")
    assert other.status == 200
    # A long poll of the same client counts among the same waits.
    version = bounded.get("/lobby").json()["version"]
    poll = bounded.get("/lobby", params={"since": version, "wait": 1})
    assert poll.status_code == 429 and poll.json()["error"] == "too_many_waits"
    # A stream closed gives its place back.
    first.close()
    again = AppStream(bounded, "/lobby/events")
    assert again.status == 200
    for stream in (second, other, again):
        stream.close()


def test_a_database_fault_at_the_start_is_a_503_and_gives_the_wait_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with AppClient(create_app(tmp_path / "games.db", max_client_waits=1)) as client:
        lobby = client.app.state.lobby  # type: ignore[attr-defined]

        def busy() -> tuple[int, bytes]:
            raise StorageBusyError("the database is locked")

        monkeypatch.setattr(lobby, "lobby_json", busy)
        refused = AppStream(client, "/lobby/events")
        assert refused.status == 503
        assert b'"storage_busy"' in refused.body()
        monkeypatch.undo()
        stream = AppStream(client, "/lobby/events")  # The client's one wait is free again.
        assert stream.status == 200
        stream.close()


def test_a_stream_whose_client_left_ends_and_the_feeder_with_it(client: AppClient) -> None:
    streams = streams_of(client)
    streams.heartbeat = 3600  # Ended by the client's leaving, not seen at a heartbeat.
    stream = AppStream(client, "/lobby/events")
    event_of(stream.read())
    assert streams.open == 1
    stream.close()  # Returns once the app has finished the request: it fails if it does not.
    assert streams.open == 0
    assert not client.app.state.events.watching  # type: ignore[attr-defined]


def test_stopping_the_app_ends_its_open_streams(tmp_path: Path) -> None:
    client = AppClient(create_app(tmp_path / "games.db"))
    with client:
        streams = [AppStream(client, "/lobby/events") for _ in range(3)]
        for stream in streams:
            event_of(stream.read())
        client.submit(_close(client)).result(timeout=30)
        for stream in streams:
            assert stream.ended()


async def _close(client: AppClient) -> None:
    client.app.state.events.close()  # type: ignore[attr-defined]


def test_the_openapi_document_describes_the_stream(client: AppClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/lobby/events"]["get"]
    assert set(operation["responses"]) == {"200", "429", "503"}
    assert "text/event-stream; charset=utf-8" in operation["responses"]["200"]["content"]
    assert any(parameter["name"] == "Last-Event-ID" for parameter in operation["parameters"])
