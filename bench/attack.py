"""One hostile client against many honest ones: are the honest still served, and how fast?

Starts ``python -m connect_four.service`` on a free port of 127.0.0.1 with a
temporary SQLite database, then runs ``--clients`` honest clients (64; each
round: create a game, move, wait for the move, read the game), each from
an address of its own (127.0.1.1, 127.0.1.2, ...: 64 people, as the
per-address rates see them), first alone, then beside each attacker in turn, one at a time,
connecting from 127.0.0.2 (another client address, as far as the server
can tell):

- ``dropped``: waits (``?wait=60``) whose sockets are closed right after sending;
- ``slow``: connections trickling their headers, a line a second, never ending them;
- ``idle``: connections that send nothing;
- ``create``: connections posting new games as fast as they are answered;
- ``large``: connections reading the largest answer there is (a 100 x 100
  game's every move), as fast as it comes.

Each attacker keeps ``--connections`` (1,000) such connections going, each
renewed about a second (0.5 to 1.5 s) after the server closes or refuses it; the honest clients
start once it has opened them all. Each attack follows a run without
attacker, the figures to compare it with. For each run it prints the honest
requests served (2xx), their p50 and p99 latency, and the attacker's
answers: refused (429 or 503, always JSON with Retry-After) and cut (closed
by the server unanswered), with the run's length and the server's CPU
(of one core) during it. It prints figures and asserts nothing.

    python -m bench.attack                       # every attack, 64 clients x 20 rounds
    python -m bench.attack --attacks dropped,idle --rounds 50

The honest clients run in ``--client-processes`` processes (4): 64 threads
of one process queue for its interpreter lock, which would make their
slowest requests. Each attack and each honest run is bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import resource
import subprocess
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

from bench.service_process import start_service

REPOSITORY = Path(__file__).resolve().parents[1]

HONEST = "127.0.0.1"
"""The server's address; the bench's own set-up requests come from it too."""

HONEST_NETWORK = "127.0.1."
"""Honest client n connects from 127.0.1.(n + 1): 64 people have 64 addresses, and the
per-address rates (``--rate-games`` ...) count each apart, as they would on the internet."""
ATTACKER = "127.0.0.2"
ATTACKS = ("dropped", "slow", "idle", "create", "large")
ATTACK_SECONDS = 120.0
"""The longest an attacker runs (it is stopped as soon as the honest run ends)."""
LARGE_MOVES = 2000
"""Moves of the game whose move list the ``large`` attacker reads again and again."""


def raise_open_files(needed: int) -> int:
    """Raise this process's soft open-files limit to ``needed`` if the hard limit allows; the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        soft = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


# --- The server --------------------------------------------------------------


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], int]:
    """The service on a free port of 127.0.0.1, with its default limits."""
    return start_service(db)


def request(port: int, method: str, path: str, body: object = None) -> tuple[int, Any]:
    """One request on a connection of its own: the status and the JSON answer."""
    connection = http.client.HTTPConnection(HONEST, port, timeout=60)
    try:
        payload = None if body is None else json.dumps(body)
        connection.request(method, path, body=payload, headers={"content-type": "application/json"})
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def long_game(port: int) -> str:
    """A 100 x 100 game of 7 players with :data:`LARGE_MOVES` moves: the largest answers."""
    players = [f"p{n}" for n in range(7)]
    game = request(port, "POST", "/drop_token", {"players": players, "rows": 100, "columns": 100})
    game_id: str = game[1]["gameId"]
    connection = http.client.HTTPConnection(HONEST, port, timeout=60)
    for number in range(LARGE_MOVES):
        body = json.dumps({"column": number % 100})
        headers = {"content-type": "application/json"}
        connection.request("POST", f"/drop_token/{game_id}/{players[number % 7]}", body, headers)
        connection.getresponse().read()
    connection.close()
    return game_id


# --- The honest clients ------------------------------------------------------


