"""The engine's win detection against a brute-force checker, on random games.

The checker below is meant to be obviously correct rather than fast: it keeps
its own board, and after every move it looks at every cell of the board and
every one of the four directions for ``connect`` equal markers in a line. The
engine, which only walks the lines through the last marker, must agree with
it after every move of thousands of random games, on boards of 1 to 9 rows
and columns and every chain length that fits.
"""

from __future__ import annotations

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from connect_four.engine import Game, Outcome, Rules, Status

Cell = tuple[int, int]
Board = list[list[int | None]]  # board[row][column], row 0 at the bottom

# Across, up, up-right, up-left: every line of the board is one of these,
# read from one of its ends.
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]


def winning_lines(board: Board, connect: int) -> set[tuple[int, frozenset[Cell]]]:
    """Every line of ``connect`` equal markers: (owner, its cells).

    A set, because with ``connect`` 1 the four directions find the same cell.
    """
    rows, columns = len(board), len(board[0])
    lines = set()
    for row in range(rows):
        for column in range(columns):
            owner = board[row][column]
            if owner is None:
                continue
            for row_step, column_step in DIRECTIONS:
                cells = [(row + i * row_step, column + i * column_step) for i in range(connect)]
                if all(
                    0 <= r < rows and 0 <= c < columns and board[r][c] == owner for r, c in cells
                ):
                    lines.add((owner, frozenset(cells)))
    return lines


@st.composite
def random_games(draw: st.DrawFn) -> tuple[Rules, list[int]]:
    """Rules and, for every cell of the board, which legal move to pick."""
    rows = draw(st.integers(min_value=1, max_value=9), label="rows")
    columns = draw(st.integers(min_value=1, max_value=9), label="columns")
    connect = draw(st.integers(min_value=1, max_value=max(rows, columns)), label="connect")
    cells = rows * columns
    # Enough picks to fill the board, so every game runs to its end.
    picks = draw(
        st.lists(st.integers(min_value=0, max_value=columns - 1), min_size=cells, max_size=cells),
        label="picks",
    )
    return Rules(rows=rows, columns=columns, connect=connect), picks


# 500 whole games, each checked after every move: tens of thousands of states;
# 3000 took 7 s and had found nothing the first 500 did not.
@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(random_games())
def test_engine_outcome_matches_brute_force_after_every_move(case: tuple[Rules, list[int]]) -> None:
    rules, picks = case
    rows, columns, connect = rules.rows, rules.columns, rules.connect
    game = Game(rules)
    board: Board = [[None] * columns for _ in range(rows)]
    heights = [0] * columns
    player = 0
    for drops, pick in enumerate(picks, start=1):
        legal = [column for column in range(columns) if heights[column] < rows]
        assert game.legal_moves() == legal
        assert game.to_move == player
        column = legal[pick % len(legal)]

        game.play(column)
        row = heights[column]
        board[row][column] = player
        heights[column] += 1
        last: Cell = (row, column)

        lines = winning_lines(board, connect)
        full = drops == rules.cells
        assert game.is_full() is full
        if lines:
            # Play stops at the first line, so the lines are the mover's and
            # each goes through the marker just dropped.
            assert {owner for owner, _ in lines} == {player}
            assert all(last in cells for _, cells in lines)
            expected = Outcome(
                Status.WON, player, frozenset(c for _, cells in lines for c in cells)
            )
            assert game.status is Status.WON
            assert game.outcome() == expected
            event("won on the last free cell" if full else "won")
            event(f"lines through the last marker: {len(lines)}")
            return
        if full:
            assert game.status is Status.DRAWN
            assert game.outcome() == Outcome(Status.DRAWN)
            event("drawn")
            return
        assert game.status is Status.IN_PROGRESS
        assert game.outcome() is None
        player = 1 - player
    raise AssertionError(
        "the picks fill the board, so the game must have ended"
    )  # pragma: no cover
