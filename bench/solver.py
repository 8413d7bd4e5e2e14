"""Benchmark the exact solver on Pascal Pons' test sets, and measure the levels' strength.

Run from the repository root (or anywhere with the project installed)::

    python -m bench.solver --data ../shared/benchmarks/pons    # all six sets, both backends
    python -m bench.solver --data DIR --set Middle-Medium --lines 50 --python-lines 10
    python -m bench.solver --sample                 # the copy in tests/data, no data folder
    python -m bench.solver --data DIR --set Begin-Hard --every 1 --lines 1000 --no-python  # hours
    python -m bench.solver --no-pons --strength --match greedy --move-budget 0.5
    python -m bench.solver --no-pons --strength --match perfect --games 20 --think 1

The sets are 6 x 7 positions written as 1-based column digits ("4453")
with the exact score in Pons' convention; ``--data`` names the folder of
his ``Test_L*_R*`` files (on the project's machines,
``../shared/benchmarks/pons``, with a README). The
columns become 0-based here, at the boundary. Each position is solved
with :meth:`Solver.score` on an emptied table, as Pons did, and timed in
CPU seconds; each solver's table is written once before its first
position (:meth:`Solver.touch_table`), as Pons' reset writes his. The
compiled search and the pure-Python one run side by side, the latter on
fewer positions where it would take too long. Only figures are printed;
nothing is asserted.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from connect_four.engine.accelerator import Backend, accelerator
from connect_four.engine.bitboard import Position
from connect_four.engine.convert import to_position
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules
from connect_four.engine.solver import LEVELS, Solver, choose_move

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = ROOT / "tests" / "data" / "pons_sample.txt"


@dataclass(frozen=True)
class PonsSet:
    """One of Pons' test sets, what he published for it, and how much of it to run."""

    file: str
    name: str
    pons_explored: float
    """Pons' published mean positions explored (strong solver, part 12)."""
    pons_here: float
    """CPU seconds per position of Pons' C++ (no book) measured on this kind of
    machine (issue 14), on the 977 positions the pure-Python solver then
    finished: typical lines of the four easy sets, but easier than typical
    ones of Begin-Medium and Begin-Hard (their Python means imply about 0.5 M
    and 5 M nodes a position, against Pons' 1.2 M and 66 M)."""
    native_lines: int
    python_lines: int
    stride: int = 1
    """Take every ``stride``-th line: a sample spread over the whole set."""


SETS = [
    PonsSet("Test_L3_R1", "End-Easy", 51.28, 15.6e-6, 1000, 200),
    PonsSet("Test_L2_R1", "Middle-Easy", 449.6, 74e-6, 1000, 200),
    PonsSet("Test_L2_R2", "Middle-Medium", 39_900, 11.5e-3, 1000, 20),
    PonsSet("Test_L1_R1", "Begin-Easy", 3_298, 586e-6, 1000, 100),
    PonsSet("Test_L1_R2", "Begin-Medium", 1_201_000, 87e-3, 200, 3),
    PonsSet("Test_L1_R3", "Begin-Hard", 65_920_000, 0.68, 10, 0, stride=100),
]
STANDARD = Rules(rows=6, columns=7, connect=4)

FIRST_HARD = ("13712", 14.4, 106_325_417 / 1.54)
"""Begin-Hard's first position, the CPU seconds Pons' C++ took on it here,
and his explored count as issue 14 gives it: 1/1.54 of the 106,325,417
positions our search explored with its old dict table (emptied at 2 M
entries), about 69.0 M."""


def parse_line(line: str) -> tuple[list[int], int]:
    """A Pons line "4453 -2" as 0-based columns and the expected score."""
    digits, score = line.split()
    return [int(digit) - 1 for digit in digits], int(score)


