"""An app whose clock the test sets (games between friends), and helpers to play in it."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from app_client import AppClient

from connect_four.service.friends import Friends
from connect_four.service.main import create_app
from fake_clock import FakeClock as FakeClock  # the tests' clock, imported from here too
from server_support import Database


@contextmanager
def friend_app(database: Database, clock: FakeClock, **options: Any) -> Iterator[AppClient]:
    """An AppClient over a new app on ``database`` whose friends' games keep ``clock``'s time."""
    with AppClient(create_app(database, clock=clock, **options)) as client:
        yield client


def new_game(client: AppClient, **extra: Any) -> tuple[str, dict[str, str]]:
    """A game of ann and bob (4x4, with tokens) and its tokens; ``extra`` goes into the body."""
    body = {"players": ["ann", "bob"], "rows": 4, "columns": 4, "tokens": True, **extra}
    response = client.post("/drop_token", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    return answer["gameId"], answer["tokens"]


def bearer(token: str) -> dict[str, str]:
    """The header that sends ``token``."""
    return {"Authorization": f"Bearer {token}"}


def move(client: AppClient, game: str, tokens: dict[str, str], player: str, column: int) -> None:
    """``player`` drops into ``column``; the move must be accepted."""
    response = client.post(
        f"/drop_token/{game}/{player}", json={"column": column}, headers=bearer(tokens[player])
    )
    assert response.status_code == 200, response.text


class Waiter(threading.Thread):
    """One GET in a thread of its own, and its response."""

    def __init__(self, client: AppClient, url: str, **params: Any) -> None:
        super().__init__(daemon=True)
        token = params.pop("token", None)
        self.client, self.url, self.params = client, url, params
        self.headers = {} if token is None else bearer(token)
        self.response: httpx.Response | None = None

    def run(self) -> None:
        self.response = self.client.get(self.url, params=self.params, headers=self.headers)

    def answer(self) -> dict[str, Any]:
        """The answer's JSON, once it came (within the test's patience)."""
        self.join(60)
        assert self.response is not None, "no answer came"
        assert self.response.status_code == 200, self.response.text
        answer: dict[str, Any] = self.response.json()
        return answer


def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (in real time, at most a minute) until ``condition`` holds."""
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.002)


def friends_of(client: AppClient) -> Friends:
    """The app's record of games between friends (to see who waits)."""
    friends: Friends = client.app.state.friends  # type: ignore[attr-defined]
    return friends


def wait_as(
    client: AppClient,
    game: str,
    tokens: dict[str, str],
    player: str,
    since: str | None = None,
    wait: float = 30,
) -> Waiter:
    """``player`` waits for news of the game after version ``since``; started, and waiting.

    Without ``since``, the version that ``player`` sees now (present).
    """
    if since is None:
        seen = client.get(
            f"/friend_game/{game}", params={"player": player}, headers=bearer(tokens[player])
        )
        since = str(seen.json()["version"])
    friends = friends_of(client)
    number = ["ann", "bob"].index(player)
    before = friends._open.get((game, number), 0)
    waiter = Waiter(
        client, f"/friend_game/{game}", player=player, since=since, wait=wait, token=tokens[player]
    )
    waiter.start()
    until(
        lambda: friends._open.get((game, number), 0) > before or not waiter.is_alive(),
        f"{player} waits",
    )
    return waiter


def status(client: AppClient, game: str) -> dict[str, Any]:
    """The game between friends' status, as a spectator sees it."""
    response = client.get(f"/friend_game/{game}")
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def present(answer: dict[str, Any]) -> dict[str, bool]:
    """Who is present, by name, in a status answer."""
    return {player["name"]: player["present"] for player in answer["players"]}
