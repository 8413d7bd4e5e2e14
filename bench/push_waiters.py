"""Scale of the long poll: one service process holding many waiting clients at once.

Starts ``python -m connect_four.service`` (SQLite, access log off) on a free port of
127.0.0.1, creates ``--games`` games, and opens ``--waiters`` connections
spread evenly over them from ``--processes`` client processes (asyncio raw
sockets), each sending ``GET /drop_token/{gameId}/moves?start=0&wait=300``.
Once every request is out and the server's CPU has settled, it measures:

- the server process's CPU while nobody moves, over ``--idle`` seconds
  (percent of one core; the feed thread polling SQLite included);
- for ``--moves`` games one after the other, the delay from posting the
  game's first move until 99 % of that game's waiters have it (the move
  reaches each through its own connection), reported as median, p99 and
  worst over the moves posted.

Every client closes its connections when it has its move or when the
bench ends, and the server is stopped: the load stays on 127.0.0.1 and
ends by itself. The bench raises its own open-files limit (and so its
children's) to fit; it prints the machine's limits and load with the figures.

    nice -n 10 python -m bench.push_waiters --waiters 10000 --games 1000
    nice -n 10 python -m bench.push_waiters --waiters 2000 --games 1   # spectators of one game
    python -m bench.push_waiters --waiters 5000 --games 500 --wait 10 --idle 20   # renewals

With a ``--wait`` shorter than ``--idle``, the waits run out and are
renewed during the idle measure: it then also prints the CPU one renewal
costs (the idle cost counted in, so a little more) and what renewing
waits of 300 s would cost ``--waiters`` clients.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from multiprocessing.synchronize import Event as EventType
from pathlib import Path
from typing import Any

from bench.service_process import start_service

REPOSITORY = Path(__file__).resolve().parents[1]
WAIT = 300
"""Seconds each waiting request asks for (``--wait``): by default the bench ends before."""

CONNECTING_AT_ONCE = 64
"""Connections each client process opens at the same time (the listen backlog is finite)."""


# --- The clients (each in its own process) -----------------------------------


async def _wait_for_move(
    port: int,
    game_id: str,
    wait: float,
    sent: list[int],
    arrivals: list[tuple[str, float]],
    opening: asyncio.Semaphore,
) -> None:
    """One waiting client: ask, read the answer; ask again after a time-out; note the move."""
    async with opening:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = (
        f"GET /drop_token/{game_id}/moves?start=0&wait={wait:g} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    ).encode()
    try:
        while True:
            writer.write(request)
            sent[0] += 1
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            body = await reader.readexactly(length)
            if head.startswith(b"HTTP/1.1 200"):
                arrivals.append((game_id, time.monotonic()))
                assert json.loads(body)["moves"], body
                return
            if not head.startswith(b"HTTP/1.1 404"):
                raise RuntimeError(f"unexpected answer: {head[:40]!r} {body[:200]!r}")
    finally:
        writer.close()


async def _client(
    port: int, games: list[str], wait: float, ready: Any, stop: EventType, results: Any
) -> None:
    sent = [0]
    arrivals: list[tuple[str, float]] = []
    opening = asyncio.Semaphore(CONNECTING_AT_ONCE)
    tasks = [
        asyncio.create_task(_wait_for_move(port, game_id, wait, sent, arrivals, opening))
        for game_id in games
    ]
    while sent[0] < len(games):
        failed = [task for task in tasks if task.done() and task.exception()]
        if failed:
            raise RuntimeError(f"a client failed: {failed[0].exception()!r}")
        await asyncio.sleep(0.05)
    ready.put(sent[0])
    while not stop.is_set() and not all(task.done() for task in tasks):
        await asyncio.sleep(0.05)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    results.put((sent[0], arrivals))


def client_process(
    port: int, games: list[str], wait: float, ready: Any, stop: EventType, results: Any
) -> None:
    """A process of waiting clients, one connection per entry of ``games``."""
    asyncio.run(_client(port, games, wait, ready, stop, results))


# --- The service ------------------------------------------------------------


def raise_open_files(needed: int) -> int:
    """Raise this process's soft open-files limit (its children inherit it); the new limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds ``pid`` used so far (its own threads, not its children)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(db: str, connections: int) -> tuple[subprocess.Popen[bytes], int]:
    """The service with room for ``connections`` waiters, all from 127.0.0.1."""
    return start_service(
        db,
        # Every client of the bench is 127.0.0.1: no per-client rate (issue 33).
        "--rate-games",
        "off",
        "--rate-moves",
        "off",
        "--max-connections",
        str(connections),
        # Every waiter connects from 127.0.0.1: one address, given all the room.
        "--max-client-connections",
        str(connections),
        "--max-client-waits",
        str(connections),
    )


def request(method: str, port: int, path: str, body: object = None) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        payload = None if body is None else json.dumps(body)
        headers = {"content-type": "application/json"} if body is not None else {}
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        text = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {text!r}")
        return json.loads(text) if text else None
    finally:
        connection.close()


