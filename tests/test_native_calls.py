"""What a compiled search call costs beside its search: the tables, their reset, the threads.

A search call's fixed cost is timed in ``bench/search_calls.py``; these tests
hold what keeps it small, by what the search does rather than by the clock:
a new table takes only the memory the search touches, a search too small
for a second thread explores as one thread does, and a reset after a search
of several threads empties what each of them stored.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from solver_support import require_accelerator

from connect_four.engine.bitboard import Position
from connect_four.engine.exact import Solver
from connect_four.engine.rules import Rules
from connect_four.engine.table import table_size_for_megabytes

STANDARD = Rules(rows=6, columns=7)
STATM = Path("/proc/self/statm")

SMALL = [int(digit) - 1 for digit in "2252576253462244111563365343671351441"]
"""Pons' first End-Easy position: 5 empty cells, a handful of positions to solve."""

BIG = [int(digit) - 1 for digit in "3544242671"]
"""A Begin-Medium position of Pons' set (Test_L1_R2, see tests/data/pons_sample.txt
for the source): about 410,000 positions to solve, more stores than a thread lists."""


@pytest.fixture(autouse=True)
def native() -> None:
    """Every test here is about the compiled search."""
    require_accelerator()


def _resident_bytes() -> int:
    """The memory this process holds in RAM now (Linux)."""
    return int(STATM.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _score(threads: int, moves: list[int], solver: Solver | None = None) -> tuple[int, int]:
    """The score of the position after ``moves`` and the positions searched for it."""
    solver = solver or Solver(STANDARD, backend="native", database=False, threads=threads)
    score = solver.score(Position.from_moves(moves, STANDARD))
    return score, solver.explored


@pytest.mark.skipif(not STATM.exists(), reason="reads Linux's /proc/self/statm")
def test_a_new_table_takes_only_the_memory_its_search_touches() -> None:
    # 128 MiB: more than a freed solver's table kept for the next, so the
    # search gets fresh memory from the system.
    size = table_size_for_megabytes(128)
    solver = Solver(STANDARD, backend="native", database=False, table_size=size)
    before = _resident_bytes()
    _score(1, SMALL, solver)
    assert _resident_bytes() - before < 16 << 20


def test_a_search_too_small_for_a_helper_explores_as_one_thread() -> None:
    one = _score(1, SMALL)
    for _ in range(5):
        assert _score(2, SMALL) == one


def test_a_reset_after_two_threads_empties_what_each_thread_stored() -> None:
    solver = Solver(STANDARD, backend="native", database=False, threads=2)
    search = solver._native_search
    assert search is not None
    for _ in range(3):
        _score(2, BIG, solver)  # probes past 4,096 positions: the helper starts
        assert search.filled() > 0
        solver.reset()
        assert search.filled() == 0


def test_a_reset_after_a_search_too_big_to_list_empties_every_table() -> None:
    fresh = _score(1, BIG)
    solver = Solver(STANDARD, backend="native", database=False)
    search = solver._native_search
    assert search is not None
    _score(1, SMALL, solver)
    solver.reset()
    assert _score(1, BIG, solver) == fresh
    solver.reset()
    assert search.filled() == 0
    assert _score(1, BIG, solver) == fresh
