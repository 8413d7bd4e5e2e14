"""Load test of the drop-token service: many clients play many games to the end at once.

For each count of ``--clients`` (16, 64 and 256 by default), starts
``python -m connect_four.service`` on a free port with a fresh temporary database (or
targets ``--url``), lets that many threads play ``--games`` games of random
legal moves (a few players quit now and then), then prints moves per second,
request latency percentiles and errors, and checks every game: its stored
move list, replayed through the engine, must give the state and winner the
server reports and the moves the client played.

With ``--long-game``, also plays one 100 x 100 game of 7 players to 9,990
moves and compares the latency of a move post, a move read and a state read
near its start and near its end (the ratio should be near 1: no request
replays the game).

With ``--flood N``, each count is run in pairs on the same server (``--repeat``
pairs, 3 by default), the second of each pair while N more threads loop on
the costliest winner check within the limits; the table shows each pair's
moves/s ratio, flood over quiet, and their median (the issue's target: at
least 0.5).

    python -m bench.service_load --games 300 --clients 16,64,256 --flood 8 --long-game

With ``--databases``, compares instead, at each client count (64 by
default): one and two server processes on one SQLite file, then 1, 2 and
4 processes on one PostgreSQL database, first with the clients split
between the processes (as a load balancer would), then all through one
nginx in front of them (``bench/nginx_proxy.py``, docs/deployment.md's
configuration; skipped, saying so, where nginx is not installed).
``--sqlite``: the SQLite ones only. It starts its own throw-away
PostgreSQL server (with its flushes to disk on, as in production) and
prints, besides moves/s and latencies, the CPU seconds each part used per
1,000 requests: the service processes, the PostgreSQL server, nginx, and
this script's clients; on a 2-core machine their sum says which part the
run was waiting for.

    python -m bench.service_load --databases --games 600

``--rate-stores memory,database`` runs each set-up twice, its games and
moves counted by the per-client rates (never refused) in each process's
memory, then in the database (``--rate-store``, issue 37), each client
connecting from its own loopback address (127.0.1.1, 127.0.1.2, ...; nginx
passes it on) as on the internet, where clients do not all update one
counter; ``--processes`` keeps the set-ups of some process counts only:

    python -m bench.service_load --databases --games 200 --processes 1 --rate-stores memory,database

The clients run in ``--client-processes`` processes (4 by default), their
threads and games split evenly: 64 threads in one process queue for its
interpreter lock, and that queue, not the server, then makes the slowest
requests (p99 306 ms against 66 ms for 4 x 16 threads, same server, same
minute). ``--client-processes 1`` measures as before.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.nginx_proxy import Proxy, ProxyUnavailable, start_proxy
from bench.postgres_cluster import Cluster, start_cluster
from connect_four.engine import Game, Rules

REPOSITORY = Path(__file__).resolve().parents[1]


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


COUNTED_RATE = "1000000/minute"
"""The games and moves rate with ``--rate-stores``: every request counted, none refused."""


def start_server(db: str, rate_store: str | None = None) -> tuple[subprocess.Popen[bytes], str]:
    """A server on ``db``; ``rate_store`` given, it counts every game and move there."""
    port = free_port()
    # Every client of the bench is 127.0.0.1: no per-client rate (issue 33), or,
    # to measure the counters' cost, one that counts every request but refuses none.
    rate = "off" if rate_store is None else COUNTED_RATE
    # Each client then connects from its own address (client_address), and nginx,
    # from 127.0.0.1, passes it on.
    counters = (
        [] if rate_store is None else ["--rate-store", rate_store, "--trusted-proxy", "127.0.0.1"]
    )
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "connect_four.service",
            "--port",
            str(port),
            "--db",
            db,
            "--no-access-log",
            "--rate-games",
            rate,
            "--rate-moves",
            rate,
            *counters,
            # Every client connects from 127.0.0.1: one address, given all the room.
            "--max-client-connections",
            "1000",
        ],
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


@dataclass
class Answer:
    """A response's status and body."""

    status_code: int
    text: str

    def json(self) -> Any:
        return json.loads(self.text)


