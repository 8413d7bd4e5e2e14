"""The winner checks' worker pool: bounded, and restarted when a worker dies."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest
from loop_support import run_async

from connect_four.engine.board_check import BoardVerdict
from connect_four.service.errors import WinnerBusyError
from connect_four.service.winner_pool import WinnerPool

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
