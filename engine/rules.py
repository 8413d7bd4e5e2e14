"""The rules of a game: board size and the chain length that wins."""

from __future__ import annotations

from ._value import Value
from .errors import RulesError

__all__ = ["Rules"]


class Rules(Value):
    """Rows, columns and the length of the chain that wins, validated.

    The defaults are the CS110 terminal game's: 5 rows, 8 columns, four in a row.

    >>> Rules()
    Rules(rows=5, columns=8, connect=4)
    >>> Rules(rows=6, columns=7).cells
    42
    >>> Rules(rows=0)
    Traceback (most recent call last):
      ...
    engine.errors.RulesError: rows must be at least 1, got 0

    Raises:
        RulesError: a value is not an int, is smaller than 1, or the chain
            is longer than any line of the board.
    """

    __slots__ = ("rows", "columns", "connect")
    rows: int
    columns: int
    connect: int

    def __init__(self, rows: int = 5, columns: int = 8, connect: int = 4) -> None:
        for name, value in (("rows", rows), ("columns", columns), ("connect", connect)):
            # bool is an int subclass; True rows is nonsense, not 1 row.
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be an integer, got {value!r}")
            if value < 1:
                raise RulesError(f"{name} must be at least 1, got {value}")
        longest = max(rows, columns)
        if connect > longest:
            raise RulesError(
                f"connect {connect} is longer than any line of a "
                f"{rows} x {columns} board (at most {longest})"
            )
        self._set("rows", rows)
        self._set("columns", columns)
        self._set("connect", connect)

    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.rows * self.columns