def read_set(
    source: Path | None, pons_set: PonsSet, sample: bool, every: int | None = None
) -> list[tuple[list[int], int]]:
    """The positions of one set: every ``stride``-th line of its file, or its sample lines.

    ``every`` replaces the set's own stride (1: every line).
    """
    if sample:
        lines = [
            line.split(maxsplit=1)[1]
            for line in SAMPLE.read_text().splitlines()
            if line.startswith(pons_set.name + " ")
        ]
    else:
        assert source is not None, "the caller checked that --data holds the sets"
        with (source / pons_set.file).open() as handle:
            stride = pons_set.stride if every is None else every
            lines = list(itertools.islice(handle, 0, None, stride))
    return [parse_line(line) for line in lines]


@dataclass(frozen=True)
class Result:
    """The figures of one backend on the positions of one set."""

    count: int
    correct: int
    times: list[float]
    explored: list[int]


def bench_positions(backend: Backend, positions: list[tuple[list[int], int]]) -> Result:
    """Score each position on an emptied table; CPU time and positions explored each."""
    solver = Solver(STANDARD, backend=backend)
    solver.touch_table()
    times: list[float] = []
    explored: list[int] = []
    correct = 0
    for moves, expected in positions:
        position = Position.from_moves(moves, STANDARD)
        solver.reset()
        start = time.process_time()
        score = solver.score(position)
        times.append(time.process_time() - start)
        explored.append(solver.explored)
        correct += score == expected
    return Result(len(times), correct, times, explored)


def print_pons(
    source: Path | None,
    names: list[str],
    backends: list[Backend],
    lines: int | None,
    python_lines: int | None,
    sample: bool,
    every: int | None = None,
) -> None:
    """Print one row of figures per set and backend."""
    header = (
        f"{'set':<14} {'search':<6} {'lines':>5} {'correct':>7} {'mean time':>10} "
        f"{'median':>10} {'per node':>8} {'mean explored':>14} {'Pons':>11} {'ratio':>5} "
        f"{'time / Pons C++':>16}"
    )
    print(header)
    print("-" * len(header))
    shortened: list[str] = []
    firsts: list[str] = []
    for pons_set in SETS:
        if pons_set.name not in names:
            continue
        positions = read_set(source, pons_set, sample, every)
        for backend in backends:
            if backend == "native":
                count = pons_set.native_lines if lines is None else lines
            else:
                count = pons_set.python_lines if python_lines is None else python_lines
                native_count = pons_set.native_lines if lines is None else lines
                if "native" in backends and count < min(native_count, len(positions)):
                    shortened.append(f"{pons_set.name} ({count})")
            chosen = positions[:count]
            if not chosen:
                print(f"{pons_set.name:<14} {backend:<6} {'skipped':>5}", flush=True)
                continue
            result = bench_positions(backend, chosen)
            mean_explored = statistics.fmean(result.explored)
            mean_time = statistics.fmean(result.times)
            print(
                f"{pons_set.name:<14} {backend:<6} {result.count:>5} {result.correct:>7} "
                f"{_duration(mean_time):>10} {_duration(statistics.median(result.times)):>10} "
                f"{sum(result.times) / max(1, sum(result.explored)) * 1e9:>5.0f} ns "
                f"{mean_explored:>14,.1f} {pons_set.pons_explored:>11,.0f} "
                f"{mean_explored / pons_set.pons_explored:>5.2f} "
                f"{mean_time / pons_set.pons_here:>7.2f} x {_duration(pons_set.pons_here):>7}",
                flush=True,
            )
            first_moves = [int(digit) - 1 for digit in str(FIRST_HARD[0])]
            if pons_set.name == "Begin-Hard" and chosen[0][0] == first_moves:
                firsts.append(
                    f"Begin-Hard's first position ({FIRST_HARD[0]}), {backend}: "
                    f"{_duration(result.times[0])}, {result.explored[0]:,} explored "
                    f"({result.explored[0] / FIRST_HARD[2]:.3f} x Pons' about "
                    f"{FIRST_HARD[2] / 1e6:.1f} M); Pons' C++ here: {_duration(FIRST_HARD[1])}."
                )
    for line in firsts:
        print(line)
    stride_sets = [
        f"{s.name} (every {every or s.stride}th line)"
        for s in SETS
        if (every or s.stride) > 1 and s.name in names
    ]
    if not sample and stride_sets:
        print(f"Sampled sets: {', '.join(stride_sets)}.")
    if shortened:
        print(
            "Pure Python on fewer lines, where all would take too long: "
            + ", ".join(shortened)
            + "; its times compare with the native ones only as means."
        )
    print(
        "ratio: mean explored / Pons' published mean (whole set). time / Pons C++: mean\n"
        "CPU time against his C++ as measured on this kind of machine in issue 14, on the\n"
        "lines pure Python could finish: typical ones of the four easy sets, easier ones of\n"
        "Begin-Medium and Begin-Hard, where the time per node and Begin-Hard's first\n"
        "position compare better."
    )