def settle(pid: int, quiet: float = 0.02, window: float = 1.0, limit: float = 120) -> None:
    """Wait until ``pid`` used under ``quiet`` of a core over ``window`` seconds."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        time.sleep(window)
        if (cpu_seconds(pid) - before) / window < quiet:
            return
    print("warning: the server never became quiet", file=sys.stderr)


@dataclass
class Figures:
    waiters: int
    games: int
    connect_seconds: float
    idle_cpu: float
    rss_mb: float
    delays: list[float]  # per posted move: until 99 % of its waiters had it
    deliveries: int
    expected: int
    renewals: float  # waits renewed per second after a time-out, from the idle measure on


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(args: argparse.Namespace) -> Figures:
    limit = raise_open_files(args.waiters + 1000)
    if limit < args.waiters + 300:
        raise SystemExit(f"the open-files limit ({limit}) is too low for {args.waiters} waiters")
    with tempfile.TemporaryDirectory(prefix="c4-push-") as folder:
        server, port = start_server(str(Path(folder) / "games.db"), args.waiters + 500)
        processes: list[Any] = []
        context = multiprocessing.get_context("spawn")
        stop = context.Event()
        try:
            games = [
                request(
                    "POST",
                    port,
                    "/drop_token",
                    {"players": ["ann", "bob"], "rows": 6, "columns": 7},
                )["gameId"]
                for _ in range(args.games)
            ]
            ready, results = context.Queue(), context.Queue()
            assignments: list[list[str]] = [[] for _ in range(args.processes)]
            for number in range(args.waiters):
                assignments[number % args.processes].append(games[number % len(games)])
            began = time.monotonic()
            for share in assignments:
                process = context.Process(
                    target=client_process, args=(port, share, args.wait, ready, stop, results)
                )
                process.start()
                processes.append(process)
            sent_before = sum(ready.get(timeout=300) for _ in processes)
            connect_seconds = time.monotonic() - began
            if args.wait >= WAIT:
                settle(server.pid)
            before, clock = cpu_seconds(server.pid), time.monotonic()
            time.sleep(args.idle)
            idle_seconds = time.monotonic() - clock
            idle_cpu = (cpu_seconds(server.pid) - before) / idle_seconds
            rss = resident_mb(server.pid)
            posted: dict[str, float] = {}
            for game_id in games[: args.moves]:
                posted[game_id] = time.monotonic()
                request("POST", port, f"/drop_token/{game_id}/ann", {"column": 3})
                time.sleep(args.pause)
            time.sleep(1.0)  # the last deliveries
            stop.set()
            stopped = time.monotonic()
            arrivals: list[tuple[str, float]] = []
            sent_after = 0
            for _ in processes:
                sent, arrived = results.get(timeout=120)
                sent_after += sent
                arrivals.extend(arrived)
        finally:
            stop.set()
            for process in processes:
                process.join(timeout=30)
                if process.is_alive():
                    process.kill()
            server.terminate()
            server.wait(timeout=60)
    by_game: dict[str, list[float]] = {}
    for game_id, arrived in arrivals:
        if game_id in posted:
            by_game.setdefault(game_id, []).append(arrived - posted[game_id])
    per_game = args.waiters // args.games
    delays = []
    for game_id in posted:
        got = sorted(by_game.get(game_id, []))
        needed = max(1, -(-99 * per_game // 100))  # 99 % of its waiters, rounded up
        delays.append(got[needed - 1] if len(got) >= needed else float("inf"))
    return Figures(
        waiters=args.waiters,
        games=args.games,
        connect_seconds=connect_seconds,
        idle_cpu=idle_cpu,
        rss_mb=rss,
        delays=delays,
        deliveries=sum(len(by_game.get(game_id, [])) for game_id in posted),
        expected=per_game * len(posted),
        renewals=(sent_after - sent_before) / (stopped - clock),
    )


def machine() -> str:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    somaxconn = Path("/proc/sys/net/core/somaxconn").read_text().strip()
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    return (
        f"machine: {os.cpu_count()} cores, load average {load}, ulimit -n {soft} "
        f"(hard {hard}), somaxconn {somaxconn}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiters", type=int, default=10_000, help="waiting clients (10000)")
    parser.add_argument("--games", type=int, default=1000, help="games they wait on (1000)")
    parser.add_argument("--processes", type=int, default=4, help="client processes (4)")
    parser.add_argument(
        "--wait",
        type=float,
        default=WAIT,
        help=f"seconds each request waits ({WAIT}: none runs out during the bench; a shorter "
        "one measures what renewing a timed-out wait costs)",
    )
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of idle measure (10)")
    parser.add_argument("--moves", type=int, default=100, help="games to post a move in (100)")
    parser.add_argument(
        "--pause", type=float, default=0.05, help="seconds between two posted moves (0.05)"
    )
    args = parser.parse_args()
    if args.waiters % args.games:
        parser.error("--waiters must be a multiple of --games")
    args.moves = min(args.moves, args.games)
    print(machine())
    figures = run(args)
    print(machine())
    ms = [delay * 1000 for delay in figures.delays]
    print(
        f"waiters {figures.waiters} on {figures.games} games "
        f"({figures.waiters // figures.games} each), all waiting after "
        f"{figures.connect_seconds:.1f} s; server RSS {figures.rss_mb:.0f} MB"
    )
    print(
        f"server CPU while nobody moves: {100 * figures.idle_cpu:.2f} % of one core, "
        f"waits renewed after a time-out: {figures.renewals:.0f}/s"
    )
    if figures.renewals > 0:
        per_renewal = figures.idle_cpu / figures.renewals
        steady = figures.waiters / WAIT * per_renewal
        print(
            f"CPU per renewed wait: {1000 * per_renewal:.2f} ms (idle cost included); "
            f"{figures.waiters} waiters renewing {WAIT} s waits: {100 * steady:.1f} % of one core"
        )
    print(f"moves posted: {len(ms)}, deliveries {figures.deliveries} of {figures.expected}")
    print(
        f"until 99 % of a game's waiters had its move: median {percentile(ms, 0.5):.1f} ms, "
        f"p99 {percentile(ms, 0.99):.1f} ms, worst {max(ms):.1f} ms"
    )


if __name__ == "__main__":
    main()
