"""Play the top level against a perfect player and count its game-value mistakes.

Run from the repository root (the compiled solver makes it practical)::

    python -m bench.strength                          # both boards, 20 games a side
    python -m bench.strength --board 5x8 --games 8 --think 0.5

``bench/solver.py --strength --match perfect`` prints the same table.

The perfect player knows the exact value of every move (the opening book
where it holds the position, else the exact search) and picks at random
among the best, so openings vary from game to game. Each move of the
computer is judged by the exact value of the position before it and after
it: a *value mistake* turns a win into a draw or loss, or a draw into a
loss; a *slower* move keeps the result but wins later or loses sooner than
the best move could. The slowest move is wall-clock time of the
computer's ``choose_move``. Only figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field

from connect_four.engine.book import lookup
from connect_four.engine.convert import to_position
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules
from connect_four.engine.score import win_score
from connect_four.engine.solver import LEVELS, Solver, choose_move

BOARDS = {"6x7": Rules(rows=6, columns=7), "5x8": Rules(rows=5, columns=8)}
"""Boards by ``rows x columns``, as `Rules` takes them (Pons and Tromp say 7x6 for 6x7)."""


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
    distinct: set[str] = field(default_factory=set)
    """The move lists of the games, to count how varied they were."""


class Oracle:
    """Exact values for the player to move: the book first, else a search.

    One solver and its table serve the whole match: scores do not depend on
    what the table holds, only the time to find them does.
    """

    def __init__(self, rules: Rules) -> None:
        self.solver = Solver(rules)
        self.searched = 0

    def value(self, game: Game) -> int:
        """The exact score of ``game`` (not over) for the player to move."""
        position = to_position(game)
        known = lookup(position)
        if known is None:
            self.searched += 1
            known = self.solver.score(position)
        return known

    def move_value(self, game: Game, column: int) -> int:
        """The exact score, for the player to move, of playing ``column``."""
        child = game.copy()
        child.play(column)
        outcome = child.outcome()
        if outcome is None:
            return -self.value(child)
        if outcome.winner is None:
            return 0
        return win_score(game.rules.cells, len(game.moves))


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def play(
    rules: Rules, computer: int, think: float, rng: random.Random, oracle: Oracle, tally: Tally
) -> None:
    """One game; ``computer`` is the side (0 first) the top level plays."""
    game = Game(rules)
    while game.outcome() is None:
        if game.to_move == computer:
            start = time.perf_counter()
            column = choose_move(game, max(LEVELS), time_budget=think)
            tally.slowest_move = max(tally.slowest_move, time.perf_counter() - start)
            best = oracle.value(game)
            chosen = oracle.move_value(game, column)
            if sign(chosen) < sign(best):
                tally.value_mistakes += 1
            elif chosen < best:
                tally.slower_moves += 1
        else:
            values = {c: oracle.move_value(game, c) for c in game.legal_moves()}
            best = max(values.values())
            column = rng.choice([c for c, value in values.items() if value == best])
        game.play(column)
    outcome = game.outcome()
    assert outcome is not None
    tally.games += 1
    tally.distinct.add(game.moves_string())
    if outcome.winner is None:
        tally.drawn += 1
    elif outcome.winner == computer:
        tally.won += 1
    else:
        tally.lost += 1


def print_perfect_table(boards: list[str], games: int, think: float, seed: int) -> None:
    """Print the top level's results against the perfect player, a row per board and side.

    ``searched`` counts the positions valued by search because the book did
    not hold them.
    """
    print(f"top level (--think {think}) against a perfect player, {games} games a side")
    header = (
        f"{'board':<6} {'computer plays':<15} {'won':>4} {'drawn':>6} {'lost':>5} "
        f"{'value mistakes':>15} {'slower moves':>13} {'slowest move':>13} {'distinct games':>15} {'searched':>9}"
    )
    print(header)
    print("-" * len(header))
    for board in boards:
        rules = BOARDS[board]
        oracle = Oracle(rules)
        rng = random.Random(seed)
        for side, name in ((0, "first"), (1, "second")):
            tally = Tally()
            searched = oracle.searched
            for _ in range(games):
                play(rules, side, think, rng, oracle, tally)
            print(
                f"{board:<6} {name:<15} {tally.won:>4} {tally.drawn:>6} {tally.lost:>5} "
                f"{tally.value_mistakes:>15} {tally.slower_moves:>13} "
                f"{tally.slowest_move:>11.2f} s {len(tally.distinct):>15} "
                f"{oracle.searched - searched:>9}",
                flush=True,
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--board", choices=sorted(BOARDS), action="append", help="repeatable (default: both)"
    )
    parser.add_argument("--games", type=int, default=20, help="games for each side (default 20)")
    parser.add_argument("--think", type=float, default=1.0, help="the computer's --think")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args(argv)
    print_perfect_table(options.board or list(BOARDS), options.games, options.think, options.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