@dataclass
class Honest:
    """What the honest clients saw: each request's latency, and those not served."""

    latencies: list[float] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)

    def add(self, other: Honest) -> None:
        self.latencies += other.latencies
        for what, count in other.failures.items():
            self.failures[what] = self.failures.get(what, 0) + count


def honest_client(port: int, rounds: int, deadline: float, number: int) -> Honest:
    """Rounds of: create a game, move, wait for the move (answered at once), read the game.

    From the address of honest client ``number``; no round starts after
    ``deadline`` (``time.monotonic()``).
    """
    seen = Honest()
    source = (f"{HONEST_NETWORK}{number + 1}", 0)
    connection = http.client.HTTPConnection(HONEST, port, timeout=30, source_address=source)
    json_headers = {"content-type": "application/json"}
    game_id = ""

    def timed(method: str, path: str, body: object = None) -> Any:
        nonlocal connection
        payload = None if body is None else json.dumps(body)
        started = time.perf_counter()
        try:
            connection.request(method, path, payload, json_headers if payload else {})
            response = connection.getresponse()
            answer = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as error:
            connection.close()
            connection = http.client.HTTPConnection(HONEST, port, timeout=30, source_address=source)
            what = type(error).__name__
            seen.failures[what] = seen.failures.get(what, 0) + 1
            return None
        seen.latencies.append(time.perf_counter() - started)
        if not 200 <= status < 300:
            what = str(status)
            seen.failures[what] = seen.failures.get(what, 0) + 1
            return None
        return json.loads(answer)

    for _ in range(rounds):
        if time.monotonic() > deadline:
            break
        created = timed("POST", "/drop_token", {"players": ["ann", "bob"], "rows": 4, "columns": 4})
        game_id = created["gameId"] if created else game_id
        if not game_id:
            continue
        timed("POST", f"/drop_token/{game_id}/ann", {"column": 0})
        timed("GET", f"/drop_token/{game_id}/moves?start=0&wait=5")
        timed("GET", f"/drop_token/{game_id}")
    connection.close()
    return seen


def _honest_process(port: int, numbers: range, rounds: int, deadline: float) -> Honest:
    from concurrent.futures import ThreadPoolExecutor

    seen = Honest()
    with ThreadPoolExecutor(len(numbers)) as pool:
        for result in pool.map(
            lambda number: honest_client(port, rounds, deadline, number), numbers
        ):
            seen.add(result)
    return seen


def run_honest(port: int, clients: int, rounds: int, processes: int, seconds: float) -> Honest:
    """All the honest clients, split over ``processes``, for ``seconds`` at most; what they saw."""
    deadline = time.monotonic() + seconds
    shares = [range(n, clients, processes) for n in range(processes)]
    seen = Honest()
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        for result in pool.starmap(
            _honest_process, [(port, numbers, rounds, deadline) for numbers in shares]
        ):
            seen.add(result)
    return seen


# --- The attackers -----------------------------------------------------------


@dataclass
class Tally:
    """What the attacker's connections met."""

    opened: int = 0
    refused: int = 0
    cut: int = 0
    answered: int = 0
    other: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0
    """The attacker's CPU seconds while the honest clients ran (it shares the machine)."""


