"""Clocks of games between friends (issue 35): kept by the service's clock, which the test sets."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from app_client import AppClient
from friend_support import FakeClock, Waiter, friend_app, move, new_game, until

from server_support import Database


@pytest.fixture
def client(database: Database, clock: FakeClock) -> Iterator[AppClient]:
    with friend_app(database, clock) as test_client:
        yield test_client


def test_a_game_without_a_clock_answers_as_the_seed(client: AppClient) -> None:
    game, _ = new_game(client)
    assert client.get(f"/drop_token/{game}").json() == {
        "players": ["ann", "bob"],
        "state": "IN_PROGRESS",
        "rows": 4,
        "columns": 4,
        "connect": 4,
    }


def test_the_clock_runs_from_the_first_move_with_its_increment(
    client: AppClient, clock: FakeClock
) -> None:
    game, tokens = new_game(client, clock={"minutes": 5, "increment": 3})
    assert client.get(f"/drop_token/{game}").json()["clock"] == {"ann": 300, "bob": 300}
    clock.advance(50)  # Before the first move nobody's time runs.
    move(client, game, tokens, "ann", 0)
    clock.advance(20)
    assert client.get(f"/drop_token/{game}").json()["clock"] == {"ann": 300, "bob": 280}
    move(client, game, tokens, "bob", 1)
    clock.advance(10)
    assert client.get(f"/drop_token/{game}").json()["clock"] == {"ann": 290, "bob": 283}


def test_a_flag_falls_when_a_request_sees_it(client: AppClient, clock: FakeClock) -> None:
    game, tokens = new_game(client, clock={"minutes": 1})
    move(client, game, tokens, "ann", 0)
    clock.advance(59)
    assert client.get(f"/drop_token/{game}").json()["state"] == "IN_PROGRESS"
    clock.advance(1)
    state = client.get(f"/drop_token/{game}").json()
    assert (state["state"], state["winner"], state["reason"]) == ("DONE", "ann", "TIMEOUT")
    assert state["clock"] == {"ann": 60, "bob": 0}
    assert client.get(f"/drop_token/{game}/moves").json()["moves"][-1] == {
        "type": "TIMEOUT",
        "player": "bob",
    }
    assert client.get(f"/drop_token/{game}/moves/1").json()["type"] == "TIMEOUT"
    late = client.post(
        f"/drop_token/{game}/bob",
        json={"column": 1},
        headers={"Authorization": f"Bearer {tokens['bob']}"},
    )
    # The flag fall is bob's quit: the engine says he is out of the game.
    assert late.status_code == 404 and late.json()["error"] == "player_not_active"
    assert game not in client.get("/drop_token").json()["games"]


def test_a_move_after_the_flag_fell_is_refused(client: AppClient, clock: FakeClock) -> None:
    game, tokens = new_game(client, clock={"minutes": 1})
    move(client, game, tokens, "ann", 0)
    clock.advance(61)
    late = client.post(
        f"/drop_token/{game}/bob",
        json={"column": 1},
        headers={"Authorization": f"Bearer {tokens['bob']}"},
    )
    assert late.json()["error"] == "player_not_active", late.text
    assert client.get(f"/drop_token/{game}").json()["reason"] == "TIMEOUT"


def test_a_pending_wait_sees_the_flag_fall(client: AppClient, clock: FakeClock) -> None:
    game, tokens = new_game(client, clock={"minutes": 1})
    move(client, game, tokens, "ann", 0)
    waiter = Waiter(client, f"/drop_token/{game}/moves", start=1, wait=60)
    waiter.start()
    hub = client.app.state.events  # type: ignore[attr-defined]
    until(lambda: hub.waiting > 0, "the request waits")
    clock.advance(61)  # Nobody else asks: the waiting request alone sees the flag fall.
    assert waiter.answer() == {"moves": [{"type": "TIMEOUT", "player": "bob"}]}


def test_days_a_move_give_each_move_its_own_time(client: AppClient, clock: FakeClock) -> None:
    game, tokens = new_game(client, clock={"days": 2})
    move(client, game, tokens, "ann", 0)
    clock.advance(86400 * 1.5)
    move(client, game, tokens, "bob", 0)
    clock.advance(86400 * 1.9)
    assert client.get(f"/drop_token/{game}").json()["clock"] == {
        "ann": pytest.approx(86400 * 0.1),
        "bob": 86400 * 2,
    }
    status = client.get(f"/friend_game/{game}").json()
    assert status["clock"] == {"days": 2, "increment": 0}


@pytest.mark.parametrize(
    "clock_body",
    [
        {"minutes": 0},
        {"days": 1, "minutes": 5},
        {"increment": 3},
        {"days": 1, "increment": 2},
        {"minutes": 5, "seconds": 1},
    ],
)
def test_a_malformed_clock_is_refused(client: AppClient, clock_body: dict[str, int]) -> None:
    response = client.post(
        "/drop_token", json={"players": ["a", "b"], "rows": 4, "columns": 4, "clock": clock_body}
    )
    assert response.status_code == 400
    assert response.json()["error"] == "malformed_request"
