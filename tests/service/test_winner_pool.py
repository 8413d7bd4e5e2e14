"""The winner checks' worker pool: bounded, and restarted when a worker dies."""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import time
from pathlib import Path

import pytest
from loop_support import run_async

from connect_four.engine.board_check import BoardVerdict
from connect_four.service.errors import ClientGoneError, WinnerBusyError
from connect_four.service.winner_pool import AnalysisPool, WinnerPool, _unless_gone

EMPTY = "X" * 42


def check(pool: WinnerPool) -> str:
    """One check of the empty 6 x 7 board: its winner, or "busy"."""
    try:
        return run_async(pool.check(EMPTY, 6, 7, 4, "A")).winner
    except WinnerBusyError:
        return "busy"


def test_checks_beyond_the_capacity_are_refused() -> None:
    pool = WinnerPool(workers=1, waiting=1, refusal_pause=0)

    async def three_at_once() -> list[object]:
        checks = [pool.check(EMPTY, 6, 7, 4, "A") for _ in range(3)]
        return await asyncio.gather(*checks, return_exceptions=True)

    try:
        outcomes = run_async(three_at_once())
    finally:
        pool.close()
    # The first two take the worker and the one waiting place; the third is
    # refused without anything sent to the worker.
    assert outcomes[:2] == [BoardVerdict("X", True)] * 2
    assert isinstance(outcomes[2], WinnerBusyError)
    assert (pool.refused, pool.in_flight) == (1, 0)


def test_engine_refusals_come_back_from_the_worker() -> None:
    pool = WinnerPool()
    try:
        with pytest.raises(Exception) as error:
            run_async(pool.check("X" * 41 + "B", 6, 7, 4, "A"))
    finally:
        pool.close()
    assert getattr(error.value, "code", None) == "impossible_counts"


@pytest.mark.slow
def test_a_killed_worker_costs_one_refusal_then_a_new_worker_answers() -> None:
    pool = WinnerPool()
    try:
        assert check(pool) == "X"
        executor = pool._executor
        assert executor is not None
        for pid in list(executor._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        assert [check(pool) for _ in range(3)] == ["busy", "X", "X"]
    finally:
        pool.close()


def test_jobs_whose_client_left_before_a_worker_took_them_never_run(tmp_path: Path) -> None:
    """A client who asks and leaves cannot keep the queue full of work nobody will read.

    One worker, busy with a job that reads a named pipe until the test
    writes to it; six more jobs whose client leaves while they wait. Those
    the executor had taken already (one beyond the job its worker runs, two
    before the worker starts) run, their places held till then; the others
    leave the pool at once and never run.
    """
    pool = AnalysisPool(workers=1, waiting=6, refusal_pause=0)
    files = [tmp_path / f"job{number}" for number in range(6)]
    busy_until_told = tmp_path / "busy"
    os.mkfifo(busy_until_told)

    async def clients_leave() -> tuple[list[object], int, bool]:
        left = asyncio.Event()
        busy = asyncio.ensure_future(pool.run(busy_until_told.read_bytes))
        jobs = [asyncio.ensure_future(pool.run(path.touch, until_gone=left.wait)) for path in files]
        await asyncio.sleep(0)  # every job is in the pool now
        left.set()
        outcomes = await asyncio.gather(*jobs, return_exceptions=True)
        in_flight, busy_still = pool.in_flight, not busy.done()
        await asyncio.to_thread(_tell, busy_until_told)
        await busy
        return outcomes, in_flight, busy_still

    try:
        outcomes, in_flight, busy_still = run_async(clients_leave())
        assert busy_still, "the long job ended before the clients left"
        assert all(isinstance(outcome, ClientGoneError) for outcome in outcomes), outcomes
        deadline = time.monotonic() + 30
        while pool.in_flight:  # the places of the jobs taken come back as they end
            assert time.monotonic() < deadline, pool.in_flight
            time.sleep(0.01)
    finally:
        pool.close()
    ran = sum(path.exists() for path in files)
    assert ran <= 2
    assert in_flight == 1 + ran  # the long job, and those taken before their client left


def _tell(fifo: Path) -> None:
    """End the read of ``fifo`` under way in a worker: open it once the worker reads, close it."""
    deadline = time.monotonic() + 60
    while True:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            return
        except OSError as error:  # ENXIO: nobody reads it yet (the worker is starting)
            if error.errno != errno.ENXIO or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def test_an_answer_ready_in_the_turn_the_client_leaves_is_dropped_all_the_same() -> None:
    """Both over when the wait looks: the client has gone, so it is told gone, never answered.

    On a loaded machine a computer move's worker could finish while the
    event loop was held up, and the route answered 200 to a client known to
    have gone (tests/service/test_client_gone.py failed once in three busy
    runs). Here the job's answer and the departure land in one turn of the loop.
    """

    async def answer_and_departure_together() -> object:
        job: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_soon(job.set_result, 3)

        async def gone_at_once() -> None:
            return None

        return await _unless_gone(job, gone_at_once)

    with pytest.raises(ClientGoneError):
        run_async(answer_and_departure_together())
