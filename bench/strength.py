"""Play the top level against a perfect player and count its game-value mistakes.

Run from the repository root (the compiled solver makes it practical)::

    python3 bench/strength.py --board 5x8 --games 20
    python3 bench/strength.py --board 7x6 --games 20 --think 1

The perfect player scores every move exactly (the opening book where it
holds the position, the exact search elsewhere) and picks at random among
the best, so openings vary. Every move of the computer is scored the same
way: a *value mistake* turns a win into a draw or loss, or a draw into a
loss; a *slower* move keeps the result but wins later or loses sooner than
the best move. Only figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.bitboard import Position  # noqa: E402
from engine.book import lookup  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import Rules  # noqa: E402
from engine.solver import LEVELS, Solver, choose_move  # noqa: E402

BOARDS = {"5x8": Rules(rows=5, columns=8), "7x6": Rules(rows=6, columns=7)}


@dataclass
class Tally:
    """What one side of the match saw."""

    games: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    value_mistakes: int = 0
    slower_moves: int = 0
    slowest_move: float = 0.0


def move_values(game: Game, solver: Solver) -> dict[int, int]:
    """The exact score, for the player to move, of playing each legal column."""
    values = {}
    cells = game.rules.cells
    for column in game.legal_moves():
        child = Game.from_moves([*game.moves, column], game.rules)
        outcome = child.outcome()
        if outcome is not None:
            won = outcome.winner is not None
            values[column] = (cells + 1 - len(game.moves)) // 2 if won else 0
            continue
        position = Position.from_game(child)
        known = lookup(position)
        if known is None:
            solver.reset()
            known = solver.score(position)
        values[column] = -known
    return values


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def play(rules: Rules, computer: int, think: float, rng: random.Random, tally: Tally) -> None:
    """One game; ``computer`` is the side (0 first) the top level plays."""
    solver = Solver(rules)
    game = Game(rules)
    while game.outcome() is None:
        values = move_values(game, solver)
        best = max(values.values())
        if game.to_move == computer:
            start = time.perf_counter()
            column = choose_move(game, max(LEVELS), time_budget=think)
            tally.slowest_move = max(tally.slowest_move, time.perf_counter() - start)
            if sign(values[column]) < sign(best):
                tally.value_mistakes += 1
            elif values[column] < best:
                tally.slower_moves += 1
        else:
            column = rng.choice([c for c, value in values.items() if value == best])
        game.play(column)
    outcome = game.outcome()
    assert outcome is not None
    tally.games += 1
    if outcome.winner is None:
        tally.drawn += 1
    elif outcome.winner == computer:
        tally.won += 1
    else:
        tally.lost += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--board", choices=sorted(BOARDS), default="5x8")
    parser.add_argument("--games", type=int, default=20, help="games for each side")
    parser.add_argument("--think", type=float, default=1.0, help="the computer's --think")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rules = BOARDS[options.board]
    rng = random.Random(options.seed)
    print(f"{options.board}: top level (--think {options.think}) against a perfect player, "
          f"{options.games} games a side")
    print(f"{'computer plays':<16} {'won':>4} {'drawn':>6} {'lost':>5} "
          f"{'value mistakes':>15} {'slower moves':>13} {'slowest move':>13}")
    for side, name in ((0, "first"), (1, "second")):
        tally = Tally()
        for _ in range(options.games):
            play(rules, side, options.think, rng, tally)
        print(f"{name:<16} {tally.won:>4} {tally.drawn:>6} {tally.lost:>5} "
              f"{tally.value_mistakes:>15} {tally.slower_moves:>13} "
              f"{tally.slowest_move:>11.2f} s")


if __name__ == "__main__":
    main()
