"""Winner checks run in worker processes, a bounded number at a time.

A check costs up to some 10 ms of CPU (the engine's search budget). Run in
the server's own threads, a flood of them would hold the interpreter lock
and starve move posting; in a separate process they take at most
:data:`~service.limits.WINNER_WORKERS` cores. At most ``workers + waiting``
checks are in flight; one more is refused with
:class:`~service.errors.WinnerBusyError` after a short pause, which
costs the server almost nothing, so a flood is paced, not served.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from engine.board_check import BoardVerdict, check_board

from .errors import WinnerBusyError
from .limits import WINNER_REFUSAL_PAUSE, WINNER_WAITING, WINNER_WORKERS

__all__ = ["WinnerPool", "shared_pool"]


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


class WinnerPool:
    """``workers`` processes for winner checks, ``waiting`` more checks queued at most.

    The processes start on the first check and are restarted if one dies.
    """

    def __init__(
        self,
        workers: int = WINNER_WORKERS,
        waiting: int = WINNER_WAITING,
        refusal_pause: float = WINNER_REFUSAL_PAUSE,
    ) -> None:
        self.workers = workers
        self.capacity = workers + waiting
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

    async def check(
        self, board: str, rows: int, columns: int, connect: int, first: str
    ) -> BoardVerdict:
        """The engine's verdict on ``board``, computed in a worker process.

        Raises:
            WinnerBusyError: ``capacity`` checks are already in flight, or a
                worker died during this one.
            RulesError, BoardError: as :func:`engine.board_check.check_board`.
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
            raise WinnerBusyError(
                f"{self.capacity} winner checks are in progress or waiting, the most at "
                "once; try again in a moment"
            )
        try:
            executor = self._pool()
            try:
                future = executor.submit(check_board, board, rows, columns, connect, first)
                return await asyncio.wrap_future(future)
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start afresh next time.
                with self._lock:
                    if self._executor is executor:
                        self._executor = None
                executor.shutdown(wait=False, cancel_futures=True)
                raise WinnerBusyError("a winner-check worker stopped; try again") from None
        finally:
            with self._lock:
                self.in_flight -= 1

    def close(self) -> None:
        """Stop the worker processes, waiting for them to end (a later check starts new ones)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


_SHARED: WinnerPool | None = None
_SHARED_LOCK = threading.Lock()


def shared_pool() -> WinnerPool:
    """The process's one default pool: every app built in a process shares its workers."""
    global _SHARED  # noqa: PLW0603 (one pool per process, made on first use)
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = WinnerPool()
        return _SHARED
