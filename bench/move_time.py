"""Measure how far past a hard ``time_limit`` the computer's move comes back.

Run from the repository root::

    python -m bench.move_time                 # idle, then with both cores busy
    python -m bench.move_time --limit 2 --busy 0

For each position the top level chooses a move with a work budget far larger
than the limit, so the clock always stops it; the overshoot is the wall time
past the limit. Only figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from connect_four.engine.game import Game
from connect_four.engine.rules import Rules
from connect_four.engine.solver import LEVELS, choose_move

ROOT = Path(__file__).resolve().parent.parent

POSITIONS: list[tuple[str, Rules, str]] = [
    ("6 x 7, empty", Rules(rows=6, columns=7), ""),
    ("6 x 7, after 3,3", Rules(rows=6, columns=7), "3,3"),
    ("5 x 8, empty", Rules(rows=5, columns=8), ""),
    ("20 x 20 connect 5", Rules(rows=20, columns=20, connect=5), "9,10"),
]


def overshoots(limit: float, repeats: int) -> list[tuple[str, float, float]]:
    """(position, mean, worst) seconds past ``limit`` over ``repeats`` moves each."""
    rows = []
    for name, rules, moves in POSITIONS:
        game = Game.from_moves(moves, rules) if moves else Game(rules)
        past = []
        for _ in range(repeats):
            start = time.perf_counter()
            choose_move(game, max(LEVELS), time_budget=100 * limit, time_limit=limit)
            past.append(time.perf_counter() - start - limit)
        rows.append((name, sum(past) / len(past), max(past)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=1.0, help="the hard limit, seconds")
    parser.add_argument("--repeats", type=int, default=3, help="moves per position")
    parser.add_argument(
        "--busy", type=int, default=2, help="busy processes for the loaded run (0: idle only)"
    )
    options = parser.parse_args()
    runs = [("idle", 0)] + (
        [(f"{options.busy} busy processes", options.busy)] if options.busy else []
    )
    print(f"time_limit {options.limit} s, {options.repeats} moves per position")
    print(f"{'machine':<20} {'position':<20} {'mean past limit':>16} {'worst':>10}")
    for label, busy in runs:
        loaders = [
            subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(busy)
        ]
        try:
            for name, mean, worst in overshoots(options.limit, options.repeats):
                print(f"{label:<20} {name:<20} {mean * 1000:>13.1f} ms {worst * 1000:>7.1f} ms")
        finally:
            for loader in loaders:
                loader.kill()
                loader.wait()


if __name__ == "__main__":
    main()
