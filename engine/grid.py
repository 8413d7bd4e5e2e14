"""The moves that build a grid of cells, as game frameworks hand boards over.

Kaggle's ConnectX sends one flat list, top row first, 0 for an empty cell
and 1 and 2 for the players; OpenSpiel and PettingZoo use a list of rows.
:func:`moves_of_grid` reads either into the board string of
:mod:`connect_four.engine.board_check` and asks its :func:`~connect_four.engine.board_check.reconstruct`
for an order of moves; :meth:`connect_four.engine.Game.from_grid` plays them.
"""

from __future__ import annotations

from .board_check import (
    SEARCH_LIMIT,
    BoardCharacterError,
    BoardLengthError,
    UndecidedBoardError,
    reconstruct,
)
from .rules import Rules

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = ["moves_of_grid"]


def moves_of_grid(
    grid: Sequence[Any],
    rules: Rules,
    *,
    markers: tuple[object, object] = (1, 2),
    empty: object = 0,
    top_down: bool = True,
    search_limit: int | None = None,
) -> tuple[int, ...]:
    """Columns, in an order of play from the first player's marker, that build ``grid``.

    See :meth:`connect_four.engine.Game.from_grid` for the grid's forms and the errors;
    messages call the first player's pieces A and the second's B.

    >>> moves_of_grid([0, 0, 1, 2], Rules(2, 2, 2))
    (0, 1)
    >>> moves_of_grid(  # doctest: +ELLIPSIS
    ...     [["A", "X"], ["B", "X"]], Rules(2, 2, 2), markers=("A", "B"), empty="X"
    ... )
    Traceback (most recent call last):
      ...
    connect_four.engine.errors.MoveOrderError: no order of drops, ... 'BA', '')
    """
    letter_of: dict[object, str] = {markers[0]: "A", markers[1]: "B", empty: "X"}
    if len(letter_of) != 3:
        raise BoardCharacterError(
            f"the markers {markers!r} and the empty cell {empty!r} must be three different values"
        )
    cells = _cells_top_down(grid, rules, top_down)
    letters = []
    for index, cell in enumerate(cells):
        try:
            letters.append(letter_of[cell])
        except (KeyError, TypeError):  # TypeError: an unhashable cell, such as a list
            row, column = divmod(index, rules.columns)
            raise BoardCharacterError(
                f"cell {cell!r} at (row {rules.rows - 1 - row}, column {column}) is neither "
                f"empty ({empty!r}) nor a marker {markers!r}"
            ) from None
    limit = SEARCH_LIMIT if search_limit is None else search_limit
    found = reconstruct("".join(letters), rules, "A", search_limit=limit)
    if found.moves is None:
        raise UndecidedBoardError(
            f"no order of moves building the grid was found within {limit} "
            "positions of search, nor proof that there is none"
        )
    return found.moves


def _cells_top_down(grid: Sequence[Any], rules: Rules, top_down: bool) -> list[Any]:
    """The grid's cells in one list, row by row from the top.

    A list of rows if its first item has a length (a list, tuple, array or a
    string of several characters); a flat list of cells otherwise.

    Raises:
        BoardLengthError: the grid is not ``rules.rows`` x ``rules.columns``.
    """
    rows, columns = rules.rows, rules.columns
    first_item = grid[0] if len(grid) > 0 else None
    nested = hasattr(first_item, "__len__") and not (
        isinstance(first_item, str) and len(first_item) == 1
    )
    if nested:
        lengths = [len(row) if hasattr(row, "__len__") else None for row in grid]
        if len(grid) != rows or any(length != columns for length in lengths):
            raise BoardLengthError(
                f"a {rows} x {columns} board is not {len(grid)} rows of "
                f"{', '.join(sorted({str(length) for length in lengths}))} cells"
            )
        cells = [cell for row in grid for cell in row]
    else:
        if len(grid) != rules.cells:
            raise BoardLengthError(
                f"a {rows} x {columns} board has {rules.cells} cells, but the grid has {len(grid)}"
            )
        cells = list(grid)
    if top_down:
        return cells
    return [
        cell
        for start in reversed(range(0, rules.cells, columns))
        for cell in cells[start : start + columns]
    ]
