"""Type stub of the compiled search on 64-bit bitboards (engine/_native.c)."""

from collections.abc import Callable, Sequence

from typing_extensions import Buffer  # collections.abc.Buffer is new in 3.12

BITS: int
"""Bits of a bitboard: 64."""
COMPILER_HAS_INT128: int
"""1 where the compiler that built this module has ``unsigned __int128``, so
that it could build ``connect_four.engine._native128`` too, else 0."""

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
        threads: int = 1,
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
        check: Callable[[int], int] | None,
        /,
    ) -> tuple[int, int]: ...
    def winning_cells(self, stones: int, mask: int, /) -> int: ...
    def use_database(
        self, records: Buffer | None, scores: Buffer | None, stones: int, /
    ) -> None: ...
    def database_score(self, current: int, mask: int, /) -> int | None: ...
    def reset(self) -> None: ...
    def filled(self) -> int: ...
    def touch(self) -> None: ...
