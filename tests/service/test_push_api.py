"""The long poll, GET /drop_token/{gameId}/moves?wait=S, through a AppClient on both databases.

A waiting request runs in a thread; the test waits for the app's hub to
count it as waiting before it moves, so each wake is really a push. Whether
a request waited at all, and what woke it, the hub tells (``hub_calls``):
no test reads the clock.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from app_client import AppClient

from connect_four.service.events import EventHub, Watched
from connect_four.service.limits import MAX_WAIT
from server_support import answered_before_storage

pytestmark = pytest.mark.slow

NewGame = Callable[..., str]


class HubCalls:
    """What the app's hub was asked: each wait (its time and whether news ended it), each wake."""

    def __init__(self) -> None:
        self.waits: list[tuple[float, bool]] = []
        self.wakes: list[str] = []


@pytest.fixture
def hub_calls(client: AppClient, monkeypatch: pytest.MonkeyPatch) -> Iterator[HubCalls]:
    """The calls the app's hub gets from now on, recorded as they pass through."""
    hub: EventHub = client.app.state.events  # type: ignore[attr-defined]
    calls = HubCalls()
    changed, wake = hub.changed, hub.wake

    async def recorded_changed(
        watched: Watched, seen: int, timeout: float, gone: asyncio.Future[None] | None = None
    ) -> bool:
        news = await changed(watched, seen, timeout, gone)
        calls.waits.append((timeout, news))
        return news

    def recorded_wake(game_id: str) -> None:
        calls.wakes.append(game_id)
        wake(game_id)

    monkeypatch.setattr(hub, "changed", recorded_changed)
    monkeypatch.setattr(hub, "wake", recorded_wake)
    yield calls


class Waiter(threading.Thread):
    """One GET in a thread of its own, and its response."""

    def __init__(self, client: AppClient, path: str) -> None:
        super().__init__()
        self.client, self.path = client, path
        self.response: httpx.Response | None = None

    def run(self) -> None:
        self.response = self.client.get(self.path)

    def result(self) -> httpx.Response:
        self.join(timeout=30)
        assert self.response is not None, "the waiting request never answered"
        return self.response


def start_waiters(client: AppClient, path: str, count: int = 1) -> list[Waiter]:
    """Start ``count`` waiting requests and return once the hub holds them all."""
    hub = client.app.state.events  # type: ignore[attr-defined]
    already = hub.waiting
    waiters = [Waiter(client, path) for _ in range(count)]
    for waiter in waiters:
        waiter.start()
    deadline = time.monotonic() + 30
    while hub.waiting < already + count:
        assert time.monotonic() < deadline, "the requests never started waiting"
        assert all(waiter.is_alive() for waiter in waiters), "a request answered at once"
        time.sleep(0.001)
    return waiters


def move(client: AppClient, game_id: str, player: str, column: int, **headers: str) -> Any:
    return client.post(f"/drop_token/{game_id}/{player}", json={"column": column}, headers=headers)


@answered_before_storage
@pytest.mark.parametrize("wait", ["0", "-1", f"{MAX_WAIT + 0.5:g}", "nan", "inf", "soon", ""])
def test_a_wait_out_of_range_is_a_clear_400(
    client: AppClient, new_game: NewGame, wait: str
) -> None:
    game_id = new_game(client)
    response = client.get(f"/drop_token/{game_id}/moves?start=0&wait={wait}")
    assert response.status_code == 400, response.text
    assert response.json()["error"] == "malformed_request"
    assert "wait" in response.json()["detail"]


def test_a_five_minute_wait_is_taken_and_a_longer_one_refused_with_the_tables_body(
    client: AppClient, new_game: NewGame
) -> None:
    game_id = new_game(client)
    assert move(client, game_id, "p1", 3).status_code == 200
    taken = client.get(f"/drop_token/{game_id}/moves?start=0&wait=300")
    assert (taken.status_code, taken.json()) == (
        200,
        {"moves": [{"type": "MOVE", "player": "p1", "column": 3}]},
    )
    refused = client.get(f"/drop_token/{game_id}/moves?start=0&wait=300.5")
    assert refused.status_code == 400
    assert refused.content == (
        b'{"error":"malformed_request","detail":"query parameter wait: must be at most 300"}'
    )


def test_a_move_already_there_is_answered_at_once_exactly_as_without_wait(
    client: AppClient, new_game: NewGame, hub_calls: HubCalls
) -> None:
    game_id = new_game(client)
    assert move(client, game_id, "p1", 0).status_code == 200
    assert move(client, game_id, "p2", 1).status_code == 200
    for query in ("start=0", "start=1", "start=0&until=0", ""):
        plain = client.get(f"/drop_token/{game_id}/moves?{query}")
        waited = client.get(f"/drop_token/{game_id}/moves?{query}&wait={MAX_WAIT:g}")
        assert (waited.status_code, waited.content) == (200, plain.content)
        assert waited.headers["content-type"] == plain.headers["content-type"]
    assert hub_calls.waits == []  # none of them waited


