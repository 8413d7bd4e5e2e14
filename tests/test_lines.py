"""The rule of winning's two forms in engine/lines.py give the same answers.

The searches ask the bitboard form, the game and the board check the grid
form; on every cell of random boards of several shapes and chain lengths,
a chain found one way is found the other, and so is every winning cell.
"""

from __future__ import annotations

import random

import pytest

from connect_four.engine.lines import DIRECTIONS, bit_functions, grid_steps, winning_lines

SHAPES = [(6, 7, 4), (5, 8, 4), (4, 4, 3), (3, 9, 5), (7, 3, 2), (2, 2, 1), (9, 9, 6)]

BORDER, EMPTY = -2, -1


def _random_board(rows: int, columns: int, rng: random.Random) -> list[list[int]]:
    """Columns of pieces (0 or 1) from the bottom up, of random heights."""
    return [[rng.randrange(2) for _ in range(rng.randint(0, rows))] for _ in range(columns)]


def _grid(board: list[list[int]], rows: int) -> tuple[list[int], int]:
    """The board as winning_lines walks it, with a border all round, and its width."""
    width = len(board) + 2
    grid = [BORDER] * ((rows + 2) * width)
    for column, stack in enumerate(board):
        for row in range(rows):
            grid[(row + 1) * width + column + 1] = stack[row] if row < len(stack) else EMPTY
    return grid, width


def _bits(board: list[list[int]], rows: int, player: int | None) -> int:
    """One player's pieces (or every piece, for None) as a bitboard."""
    return sum(
        1 << (column * (rows + 1) + row)
        for column, stack in enumerate(board)
        for row, piece in enumerate(stack)
        if player is None or piece == player
    )


@pytest.mark.parametrize(("rows", "columns", "connect"), SHAPES, ids=str)
def test_the_grid_and_the_bitboard_find_the_same_chains_and_winning_cells(
    rows: int, columns: int, connect: int
) -> None:
    rng = random.Random(f"{rows} {columns} {connect}")
    winning_cells, has_chain = bit_functions(rows, columns, connect)
    chains = wins = 0
    for _ in range(150):
        board = _random_board(rows, columns, rng)
        grid, width = _grid(board, rows)
        steps = grid_steps(width)
        mask = _bits(board, rows, None)
        for player in (0, 1):
            stones = _bits(board, rows, player)
            through = [
                i
                for i, owner in enumerate(grid)
                if owner == player and winning_lines(grid, i, steps, connect)
            ]
            assert has_chain(stones) == bool(through)
            chains += bool(through)
            expected = 0
            for i, owner in enumerate(grid):
                if owner == EMPTY:
                    grid[i] = player
                    if winning_lines(grid, i, steps, connect):
                        row, column = divmod(i, width)
                        expected |= 1 << ((column - 1) * (rows + 1) + row - 1)
                    grid[i] = EMPTY
            assert winning_cells(stones, mask) == expected
            wins += bool(expected)
    assert chains and wins  # both answers were met, not only "none"


def test_the_four_directions_are_four_different_lines() -> None:
    steps = grid_steps(9)
    assert len(DIRECTIONS) == len(set(DIRECTIONS)) == 4
    assert len({abs(step) for step in steps}) == 4
