"""Benchmark the solver on Pascal Pons' test sets, and measure the levels' strength.

Run from the repository root::

    python3 bench/solver.py                     # first 200 lines of the fast sets
    python3 bench/solver.py --set Middle-Medium --lines 50
    python3 bench/solver.py --strength --games 20 --move-budget 0.2
    python3 bench/solver.py --no-pons --strength --match greedy --move-budget 0.5

The sets are 7 x 6 positions written as 1-based column digits ("4453")
with the exact score in Pons' convention; see
../shared/benchmarks/pons/README.md. The columns become 0-based here, at
the boundary. The transposition table is reset before each position, as
Pons did. Only figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bitboard import Position  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.solver import LEVELS, Solver, choose_move  # noqa: E402

# (file, name, Pons' published mean positions explored, strong solver, part 12)
SETS: list[tuple[str, str, float]] = [
    ("Test_L3_R1", "End-Easy", 51.28),
    ("Test_L2_R1", "Middle-Easy", 449.6),
    ("Test_L2_R2", "Middle-Medium", 39_900),
    ("Test_L1_R1", "Begin-Easy", 3_298),
    ("Test_L1_R2", "Begin-Medium", 1_201_000),
    ("Test_L1_R3", "Begin-Hard", 65_920_000),
]
DEFAULT_SETS = ["End-Easy", "Middle-Easy", "Middle-Medium", "Begin-Easy"]
STANDARD = Rules(rows=6, columns=7, connect=4)


def parse_line(line: str) -> tuple[list[int], int]:
    """A Pons line "4453 -2" as 0-based columns and the expected score."""
    digits, score = line.split()
    return [int(digit) - 1 for digit in digits], int(score)


def bench_set(path: Path, lines: int) -> tuple[int, int, list[float], list[int]]:
    """Solve the first ``lines`` positions of one set: (count, correct, times, explored)."""
    solver = Solver(STANDARD)
    times: list[float] = []
    explored: list[int] = []
    correct = 0
    with path.open() as handle:
        for number, line in enumerate(handle):
            if number >= lines:
                break
            moves, expected = parse_line(line)
            position = Position.from_moves(moves, STANDARD)
            solver.reset()
            start = time.perf_counter()
            score = solver.score(position)
            times.append(time.perf_counter() - start)
            explored.append(solver.explored)
            correct += score == expected
    return len(times), correct, times, explored


def print_pons(directory: Path, names: list[str], lines: int) -> None:
    """Print one row of figures per set."""
    header = (
        f"{'set':<14} {'positions':>9} {'correct':>7} {'mean time':>11} "
        f"{'median time':>11} {'mean explored':>13} {'Pons':>11} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    for file, name, pons in SETS:
        if name not in names:
            continue
        count, correct, times, explored = bench_set(directory / file, lines)
        mean_explored = statistics.fmean(explored)
        print(
            f"{name:<14} {count:>9} {correct:>7} {_duration(statistics.fmean(times)):>11} "
            f"{_duration(statistics.median(times)):>11} {mean_explored:>13,.1f} "
            f"{pons:>11,.2f} {mean_explored / pons:>6.2f}",
            flush=True,
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
    position = Position.from_game(game)
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
        if not game.is_over() and not Position.from_game(game).can_win_next():
            return game.moves


def print_strength(
    games: int, budget: float, seed: int, opening: int, kinds: list[str]
) -> None:
    """Print a table of matches on 7 x 6 and 5 x 8 (connect 4).

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


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and run the chosen benchmarks."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data",
        type=Path,
        default=ROOT.parent / "shared" / "benchmarks" / "pons",
        help="folder holding the Test_* files (default: ../shared/benchmarks/pons)",
    )
    parser.add_argument(
        "--lines", type=int, default=200, help="positions per set, from the top (default 200)"
    )
    parser.add_argument(
        "--set",
        dest="sets",
        action="append",
        choices=[name for _, name, _ in SETS],
        help=f"a set to run; repeatable (default: {', '.join(DEFAULT_SETS)})",
    )
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
        choices=["random", "greedy", "levels"],
        help="a kind of strength match to play; repeatable (default: all)",
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
        print_pons(args.data, args.sets or DEFAULT_SETS, args.lines)
    if args.strength:
        if not args.no_pons:
            print()
        kinds = args.matches or ["random", "greedy", "levels"]
        print_strength(args.games, args.move_budget, args.seed, args.opening, kinds)


if __name__ == "__main__":
    main()
