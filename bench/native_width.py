"""Measure the 128-bit compiled search against the 64-bit one, per node.

Run from the repository root (both modules built: ``pip install -e .``)::

    python -m bench.native_width                 # about a minute
    python -m bench.native_width --node-limit 500000 --positions 4 --repeats 5

Two figures, in CPU time, each solver's table written once beforehand (as
bench/solver.py does) so that page faults do not count:

1. The same 6 x 7 positions (the Pons sample in tests/data, ``--repeats``
   times) searched by ``connect_four.engine._native`` and by ``connect_four.engine._native128``: the
   same nodes in the same order, so the ratio of times is the cost of the
   wider integers alone (128-bit shifts and popcounts, 16-byte table
   entries, a 128-bit division per table probe).
2. Random early positions of 6 x 7 (64-bit module) and of wide boards
   (8 x 8, 9 x 9, 7 rows x 12 columns, 10 x 10; 128-bit module) searched
   with a node limit: the nodes a second that the budget of connect_four.engine.budget
   assumes, board against board.

Only figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from unittest import mock

import connect_four.engine.accelerator as accelerator_module
from connect_four.engine.accelerator import accelerator, wide_accelerator
from connect_four.engine.bitboard import Position, layout
from connect_four.engine.budget import NATIVE_NODES_PER_SECOND
from connect_four.engine.convert import to_position
from connect_four.engine.errors import SearchAborted
from connect_four.engine.exact import Solver
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = ROOT / "tests" / "data" / "pons_sample.txt"
STANDARD = Rules(rows=6, columns=7)
WIDE_BOARDS = [
    Rules(rows=8, columns=8),
    Rules(rows=9, columns=9),
    Rules(rows=7, columns=12),
    Rules(rows=10, columns=10, connect=5),
]


def pons_sample() -> list[list[int]]:
    """The moves (0-based columns) of each line of the Pons sample."""
    lines = [line for line in SAMPLE.read_text().splitlines() if line and not line.startswith("#")]
    return [[int(digit) - 1 for digit in line.split()[1]] for line in lines]


def solve_all(
    solver: Solver, positions: list[Position], node_limit: int | None
) -> tuple[int, float]:
    """Nodes explored and CPU seconds to score each position on an emptied table."""
    nodes, seconds = 0, 0.0
    for position in positions:
        solver.reset()
        solver.node_limit = node_limit
        start = time.process_time()
        try:
            solver.score(position)
        except SearchAborted:
            pass
        seconds += time.process_time() - start
        nodes += solver.explored
    return nodes, seconds


def narrow_board_on_both_widths(repeats: int) -> None:
    """The Pons sample on the 64-bit module, then on the 128-bit one."""
    positions = [Position.from_moves(moves, STANDARD) for moves in pons_sample()] * repeats
    narrow = Solver(STANDARD, backend="native")
    narrow.touch_table()
    # The 128-bit module takes 6 x 7 boards too; only the choice is patched.
    with mock.patch.object(accelerator_module, "accelerator", wide_accelerator):
        wide = Solver(STANDARD, backend="native")
    wide.touch_table()
    figures = []
    for name, solver in (
        ("connect_four.engine._native (64-bit)", narrow),
        ("connect_four.engine._native128", wide),
    ):
        nodes, seconds = solve_all(solver, positions, None)
        figures.append((name, nodes, seconds))
    print(
        f"6 x 7, the Pons sample {repeats} times ({len(positions)} searches), the same nodes on both:"
    )
    print(
        f"| {'module':<24} | {'nodes':>11} | {'CPU s':>7} | {'ns / node':>9} | {'M nodes/s':>9} |"
    )
    print(f"|{'-' * 26}|{'-' * 13}|{'-' * 9}|{'-' * 11}|{'-' * 11}|")
    for name, nodes, seconds in figures:
        print(
            f"| {name:<24} | {nodes:>11,} | {seconds:>7.2f} | {1e9 * seconds / nodes:>9.1f} |"
            f" {nodes / seconds / 1e6:>9.2f} |"
        )
    assert figures[0][1] == figures[1][1], "the two modules explored different counts"
    print(f"128-bit time per node / 64-bit: {figures[1][2] / figures[0][2]:.2f}")
    print()


def random_position(rules: Rules, rng: random.Random, stones: int) -> Position | None:
    """A position after ``stones`` random moves that nobody has won, if one comes."""
    game = Game(rules)
    for _ in range(stones):
        game.play(rng.choice(game.legal_moves()))
        if game.is_over():
            return None
    return to_position(game)


def boards_under_a_node_limit(node_limit: int, count: int, seed: int) -> None:
    """Nodes a second on random early positions: 6 x 7 (64-bit), then the wide boards."""
    rng = random.Random(seed)
    print(f"{count} random positions of 4 to 15 stones a board, at most {node_limit:,} nodes each:")
    print(
        f"| {'board':<22} | {'bits':>4} | {'nodes':>11} | {'CPU s':>6} | {'M nodes/s':>9} |"
        " / 6 x 7 |"
    )
    print(f"|{'-' * 24}|{'-' * 6}|{'-' * 13}|{'-' * 8}|{'-' * 11}|{'-' * 9}|")
    narrow_rate = None
    for rules in [STANDARD, *WIDE_BOARDS]:
        positions: list[Position] = []
        while len(positions) < count:
            # Early positions: the limit, not the end of the search, stops them.
            found = random_position(rules, rng, rng.randrange(4, 16))
            if found is not None and not found.can_win_next():
                positions.append(found)
        solver = Solver(rules, backend="native")
        solver.touch_table()
        nodes, seconds = solve_all(solver, positions, node_limit)
        rate = nodes / seconds
        narrow_rate = narrow_rate or rate
        name = f"{rules.columns} x {rules.rows}, connect {rules.connect}"
        print(
            f"| {name:<22} | {layout(rules).bits:>4} | {nodes:>11,} | {seconds:>6.2f} |"
            f" {rate / 1e6:>9.2f} | {rate / narrow_rate:>7.2f} |"
        )
    print(
        f"(connect_four.engine.budget assumes {NATIVE_NODES_PER_SECOND / 1e6:g} M nodes a second on 64 bits)"
    )
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--node-limit",
        type=int,
        default=2_000_000,
        help="nodes per wide-board position (default 2,000,000)",
    )
    parser.add_argument(
        "--positions", type=int, default=3, help="random positions per wide board (default 3)"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=10,
        help="searches of the Pons sample per module (default 10)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if accelerator() is None or wide_accelerator() is None:
        print(
            "connect_four.engine._native or connect_four.engine._native128 is not built (pip install -e .): nothing to measure"
        )
        return 1
    narrow_board_on_both_widths(args.repeats)
    boards_under_a_node_limit(args.node_limit, args.positions, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
