"""Race the compiled exact search against BitBully (and connect-four-ai) on Pons' sets and the empty board.

BitBully (C++, MTD(f) on bitboards) is a benchmark-only dependency, never
one of the project's::

    .venv/bin/pip install bitbully
    nice -n 5 .venv/bin/python -m bench.solver_race --data ../shared/benchmarks/pons  # End-Easy 1000, Begin-Medium 30, Begin-Hard 4
    nice -n 5 .venv/bin/python -m bench.solver_race --data DIR --set Begin-Hard      # one set only
    nice -n 5 .venv/bin/python -m bench.solver_race --data DIR --threads 2  # and 2 threads' wall time
    nice -n 5 .venv/bin/python -m bench.solver_race --no-pons --empty      # the empty 6 x 7 board (minutes)
    nice -n 5 .venv/bin/python -m bench.solver_race --no-pons --empty-5x8  # the project alone, 5 x 8
    nice -n 5 .venv/bin/python -m bench.solver_race --no-pons --calls       # a search call's fixed cost

Both solvers score each position from an empty transposition table, with
no opening book (nor the project's 12-stone database), one after the other
in one interleaved run (who goes first alternates), so that both meet the
same load on a shared machine. CPU time is the process's (every thread of
it); "positions" is each solver's own count of positions searched, which
both keep alike: one at every call of the recursive search (BitBully's
``negamax``, the project's ``negamax``), including the calls that return
at once (a forced loss, a full board, a table cutoff), none for a table
probe. So the nanoseconds per position count the same thing on both
sides. The ratio is the project's CPU time over BitBully's: below 1 the project is
faster. The positions are 6 x 7 lines (rows x columns) of Pons' test sets, in the folder
``--data`` names, columns written from 1. The machine's load average is
printed with the figures. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from connect_four.engine.accelerator import runs_native
from connect_four.engine.bitboard import Position
from connect_four.engine.exact import Solver, check_threads
from connect_four.engine.rules import Rules
from connect_four.engine.table import TABLE_SIZE, table_size_for_megabytes

from .search_calls import print_calls

STANDARD = Rules(rows=6, columns=7, connect=4)
SMALL = Rules(rows=5, columns=8, connect=4)

RACED_SETS = [
    ("End-Easy", "Test_L3_R1", 1000),
    ("Begin-Medium", "Test_L1_R2", 30),
    ("Begin-Hard", "Test_L1_R3", 4),
]
"""Name, file and lines taken from the top of each of Pons' sets raced."""

INSTALL_HINT = (
    "bench/solver_race.py needs BitBully, a benchmark-only dependency: "
    ".venv/bin/pip install bitbully"
)


class RaceError(Exception):
    """The race cannot run: BitBully missing, or no test sets where they were looked for."""


@dataclass(frozen=True)
class Run:
    """One solver's answer on one position, and what it cost."""

    score: int
    positions: int
    cpu: float
    wall: float


@dataclass
class Tally:
    """A solver's runs on one set."""

    runs: list[Run]

    def mean_cpu(self) -> float:
        """Mean CPU seconds a position."""
        return statistics.fmean(run.cpu for run in self.runs)

    def mean_wall(self) -> float:
        """Mean wall-clock seconds a position."""
        return statistics.fmean(run.wall for run in self.runs)

    def mean_positions(self) -> float:
        """Mean positions searched a position."""
        return statistics.fmean(run.positions for run in self.runs)

    def ns_per_position(self) -> float:
        """CPU nanoseconds per position searched, over the whole set."""
        return sum(r.cpu for r in self.runs) / max(1, sum(r.positions for r in self.runs)) * 1e9


Racer = Callable[[list[int]], Run]
"""Scores the position after these 0-based moves from an empty table."""


def load_bitbully() -> ModuleType:
    """BitBully's compiled core, ``bitbully.bitbully_core``.

    Raises:
        RaceError: BitBully is not installed.
    """
    try:
        return importlib.import_module("bitbully.bitbully_core")
    except ImportError as error:
        raise RaceError(INSTALL_HINT) from error


