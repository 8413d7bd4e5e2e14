"""The lobby at scale (issue 36): many players pairing on one service process, many watchers.

Starts ``python -m connect_four.service`` (SQLite, a fresh temporary file,
access log and per-client rates off, room for every connection from
127.0.0.1) on a free port, registers ``--players`` players, and measures:

1. **Delivery of lobby changes** to ``--watchers`` clients, first each holding
   ``GET /lobby?since=V&wait=60`` on its own connection (the long poll), then
   each reading the stream ``GET /lobby/events`` (Server-Sent Events) on its
   own: for ``--changes`` changes one after the other (a seek made or
   withdrawn), the time from sending the change until each watcher has the
   new version; median, p99 and worst over every (change, watcher), and the
   server's CPU time a change. The issue's target: p99 at most 100 ms.
2. **Quick pairing**: the players press "play someone now"
   (``POST /lobby/pair``, one pool, equal ratings) at ``--rate`` presses a
   second, spread evenly; a player left waiting holds ``GET /lobby/me``
   until their game comes. For each pairing, the time from the second
   press until both players have their ticket (the presser's 201, the
   waiter's feed); pairings a second done, and that time's median, p99 and
   worst. The issue's target: p99 at most 500 ms at 100 pairings a second.
3. **Seeks accepted**: half the players open a seek and wait on their own
   feed, the other half accept one each at half ``--rate`` a second; the
   time from each accept until both players have their ticket.

The clients are asyncio raw sockets in this process (one connection per
request in flight); the load stays on 127.0.0.1 and ends by itself. It
prints the machine's load with the figures: the machine may be shared.

    python -m bench.lobby --players 1000 --watchers 1000 --rate 200
    python -m bench.lobby --players 200 --watchers 200 --changes 5   # quick
    python -m bench.lobby --players 10 --watchers 1000 --watch-only   # delivery only
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.service_process import start_service

WATCH_WAIT = 60
"""Seconds each watcher's long poll asks for (longer than the bench's phases)."""


class Connection:
    """One HTTP/1.1 keep-alive connection to the service, one request at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self,
        method: str,
        path: str,
        key: str | None = None,
        body: Any = None,
        raw: bool = False,
    ) -> tuple[int, Any]:
        """Send one request; its status and JSON answer (None for an empty body; the bytes
        with ``raw``).

        A connection the service closed while idle (its keep-alive timeout) is
        opened again, once.
        """
        try:
            return await self._request(method, path, key, body, raw)
        except (asyncio.IncompleteReadError, ConnectionResetError):
            self.close()
            self.writer = None
            return await self._request(method, path, key, body, raw)

    async def _request(
        self, method: str, path: str, key: str | None, body: Any, raw: bool
    ) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if key is not None:
            head += f"Authorization: Bearer {key}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        answer = await self.reader.readuntil(b"\r\n\r\n")
        lines = answer.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
        data = await self.reader.readexactly(length) if length else b""
        if raw:
            return status, data
        return status, json.loads(data) if data else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def percentiles(values: list[float]) -> str:
    """Median, p99 and worst of ``values`` (seconds) in milliseconds."""
    if not values:
        return "none"
    ordered = sorted(values)

    def at(fraction: float) -> float:
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000

    return f"median {at(0.5):.1f} ms, p99 {at(0.99):.1f} ms, worst {ordered[-1] * 1000:.1f} ms"


async def register(port: int, count: int, prefix: str) -> list[str]:
    """``count`` new players' keys (32 connections at a time)."""
    keys: list[str] = []
    opening = asyncio.Semaphore(32)

    async def one(number: int) -> None:
        async with opening:
            connection = Connection(port)
            status, answer = await connection.request(
                "POST", "/players", body={"name": f"{prefix}{number}"}
            )
            connection.close()
            assert status == 201, answer
            keys.append(answer["key"])

    await asyncio.gather(*(one(number) for number in range(count)))
    return keys


