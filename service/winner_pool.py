"""Winner checks, and other bounded engine work, run in worker processes, a bounded number at a time.

:class:`WorkerPool` runs any picklable engine function; :class:`WinnerPool`
is the one the winner check uses, and ``POST /analysis`` has its own (see
:func:`shared_analysis_pool`), so that neither kind of work can crowd out
the other. A check costs up to some 10 ms of CPU (the engine's search budget). Run in
the server's own threads, a flood of them would hold the interpreter lock
and starve move posting; in a separate process they take at most
:data:`~connect_four.service.limits.WINNER_WORKERS` cores. At most ``workers + waiting``
checks are in flight; one more is refused with
:class:`~connect_four.service.errors.WinnerBusyError` after a short pause, which
costs the server almost nothing, so a flood is paced, not served.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ClassVar, TypeVar

from connect_four.engine.board_check import BoardVerdict, check_board

from .errors import (
    AnalysisBusyError,
    ClientGoneError,
    ComputerBusyError,
    ReviewBusyError,
    ServiceError,
    WinnerBusyError,
)
from .limits import (
    ANALYSIS_WAITING,
    ANALYSIS_WORKERS,
    COMPUTER_WAITING,
    COMPUTER_WORKERS,
    REVIEW_WAITING,
    REVIEW_WORKERS,
    WINNER_REFUSAL_PAUSE,
    WINNER_WAITING,
    WINNER_WORKERS,
)

__all__ = [
    "WorkerPool",
    "WinnerPool",
    "AnalysisPool",
    "ComputerPool",
    "ReviewPool",
    "shared_pool",
    "shared_analysis_pool",
    "shared_computer_pool",
    "shared_review_pool",
]

Result = TypeVar("Result")


WORKER_NICENESS = 10
"""How much lower than the server's the workers' CPU priority is: when cores
are short, the scheduler gives them to the server's requests first."""