def bitbully_racer(core: ModuleType) -> Racer:
    """BitBully's MTD(f) search, its table emptied before each position, no book loaded."""
    engine: Any = core.BitBullyCore()

    def run(moves: list[int]) -> Run:
        board: Any = core.BoardCore()
        if not board.play(moves):
            raise RaceError(f"BitBully refused the moves {moves}")
        engine.resetTranspositionTable()
        engine.resetNodeCounter()
        return _timed(lambda: int(engine.mtdf(board, 0)), engine.getNodeCounter)

    return run


def load_connect_four_ai() -> ModuleType | None:
    """connect-four-ai (Rust), when installed; its Linux wheels are for Python 3.13 only.

    ``pip install connect-four-ai-linux`` in a 3.13 venv that has the project
    installed too; elsewhere the race leaves it out and says so.
    """
    try:
        return importlib.import_module("connect_four_ai")
    except ImportError:
        return None


def connect_four_ai_racer(module: ModuleType) -> Racer:
    """connect-four-ai's solver (negamax on a null-window binary search), reset before each position."""
    solver: Any = module.Solver()

    def run(moves: list[int]) -> Run:
        position = module.Position.from_moves("".join(str(move + 1) for move in moves))
        solver.reset()
        return _timed(lambda: int(solver.solve(position)), lambda: int(solver.explored_positions))

    return run


def project_racer(rules: Rules, table_size: int, threads: int) -> Racer:
    """The project's exact search (:meth:`Solver.score`), its table emptied before each position.

    Without the 12-stone database (:mod:`connect_four.engine.database`), as BitBully runs
    without its opening book: both search every position from scratch.
    """
    solver = Solver(rules, backend="native", table_size=table_size, threads=threads, database=False)
    solver.touch_table()  # the first touch of the table's pages is not the search's

    def run(moves: list[int]) -> Run:
        solver.reset()
        position = Position.from_moves(moves, rules)
        return _timed(lambda: solver.score(position), lambda: solver.explored)

    return run


def _timed(search: Callable[[], int], positions: Callable[[], int]) -> Run:
    """Run ``search`` under the CPU and wall clocks."""
    cpu, wall = time.process_time(), time.perf_counter()
    score = search()
    return Run(score, positions(), time.process_time() - cpu, time.perf_counter() - wall)


def read_lines(data: Path | None, file: str, count: int) -> list[tuple[list[int], int]]:
    """The first ``count`` positions of one of Pons' sets: 0-based moves and the exact score.

    Raises:
        RaceError: the file is missing.
    """
    if data is None:
        raise RaceError("bench/solver_race.py: pass --data FOLDER, Pons' sets, or --no-pons")
    path = data / file
    if not path.is_file():
        raise RaceError(f"bench/solver_race.py: no Pons test set {path}: pass --data FOLDER")
    with path.open() as handle:
        lines = list(itertools.islice(handle, count))
    positions = []
    for line in lines:
        digits, score = line.split()
        positions.append(([int(digit) - 1 for digit in digits], int(score)))
    return positions


def race(positions: list[tuple[list[int], int]], racers: dict[str, Racer]) -> dict[str, Tally]:
    """Every racer on every position, interleaved, the first racer alternating; checks the scores.

    Raises:
        RaceError: a racer's score differs from the expected one.
    """
    tallies = {name: Tally([]) for name in racers}
    names = list(racers)
    for index, (moves, expected) in enumerate(positions):
        order = names if index % 2 == 0 else names[::-1]
        for name in order:
            run = racers[name](moves)
            if run.score != expected:
                digits = "".join(str(move + 1) for move in moves)
                raise RaceError(f"{name} scored {digits} {run.score}, not {expected}")
            tallies[name].runs.append(run)
    return tallies


def print_race(title: str, tallies: dict[str, Tally], baseline: str, *rivals: str) -> None:
    """One line per solver, then the CPU ratio of ``baseline`` over each of ``rivals`` that raced."""
    for name, tally in tallies.items():
        print(
            f"{title:<14} {name:<16} {len(tally.runs):>4} {_duration(tally.mean_cpu()):>10} "
            f"{_duration(tally.mean_wall()):>10} {tally.mean_positions() / 1e6:>11.2f} M "
            f"{tally.ns_per_position():>7.0f} ns",
            flush=True,
        )
    for rival in (name for name in rivals if name in tallies):
        ratio = tallies[baseline].mean_cpu() / tallies[rival].mean_cpu()
        print(f"{title:<14} CPU ratio {baseline} / {rival}: {ratio:.2f}   ({_load()})", flush=True)


