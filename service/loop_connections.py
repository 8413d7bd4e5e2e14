"""PostgreSQL connections driven by the event loop: prepared statements, answered by callbacks.

psycopg's asynchronous connections cost 40 to 50 us of CPU more per
statement than its blocking ones (68 against 29 us for a move's
statement, measured here): each wait registers the socket with the loop
and takes it off again, behind a lock and a future of their own. A move
is one statement, so that was a third of what PostgreSQL added to a
request. Here each connection's socket stays registered with the loop for
its whole life, and a statement is libpq's ``send_query_prepared`` (the
statements are prepared once per connection), then one future that the
socket's callback resolves with the results: 17 us.

A connection runs one statement at a time; :class:`LoopConnections` lends
them, opening new ones (in a worker thread: connecting blocks) up to its
size, and makes callers wait for one beyond it (up to its timeout). Values
travel as text: parameters as ``bytes`` or None, rows as tuples of
``bytes`` or None. Failures are psycopg's exceptions: the server's error
(with its SQLSTATE), :class:`ConnectionBroken` for a connection that
broke (dropped, not lent again), ``psycopg.OperationalError`` when no
connection can be had.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg import errors, pq

__all__ = ["ConnectionBroken", "LoopConnections", "Row"]

Row = tuple[bytes | None, ...]
"""One row of a result, each value as the server's text (None: NULL)."""


class ConnectionBroken(psycopg.OperationalError):
    """The connection broke before its statement's answer came: it may or may not have run."""


class _Line:
    """One connection whose socket the loop watches; one statement at a time."""

    def __init__(
        self, connection: psycopg.Connection[Any], loop: asyncio.AbstractEventLoop
    ) -> None:
        self.connection = connection
        self.pgconn = connection.pgconn
        self.pgconn.nonblocking = 1
        self.loop = loop
        self.fd = self.pgconn.socket
        self.broken = False
        self._answer: asyncio.Future[list[pq.abc.PGresult]] | None = None
        self._results: list[pq.abc.PGresult] = []
        loop.add_reader(self.fd, self._readable)

    async def run(self, name: bytes, parameters: Sequence[bytes | None]) -> list[Row]:
        """Run the prepared statement ``name``; its rows (none for a command)."""
        pgconn = self.pgconn
        try:
            pgconn.send_query_prepared(name, parameters)
            while pgconn.flush():  # Not all sent: the socket's buffer is full.
                await self._writable()
        except psycopg.OperationalError as error:
            self.close()
            raise ConnectionBroken(str(error)) from error
        answer = self._answer = self.loop.create_future()
        try:
            results = await answer
        except asyncio.CancelledError:
            self.close()  # Its answer would come to the next statement.
            raise
        rows: list[Row] = []
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                raise errors.error_from_result(result, encoding="utf-8")
            for row in range(result.ntuples):
                rows.append(tuple(result.get_value(row, field) for field in range(result.nfields)))
        return rows

    def _readable(self) -> None:
        """The socket has data: the statement's answer, or the end of the connection."""
        pgconn = self.pgconn
        try:
            pgconn.consume_input()
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if result is None:
                    answer, self._answer = self._answer, None
                    results, self._results = self._results, []
                    if answer is not None and not answer.done():
                        answer.set_result(results)
                    return
                self._results.append(result)
        except psycopg.OperationalError as error:
            answer, self._answer = self._answer, None
            self.close()
            if answer is not None and not answer.done():
                answer.set_exception(ConnectionBroken(str(error)))

    async def _writable(self) -> None:
        ready: asyncio.Future[None] = self.loop.create_future()

        def writable() -> None:
            if not ready.done():
                ready.set_result(None)

        self.loop.add_writer(self.fd, writable)
        try:
            await ready
        finally:
            self.loop.remove_writer(self.fd)

    def close(self) -> None:
        """Stop watching the socket and close the connection."""
        if not self.broken:
            self.broken = True
            self.loop.remove_reader(self.fd)
            self.connection.close()


class LoopConnections:
    """Up to ``size`` connections to ``url`` for the running loop, each with ``statements`` prepared.

    ``connect`` opens and sets up one connection (blocking: it runs in a
    worker thread); ``statements`` maps each name to its SQL (``$1``
    placeholders); ``timeout`` bounds a wait for a free connection.
    """

    def __init__(
        self,
        connect: Callable[[], psycopg.Connection[Any]],
        statements: dict[bytes, str],
        *,
        size: int,
        timeout: float,
    ) -> None:
        self.connect = connect
        self.statements = statements
        self.size = size
        self.timeout = timeout
        self._idle: list[_Line] = []
        self._waiting: collections.deque[asyncio.Future[_Line]] = collections.deque()
        self._count = 0  # Lines open or opening.
        self._closed = False
        self._opening: set[asyncio.Task[None]] = set()  # Kept, or the loop may drop them.

    async def query(self, name: bytes, parameters: Sequence[bytes | None]) -> list[Row]:
        """The rows of the prepared statement ``name``, run on a free connection.

        Raises:
            psycopg.Error: the server refused the statement (its SQLSTATE
                says why); ConnectionBroken: the connection broke;
                psycopg.OperationalError: no connection within the timeout.
        """
        line = await self._lend()
        try:
            return await line.run(name, parameters)
        finally:
            self._give_back(line)

    async def _lend(self) -> _Line:
        while self._idle:
            line = self._idle.pop()
            if not line.broken:
                return line
            self._count -= 1
        if self._closed:
            raise psycopg.OperationalError("the connections are closed")
        if self._count < self.size:
            self._count += 1
            try:
                return await self._open()
            except BaseException:
                self._count -= 1
                raise
        waiter: asyncio.Future[_Line] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        try:
            return await asyncio.wait_for(waiter, self.timeout)
        except TimeoutError:
            raise psycopg.OperationalError(
                f"couldn't get a connection after {self.timeout:.2f} sec"
            ) from None
        finally:
            if waiter in self._waiting:
                self._waiting.remove(waiter)

    async def _open(self) -> _Line:
        loop = asyncio.get_running_loop()
        connection = await asyncio.to_thread(self._connected)
        return _Line(connection, loop)

    def _connected(self) -> psycopg.Connection[Any]:
        """A new connection with every statement prepared (in a worker thread)."""
        connection = self.connect()
        try:
            for name, sql in self.statements.items():
                result = connection.pgconn.prepare(name, sql.encode())
                if result.status == pq.ExecStatus.FATAL_ERROR:
                    raise errors.error_from_result(result, encoding="utf-8")
        except BaseException:
            connection.close()
            raise
        return connection

    def _give_back(self, line: _Line) -> None:
        if line.broken or self._closed:
            line.close()
            self._count -= 1
            if self._waiting and not self._closed:
                # A waiter may open a connection in the place of this one.
                waiter = self._waiting.popleft()
                self._count += 1
                task = asyncio.ensure_future(self._open_for(waiter))
                self._opening.add(task)
                task.add_done_callback(self._opening.discard)
            return
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(line)
                return
        self._idle.append(line)

    async def _open_for(self, waiter: asyncio.Future[_Line]) -> None:
        try:
            line = await self._open()
        except BaseException as error:
            self._count -= 1
            if not waiter.done():
                waiter.set_exception(error)
            return
        if waiter.done():
            self._give_back(line)
        else:
            waiter.set_result(line)

    async def close(self) -> None:
        """Close every idle connection now, the lent ones when they come back."""
        self._closed = True
        idle, self._idle = self._idle, []
        for line in idle:
            line.close()
            self._count -= 1
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_exception(psycopg.OperationalError("the connections are closed"))