def _set_up_worker() -> None:
    """Worker initializer: run at a lower priority, ignore Ctrl-C, and end with the server.

    Ctrl-C in a terminal interrupts the whole process group: a worker would
    die of it printing KeyboardInterrupt's traceback, while the server's own
    shutdown stops the workers cleanly (:meth:`WinnerPool.close`). A server
    killed with SIGKILL cannot stop its workers; without the watch they
    would live on, holding the server's inherited output open.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(WORKER_NICENESS)
    except OSError:
        pass  # Not allowed here: the workers run at the server's priority.
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class WorkerPool:
    """``workers`` processes for one kind of engine work, ``waiting`` more jobs queued at most.

    The processes start on the first job and are restarted if one dies.
    A job beyond the capacity, or one whose worker died, raises ``busy``
    (a 503 :class:`~connect_four.service.errors.ServiceError`) naming the ``work``.
    Each kind of work is a subclass that names its ``busy`` error, its ``work`` and
    the defaults of ``workers`` and ``waiting`` (its limits in :mod:`connect_four.service.limits`).
    """

    default_workers: ClassVar[int]
    default_waiting: ClassVar[int]
    busy: ClassVar[type[ServiceError]]
    work: ClassVar[str]

    def __init__(
        self,
        workers: int | None = None,
        waiting: int | None = None,
        refusal_pause: float = WINNER_REFUSAL_PAUSE,
    ) -> None:
        self.workers = self.default_workers if workers is None else workers
        self.capacity = self.workers + (self.default_waiting if waiting is None else waiting)
        self.refusal_pause = refusal_pause
        self.in_flight = 0
        self.refused = 0
        self._lock = threading.Lock()
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                # spawn, not fork: the server has threads, and a forked child
                # would inherit their locks.
                self._executor = ProcessPoolExecutor(
                    self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_set_up_worker,
                )
            return self._executor

    async def run(
        self,
        function: Callable[..., Result],
        *args: object,
        until_gone: Callable[[], Awaitable[object]] | None = None,
    ) -> Result:
        """``function(*args)``, computed in a worker process (both must pickle).

        ``until_gone`` returns once the client who asked has gone: the job is
        then dropped if no worker has taken it yet, so a client who asks and
        leaves cannot keep the queue full of work nobody will read. A job a
        worker has taken runs to its end (the engine's own time limit), its
        place in the capacity taken till then.

        Raises:
            ServiceError: the pool's ``busy`` error: ``capacity`` jobs are
                already in flight, or a worker died during this one.
            ClientGoneError: ``until_gone`` returned before the job was done.
            Exception: whatever ``function`` raises, as raised in the worker.
        """
        with self._lock:
            full = self.in_flight >= self.capacity
            if full:
                self.refused += 1
            else:
                self.in_flight += 1
        if full:
            # Answer late, at no cost to the server, so a looping client
            # cannot turn refusals into a flood.
            await asyncio.sleep(self.refusal_pause)
            raise self.busy(
                f"{self.capacity} {self.work} are in progress or waiting, the most at "
                "once; try again in a moment"
            )
        given_back_later = False
        try:
            executor = self._pool()
            try:
                future = executor.submit(function, *args)
                job = asyncio.wrap_future(future)
                return await (job if until_gone is None else _unless_gone(job, until_gone))
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start afresh next time.
                with self._lock:
                    if self._executor is executor:
                        self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
                raise self.busy(f"a worker for {self.work} stopped; try again") from None
            except (ClientGoneError, asyncio.CancelledError):
                if not future.cancel():  # A worker has it: its place is taken till it ends.
                    given_back_later = True
                    future.add_done_callback(lambda _: self._give_back())
                raise
        finally:
            if not given_back_later:
                self._give_back()

    def _give_back(self) -> None:
        """One job is over (or dropped): its place in the capacity is free."""
        with self._lock:
            self.in_flight -= 1

    def close(self) -> None:
        """Stop the worker processes, waiting for them to end (a later check starts new ones)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


async def _unless_gone(
    job: asyncio.Future[Result], until_gone: Callable[[], Awaitable[object]]
) -> Result:
    """``job``'s result, unless ``until_gone()`` returns (or fails) first: ClientGoneError.

    When both are over by the time either is seen, the client has gone all
    the same and nobody can read the answer: that is what is said.
    """
    gone: asyncio.Future[Any] = asyncio.ensure_future(until_gone())
    try:
        either: set[asyncio.Future[Any]] = {job, gone}
        done, _ = await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if gone in done:
            raise ClientGoneError("the client left before its answer was sent: the job was dropped")
        return job.result()
    finally:
        gone.cancel()
        if gone.done() and not gone.cancelled():
            gone.exception()  # Retrieved: whatever ended the receiving ended the wait alike.


class WinnerPool(WorkerPool):
    """The winner checks' pool: :data:`~connect_four.service.limits.WINNER_WORKERS` processes by default."""

    default_workers = WINNER_WORKERS
    default_waiting = WINNER_WAITING
    busy = WinnerBusyError
    work = "winner checks"

    async def check(
        self, board: str, rows: int, columns: int, connect: int, first: str
    ) -> BoardVerdict:
        """The engine's verdict on ``board``, computed in a worker process.

        Raises:
            WinnerBusyError: ``capacity`` checks are already in flight, or a
                worker died during this one.
            RulesError, BoardError: as :func:`connect_four.engine.board_check.check_board`.
        """
        return await self.run(check_board, board, rows, columns, connect, first)


class AnalysisPool(WorkerPool):
    """The column analyses' pool (``POST /analysis``), apart from the winner checks'."""

    default_workers = ANALYSIS_WORKERS
    default_waiting = ANALYSIS_WAITING
    busy = AnalysisBusyError
    work = "analyses"


class ComputerPool(WorkerPool):
    """The computer's moves' pool (``POST /computer_move``), apart from the others."""

    default_workers = COMPUTER_WORKERS
    default_waiting = COMPUTER_WAITING
    busy = ComputerBusyError
    work = "computer moves"


class ReviewPool(WorkerPool):
    """The game reviews' pool (``POST /review``): a review takes seconds, so it waits apart."""

    default_workers = REVIEW_WORKERS
    default_waiting = REVIEW_WAITING
    busy = ReviewBusyError
    work = "reviews"


_Pool = TypeVar("_Pool", bound="WorkerPool")

_SHARED: dict[Callable[[], WorkerPool], WorkerPool] = {}
_SHARED_LOCK = threading.Lock()


def _shared(kind: Callable[[], _Pool]) -> _Pool:
    """The process's one pool of ``kind``, made on first use: every app built in a process shares it."""
    with _SHARED_LOCK:
        pool = _SHARED.get(kind)
        if pool is None:
            pool = _SHARED[kind] = kind()
        return pool  # type: ignore[return-value]  # keyed by its own class


def shared_pool() -> WinnerPool:
    """The process's one default pool for winner checks."""
    return _shared(WinnerPool)


def shared_analysis_pool() -> AnalysisPool:
    """The process's one default pool for analyses."""
    return _shared(AnalysisPool)


def shared_computer_pool() -> ComputerPool:
    """The process's one default pool for computer moves."""
    return _shared(ComputerPool)


def shared_review_pool() -> ReviewPool:
    """The process's one default pool for game reviews."""
    return _shared(ReviewPool)
