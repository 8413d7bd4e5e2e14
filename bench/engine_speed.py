"""How fast the terminal game starts, and how fast the engine plays random games.

Prints two figures, measured in one run, each beside its target:

1. The wall time of the assignment's example game piped into ``connect.py``
   (inputs 0 7 0 6 0 5 0), as a ratio to the bare interpreter's
   (``python -c pass``), the fastest of N runs of each. Target: at most 1.3x.
2. Random playouts per second on a 6 x 7 board through the public engine
   API (``Game.play``, ``Game.legal_moves``, ``Game.outcome``), as a ratio to a
   naive checker written here that keeps a 2-D list board and scans all of it
   for four in a row after every move. Both play the same games from the
   same seed. Target: at least 20x.

This is a measurement, not a test: it asserts nothing. Run it as

    python -m bench.engine_speed [--runs N] [--games N] [--seed N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from connect_four.engine import Game, Rules

ROOT = Path(__file__).resolve().parent.parent

STARTUP_TARGET = 1.3  # at most this many times the bare interpreter
PLAYOUT_TARGET = 20.0  # at least this many times the naive checker
EXAMPLE_INPUT = b"0\n7\n0\n6\n0\n5\n0\n"

ROWS, COLUMNS, CONNECT = 6, 7, 4
# Across, up, up-right, down-right: each line is found from one of its ends.
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1))


# --- 1. Start-up of the terminal game -------------------------------------------


def wall_times(commands: list[list[str]], stdin: bytes, runs: int) -> list[list[float]]:
    """Seconds per run of each command; the commands take turns, so drift hits all alike.

    A player's second game starts from cached bytecode, so the commands run
    with bytecode writing on (whatever PYTHONDONTWRITEBYTECODE says here),
    once untimed to fill the cache.
    """
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run(command: list[str]) -> None:
        subprocess.run(
            command,
            input=stdin,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
            env=environment,
            check=True,
        )

    for command in commands:
        run(command)
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for command, seconds in zip(commands, times, strict=True):
            start = time.perf_counter()
            run(command)
            seconds.append(time.perf_counter() - start)
    return times


def report_startup(runs: int) -> None:
    game = ROOT / "connect.py"
    if not game.exists():
        print(f"1. piped game: skipped, {game} does not exist yet")
        return
    bare, piped = wall_times(
        [[sys.executable, "-c", "pass"], [sys.executable, str(game)]], EXAMPLE_INPUT, runs
    )
    ratio = min(piped) / min(bare)
    print(
        f"1. piped example game: {min(piped) * 1000:.1f} ms, bare interpreter "
        f"{min(bare) * 1000:.1f} ms (fastest of {runs}; medians "
        f"{statistics.median(piped) * 1000:.1f} / {statistics.median(bare) * 1000:.1f} ms)"
    )
    verdict = "meets" if ratio <= STARTUP_TARGET else "MISSES"
    print(f"   ratio {ratio:.2f}x, target at most {STARTUP_TARGET}x: {verdict} it")


# --- 2. Random playouts -----------------------------------------------------------


def engine_playouts(games: int, seed: int) -> tuple[Counter[int | None], int]:
    """Play ``games`` random games through the engine; count the winners (None: draw) and moves."""
    rng = random.Random(seed)
    rules = Rules(rows=ROWS, columns=COLUMNS, connect=CONNECT)
    winners: Counter[int | None] = Counter()
    moves = 0
    for _ in range(games):
        game = Game(rules)
        while (outcome := game.outcome()) is None:
            game.play(rng.choice(game.legal_moves()))
        winners[outcome.winner] += 1
        moves += len(game)
    return winners, moves


def naive_winner(board: list[list[int | None]]) -> int | None:
    """Scan the whole board for four equal markers in a line; return their owner."""
    for row in range(ROWS):
        for column in range(COLUMNS):
            owner = board[row][column]
            if owner is None:
                continue
            for row_step, column_step in DIRECTIONS:
                end_row = row + (CONNECT - 1) * row_step
                end_column = column + (CONNECT - 1) * column_step
                if not (0 <= end_row < ROWS and 0 <= end_column < COLUMNS):
                    continue
                if all(
                    board[row + i * row_step][column + i * column_step] == owner
                    for i in range(1, CONNECT)
                ):
                    return owner
    return None


def naive_playouts(games: int, seed: int) -> Counter[int | None]:
    """The same random games on a 2-D list board, scanned whole after every move."""
    rng = random.Random(seed)
    winners: Counter[int | None] = Counter()
    for _ in range(games):
        board: list[list[int | None]] = [[None] * COLUMNS for _ in range(ROWS)]
        heights = [0] * COLUMNS
        player, drops, winner = 0, 0, None
        while True:
            legal = [column for column in range(COLUMNS) if heights[column] < ROWS]
            column = rng.choice(legal)
            board[heights[column]][column] = player
            heights[column] += 1
            drops += 1
            winner = naive_winner(board)
            if winner is not None or drops == ROWS * COLUMNS:
                break
            player = 1 - player
        winners[winner] += 1
    return winners


def random_choice_seconds(moves: int, seed: int) -> float:
    """Time ``moves`` bare ``rng.choice`` calls: the part of a move both sides pay alike."""
    rng = random.Random(seed)
    columns = list(range(COLUMNS))
    start = time.perf_counter()
    for _ in range(moves):
        rng.choice(columns)
    return time.perf_counter() - start


def report_playouts(games: int, seed: int) -> None:
    start = time.perf_counter()
    engine_winners, moves = engine_playouts(games, seed)
    engine_seconds = time.perf_counter() - start
    start = time.perf_counter()
    naive_winners = naive_playouts(games, seed)
    naive_seconds = time.perf_counter() - start
    choice_seconds = random_choice_seconds(moves, seed)
    ratio = naive_seconds / engine_seconds
    same = "same results" if engine_winners == naive_winners else "RESULTS DIFFER"
    print(
        f"2. random playouts on 6x7 (seed {seed}, {games} games, {moves} moves, X/O/draw "
        f"{engine_winners[0]}/{engine_winners[1]}/{engine_winners[None]}, {same}): "
        f"engine {games / engine_seconds:,.0f}/s, naive full scan {games / naive_seconds:,.0f}/s"
    )
    per_move = 1e6 / moves
    print(
        f"   per move: engine {engine_seconds * per_move:.2f} us, naive {naive_seconds * per_move:.2f} us, "
        f"of which random.choice alone {choice_seconds * per_move:.2f} us"
    )
    verdict = "meets" if ratio >= PLAYOUT_TARGET else "MISSES"
    print(f"   ratio {ratio:.1f}x, target at least {PLAYOUT_TARGET:g}x: {verdict} it")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="runs of each command (default 30)")
    parser.add_argument(
        "--games", type=int, default=2000, help="random games each way (default 2000)"
    )
    parser.add_argument(
        "--seed", type=int, default=2026, help="seed of both playout runs (default 2026)"
    )
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} at {sys.executable}")
    report_startup(args.runs)
    report_playouts(args.games, args.seed)


if __name__ == "__main__":
    main()
