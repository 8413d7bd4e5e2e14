"""The rules of a game: board size and the chain length that wins."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesError

__all__ = ["Rules"]


@dataclass(frozen=True)
class Rules:
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

    rows: int = 5
    columns: int = 8
    connect: int = 4

    def __post_init__(self) -> None:
        for name in ("rows", "columns", "connect"):
            value = getattr(self, name)
            # bool is an int subclass; True rows is nonsense, not 1 row.
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"{name} must be an integer, got {value!r}")
            if value < 1:
                raise RulesError(f"{name} must be at least 1, got {value}")
        longest = max(self.rows, self.columns)
        if self.connect > longest:
            raise RulesError(
                f"connect {self.connect} is longer than any line of a "
                f"{self.rows} x {self.columns} board (at most {longest})"
            )

    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.rows * self.columns