def _duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    return f"{seconds * 1e3:.1f} ms" if seconds < 1 else f"{seconds:.3f} s"


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the races; the exit status (2: cannot run)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--data", type=Path, help="folder holding Pons' Test_* files (needed unless --no-pons)"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="also race the project's search on N threads on every set (wall time)",
    )
    parser.add_argument(
        "--table-mb",
        type=float,
        help=f"the project's table in MiB (default {TABLE_SIZE * 8 >> 20})",
    )
    parser.add_argument("--no-pons", action="store_true", help="skip Pons' sets")
    parser.add_argument(
        "--set",
        action="append",
        choices=[title for title, _file, _count in RACED_SETS],
        help="race only this one of Pons' sets (repeatable; default: all)",
    )
    parser.add_argument(
        "--empty", action="store_true", help="also race on the empty 6 x 7 board (minutes each)"
    )
    parser.add_argument(
        "--empty-5x8",
        action="store_true",
        help="also time the project alone on the empty 5 x 8 board (minutes)",
    )
    parser.add_argument(
        "--calls", action="store_true", help="also time a search call's fixed cost (seconds)"
    )
    args = parser.parse_args(argv)
    try:
        return _run(args)
    except (RaceError, ValueError) as error:
        print(error, file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    """The races ``args`` ask for; BitBully and the sets are looked for before any figure."""
    if not runs_native(STANDARD):
        raise RaceError("bench/solver_race.py: the accelerator is not built (pip install -e .)")
    check_threads(args.threads)
    table_size = TABLE_SIZE if args.table_mb is None else table_size_for_megabytes(args.table_mb)
    sets = (
        []
        if args.no_pons
        else [
            (title, read_lines(args.data, file, count))
            for title, file, count in RACED_SETS
            if args.set is None or title in args.set
        ]
    )
    racers: dict[str, Racer] = {}
    if sets or args.empty:
        racers["BitBully"] = bitbully_racer(load_bitbully())
        rust = load_connect_four_ai()
        if rust is not None:
            racers["connect-four-ai"] = connect_four_ai_racer(rust)
        else:
            print("connect-four-ai is not installed here: raced against BitBully only")
        racers = {"project": project_racer(STANDARD, table_size, 1), **racers}
    helper_name = f"project {args.threads} thr."
    helpers = (
        {helper_name: project_racer(STANDARD, table_size, args.threads)}
        if (sets and args.threads > 1)
        else {}
    )
    print(f"project table: {table_size:,} slots, {table_size * 8 / 2**20:.0f} MiB; {_load()}")
    print(
        f"{'work':<14} {'solver':<16} {'n':>4} {'mean CPU':>10} {'mean wall':>10} "
        f"{'positions':>13} {'per pos.':>10}"
    )
    for title, positions in sets:
        tallies = race(positions, {**racers, **helpers})
        print_race(title, tallies, "project", "BitBully", "connect-four-ai")
        if helper_name in tallies:
            ratio = tallies[helper_name].mean_wall() / tallies["project"].mean_wall()
            print(f"{title:<14} wall time {helper_name} / project: {ratio:.2f}   ({_load()})")
    if args.empty:
        tallies = race([([], 1)], racers)
        print_race("empty 6 x 7", tallies, "project", "BitBully", "connect-four-ai")
    if args.calls:
        print_calls()
    if args.empty_5x8:
        run = project_racer(SMALL, table_size, args.threads)([])
        print(
            f"{'empty 5 x 8':<14} {'project':<16} {1:>4} {_duration(run.cpu):>10} "
            f"{_duration(run.wall):>10} {run.positions / 1e6:>11.2f} M "
            f"{run.cpu / run.positions * 1e9:>7.0f} ns   score {run.score}, "
            f"{args.threads} thread(s), {_load()}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