async def _open(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(HONEST, port, local_addr=(ATTACKER, 0), limit=1 << 22)


async def _status(reader: asyncio.StreamReader) -> int:
    """The status of the next response, its body read and dropped; 0 if closed unanswered."""
    line = await reader.readline()
    if not line:
        return 0
    status = int(line.split()[1])
    length = 0
    while (header := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = header.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


def _count(tally: Tally, status: int) -> None:
    if status in (429, 503):
        tally.refused += 1
    elif status == 0:
        tally.cut += 1
    elif 200 <= status < 300:
        tally.answered += 1
    else:
        tally.other[str(status)] = tally.other.get(str(status), 0) + 1


Loop = Callable[[int, str, Tally], Coroutine[Any, Any, None]]


async def renewal() -> None:
    """The pause before a connection is renewed: a second, give or take half (the
    renewals spread out, as when each was cut at its own time)."""
    await asyncio.sleep(random.uniform(0.5, 1.5))


async def dropped(port: int, game_id: str, tally: Tally) -> None:
    """Send a wait, see whether it is refused at once, and drop it."""
    reader, writer = await _open(port)
    tally.opened += 1
    writer.write(
        f"GET /drop_token/{game_id}/moves?start=0&wait=60 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    )
    try:
        _count(tally, await asyncio.wait_for(_status(reader), 0.05))
    except TimeoutError:
        pass  # Waiting: dropped now, unread.
    writer.close()
    await renewal()


async def slow(port: int, game_id: str, tally: Tally) -> None:
    """Trickle a header line a second, never ending the head, until the server closes."""
    reader, writer = await _open(port)
    tally.opened += 1
    writer.write(b"GET /drop_token HTTP/1.1\r\nHost: x\r\n")
    while True:
        try:
            _count(tally, await asyncio.wait_for(_status(reader), 1.0))
            break
        except TimeoutError:
            writer.write(b"X-Slow: 1\r\n")
        except (ConnectionError, asyncio.IncompleteReadError):
            tally.cut += 1
            break
    writer.close()
    await renewal()


async def idle(port: int, game_id: str, tally: Tally) -> None:
    """Open a connection, send nothing, until the server closes it."""
    reader, writer = await _open(port)
    tally.opened += 1
    try:
        _count(tally, await _status(reader))
    except (ConnectionError, asyncio.IncompleteReadError):
        tally.cut += 1
    writer.close()
    await renewal()


def _looping(method: str, path: str, body: bytes = b"") -> Loop:
    """Send one request after another on a keep-alive connection until it is refused or closed."""
    head = f"{method} {path} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
    head += f"content-length: {len(body)}\r\n\r\n"

    async def attack(port: int, game_id: str, tally: Tally) -> None:
        reader, writer = await _open(port)
        tally.opened += 1
        message = head.replace("{game}", game_id).encode() + body
        while True:
            writer.write(message)
            try:
                status = await _status(reader)
            except (ConnectionError, asyncio.IncompleteReadError):
                status = 0
            _count(tally, status)
            if not 200 <= status < 300:
                break
        writer.close()
        await renewal()

    return attack


LOOPS: dict[str, Loop] = {
    "dropped": dropped,
    "slow": slow,
    "idle": idle,
    "create": _looping("POST", "/drop_token", b'{"players":["x","y"],"rows":4,"columns":4}'),
    "large": _looping("GET", "/drop_token/{game}/moves"),
}


async def _attack(
    kind: str, port: int, game_id: str, connections: int, ready: Event, stop: Event
) -> Tally:
    tally = Tally()

    async def keep_going() -> None:
        while not stop.is_set():
            try:
                await LOOPS[kind](port, game_id, tally)
            except OSError as error:
                tally.other[type(error).__name__] = tally.other.get(type(error).__name__, 0) + 1
                await renewal()

    loops = []
    for _ in range(connections):
        loops.append(asyncio.ensure_future(keep_going()))
        await asyncio.sleep(0)  # Each opens its connection before the next starts.
    while tally.opened < connections and not stop.is_set():
        await asyncio.sleep(0.05)
    ready.set()
    started = time.process_time()
    while not stop.is_set():
        await asyncio.sleep(0.05)
    tally.cpu = time.process_time() - started
    for loop in loops:
        loop.cancel()
    await asyncio.gather(*loops, return_exceptions=True)
    return tally


def _attacker(
    kind: str, port: int, game_id: str, connections: int, ready: Event, stop: Event, out: Any
) -> None:
    raise_open_files(connections + 100)
    out.put(asyncio.run(_attack(kind, port, game_id, connections, ready, stop)))


# --- The runs ----------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` has used so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def row(
    name: str, honest: Honest, server_cpu: float, seconds: float, tally: Tally | None = None
) -> str:
    """One run's line: the honest requests served, p50, p99, and what the attacker met."""
    total = len(honest.latencies) + sum(
        count for what, count in honest.failures.items() if not what.isdigit()
    )
    served = len(honest.latencies) - sum(
        count for what, count in honest.failures.items() if what.isdigit()
    )
    figures = (
        f"{name:<8} {served:>6,}/{total:<6,} {100 * served / max(total, 1):6.2f} % "
        f"{1000 * percentile(honest.latencies, 0.5):7.1f} {1000 * percentile(honest.latencies, 0.99):7.1f}"
        f" {seconds:6.1f} {100 * server_cpu / seconds:5.0f} %"
    )
    if honest.failures:
        figures += f"  honest failures {honest.failures}"
    if tally is not None:
        figures += (
            f"  | attacker: {tally.opened:,} opened, {tally.refused:,} refused, "
            f"{tally.cut:,} cut, {tally.answered:,} answered, CPU {100 * tally.cpu / seconds:.0f} %"
        )
        if tally.other:
            figures += f" {tally.other}"
    return figures


def measured(server: int, args: argparse.Namespace, port: int) -> tuple[Honest, float, float]:
    """One honest run: what it saw, the server's CPU seconds during it, and its length."""
    cpu, started = cpu_seconds(server), time.perf_counter()
    honest = run_honest(port, args.clients, args.rounds, args.client_processes, args.seconds)
    return honest, cpu_seconds(server) - cpu, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.attack", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--clients", type=int, default=64, help="honest clients (64)")
    parser.add_argument(
        "--rounds", type=int, default=100, help="rounds of four requests each (100)"
    )
    parser.add_argument(
        "--client-processes", type=int, default=4, help="processes of honest clients (4)"
    )
    parser.add_argument(
        "--seconds", type=float, default=60, help="the most each run lasts, in seconds (60)"
    )
    parser.add_argument(
        "--connections", type=int, default=1000, help="the attacker's connections (1000)"
    )
    parser.add_argument(
        "--attacks", default=",".join(ATTACKS), help=f"which, in order ({','.join(ATTACKS)})"
    )
    args = parser.parse_args()
    kinds = [kind for kind in args.attacks.split(",") if kind]
    unknown = set(kinds) - set(ATTACKS)
    if unknown:
        parser.error(f"no such attack: {', '.join(sorted(unknown))}")
    limit = raise_open_files(args.connections + args.clients + 200)
    print(f"open files: {limit}; load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    context = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory(prefix="c4-attack-") as folder:
        server, port = start_server(Path(folder) / "games.db")
        try:
            waited = request(
                port, "POST", "/drop_token", {"players": ["a", "b"], "rows": 4, "columns": 4}
            )
            large = long_game(port)
            print("run      served            %    p50 ms  p99 ms      s  server CPU", flush=True)
            for kind in kinds:
                # The machine is shared: each attack beside a quiet run just before it.
                print(row("none", *measured(server.pid, args, port)), flush=True)
                ready, stop, out = context.Event(), context.Event(), context.Queue()
                game_id = large if kind == "large" else waited[1]["gameId"]
                attacker = context.Process(
                    target=_attacker, args=(kind, port, game_id, args.connections, ready, stop, out)
                )
                attacker.start()
                ready.wait(ATTACK_SECONDS)
                try:
                    honest, cpu, seconds = measured(server.pid, args, port)
                finally:
                    stop.set()
                    tally = out.get(timeout=ATTACK_SECONDS)
                    attacker.join(ATTACK_SECONDS)
                print(row(kind, honest, cpu, seconds, tally), flush=True)
        finally:
            server.terminate()
            server.wait(30)
    print(f"load average {os.getloadavg()[0]:.2f} at the end", flush=True)


if __name__ == "__main__":
    main()