async def watch(
    port: int, watchers: int, changes: int, maker: str, seeks: list[str]
) -> list[float]:
    """Delivery delays of ``changes`` lobby changes to ``watchers`` waiting clients."""
    connections = [Connection(port) for _ in range(watchers)]
    _, lobby = await Connection(port).request("GET", "/lobby")
    version = lobby["version"]
    delays: list[float] = []
    maker_connection = Connection(port)
    opening = asyncio.Semaphore(64)

    async def armed(connection: Connection, since: int) -> tuple[float, int]:
        async with opening:
            if connection.writer is None:
                await connection.request("GET", "/lobby?wait=0.001")  # Connected first.
        status, answer = await connection.request(
            "GET", f"/lobby?since={since}&wait={WATCH_WAIT}", raw=True
        )
        arrived = time.perf_counter()
        assert status == 200, answer
        # The version only (the view's first key): the client's parsing is no part of delivery.
        return arrived, int(answer[answer.index(b":") + 1 : answer.index(b",")])

    for _ in range(changes):
        waits = [asyncio.ensure_future(armed(connection, version)) for connection in connections]
        await asyncio.sleep(1.0 + watchers / 2000)  # Every watcher's request waiting.
        sent = time.perf_counter()
        await change(maker_connection, maker, seeks)
        arrivals = await asyncio.gather(*waits)
        delays += [arrived - sent for arrived, _ in arrivals]
        version = max(seen for _, seen in arrivals)
    for connection in [*connections, maker_connection]:
        connection.close()
    return delays