class PlainClient:
    """One keep-alive connection through the standard library's http.client.

    The players' requests go through it rather than httpx, whose own CPU
    per request (some 0.3 ms) is as much again as the service's on a
    shared 2-core machine: the load generator should take as little of the
    machine it measures as it can.
    """

    def __init__(self, url: str, source: str | None = None) -> None:
        parsed = urllib.parse.urlsplit(url)
        self.connection = http.client.HTTPConnection(
            parsed.hostname or "127.0.0.1",
            parsed.port or 80,
            timeout=60,
            source_address=None if source is None else (source, 0),
        )

    def request(self, method: str, path: str, body: object = None) -> Answer:
        headers = {"content-type": "application/json"} if body is not None else {}
        payload = None if body is None else json.dumps(body)
        self.connection.request(method, path, body=payload, headers=headers)
        response = self.connection.getresponse()
        return Answer(response.status, response.read().decode())

    def __enter__(self) -> PlainClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.connection.close()


def play_games(
    url: str,
    next_game: list[int],
    games: int,
    args: argparse.Namespace,
    results: Results,
    seed: int,
    source: str | None = None,
) -> None:
    """One client (from the address ``source``, if given): take game numbers until none are
    left, play each to the end."""
    chooser = random.Random(seed)
    latencies: list[float] = []
    errors: list[str] = []
    played: list[Played] = []

    def request(client: PlainClient, method: str, path: str, json: object = None) -> Answer:
        begin = time.perf_counter()
        response = client.request(method, path, json)
        latencies.append(time.perf_counter() - begin)
        return response

    with PlainClient(url, source) as client:
        while True:
            with results.lock:
                if next_game[0] >= games:
                    break
                next_game[0] += 1
            players = [f"player{n}" for n in range(args.players)]
            response = request(
                client,
                "POST",
                "/drop_token",
                {"players": players, "rows": args.rows, "columns": args.columns},
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
                        client,
                        "POST",
                        f"/drop_token/{game_id}/{players[mover]}",
                        {"column": column},
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
            # The seed's keys (a newer service adds the board's).
            seed_state = {key: state.get(key) for key in ("players", "state", "winner")}
            if outcome is None or seed_state != {
                "players": record.players,
                "state": "DONE",
                "winner": winner,
            }:
                problems.append(f"{record.game_id}: state {state} but replay gives {outcome}")
            if stored != record.history or winner != record.winner:
                problems.append(f"{record.game_id}: stored moves differ from those played")
    return problems


def percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


# Within the limits (6 x 7), and among the costliest: every rule holds but no
# order of turns builds it, which the search cannot settle in its budget.
COSTLY_BOARD = "BBBBBBBAAABABAAAABABBBABBAAAABBABBAAABAAAB"


@dataclass
class Summary:
    clients: int
    flood: int
    moves: int
    elapsed: float
    latencies: list[float]
    errors: list[str]
    problems: list[str]
    finished: int
    checks: dict[int, int]

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.elapsed


def flood_winner(
    url: str, stop: threading.Event, checks: dict[int, int], lock: threading.Lock
) -> None:
    """Loop on the costliest winner check until told to stop; count the statuses."""
    with httpx.Client(base_url=url, timeout=60) as client:
        while not stop.is_set():
            status = client.get(f"/winner/{COSTLY_BOARD}").status_code
            with lock:
                checks[status] = checks.get(status, 0) + 1


def run_load(
    url: str, args: argparse.Namespace, clients: int, flood: int, urls: list[str] | None = None
) -> Summary:
    """Play ``args.games`` games with ``clients`` threads, ``flood`` more on the winner check.

    With ``urls``, client n talks to ``urls[n % len(urls)]`` (several servers on one database).
    The clients are spread over ``args.client_processes`` processes of their own.
    """
    targets = urls or [url]
    stop = threading.Event()
    checks: dict[int, int] = {}
    lock = threading.Lock()
    flooders = [
        threading.Thread(target=flood_winner, args=(url, stop, checks, lock)) for _ in range(flood)
    ]
    for thread in flooders:
        thread.start()
    processes = max(1, min(args.client_processes, clients))
    if processes == 1:
        begin = time.perf_counter()
        latencies, errors, played = play_share(targets, args, range(clients), args.games)
        elapsed = time.perf_counter() - begin
    else:
        latencies, errors, played, elapsed = play_in_processes(targets, args, clients, processes)
    stop.set()
    for thread in flooders:
        thread.join()
    problems = verify(url, played, args)
    return Summary(
        clients=clients,
        flood=flood,
        moves=sum(len(record.history) for record in played),
        elapsed=elapsed,
        latencies=sorted(latencies),
        errors=errors,
        problems=problems,
        finished=len(played),
        checks=checks,
    )


Share = tuple[list[float], list[str], list[Played]]
"""What some clients measured: request latencies, errors, and the games they played."""


def play_share(targets: list[str], args: argparse.Namespace, numbers: range, games: int) -> Share:
    """Clients ``numbers`` (client n talks to ``targets[n % len(targets)]``) play ``games``."""
    results = Results()
    next_game = [0]
    threads = [
        threading.Thread(
            target=play_games,
            args=(
                targets[n % len(targets)],
                next_game,
                games,
                args,
                results,
                args.seed + n,
                client_address(n) if getattr(args, "rate_stores", None) else None,
            ),
        )
        for n in numbers
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results.latencies, results.errors, results.played


def client_address(number: int) -> str:
    """The loopback address client ``number`` connects from when each has its own (rates
    counted per address, as on the internet: one row per client, not one row for all).

    >>> client_address(0), client_address(300)
    ('127.0.1.1', '127.0.2.48')
    """
    return f"127.0.{1 + number // 253}.{1 + number % 253}"


def play_in_processes(
    targets: list[str], args: argparse.Namespace, clients: int, processes: int
) -> tuple[list[float], list[str], list[Played], float]:
    """``play_share`` in ``processes`` processes, the clients and games split evenly.

    One process of 64 client threads measures its own queue for the
    interpreter lock as much as the server: a thread whose answer has
    arrived waits its turn to read it. The processes start first and
    begin together, so the time counts playing only.
    """
    context = multiprocessing.get_context("spawn")
    ready = context.Barrier(processes + 1)
    outcomes: multiprocessing.Queue[Share] = context.Queue()
    children = []
    for index in range(processes):
        numbers = range(index, clients, processes)
        games = args.games // processes + (index < args.games % processes)
        child = context.Process(
            target=_client_process, args=(targets, args, numbers, games, ready, outcomes)
        )
        child.start()
        children.append(child)
    ready.wait()
    begin = time.perf_counter()
    shares = [outcomes.get() for _ in children]
    elapsed = time.perf_counter() - begin
    for child in children:
        child.join()
    return (
        [value for share in shares for value in share[0]],
        [error for share in shares for error in share[1]],
        [record for share in shares for record in share[2]],
        elapsed,
    )


def _client_process(
    targets: list[str],
    args: argparse.Namespace,
    numbers: range,
    games: int,
    ready: threading.Barrier,
    outcomes: multiprocessing.Queue[Share],
) -> None:
    """One process of clients: wait for the others, play, send back what was measured."""
    ready.wait()
    outcomes.put(play_share(targets, args, numbers, games))


def long_game(url: str) -> None:
    """Median latencies near move 50 and near move 9,950 of one long game, and their ratio."""
    players = [f"p{n}" for n in range(7)]
    # Column after column, seven players: neighbours along every line differ
    # by 1, 100, 101 or 99 turns, none a multiple of 7, so nobody wins.
    with httpx.Client(base_url=url, timeout=60) as client:
        game_id = client.post(
            "/drop_token", json={"players": players, "rows": 100, "columns": 100}
        ).json()["gameId"]
        timings: dict[tuple[str, str], list[float]] = {}

        def timed(phase: str, kind: str, method: str, path: str, **kwargs: object) -> None:
            begin = time.perf_counter()
            response = client.request(method, path, **kwargs)  # type: ignore[arg-type]
            timings.setdefault((phase, kind), []).append(time.perf_counter() - begin)
            if response.status_code != 200:
                raise SystemExit(f"{method} {path}: {response.status_code} {response.text}")

        for number in range(9990):
            phase = "start" if number < 100 else "end" if number >= 9890 else ""
            path = f"/drop_token/{game_id}/{players[number % 7]}"
            if not phase:
                client.post(path, json={"column": number // 100})
                continue
            timed(phase, "post a move", "POST", path, json={"column": number // 100})
            timed(phase, "read a move", "GET", f"/drop_token/{game_id}/moves/{number // 2}")
            timed(phase, "read the state", "GET", f"/drop_token/{game_id}")
    print("\none 100 x 100 game, 7 players: median latency near move 50 and near move 9,940")
    print("| request | near move 50 ms | near move 9,940 ms | ratio |")
    print("|---|---|---|---|")
    for kind in ("post a move", "read a move", "read the state"):
        start = percentile(sorted(timings[("start", kind)]), 0.5)
        end = percentile(sorted(timings[("end", kind)]), 0.5)
        print(f"| {kind} | {start * 1000:.2f} | {end * 1000:.2f} | {end / start:.2f} |")


def cpu_seconds(pids: list[int], with_children_of: int | None = None) -> float:
    """CPU seconds (user + system) used so far by ``pids``, and by the children of one pid."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # It ended meanwhile.
        parent = int(fields[1])
        if int(entry) in pids or (with_children_of is not None and parent == with_children_of):
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def clients_cpu() -> float:
    """CPU seconds used so far by this script and the client processes it has ended."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@dataclass
class Setup:
    """One configuration of the --databases comparison."""

    name: str
    db: str
    processes: int
    proxy: bool = False
    rate_store: str | None = None


def compare_databases(args: argparse.Namespace, counts: list[int]) -> bool:
    """SQLite, then 1, 2, 4 processes on PostgreSQL, direct and through nginx; print the table.

    True if every game of every set-up was verified.
    """
    cluster: Cluster | None = None
    postmaster = 0
    if not args.sqlite:
        try:
            cluster = start_cluster(durable=True)
        except Exception as error:  # ClusterUnavailable, or a server that would not start
            raise SystemExit(f"--databases needs a PostgreSQL server: {error}") from None
        postmaster = int((cluster.data / "postmaster.pid").read_text().split()[0])

    def database_cpu() -> float:
        """The PostgreSQL server's CPU seconds so far (none without a server)."""
        return cpu_seconds([postmaster], postmaster) if postmaster else 0.0

    print(
        f"{args.games} games per run, {args.rows} x {args.columns}, {args.players} players; "
        "CPU s per 1,000 requests: service processes / PostgreSQL server / clients"
    )
    print(
        "| set-up | clients | moves/s | p50 ms | p99 ms | errors | CPU service "
        "| CPU PostgreSQL | CPU nginx | CPU clients |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    ok = True
    try:
        with tempfile.TemporaryDirectory() as folder:
            for clients in counts:
                setups = [
                    Setup("1 process, SQLite", os.path.join(folder, f"{clients}.db"), 1),
                    Setup("2 processes, SQLite", os.path.join(folder, f"{clients}-2.db"), 2),
                ]
                if cluster is not None:
                    for through in (False, True):
                        for processes in (1, 2, 4):
                            name = f"{processes} process{'es' if processes > 1 else ''}, PostgreSQL"
                            name += ", through nginx" if through else ""
                            setups.append(Setup(name, "postgresql", processes, through))
                setups = [
                    setup
                    for setup in setups
                    if args.processes is None or setup.processes in args.processes
                ]
                if args.rate_stores:
                    setups = [
                        Setup(
                            f"{setup.name}, {store} counters",
                            setup.db,
                            setup.processes,
                            setup.proxy,
                            store,
                        )
                        for setup in setups
                        for store in args.rate_stores
                    ]
                for number, setup in enumerate(setups):
                    if setup.db == "postgresql":
                        assert cluster is not None
                        setup.db = cluster.create_database()
                    elif args.rate_stores:  # A new file for each run: no counter carried over.
                        setup.db = f"{setup.db}.{number}"
                    servers = [
                        start_server(setup.db, setup.rate_store) for _ in range(setup.processes)
                    ]
                    pids = [process.pid for process, _ in servers]
                    proxy: Proxy | None = None
                    try:
                        if setup.proxy:
                            try:
                                proxy = start_proxy([url.split("//")[1] for _, url in servers])
                            except ProxyUnavailable as error:
                                print(f"| {setup.name} | {clients} | skipped: {error} |")
                                continue
                        targets = [proxy.url] if proxy else [url for _, url in servers]

                        def proxy_cpu(proxy: Proxy | None = proxy) -> float:
                            return cpu_seconds([proxy.pid], proxy.pid) if proxy else 0.0

                        before = (cpu_seconds(pids), database_cpu(), proxy_cpu(), clients_cpu())
                        summary = run_load(targets[0], args, clients, 0, targets)
                        after = (cpu_seconds(pids), database_cpu(), proxy_cpu(), clients_cpu())
                    finally:
                        if proxy is not None:
                            proxy.stop()
                        for process, _ in servers:
                            process.terminate()
                            process.wait()
                    per_1000 = 1000 / max(1, len(summary.latencies))
                    service, server, nginx, own = (
                        (end - start) * per_1000 for start, end in zip(before, after, strict=True)
                    )
                    latencies = summary.latencies
                    print(
                        f"| {setup.name} | {clients} | {summary.moves_per_second:.0f} "
                        f"| {percentile(latencies, 0.50) * 1000:.1f} "
                        f"| {percentile(latencies, 0.99) * 1000:.1f} | {len(summary.errors)} "
                        f"| {service:.2f} | {server if setup.db.startswith('postgresql') else 0:.2f} "
                        f"| {nginx:.2f} | {own:.2f} |"
                    )
                    for problem in (summary.errors + summary.problems)[:5]:
                        print("  ", problem)
                    if summary.errors or summary.problems or summary.finished != args.games:
                        ok = False
    finally:
        if cluster is not None:
            cluster.remove()
    print(
        "every game verified: stored moves replay through the engine to the server's answers"
        if ok
        else "FAILED: see the errors above"
    )
    return ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games to play (1000)")
    parser.add_argument(
        "--clients", default="16,64,256", help="concurrent clients, comma-separated (16,64,256)"
    )
    parser.add_argument(
        "--flood",
        type=int,
        default=0,
        help="also run each count with this many clients looping on the costliest winner check",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="with --flood, alternate quiet and flooded runs this many times (3): on a "
        "shared machine one pair is noise",
    )
    parser.add_argument(
        "--long-game",
        action="store_true",
        help="also compare request latencies at the start and the end of a 9,990-move game",
    )
    parser.add_argument("--url", help="target this server instead of starting one")
    parser.add_argument(
        "--databases",
        action="store_true",
        help="compare 1 and 2 processes on SQLite, 1, 2 and 4 on PostgreSQL, and the same "
        "through nginx (64 clients unless --clients says)",
    )
    parser.add_argument(
        "--sqlite",
        action="store_true",
        help="with --databases, only the SQLite set-ups (1 and 2 processes on one file)",
    )
    parser.add_argument(
        "--processes",
        type=lambda text: [int(count) for count in text.split(",")],
        help="with --databases, only the set-ups of these process counts (comma-separated)",
    )
    parser.add_argument(
        "--rate-stores",
        type=lambda text: text.split(","),
        help="with --databases, run each set-up with each of these --rate-store (memory, "
        "database; comma-separated), games and moves counted but never refused",
    )
    parser.add_argument("--rows", type=int, default=4, help="board rows (4)")
    parser.add_argument("--columns", type=int, default=4, help="board columns (4)")
    parser.add_argument("--players", type=int, default=2, help="players per game (2)")
    parser.add_argument(
        "--quit-rate", type=float, default=0.01, help="chance a move is a quit instead (0.01)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="random seed")
    parser.add_argument(
        "--client-processes",
        type=int,
        default=4,
        help="processes the clients are spread over (4); 1: threads of this process only",
    )
    args = parser.parse_args()

    counts = [int(count) for count in args.clients.split(",")]
    if args.databases:
        if args.clients == parser.get_default("clients"):
            counts = [64]
        if not compare_databases(args, counts):
            raise SystemExit(1)
        return
    summaries: list[Summary] = []
    for clients in counts:
        with tempfile.TemporaryDirectory() as folder:
            process = None
            if args.url:
                url = args.url
            else:
                process, url = start_server(os.path.join(folder, "bench.db"))
            try:
                for _ in range(args.repeat if args.flood else 1):
                    summaries.append(run_load(url, args, clients, 0))
                    if args.flood:
                        summaries.append(run_load(url, args, clients, args.flood))
            finally:
                if process is not None:
                    process.terminate()
                    process.wait()

    print(
        f"{args.games} games per run, {args.rows} x {args.columns}, {args.players} players; "
        "moves/s counts quits; latency is every request's (moves, creations)"
    )
    print(
        "| clients | winner flood | moves/s | p50 ms | p99 ms | max ms | errors "
        "| checks 200/503 | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    failed = False
    quiet: dict[int, float] = {}
    ratios: dict[int, list[float]] = {}
    for summary in summaries:
        latencies = summary.latencies
        if summary.flood == 0:
            quiet[summary.clients] = summary.moves_per_second
            ratio = ""
        else:
            value = summary.moves_per_second / quiet[summary.clients]
            ratios.setdefault(summary.clients, []).append(value)
            ratio = f"{value:.2f}"
        checks = (
            f"{summary.checks.get(200, 0)}/{summary.checks.get(503, 0)}" if summary.flood else ""
        )
        print(
            f"| {summary.clients} | {summary.flood or ''} | {summary.moves_per_second:.0f} "
            f"| {percentile(latencies, 0.50) * 1000:.1f} "
            f"| {percentile(latencies, 0.99) * 1000:.1f} "
            f"| {latencies[-1] * 1000 if latencies else float('nan'):.1f} "
            f"| {len(summary.errors)} | {checks} | {ratio} |"
        )
        for error in summary.errors[:5]:
            print("  ", error)
        for problem in summary.problems[:5]:
            print("  ", problem)
        unexpected = set(summary.checks) - {200, 503}
        if summary.errors or summary.problems or summary.finished != args.games or unexpected:
            failed = True
    for clients, values in ratios.items():
        ordered = sorted(values)
        print(
            f"{clients} clients: moves/s under the flood over the quiet run just before, "
            f"median of {len(ordered)}: {ordered[len(ordered) // 2]:.2f} "
            f"(each: {', '.join(f'{value:.2f}' for value in values)})"
        )
    print(
        "every game verified: stored moves replay through the engine to the server's answers"
        if not failed
        else "FAILED: see the errors above"
    )
    if args.long_game:
        with tempfile.TemporaryDirectory() as folder:
            process = None
            if args.url:
                url = args.url
            else:
                process, url = start_server(os.path.join(folder, "long.db"))
            try:
                long_game(url)
            finally:
                if process is not None:
                    process.terminate()
                    process.wait()
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
