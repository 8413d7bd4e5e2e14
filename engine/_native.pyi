"""Type stub of the compiled search (engine/_native.c)."""

from collections.abc import Callable, Sequence

class Search:
    """The exact search of one board, with its transposition table."""

    def __init__(
        self,
        height: int,
        connect: int,
        cells: int,
        bottom_mask: int,
        board_mask: int,
        ordered_columns: Sequence[int],
        table_size: int,
    ) -> None: ...
    @property
    def table_size(self) -> int: ...
    def negamax(
        self,
        current: int,
        mask: int,
        moves: int,
        alpha: int,
        beta: int,
        threats: int,
        explored: int,
        check: Callable[[int], int],
        /,
    ) -> tuple[int, int]: ...
    def winning_cells(self, stones: int, mask: int, /) -> int: ...
    def reset(self) -> None: ...