def _duration(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.3f} s"


# --- Strength ------------------------------------------------------------------

Player = Callable[[Game, random.Random], int]


def random_player(game: Game, rng: random.Random) -> int:
    """Any legal column, uniformly."""
    return rng.choice(game.legal_moves())


def greedy_player(game: Game, rng: random.Random) -> int:
    """Takes a win in one, else blocks one, else plays at random."""
    position = to_position(game)
    legal = game.legal_moves()
    wins = [c for c in legal if position.is_winning_move(c)]
    if wins:
        return rng.choice(wins)
    threats = position.opponent_winning_cells() & position.possible()
    blocks = [c for c in legal if threats & position.layout.column_masks[c]]
    return rng.choice(blocks or legal)


def level_player(level: int, budget: float) -> Player:
    """The engine's computer at ``level``."""

    def play(game: Game, rng: random.Random) -> int:
        return choose_move(game, level, rng=rng, time_budget=budget)

    return play


def match(
    rules: Rules, first: Player, second: Player, games: int, seed: int, opening: int = 2
) -> tuple[int, int, int]:
    """(wins, draws, losses) of ``first`` over ``games``, each side starting half the time.

    Games go in pairs: both start from the same ``opening`` random moves, with
    the sides swapped, so deterministic players still meet varied positions.
    """
    rng = random.Random(seed)
    wins = draws = losses = 0
    start: list[int] = []
    for number in range(games):
        if number % 2 == 0:
            start = _random_opening(rules, rng, opening)
        players = (first, second) if number % 2 == 0 else (second, first)
        game = Game.from_moves(start, rules)
        while not game.is_over():
            to_move = game.to_move
            assert to_move is not None
            game.play(players[to_move](game, rng))
        outcome = game.outcome()
        assert outcome is not None
        first_index = 0 if number % 2 == 0 else 1
        if outcome.winner is None:
            draws += 1
        elif outcome.winner == first_index:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def _random_opening(rules: Rules, rng: random.Random, length: int) -> list[int]:
    """``length`` random moves that neither win nor leave a win in one."""
    while True:
        game = Game(rules)
        for _ in range(length):
            game.play(rng.choice(game.legal_moves()))
            if game.is_over():
                break
        if not game.is_over() and not to_position(game).can_win_next():
            return game.moves


