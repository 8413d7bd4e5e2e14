"""The rules of a game: board size and the chain length that wins."""

from __future__ import annotations

from ._value import Value
from .errors import RulesError
from .validate import is_int

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
    connect_four.engine.errors.RulesError: rows must be at least 1, got 0

    A chain longer than every line of the board is refused, unless
    ``allow_unwinnable`` says that a game nobody can win is meant (the
    drop-token API plays four in a row on every board, even 2 x 2):

    >>> Rules(2, 2, 4, allow_unwinnable=True)
    Rules(rows=2, columns=2, connect=4, allow_unwinnable=True)

    Raises:
        RulesError: a value is not an int, is smaller than 1, or the chain
            is longer than any line of the board and that was not allowed.
    """

    __slots__ = ("rows", "columns", "connect")
    rows: int
    columns: int
    connect: int

    def __init__(
        self,
        rows: int = 5,
        columns: int = 8,
        connect: int = 4,
        *,
        allow_unwinnable: bool = False,
    ) -> None:
        for name, value in (("rows", rows), ("columns", columns), ("connect", connect)):
            if not is_int(value):
                raise RulesError(f"{name} must be an integer, got {value!r}")
            if value < 1:
                raise RulesError(f"{name} must be at least 1, got {value}")
        longest = max(rows, columns)
        if connect > longest and not allow_unwinnable:
            raise RulesError(
                f"connect {connect} is longer than any line of a "
                f"{rows} x {columns} board (at most {longest})"
            )
        self._set("rows", rows)
        self._set("columns", columns)
        self._set("connect", connect)

    @property
    def is_winnable(self) -> bool:
        """Whether some line of the board is long enough to win."""
        return self.connect <= max(self.rows, self.columns)

    def __repr__(self) -> str:
        text = super().__repr__()
        return text if self.is_winnable else text[:-1] + ", allow_unwinnable=True)"

    def __reduce__(self) -> tuple[object, tuple[int, int, int]]:
        # Rebuilt without re-asking whether an unwinnable board was meant.
        return _unpickle, (self.rows, self.columns, self.connect)

    @property
    def cells(self) -> int:
        """How many cells the board has."""
        return self.rows * self.columns


def _unpickle(rows: int, columns: int, connect: int) -> Rules:
    """Rebuild pickled rules, which were validated when first made."""
    return Rules(rows, columns, connect, allow_unwinnable=True)
