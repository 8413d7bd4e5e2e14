"""The board as text, in the lines the CS110 terminal game prints."""

from __future__ import annotations

from .game import Game

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from .game import Cell

__all__ = ["column_header", "render"]


def column_header(columns: int) -> list[str]:
    """The header lines that number the columns, one character per column.

    Up to ten columns this is one line of digits. Wider boards write each
    column number downwards, one digit per line, so every number stays
    aligned with its one-character column.

    >>> column_header(8)
    ['01234567']
    >>> column_header(12)
    ['          11', '012345678901']
    """
    width = len(str(columns - 1))
    numbers = [str(column).rjust(width) for column in range(columns)]
    return ["".join(number[place] for number in numbers) for place in range(width)]


def render(
    game: Game,
    *,
    markers: Sequence[str] = "XO",
    empty: str = ".",
    highlight: Collection[Cell] = (),
    highlight_markers: Sequence[str] = "XO",
) -> str:
    """The header, the rows from top to bottom and the header again.

    ``markers[p]`` shows player p's markers; cells in ``highlight`` use
    ``highlight_markers`` instead, to pick out a winning line.

    >>> print(render(Game.from_moves("0,7")))
    01234567
    ........
    ........
    ........
    ........
    X......O
    01234567
    """
    header = column_header(game.rules.columns)
    rows = game.grid()
    top = game.rules.rows - 1
    lines = list(header)
    for index, row in enumerate(rows):
        lines.append(
            "".join(
                empty
                if owner is None
                else (highlight_markers if (top - index, column) in highlight else markers)[owner]
                for column, owner in enumerate(row)
            )
        )
    # The same header below: every column number reads downwards alike.
    lines.extend(header)
    return "\n".join(lines)
