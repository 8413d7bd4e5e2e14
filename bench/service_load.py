"""Load test of the drop-token service: many clients play many games to the end at once.

Starts ``python -m service`` on a free port with a temporary database (or
targets ``--url``), lets ``--clients`` threads play ``--games`` games of
random legal moves (a few players quit now and then), then prints moves per
second, request latency percentiles and errors, and checks every game: its
stored move list, replayed through the engine, must give the state and
winner the server reports and the moves the client played.

    python bench/service_load.py --games 1000 --clients 16
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPOSITORY = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPOSITORY))

from engine import Game, Rules  # noqa: E402


@dataclass
class Played:
    """What a client did in one game, to check against the server afterwards."""

    game_id: str
    players: list[str]
    history: list[tuple[str, int | None]]  # (player, column or None for a quit)
    winner: str | None


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(db: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "service", "--port", str(port), "--db", db, "--no-access-log"],
        cwd=REPOSITORY,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(600):
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode}")
        try:
            httpx.get(url + "/drop_token", timeout=5)
            return process, url
        except httpx.TransportError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start")


def play_games(
    url: str,
    next_game: list[int],
    games: int,
    args: argparse.Namespace,
    results: Results,
    seed: int,
) -> None:
    """One client: take game numbers until none are left, play each to the end."""
    chooser = random.Random(seed)
    latencies: list[float] = []
    errors: list[str] = []
    played: list[Played] = []

    def request(client: httpx.Client, method: str, path: str, **kwargs: object) -> httpx.Response:
        begin = time.perf_counter()
        response = client.request(method, path, **kwargs)  # type: ignore[arg-type]
        latencies.append(time.perf_counter() - begin)
        return response

    with httpx.Client(base_url=url, timeout=60) as client:
        while True:
            with results.lock:
                if next_game[0] >= games:
                    break
                next_game[0] += 1
            players = [f"player{n}" for n in range(args.players)]
            response = request(
                client, "POST", "/drop_token",
                json={"players": players, "rows": args.rows, "columns": args.columns},
            )
            if response.status_code != 200:
                errors.append(f"create: {response.status_code} {response.text}")
                continue
            game_id = response.json()["gameId"]
            game = Game(Rules(args.rows, args.columns, 4), players=args.players)
            history: list[tuple[str, int | None]] = []
            while not game.is_over():
                move: tuple[str, int | None]
                if chooser.random() < args.quit_rate:
                    quitter = chooser.choice(game.active_players)
                    response = request(
                        client, "DELETE", f"/drop_token/{game_id}/{players[quitter]}"
                    )
                    expected, move = 202, (players[quitter], None)
                    if response.status_code == expected:
                        game.quit(quitter)
                else:
                    column = chooser.choice(game.legal_moves())
                    mover = game.to_move
                    assert mover is not None
                    response = request(
                        client, "POST", f"/drop_token/{game_id}/{players[mover]}",
                        json={"column": column},
                    )
                    expected, move = 200, (players[mover], column)
                    if response.status_code == expected:
                        game.play(column)
                if response.status_code != expected:
                    errors.append(f"{game_id} {move}: {response.status_code} {response.text}")
                    break
                history.append(move)
            outcome = game.outcome()
            winner = None if outcome is None or outcome.winner is None else players[outcome.winner]
            played.append(Played(game_id, players, history, winner))
    with results.lock:
        results.latencies.extend(latencies)
        results.errors.extend(errors)
        results.played.extend(played)


def verify(url: str, played: list[Played], args: argparse.Namespace) -> list[str]:
    """Replay every stored move list through the engine; compare with the server and client."""
    problems = []
    with httpx.Client(base_url=url, timeout=60) as client:
        for record in played:
            state = client.get(f"/drop_token/{record.game_id}").json()
            moves = client.get(f"/drop_token/{record.game_id}/moves").json()["moves"]
            game = Game(Rules(args.rows, args.columns, 4), players=len(record.players))
            stored: list[tuple[str, int | None]] = []
            try:
                for move in moves:
                    player = record.players.index(move["player"])
                    if move["type"] == "QUIT":
                        game.quit(player)
                    else:
                        game.play(move["column"], player)
                    stored.append((move["player"], move.get("column")))
            except ValueError as error:
                problems.append(f"{record.game_id}: stored moves do not replay: {error}")
                continue
            outcome = game.outcome()
            winner = (
                None
                if outcome is None or outcome.winner is None
                else record.players[outcome.winner]
            )
            if outcome is None or state != {
                "players": record.players, "state": "DONE", "winner": winner
            }:
                problems.append(f"{record.game_id}: state {state} but replay gives {outcome}")
            if stored != record.history or winner != record.winner:
                problems.append(f"{record.game_id}: stored moves differ from those played")
    return problems


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (1000)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients (16)")
    parser.add_argument("--url", help="target this server instead of starting one")
    parser.add_argument("--rows", type=int, default=4, help="board rows (4)")
    parser.add_argument("--columns", type=int, default=4, help="board columns (4)")
    parser.add_argument("--players", type=int, default=2, help="players per game (2)")
    parser.add_argument(
        "--quit-rate", type=float, default=0.01, help="chance a move is a quit instead (0.01)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="random seed")
    args = parser.parse_args()

    process = None
    with tempfile.TemporaryDirectory() as folder:
        if args.url:
            url = args.url
        else:
            process, url = start_server(os.path.join(folder, "bench.db"))
        try:
            results = Results()
            next_game = [0]
            threads = [
                threading.Thread(
                    target=play_games,
                    args=(url, next_game, args.games, args, results, args.seed + n),
                )
                for n in range(args.clients)
            ]
            begin = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - begin
            problems = verify(url, results.played, args)
        finally:
            if process is not None:
                process.terminate()
                process.wait()

    moves = sum(len(record.history) for record in results.played)
    finished = len(results.played)
    latencies = sorted(results.latencies)
    print(
        f"games: {finished} played to the end of {args.games}, {args.rows} x {args.columns}, "
        f"{args.players} players, {args.clients} clients"
    )
    rate = len(latencies) / elapsed
    print(f"time: {elapsed:.2f} s for {len(latencies)} requests ({rate:.0f}/s)")
    print(f"moves: {moves} ({moves / elapsed:.0f} moves/s, quits included)")
    print(
        f"latency: p50 {percentile(latencies, 0.50) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, "
        f"max {latencies[-1] * 1000 if latencies else float('nan'):.1f} ms"
    )
    print(f"errors: {len(results.errors)}")
    for error in results.errors[:10]:
        print("  ", error)
    print(f"verified: {finished - len({p.split(':')[0] for p in problems})} of {finished} games "
          f"replay through the engine to the server's state and winner")
    for problem in problems[:10]:
        print("  ", problem)
    if results.errors or problems or finished != args.games:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
