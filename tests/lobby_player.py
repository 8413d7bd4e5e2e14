"""Helpers of the lobby clients' tests: a scripted player speaking the lobby API with httpx.

The scripted player is independent of the clients under test (the bot,
``connect.py --lobby``, the page): it registers, seeks, accepts and plays
through plain HTTP, as the contract (LOBBY_API.md) writes it. Every wait is
a long poll or a condition, bounded by :data:`DEADLINE`, which only ever
fails a test.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from server_support import HTTP, Server

DEADLINE = 120.0
"""Seconds any one wait of a test may last before the test fails."""

Chooser = Callable[[list[int], int, int], int]
"""Picks the scripted player's column from the moves so far, the rows and the columns."""


@contextmanager
def lobby_service(folder: Path) -> Iterator[str]:
    """A service of the test's own (a fresh SQLite file), so no other test's seeks are in its lobby."""
    server = Server(folder / "games.db")
    server.start()
    try:
        yield server.url
    finally:
        server.close()


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def register(base: str, name: str, bot: bool = False) -> str:
    """Make the player ``name``; their key."""
    answer = HTTP.post(f"{base}/players", json={"name": name, "bot": bot}, timeout=30)
    assert answer.status_code == 201, answer.text
    key: str = answer.json()["key"]
    return key


def open_seek(base: str, key: str, **body: Any) -> dict[str, Any]:
    """Open a challenge with ``body``'s fields; the seek."""
    answer = HTTP.post(f"{base}/lobby/seeks", json=body, headers=bearer(key), timeout=30)
    assert answer.status_code == 201, answer.text
    seek: dict[str, Any] = answer.json()
    return seek


def lobby(base: str, key: str | None = None) -> dict[str, Any]:
    headers = bearer(key) if key else {}
    answer = HTTP.get(f"{base}/lobby", headers=headers, timeout=30)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def wait_for_seek(base: str, key: str, by: str) -> dict[str, Any]:
    """The first open challenge of ``by``, once the lobby shows one (pushed: ``since``/``wait``)."""
    deadline = time.monotonic() + DEADLINE
    body = lobby(base, key)
    while time.monotonic() < deadline:
        for seek in body["seeks"]:
            if seek["by"] == by:
                return dict(seek)
        answer = HTTP.get(
            f"{base}/lobby",
            params={"since": body["version"], "wait": 10},
            headers=bearer(key),
            timeout=40,
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
    raise AssertionError(f"{by} never opened a challenge")


def wait_for_game(base: str, key: str, known: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The player's first running game not in ``known``, as ``GET /lobby/me`` pushes it."""
    deadline = time.monotonic() + DEADLINE
    answer = HTTP.get(f"{base}/lobby/me", headers=bearer(key), timeout=30)
    while time.monotonic() < deadline:
        assert answer.status_code == 200, answer.text
        body = answer.json()
        for game in body["games"]:
            if game["state"] == "IN_PROGRESS" and game["gameId"] not in known:
                return dict(game)
        answer = HTTP.get(
            f"{base}/lobby/me",
            params={"since": body["version"], "wait": 10},
            headers=bearer(key),
            timeout=40,
        )
    raise AssertionError("no game came")


def column_moves(base: str, game_id: str) -> list[dict[str, Any]]:
    answer = HTTP.get(f"{base}/drop_token/{game_id}/moves", timeout=30)
    assert answer.status_code == 200, answer.text
    moves: list[dict[str, Any]] = answer.json()["moves"]
    return moves


def first_open(preferences: list[int]) -> Chooser:
    """The first column of ``preferences`` that is not full."""

    def choose(moves: list[int], rows: int, columns: int) -> int:
        for column in preferences + list(range(columns)):
            if moves.count(column) < rows:
                return column
        raise AssertionError("the board is full")

    return choose


def play_out(base: str, ticket: dict[str, Any], choose: Chooser) -> dict[str, Any]:
    """Play the ticket's game to its end with ``choose``; the game's final state."""
    game_id = ticket["gameId"]
    side = ticket["players"].index(ticket["you"])
    url = f"{base}/drop_token/{game_id}"
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        # The moves first, then the state: a game still in progress after the moves were
        # read was in progress when they were, so a count saying it is our turn holds (the
        # other order let the opponent's winning move in between: a move after the end).
        moves = column_moves(base, game_id)
        state = HTTP.get(url, timeout=30).json()
        if state["state"] == "DONE":
            return dict(state)
        if any(move["type"] != "MOVE" for move in moves):
            continue  # a quit: the state says DONE at the next read
        if len(moves) % 2 == side:
            columns = [int(move["column"]) for move in moves]
            play(base, ticket, choose(columns, ticket["rows"], ticket["columns"]))
        else:
            HTTP.get(f"{url}/moves", params={"start": len(moves), "wait": 10}, timeout=40)
    raise AssertionError(f"game {game_id} did not end")


def friend_status(base: str, ticket: dict[str, Any], since: str | None = None) -> dict[str, Any]:
    """The game's status for the ticket's player (``GET /friend_game``); with ``since``, the next."""
    params = {"player": ticket["you"]}
    if since is not None:
        params.update(since=since, wait="10")
    answer = HTTP.get(
        f"{base}/friend_game/{ticket['gameId']}",
        params=params,
        headers=bearer(ticket["token"]),
        timeout=40,
    )
    assert answer.status_code == 200, answer.text
    status: dict[str, Any] = answer.json()
    return status


def _post_as_player(url: str, ticket: dict[str, Any], body: dict[str, Any]) -> None:
    """POST ``body`` to ``url`` with the ticket's token; it must be taken (200)."""
    answer = HTTP.post(url, json=body, headers=bearer(ticket["token"]), timeout=30)
    assert answer.status_code == 200, answer.text


def offer(base: str, ticket: dict[str, Any], kind: str) -> None:
    """Offer ``kind`` (draw, takeback, rematch) to the other player of the ticket's game."""
    url = f"{base}/friend_game/{ticket['gameId']}/{ticket['you']}/offer"
    _post_as_player(url, ticket, {"kind": kind})


def status_when(
    base: str, ticket: dict[str, Any], condition: Callable[[dict[str, Any]], bool], what: str
) -> dict[str, Any]:
    """The game's status once ``condition`` holds for it (pushed: ``since``/``wait``)."""
    deadline = time.monotonic() + DEADLINE
    status = friend_status(base, ticket)
    while not condition(status):
        assert time.monotonic() < deadline, f"never {what}: {status}"
        status = friend_status(base, ticket, status["version"])
    return status


def play(base: str, ticket: dict[str, Any], column: int) -> None:
    """Play ``column`` as the ticket's player."""
    url = f"{base}/drop_token/{ticket['gameId']}/{ticket['you']}"
    _post_as_player(url, ticket, {"column": column})
