"""The compiled search's copy of the rules against their Python home, on random positions.

``engine/_native_search.h`` mirrors two rules that Python writes once: the
threat pruning (:func:`connect_four.engine.bitboard.non_losing_cells`) and
the winning lines (:mod:`connect_four.engine.lines`). Only results show what
the C code decides, so each position is searched by both backends, which
must answer the same move and score after exploring the same number of
positions: a rule changed on one side only changes what is pruned, and so
the count. The positions are checked to exercise every branch of the
pruning at the root, and threats made in each of the four directions (the
C code's own winning cells decide what its children must block), on
boards of several shapes and chain lengths, in both compiled modules.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from solver_support import quiet_position, require_accelerator, require_wide_accelerator

from connect_four.engine.accelerator import NARROW_BITS
from connect_four.engine.bitboard import Position, layout, non_losing_cells
from connect_four.engine.exact import Solver
from connect_four.engine.lines import DIRECTIONS, grid_steps, winning_lines
from connect_four.engine.rules import Rules

NARROW_SHAPES = [Rules(6, 7), Rules(5, 8), Rules(4, 5, 3), Rules(2, 10, 3), Rules(7, 8, 5)]
"""Boards of at most 64 bits: connect_four.engine._native."""

WIDE_SHAPES = [Rules(12, 5), Rules(10, 6), Rules(9, 7, 5), Rules(8, 8, 5), Rules(10, 10, 5)]
"""Boards of 65 to 128 bits: connect_four.engine._native128."""

POSITIONS_PER_SHAPE = 16
TABLE_SIZE = 4099
BRANCHES = ("two threats", "one threat", "below a threat", "free")


def _search(rules: Rules, position: Position, backend: str) -> tuple[int, int, int, int]:
    """A backend's best move and score, the score alone, and the positions each explored."""
    solver = Solver(rules, backend=backend, table_size=TABLE_SIZE, database=False)
    column, score = solver.best_move(position)
    moved = solver.explored
    solver.reset()
    assert solver.score(position) == score
    return column, score, moved, solver.explored


def _branch(position: Position) -> str:
    """Which rule of the threat pruning decides the root's moves, by the Python home."""
    possible, threats = position.possible(), position.opponent_winning_cells()
    forced = possible & threats
    if forced:
        return "two threats" if non_losing_cells(possible, threats) == 0 else "one threat"
    return "below a threat" if non_losing_cells(possible, threats) != possible else "free"


def _directions_of(position: Position, stones: int, cell: int) -> set[int]:
    """The directions (indexes of DIRECTIONS) in which ``cell`` completes a chain of ``stones``."""
    rules, height = position.rules, position.layout.height
    width = rules.columns + 2
    grid = [-2] * ((rules.rows + 2) * width)
    for column in range(rules.columns):
        for row in range(rules.rows):
            bit = 1 << (column * height + row)
            owner = 1 if (stones | cell) & bit else 0 if position.mask & bit else -1
            grid[(row + 1) * width + column + 1] = owner
    index = cell.bit_length() - 1
    row, column = index % height, index // height
    at = (row + 1) * width + column + 1
    steps = grid_steps(width)
    return {n for n, step in enumerate(steps) if winning_lines(grid, at, [step], rules.connect)}


def _threat_directions(position: Position) -> set[int]:
    """Directions of the threats the root's moves make that the opponent must block next.

    The child's threats come from the compiled search's own winning cells.
    """
    lay = position.layout
    current, mask = position.current, position.mask
    found: set[int] = set()
    moves = non_losing_cells(position.possible(), position.opponent_winning_cells())
    while moves:
        cell = moves & -moves
        moves ^= cell
        child_mask = mask | cell
        child_possible = (child_mask + lay.bottom_mask) & lay.board_mask
        threats = lay.winning_cells(current | cell, child_mask) & child_possible
        while threats:
            threat = threats & -threats
            threats ^= threat
            found |= _directions_of(position, current | cell, threat)
    return found


def _compare(shapes: list[Rules], seed: int) -> None:
    rng = random.Random(seed)
    branches: Counter[str] = Counter()
    directions: Counter[int] = Counter()
    for rules in shapes:
        seen: Counter[str] = Counter()  # a root lost to two threats is searched at once
        compared = 0
        for _ in range(100 * POSITIONS_PER_SHAPE):  # a bound, never reached
            position = quiet_position(rules, rng, rng.randint(8, 14))
            if position is None or position.can_win_next():
                continue  # both backends answer those before any search
            branch = _branch(position)
            if branch == "two threats" and seen[branch] == 2:
                continue
            seen[branch] += 1
            python = _search(rules, position, "python")
            native = _search(rules, position, "native")
            assert native == python, (rules, position)
            branches[branch] += 1
            directions.update(_threat_directions(position))
            compared += 1
            if compared == POSITIONS_PER_SHAPE:
                break
        assert compared == POSITIONS_PER_SHAPE, rules
    # The positions met every rule of the pruning, and threats every way.
    assert all(branches[name] >= 3 for name in BRANCHES), branches
    assert all(directions[n] >= 3 for n in range(len(DIRECTIONS))), directions


@pytest.mark.parametrize("seed", range(2))
def test_the_compiled_search_prunes_and_wins_as_the_python_rules_on_narrow_boards(
    seed: int,
) -> None:
    require_accelerator()
    assert all(layout(rules).bits <= NARROW_BITS for rules in NARROW_SHAPES)
    _compare(NARROW_SHAPES, seed)


def test_the_wide_compiled_search_prunes_and_wins_as_the_python_rules() -> None:
    require_wide_accelerator()
    assert all(layout(rules).bits > NARROW_BITS for rules in WIDE_SHAPES)
    _compare(WIDE_SHAPES, 7)