class StreamWatcher:
    """One client reading ``GET /lobby/events``: the newest version it has, and when each came."""

    def __init__(self) -> None:
        self.latest = -1
        self.arrivals: dict[int, float] = {}
        self.writer: asyncio.StreamWriter | None = None

    async def follow(self, port: int, opened: asyncio.Semaphore) -> None:
        """Connect, then note every event's version and arrival until the stream ends."""
        async with opened:
            reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
            self.writer.write(b"GET /lobby/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200"), head
        # Each event is one chunk of the chunked body: its size's line, then the event.
        while size := int(await reader.readuntil(b"\r\n"), 16):
            event = await reader.readexactly(size + 2)
            if event.startswith(b"id: "):  # Not a heartbeat comment.
                version = int(event[4 : event.index(b"\n")])
                if version > self.latest:
                    self.latest = version
                    self.arrivals[version] = time.perf_counter()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used so far (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def change(connection: Connection, maker: str, seeks: list[str]) -> None:
    """One change of the lobby: a seek made, or (three open) one withdrawn."""
    if len(seeks) == 3:
        await connection.request("DELETE", f"/lobby/seeks/{seeks.pop()}", maker)
    else:
        status, seek = await connection.request("POST", "/lobby/seeks", maker, {})
        assert status == 201, seek
        seeks.append(seek["id"])


async def stream(
    port: int, pid: int, watchers: int, changes: int, maker: str, seeks: list[str]
) -> tuple[list[float], float]:
    """Delivery delays of ``changes`` lobby changes to ``watchers`` streams, and the server's
    CPU seconds a change."""
    followers = [StreamWatcher() for _ in range(watchers)]
    opened = asyncio.Semaphore(64)
    reading = [asyncio.ensure_future(follower.follow(port, opened)) for follower in followers]
    while any(follower.latest < 0 for follower in followers):  # Every first event in.
        await asyncio.sleep(0.05)
    maker_connection = Connection(port)
    delays: list[float] = []
    cpu = 0.0
    for _ in range(changes):
        await asyncio.sleep(0.2)  # The previous change's writes all done.
        before = max(follower.latest for follower in followers)
        used = cpu_seconds(pid)
        sent = time.perf_counter()
        await change(maker_connection, maker, seeks)
        while any(follower.latest <= before for follower in followers):
            await asyncio.sleep(0.002)
        cpu += cpu_seconds(pid) - used
        for follower in followers:
            delays.append(
                min(at for version, at in follower.arrivals.items() if version > before) - sent
            )
    for follower in followers:
        follower.close()
    maker_connection.close()
    await asyncio.gather(*reading, return_exceptions=True)
    return delays, cpu / changes


async def fill_lobby(port: int, seeks: int) -> list[asyncio.Future[None]]:
    """``seeks`` seeks open, three a player, each player kept present by a wait on their feed
    (the returned tasks, to cancel at the end): a lobby whose view is large."""
    keys = await register(port, -(-seeks // 3), "s")
    left = seeks
    for key in keys:
        connection = Connection(port)
        for _ in range(min(3, left)):
            status, seek = await connection.request("POST", "/lobby/seeks", key, {})
            assert status == 201, seek
        left -= min(3, left)
        connection.close()

    async def present(key: str) -> None:
        feed = Connection(port)
        version = None
        try:
            while True:
                query = "" if version is None else f"?since={version}&wait=30"
                _, mine = await feed.request("GET", f"/lobby/me{query}", key)
                version = mine["version"]
        finally:
            feed.close()

    return [asyncio.ensure_future(present(key)) for key in keys]


async def pair(port: int, keys: list[str], rate: float) -> tuple[list[float], float]:
    """Press "play someone now" for every player at ``rate`` presses a second.

    Returns each pairing's time from the second press to both tickets, and the
    seconds from the first press to the last ticket.
    """
    ready: dict[str, list[float]] = {}
    presses: dict[str, list[float]] = {}
    opening = asyncio.Semaphore(64)

    async def connected(key: str) -> tuple[Connection, Connection, int]:
        """The player's two connections, open, and their feed's version before pressing."""
        async with opening:
            connection, feed = Connection(port), Connection(port)
            await connection.request("GET", "/lobby?wait=0.001")
            _, mine = await feed.request("GET", "/lobby/me", key)
        return connection, feed, mine["version"]

    async def player(
        key: str, at: float, connection: Connection, feed: Connection, version: int
    ) -> None:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        start = time.perf_counter()
        status, answer = await connection.request("POST", "/lobby/pair", key, {})
        if status == 201:
            game = answer["gameId"]
            presses.setdefault(game, []).append(start)
            ready.setdefault(game, []).append(time.perf_counter())
        else:
            assert status == 200, answer
            while True:
                status, mine = await feed.request("GET", f"/lobby/me?since={version}&wait=30", key)
                assert status == 200, mine
                version = mine["version"]
                if mine["games"]:
                    game = mine["games"][0]["gameId"]
                    presses.setdefault(game, []).append(start)
                    ready.setdefault(game, []).append(time.perf_counter())
                    break
        connection.close()
        feed.close()

    players = await asyncio.gather(*(connected(key) for key in keys))
    began = time.perf_counter() + 0.5
    await asyncio.gather(
        *(
            player(key, began + number / rate, *opened)
            for number, (key, opened) in enumerate(zip(keys, players, strict=True))
        )
    )
    ended = time.perf_counter()
    delays = [max(ready[game]) - max(presses[game]) for game in ready if len(ready[game]) == 2]
    return delays, ended - began


async def seek_and_accept(port: int, keys: list[str], rate: float) -> tuple[list[float], float]:
    """Half the players seek, the other half accept one seek each at ``rate`` accepts a second.

    Returns each game's time from the accept until both players have their
    ticket (the acceptor's 201, the seeker's feed), and the seconds the accepts took.
    """
    seekers, acceptors = keys[: len(keys) // 2], keys[len(keys) // 2 :]
    opening = asyncio.Semaphore(64)
    ready: dict[str, list[float]] = {}
    accepted: dict[str, float] = {}

    async def seek(key: str) -> tuple[Connection, str, int]:
        async with opening:
            feed = Connection(port)
            _, mine = await feed.request("GET", "/lobby/me", key)
            status, seek = await feed.request("POST", "/lobby/seeks", key, {})
            assert status == 201, seek
        return feed, seek["id"], mine["version"]

    async def seeker(key: str, feed: Connection, version: int) -> None:
        while True:
            status, mine = await feed.request("GET", f"/lobby/me?since={version}&wait=30", key)
            assert status == 200, mine
            version = mine["version"]
            running = [game for game in mine["games"] if game["state"] == "IN_PROGRESS"]
            if running and not mine["seeks"]:
                ready.setdefault(running[0]["gameId"], []).append(time.perf_counter())
                break
        feed.close()

    async def acceptor(key: str, seek_id: str, at: float) -> None:
        connection = Connection(port)
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        start = time.perf_counter()
        status, ticket = await connection.request("POST", f"/lobby/seeks/{seek_id}/accept", key)
        assert status == 201, ticket
        accepted[ticket["gameId"]] = start
        ready.setdefault(ticket["gameId"], []).append(time.perf_counter())
        connection.close()

    opened = await asyncio.gather(*(seek(key) for key in seekers))
    began = time.perf_counter() + 0.5
    waits = [
        asyncio.ensure_future(seeker(key, feed, version))
        for key, (feed, _, version) in zip(seekers, opened, strict=True)
    ]
    await asyncio.gather(
        *(
            acceptor(key, seek_id, began + number / rate)
            for number, (key, (_, seek_id, _)) in enumerate(zip(acceptors, opened, strict=True))
        )
    )
    await asyncio.gather(*waits)
    ended = time.perf_counter()
    delays = [max(ready[game]) - accepted[game] for game in accepted if len(ready[game]) == 2]
    return delays, ended - began


async def run(args: argparse.Namespace, port: int, pid: int) -> None:
    keys = await register(port, args.players, "p")
    (maker,) = await register(port, 1, "maker")
    print(f"{args.players} players registered")
    keepers = await fill_lobby(port, args.open_seeks)
    _, view = await Connection(port).request("GET", "/lobby", raw=True)
    print(f"the lobby's view: {len(view)} bytes ({args.open_seeks} seeks opened)")
    seeks: list[str] = []  # The maker's open seeks: made and withdrawn as the changes.
    delays = await watch(port, args.watchers, args.changes, maker, seeks)
    print(
        f"lobby changes to {args.watchers} watchers, long poll ({args.changes} changes): "
        f"{percentiles(delays)} (target p99 <= 100 ms)"
    )
    delays, cpu = await stream(port, pid, args.watchers, args.changes, maker, seeks)
    print(
        f"lobby changes to {args.watchers} watchers, stream ({args.changes} changes): "
        f"{percentiles(delays)} (target p99 <= 100 ms); server CPU {cpu * 1000:.1f} ms "
        f"a change ({cpu / args.watchers * 1e6:.0f} us a watcher)"
    )
    for keeper in keepers:
        keeper.cancel()
    if args.watch_only:
        return
    delays, seconds = await pair(port, keys, args.rate)
    pairings = len(delays)
    print(
        f"quick pairing: {args.players} presses at {args.rate:g}/s, {pairings} pairings in "
        f"{seconds:.1f} s = {pairings / seconds:.1f} pairings/s; press to both boards ready: "
        f"{percentiles(delays)} (target p99 <= 500 ms at 100 pairings/s)"
    )
    delays, seconds = await seek_and_accept(port, keys, args.rate / 2)
    print(
        f"seeks accepted: {len(delays)} accepts at {args.rate / 2:g}/s in {seconds:.1f} s; "
        f"accept to both boards ready: {percentiles(delays)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000, help="players pairing (1000)")
    parser.add_argument("--watchers", type=int, default=1000, help="lobby watchers (1000)")
    parser.add_argument("--changes", type=int, default=10, help="lobby changes watched (10)")
    parser.add_argument(
        "--rate", type=float, default=200, help="presses a second (200: 100 pairings a second)"
    )
    parser.add_argument(
        "--watch-only", action="store_true", help="measure the delivery of changes only"
    )
    parser.add_argument(
        "--open-seeks",
        type=int,
        default=0,
        help="seeks open while changes are delivered (0; 200 fill the lobby's view)",
    )
    args = parser.parse_args()
    connections = 2 * (args.players + args.watchers) + 200
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, connections + 200)), hard))
    room = str(connections)
    with tempfile.TemporaryDirectory() as folder:
        process, port = start_service(
            Path(folder) / "lobby.db",
            "--rate-games",
            "off",
            "--rate-reads",
            "off",
            "--max-connections",
            room,
            "--max-client-connections",
            room,
            "--max-client-waits",
            room,
        )
        try:
            asyncio.run(run(args, port, process.pid))
        finally:
            process.terminate()
            process.wait(timeout=30)
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (machine shared)")


if __name__ == "__main__":
    main()