def test_with_no_news_the_answer_after_the_wait_is_the_seeds(
    client: AppClient, new_game: NewGame, hub_calls: HubCalls
) -> None:
    game_id = new_game(client)
    assert move(client, game_id, "p1", 2).status_code == 200
    waited = client.get(f"/drop_token/{game_id}/moves?start=1&wait=0.3")
    # It waited (again after any spurious wake) the time asked for at most, till it ran out.
    assert hub_calls.waits, "answered without waiting"
    assert all(0 < timeout <= 0.3 for timeout, _ in hub_calls.waits)
    assert hub_calls.waits[-1][1] is False
    plain = client.get(f"/drop_token/{game_id}/moves?start=1")
    assert (waited.status_code, waited.content) == (404, plain.content)
    assert waited.json()["error"] == "move_not_found"
    # Without start, a game with no moves waits for move 0, then answers the empty list.
    empty = new_game(client)
    waited = client.get(f"/drop_token/{empty}/moves?wait=0.2")
    assert (waited.status_code, waited.json()) == (200, {"moves": []})


def test_a_finished_game_answers_at_once(
    client: AppClient, new_game: NewGame, hub_calls: HubCalls
) -> None:
    game_id = new_game(client)
    assert client.delete(f"/drop_token/{game_id}/p2").status_code == 202
    response = client.get(f"/drop_token/{game_id}/moves?start=1&wait={MAX_WAIT:g}")
    assert response.status_code == 404
    assert response.json()["error"] == "move_not_found"
    assert hub_calls.waits == []


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/drop_token/{unknown}/moves?wait=60", 404, "game_not_found"),
        ("/drop_token/no-such-game/moves?wait=60", 404, "game_not_found"),
        ("/drop_token/{game}/moves?start=3&until=1&wait=60", 400, "bad_range"),
        ("/drop_token/{game}/moves?start=-1&wait=60", 400, "malformed_request"),
    ],
)
def test_errors_are_answered_at_once(
    client: AppClient, new_game: NewGame, hub_calls: HubCalls, path: str, status: int, code: str
) -> None:
    url = path.format(unknown="0" * 32, game=new_game(client))
    response = client.get(url)
    assert (response.status_code, response.json()["error"]) == (status, code)
    assert hub_calls.waits == []


def test_a_move_wakes_every_waiter_of_its_game_and_only_them(
    client: AppClient, new_game: NewGame
) -> None:
    game_id, other = new_game(client), new_game(client)
    bystander = start_waiters(client, f"/drop_token/{other}/moves?start=0&wait=1")[0]
    waiters = start_waiters(client, f"/drop_token/{game_id}/moves?start=0&wait=30", count=5)
    assert move(client, game_id, "p1", 3).status_code == 200
    for waiter in waiters:
        response = waiter.result()
        # The 30 s wait ran out with the seed's 404: this answer came by the wake.
        assert response.json() == {"moves": [{"type": "MOVE", "player": "p1", "column": 3}]}
    assert bystander.result().status_code == 404  # its wait ran out: nothing moved there


def test_a_quit_wakes_the_waiter_and_counts_as_a_move(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["ann", "bob", "cy"])
    assert move(client, game_id, "ann", 0).status_code == 200
    (waiter,) = start_waiters(client, f"/drop_token/{game_id}/moves?start=1&wait=30")
    assert client.delete(f"/drop_token/{game_id}/bob").status_code == 202
    assert waiter.result().json() == {"moves": [{"type": "QUIT", "player": "bob"}]}


def test_a_refused_move_wakes_nobody(
    client: AppClient, new_game: NewGame, hub_calls: HubCalls
) -> None:
    game_id = new_game(client)
    (waiter,) = start_waiters(client, f"/drop_token/{game_id}/moves?start=0&wait=30")
    assert move(client, game_id, "p2", 0).status_code == 409  # not p2's turn: nothing stored
    # A wake the refusal sent has run on the app's loop before the next request.
    assert client.get(f"/drop_token/{game_id}").status_code == 200
    assert hub_calls.wakes == []
    assert move(client, game_id, "p1", 0).status_code == 200
    assert waiter.result().json() == {"moves": [{"type": "MOVE", "player": "p1", "column": 0}]}


def test_spectators_follow_a_game_with_tokens_without_any_token(client: AppClient) -> None:
    created = client.post(
        "/drop_token", json={"players": ["ann", "bob"], "rows": 4, "columns": 4, "tokens": True}
    ).json()
    game_id, tokens = created["gameId"], created["tokens"]
    (spectator,) = start_waiters(client, f"/drop_token/{game_id}/moves?start=0&wait=30")
    assert move(client, game_id, "ann", 1).status_code == 401  # players still need theirs
    assert (
        move(client, game_id, "ann", 1, authorization=f"Bearer {tokens['bob']}").status_code == 403
    )
    assert (
        move(client, game_id, "ann", 1, authorization=f"Bearer {tokens['ann']}").status_code == 200
    )
    assert spectator.result().json()["moves"] == [{"type": "MOVE", "player": "ann", "column": 1}]
    for path in ("", "/moves", "/moves/0", "/moves?start=0&wait=1"):
        response = client.get(f"/drop_token/{game_id}{path}")
        assert response.status_code == 200, (path, response.text)
    assert client.get("/drop_token").json()["games"] == [game_id]


def test_the_openapi_document_describes_the_wait(client: AppClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/drop_token/{gameId}/moves"]["get"]
    (wait,) = [parameter for parameter in operation["parameters"] if parameter["name"] == "wait"]
    schema = wait["schema"]["anyOf"][0]
    assert (schema["exclusiveMinimum"], schema["maximum"]) == (0, MAX_WAIT)
    assert "start" in wait["description"]
    assert "long poll" in operation["description"]
    assert "wait" in operation["responses"]["400"]["description"]
