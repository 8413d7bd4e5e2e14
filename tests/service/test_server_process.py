"""A real ``python -m connect_four.service`` process: restarts after SIGKILL, and racing requests."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from connect_four.engine import Game, Rules
from server_support import http_client

pytestmark = pytest.mark.slow

# The start_server fixture of conftest.py: starts a Server on a database.
StartServer = Callable[[Path | str | None], Any]


def replay(
    state: dict[str, object], moves: list[dict[str, object]], rows: int, columns: int
) -> Game:
    """The engine game the move list describes; players are named p0, p1..."""
    players = list(state["players"])  # type: ignore[call-overload]
    game = Game(Rules(rows, columns, 4), players=len(players))
    for move in moves:
        player = players.index(move["player"])
        if move["type"] == "QUIT":
            game.quit(player)
        else:
            game.play(move["column"], player)  # type: ignore[arg-type]
    return game


def test_sigkill_loses_no_acknowledged_move(start_server: StartServer) -> None:
    server = start_server(None)
    acknowledged: dict[str, list[int]] = {}
    failures: list[str] = []
    lock = threading.Lock()
    enough = threading.Event()
    total = [0]

    def player_loop(seed: int) -> None:
        """Play 6 x 7 games until the server dies; record every 200."""
        chooser = random.Random(seed)
        with http_client(base_url=server.url, timeout=30) as client:
            try:
                while True:
                    game_id = client.post(
                        "/drop_token", json={"players": ["p1", "p2"], "rows": 6, "columns": 7}
                    ).json()["gameId"]
                    game = Game(Rules(6, 7, 4))
                    while not game.is_over():
                        column = chooser.choice(game.legal_moves())
                        player = f"p{game.to_move + 1}"  # type: ignore[operator]
                        response = client.post(
                            f"/drop_token/{game_id}/{player}", json={"column": column}
                        )
                        if response.status_code != 200:
                            failures.append(response.text)
                            return
                        game.play(column)
                        with lock:
                            acknowledged.setdefault(game_id, []).append(column)
                            total[0] += 1
                            if total[0] >= 150:
                                enough.set()
            except httpx.TransportError:
                return  # The server was killed.

    threads = [threading.Thread(target=player_loop, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    # Wait for 150 acknowledged moves (or for every player to have stopped).
    while not enough.wait(0.1):
        if not any(thread.is_alive() for thread in threads):
            break
    server.kill()  # Mid-game: the four players are still posting.
    for thread in threads:
        thread.join()
    assert not failures
    assert total[0] >= 150

    restarted = start_server(server.db)
    with http_client(base_url=restarted.url, timeout=30) as client:
        for game_id, columns in acknowledged.items():
            moves = client.get(f"/drop_token/{game_id}/moves").json()["moves"]
            # Every acknowledged move is there, in order; at most one more
            # (committed, but killed before its response was read).
            assert [move["column"] for move in moves[: len(columns)]] == columns
            assert len(moves) - len(columns) in (0, 1)
        # The restarted server goes on with an unfinished game.
        unfinished = client.get("/drop_token").json()["games"]
        if not unfinished:  # Killed between every player's games: start one.
            unfinished = [
                client.post(
                    "/drop_token", json={"players": ["p1", "p2"], "rows": 6, "columns": 7}
                ).json()["gameId"]
            ]
        game_id = unfinished[0]
        moves = client.get(f"/drop_token/{game_id}/moves").json()["moves"]
        state = client.get(f"/drop_token/{game_id}").json()
        game = replay(state, moves, 6, 7)
        player = f"p{game.to_move + 1}"  # type: ignore[operator]
        response = client.post(
            f"/drop_token/{game_id}/{player}", json={"column": game.legal_moves()[0]}
        )
        assert response.json() == {"move": f"{game_id}/moves/{len(moves)}"}


def test_twenty_racing_posts_of_one_move_yield_one_200(start_server: StartServer) -> None:
    """Two server processes on one database, ten posts to each: one is accepted."""
    server = start_server(None)
    other = start_server(server.db)
    with http_client(base_url=server.url) as client:
        game_id = client.post(
            "/drop_token", json={"players": ["p1", "p2"], "rows": 4, "columns": 4}
        ).json()["gameId"]
    barrier = threading.Barrier(20, timeout=120)  # Never hang if a thread fails.
    statuses: list[int] = []
    lock = threading.Lock()

    def post(column: int, url: str) -> None:
        with http_client(base_url=url, timeout=60) as client:
            client.get("/drop_token")  # Connect before the barrier.
            barrier.wait()
            response = client.post(f"/drop_token/{game_id}/p1", json={"column": column})
        with lock:
            statuses.append(response.status_code)

    threads = [
        threading.Thread(target=post, args=(n % 4, (server, other)[n % 2].url)) for n in range(20)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 19
    for url in (server.url, other.url):
        with http_client(base_url=url) as client:
            moves = client.get(f"/drop_token/{game_id}/moves").json()["moves"]
        assert len(moves) == 1 and moves[0]["player"] == "p1"


def test_racing_quits_and_moves_keep_the_move_list_valid(start_server: StartServer) -> None:
    """Three players of ten games post and quit at once through two processes; every list replays."""
    server = start_server(None)
    other = start_server(server.db)
    with http_client(base_url=server.url) as client:
        game_ids = [
            client.post(
                "/drop_token", json={"players": ["p1", "p2", "p3"], "rows": 4, "columns": 4}
            ).json()["gameId"]
            for _ in range(10)
        ]

    def hammer(player: str, seed: int) -> None:
        chooser = random.Random(seed)
        with http_client(base_url=(server, other)[seed % 2].url, timeout=60) as client:
            for _ in range(40):
                game_id = chooser.choice(game_ids)
                if chooser.random() < 0.05:
                    client.delete(f"/drop_token/{game_id}/{player}")
                else:
                    client.post(
                        f"/drop_token/{game_id}/{player}", json={"column": chooser.randrange(4)}
                    )

    threads = [
        threading.Thread(target=hammer, args=(player, seed))
        for seed, player in enumerate(["p1", "p2", "p3"] * 2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    with http_client(base_url=server.url) as client:
        for game_id in game_ids:
            moves = client.get(f"/drop_token/{game_id}/moves").json()["moves"]
            state = client.get(f"/drop_token/{game_id}").json()
            game = replay(state, moves, 4, 4)  # Raises if the list breaks a rule.
            assert state["state"] == ("DONE" if game.is_over() else "IN_PROGRESS")
