"""Time what one exact-search call costs beyond its search: a search call's fixed cost.

Every hint, review step and ``POST /analysis`` makes a new :class:`Solver`
and asks it a few small questions, so what a call costs before and after
its search counts as much as the search's speed. Each figure here is the
mean wall time of :meth:`Solver.score` on a position that takes a handful
of positions to solve (Pons' first End-Easy line, 5 empty cells), with the
compiled search, no 12-stone database:

* ``reset + score``: one solver, its table emptied before each call (the
  protocol of Pons' benchmarks);
* ``new solver + score``: a new solver for each call, as the engine's
  entry points make one (its table is allocated at its first search);
* ``first call in a process``: a new process's first search, allocation
  of the table included (the median of a few processes).

Each on one thread and on two. Run::

    nice -n 5 .venv/bin/python -m bench.search_calls
    nice -n 5 .venv/bin/python -m bench.solver_race --no-pons --calls   # the same, from the race

The machine's load average is printed with the figures. Nothing is asserted.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from connect_four.engine.bitboard import Position
from connect_four.engine.exact import Solver
from connect_four.engine.rules import Rules

STANDARD = Rules(rows=6, columns=7, connect=4)

SMALL_LINE = "2252576253462244111563365343671351441"
"""Pons' first End-Easy position (columns from 1): 5 empty cells, score -1."""

FIRST_CALL = """
import time
from connect_four.engine.bitboard import Position
from connect_four.engine.exact import Solver
from connect_four.engine.rules import Rules
rules = Rules(rows=6, columns=7, connect=4)
solver = Solver(rules, backend="native", database=False, threads={threads})
position = Position.from_moves({moves}, rules)
start = time.perf_counter()
solver.score(position)
print(time.perf_counter() - start)
"""


def small_position() -> Position:
    """The position every call here scores."""
    return Position.from_moves([int(digit) - 1 for digit in SMALL_LINE], STANDARD)


def reset_and_score(threads: int, calls: int) -> float:
    """Mean seconds of ``reset()`` then ``score()`` on one solver."""
    solver = Solver(STANDARD, backend="native", database=False, threads=threads)
    position = small_position()
    solver.score(position)  # the table's allocation is the next figures'
    start = time.perf_counter()
    for _ in range(calls):
        solver.reset()
        solver.score(position)
    return (time.perf_counter() - start) / calls


def new_solver_and_score(threads: int, calls: int) -> float:
    """Mean seconds of a new solver's first ``score()``, its making and freeing included."""
    position = small_position()
    start = time.perf_counter()
    for _ in range(calls):
        Solver(STANDARD, backend="native", database=False, threads=threads).score(position)
    return (time.perf_counter() - start) / calls


def first_call(threads: int, processes: int) -> float:
    """Median seconds of a new process's first ``score()``."""
    moves = [int(digit) - 1 for digit in SMALL_LINE]
    code = FIRST_CALL.format(threads=threads, moves=moves)
    times = [
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout)
        for _ in range(processes)
    ]
    return statistics.median(times)


def print_calls(calls: int = 2000, processes: int = 5) -> None:
    """One line per kind of call and thread count."""
    print(f"{'search call':<26} {'threads':>7} {'mean wall':>10}")
    for threads in (1, 2):
        for name, seconds in (
            ("reset + score", reset_and_score(threads, calls)),
            ("new solver + score", new_solver_and_score(threads, calls // 4)),
            ("first call in a process", first_call(threads, processes)),
        ):
            print(f"{name:<26} {threads:>7} {seconds * 1e6:>7.1f} us", flush=True)
    one, five, fifteen = os.getloadavg()
    print(f"load average {one:.2f} {five:.2f} {fifteen:.2f}")


if __name__ == "__main__":
    print_calls()