def print_strength(games: int, budget: float, seed: int, opening: int, kinds: list[str]) -> None:
    """Print a table of matches on 6 x 7 and 5 x 8 (connect 4).

    ``kinds`` picks the matches: "random" and "greedy" (the top level against
    them) and "levels" (each level against the one below).
    """
    top = max(LEVELS)
    header = f"{'board':<6} {'player':<9} {'opponent':<9} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4} {'score %':>7} {'time':>7}"
    print(header)
    print("-" * len(header))
    for rules in (Rules(rows=6, columns=7), Rules(rows=5, columns=8)):
        board = f"{rules.columns}x{rules.rows}"
        pairs: list[tuple[str, Player, str, Player]] = []
        if "random" in kinds:
            pairs.append((f"level {top}", level_player(top, budget), "random", random_player))
        if "greedy" in kinds:
            pairs.append((f"level {top}", level_player(top, budget), "greedy", greedy_player))
        for level in sorted(LEVELS)[1:] if "levels" in kinds else []:
            pairs.append(
                (
                    f"level {level}",
                    level_player(level, budget),
                    f"level {level - 1}",
                    level_player(level - 1, budget),
                )
            )
        for name, player, opponent_name, opponent in pairs:
            start = time.perf_counter()
            won, drawn, lost = match(rules, player, opponent, games, seed, opening)
            elapsed = time.perf_counter() - start
            percent = 100 * (won + drawn / 2) / games
            print(
                f"{board:<6} {name:<9} {opponent_name:<9} {games:>5} {won:>4} {drawn:>5} "
                f"{lost:>4} {percent:>7.1f} {elapsed:>6.0f}s",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run the chosen benchmarks; the exit status."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        help="folder holding Pons' Test_* files (needed unless --sample or --no-pons)",
    )
    parser.add_argument(
        "--sample",
        action="store_true",
        help="use the few lines per set copied in tests/data/pons_sample.txt instead",
    )
    parser.add_argument(
        "--lines", type=int, help="positions per set for the compiled search (default: per set)"
    )
    parser.add_argument(
        "--python-lines", type=int, help="positions per set for pure Python (default: per set)"
    )
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        choices=[s.name for s in SETS],
        help="a set to run; repeatable (default: all six)",
    )
    parser.add_argument(
        "--every",
        type=int,
        help="take every N-th line of each set (default: 1, Begin-Hard 100)",
    )
    parser.add_argument("--no-native", action="store_true", help="skip the compiled search")
    parser.add_argument("--no-python", action="store_true", help="skip the pure-Python search")
    parser.add_argument("--no-pons", action="store_true", help="skip the test sets")
    parser.add_argument("--strength", action="store_true", help="also play the strength matches")
    parser.add_argument("--games", type=int, default=20, help="games per match (default 20)")
    parser.add_argument(
        "--move-budget",
        type=float,
        default=0.2,
        help="seconds per computer move in the strength matches (default 0.2)",
    )
    parser.add_argument(
        "--match",
        dest="matches",
        action="append",
        choices=["random", "greedy", "levels", "perfect"],
        help="a kind of strength match to play; repeatable (default: all but perfect; "
        "perfect: the top level against a perfect player, see bench/strength.py)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="the top level's --think against the perfect player (default 1)",
    )
    parser.add_argument("--seed", type=int, default=2026, help="seed of the matches")
    parser.add_argument(
        "--opening",
        type=int,
        default=2,
        help="random moves that open each pair of games (default 2)",
    )
    args = parser.parse_args(argv)
    if not args.no_pons:
        if not args.sample and (args.data is None or not (args.data / SETS[0].file).is_file()):
            where = "given" if args.data is None else f"in {args.data}"
            print(
                f"bench.solver: no Pons test sets {where}: "
                "pass --data FOLDER or --sample (tests/data/pons_sample.txt)",
                file=sys.stderr,
            )
            return 2
        backends: list[Backend] = []
        if not args.no_native:
            if accelerator() is None:
                print(
                    "The accelerator connect_four.engine._native is not built (pip install -e .): "
                    "pure Python only."
                )
            else:
                backends.append("native")
        if not args.no_python:
            backends.append("python")
        names = args.sets or [s.name for s in SETS]
        print_pons(
            args.data, names, backends, args.lines, args.python_lines, args.sample, args.every
        )
    if args.strength:
        if not args.no_pons:
            print()
        kinds = args.matches or ["random", "greedy", "levels"]
        others = [kind for kind in kinds if kind != "perfect"]
        if others:
            print_strength(args.games, args.move_budget, args.seed, args.opening, others)
        if "perfect" in kinds:
            from bench.strength import BOARDS, print_perfect_table

            print_perfect_table(list(BOARDS), args.games, args.think, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
