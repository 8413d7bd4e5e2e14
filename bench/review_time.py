"""How long a whole-game review takes, and how much of it the search settles.

Reviews seeded random full-length games (random legal moves, replayed until
a game of at least ``--length`` moves comes up) on 6 x 7 and 5 x 8 at the
review's default budget, and prints for each: the wall and CPU time, the
moves with a verdict, and the first move without one. Target (issue 19): a
42-move 6 x 7 game within 10 s, progress shown past the first second.
``--thorough`` reviews at connect.py's --thorough budget instead (10 s of
search a position at most; slow without a database).

This is a measurement, not a test: it asserts nothing. Run it as

    python -m bench.review_time [--games N] [--seed N] [--length N] [--thorough]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from connect_four.engine import Game, Rules
from connect_four.engine.review import THOROUGH_SECONDS, review

BOARDS = {"6 x 7": Rules(rows=6, columns=7), "5 x 8": Rules(rows=5, columns=8)}
"""The issue's names: 7 columns by 6 rows, and the assignment's 5 rows by 8 columns."""


def long_game(rules: Rules, rng: random.Random, length: int) -> Game:
    """A random game of at least ``length`` moves (or the board's cells, if fewer)."""
    length = min(length, rules.cells)
    while True:
        game = Game(rules)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        if len(game.moves) >= length:
            return game


def main() -> None:
    """Review the games and print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games per board (default 2)")
    parser.add_argument("--seed", type=int, default=19, help="seed of the games (default 19)")
    parser.add_argument("--length", type=int, default=40, help="least moves a game (default 40)")
    parser.add_argument("--thorough", action="store_true", help="the --thorough budget")
    args = parser.parse_args()
    budget = THOROUGH_SECONDS if args.thorough else None
    per_position = "default" if budget is None else f"{budget:g} s"
    print(f"load average {os.getloadavg()[0]:.1f}; budget per position: {per_position}")
    for name, rules in BOARDS.items():
        rng = random.Random(args.seed)
        for _ in range(args.games):
            game = long_game(rules, rng, args.length)
            wall, cpu = time.perf_counter(), time.process_time()
            reviewed = review(game, seconds_per_position=budget)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            unsettled = [move.number for move in reviewed.moves if move.verdict is None]
            print(
                f"{name}, {len(game.moves)} moves: {wall:5.1f} s wall, "
                f"{cpu:5.1f} s CPU, {len(game.moves) - len(unsettled)} verdicts"
                + (f", unsettled moves {unsettled[0]}-{unsettled[-1]}" if unsettled else "")
            )


if __name__ == "__main__":
    main()
