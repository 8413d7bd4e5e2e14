"""The exact search: the score of a position under perfect play, and a move achieving it.

It follows the ideas of Pascal Pons' tutorial "Solving Connect 4" (negamax,
alpha-beta, transposition table, null-window iteration, threat-based move
ordering, loss-avoiding move filter, lower-bound entries), written for any
board size and chain length.

Scores follow Pons' convention, for the player to move, assuming both sides
play perfectly (the winner as fast as possible, the loser as slowly):

* 0: a draw.
* positive: the player to move wins; the score is 1 plus the number of
  stones the winner would still have had to play had the board been filled,
  that is ``(cells + 2 - N) // 2`` where ``N`` is the number of stones on
  the board after the winning one. On 7 x 6 this is ``22 - stones the
  winner placed``, exactly Pons' numbers; on any board a win with your very
  last stone scores 1 and a win at once after ``n`` moves scores
  ``(cells + 1 - n) // 2``.
* negative: the player to move loses; minus the winner's score.

The search runs in pure Python (the reference, for any board) or in C
(``engine/_native_search.h``, the same search line for line: same scores,
moves and node counts) when the accelerator is built and the board's
bitboard fits it: ``engine._native`` takes boards of up to 64 bits
(``columns * (rows + 1)``: 7 x 6, 5 x 8, 7 x 8 ...), ``engine._native128``
those of 65 to 128 bits (8 x 8, 9 x 9, 10 x 10 ...) where the compiler has
``unsigned __int128``. :class:`Solver` picks the accelerator by itself
unless told otherwise or the environment variable
``CONNECT_FOUR_PURE_PYTHON`` is set to ``1``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Literal, TypeAlias

from . import budget
from .bitboard import Layout, Position, UnsupportedGameError, layout
from .budget import BudgetedSearch, SearchAborted
from .errors import EngineError, GameOverError
from .rules import Rules
from .table import TABLE_SIZE, TranspositionTable, check_table_size

if TYPE_CHECKING:
    from ._native import Search as NativeSearch  # engine._native128's has the same interface

__all__ = [
    "NARROW_BITS",
    "PURE_PYTHON_VARIABLE",
    "WIDE_BITS",
    "AcceleratorError",
    "Backend",
    "Solver",
    "accelerator",
    "accelerator_for",
    "fits_accelerator",
    "nodes_per_second",
    "runs_native",
    "wide_accelerator",
]

Backend: TypeAlias = Literal["auto", "native", "python"]
"""Which search a :class:`Solver` runs: the accelerator where it can
("auto"), the accelerator or an error ("native"), or pure Python."""

PURE_PYTHON_VARIABLE = "CONNECT_FOUR_PURE_PYTHON"
"""Set to ``1`` in the environment, "auto" solvers search in pure Python."""

NARROW_BITS = 64
"""The most bits of a board ``engine._native`` takes (``uint64_t`` bitboards)."""

WIDE_BITS = 128
"""The most bits of a board ``engine._native128`` takes (``unsigned __int128``
bitboards), and so any compiled search."""

Negamax: TypeAlias = Callable[[int, int, int, int, int, int], int]


class AcceleratorError(EngineError):
    """The compiled search was asked for but cannot run (not built, or board too wide)."""


def accelerator() -> ModuleType | None:
    """The compiled search on 64-bit bitboards, ``engine._native``, or None where it was not built."""
    try:
        from . import _native
    except ImportError:
        return None
    return _native


def wide_accelerator() -> ModuleType | None:
    """The compiled search on 128-bit bitboards, ``engine._native128``, or None where it was not built.

    It is left out where there is no C compiler, and where the compiler has
    no ``unsigned __int128`` (``engine._native.COMPILER_HAS_INT128`` is 0).
    """
    try:
        from . import _native128
    except ImportError:
        return None
    return _native128


def accelerator_for(rules: Rules) -> ModuleType | None:
    """The compiled search module for positions of ``rules``, or None if none is built or fits.

    The 64-bit module for boards of at most :data:`NARROW_BITS` bits, the
    128-bit one up to :data:`WIDE_BITS`: the narrower is the faster.
    """
    bits = layout(rules).bits
    if bits <= NARROW_BITS:
        return accelerator()
    if bits <= WIDE_BITS:
        return wide_accelerator()
    return None


def fits_accelerator(rules: Rules) -> bool:
    """Whether a position of ``rules`` fits a compiled search's bitboards (128 bits at most).

    Whether that search is built is another matter (see :func:`runs_native`).

    >>> fits_accelerator(Rules(rows=8, columns=8)), fits_accelerator(Rules(rows=10, columns=12))
    (True, False)
    """
    return layout(rules).bits <= WIDE_BITS


def runs_native(rules: Rules) -> bool:
    """Whether a ``Solver(rules)`` with the default backend runs a compiled search."""
    return _pick_accelerator(rules, "auto") is not None


def nodes_per_second(rules: Rules) -> int:
    """Exact-search nodes that a second of budget buys a ``Solver(rules)`` with the default backend.

    The rates of :mod:`engine.budget`: the pure-Python one, the 64-bit
    compiled one, or the 128-bit compiled one, whichever search runs.
    """
    native = _pick_accelerator(rules, "auto")
    if native is None:
        return budget.NODES_PER_SECOND
    if layout(rules).bits <= NARROW_BITS:
        return budget.NATIVE_NODES_PER_SECOND
    return budget.WIDE_NATIVE_NODES_PER_SECOND


class Solver(BudgetedSearch):
    """An exact negamax solver for one board size, with its transposition table.

    >>> solver = Solver(Rules(rows=6, columns=7))
    >>> solver.score(Position.from_moves([3, 3, 4, 4, 5, 5], solver.rules))
    18
    >>> solver.best_move(Position.from_moves([3, 3, 4, 4], solver.rules))
    (2, 18)

    ``backend`` chooses the search (see :data:`Backend`); :attr:`backend`
    tells which one runs. The table (:mod:`engine.table`) keeps its
    ``table_size`` slots across searches until :meth:`reset`.
    ``explored`` counts the positions searched since the last reset.

    Raises:
        AcceleratorError: ``backend="native"`` and the accelerator cannot run.
        ValueError: ``table_size`` is out of range (see :mod:`engine.table`).
    """

    def __init__(
        self, rules: Rules, *, backend: Backend = "auto", table_size: int = TABLE_SIZE
    ) -> None:
        """A solver with an empty table for boards of ``rules``."""
        super().__init__()
        check_table_size(table_size)
        self.rules = rules
        self.layout: Layout = layout(rules)
        native = _pick_accelerator(rules, backend)
        self.backend: Literal["native", "python"] = "python" if native is None else "native"
        """The search that runs: compiled or pure Python."""
        self._native_search: NativeSearch | None = None
        self._table: TranspositionTable | None = None
        if native is not None:
            lay = self.layout
            self._native_search = native.Search(
                lay.height,
                rules.connect,
                rules.cells,
                lay.bottom_mask,
                lay.board_mask,
                [lay.column_masks[c] for c in lay.centre_first],
                table_size,
            )
            self._negamax: Negamax = self._build_native_negamax(self._native_search)
        else:
            self._table = TranspositionTable(
                table_size, key_bits=self.layout.bits, cells=rules.cells
            )
            self._negamax = self._build_negamax(self._table)

    def reset(self) -> None:
        """Empty the transposition table and zero the explored count."""
        if self._table is not None:
            self._table.clear()
        if self._native_search is not None:
            self._native_search.reset()
        self.explored = 0

    def touch_table(self) -> None:
        """Empty the table by writing all of it: no later search pays to touch its pages.

        For benchmarks: the system hands out the table's memory page by page
        as searches first touch it, which costs up to 90 ms over a solver's
        life; :meth:`reset` alone keeps that lazy.
        """
        if self._table is not None:
            self._table.touch()
        if self._native_search is not None:
            self._native_search.touch()
        self.explored = 0

    # --- Public searches -----------------------------------------------------

    def score(self, position: Position) -> int:
        """The exact score of ``position`` for the player to move.

        Null-window searches narrow ``[lower, upper]`` until they meet, each
        probe asking only "is the score above ``middle``?", which prunes far
        more than one wide search. Probes lean towards 0 first, where most
        scores lie.

        Raises:
            GameOverError: the position is already won or the board is full.
            SearchAborted: the node or time budget ran out, or the board has
                more empty cells than Python's recursion limit allows.
        """
        self._check_playable(position)
        cells, moves = self.rules.cells, position.moves
        current, mask = position.current, position.mask
        if position.can_win_next():
            return (cells + 1 - moves) // 2
        if cells - moves > sys.getrecursionlimit() - 100:
            # One stack frame per move: a huge board would overflow the stack.
            raise SearchAborted(f"{cells - moves} empty cells are too many to solve")
        lower = -((cells - moves) // 2)
        upper = (cells + 1 - moves) // 2
        threats = self.layout.winning_cells(current ^ mask, mask)
        negamax = self._negamax
        while lower < upper:
            middle = lower + (upper - lower) // 2
            if middle <= 0 and _half(lower) < middle:
                middle = _half(lower)
            elif middle >= 0 and _half(upper) > middle:
                middle = _half(upper)
            result = negamax(current, mask, moves, middle, middle + 1, threats)
            if result <= middle:
                upper = result
            else:
                lower = result
        return lower

    def best_move(self, position: Position) -> tuple[int, int]:
        """A move that achieves the exact score, and that score: ``(column, score)``.

        Among equally good moves the one nearest the centre wins, so the
        answer is deterministic.

        Raises:
            GameOverError: the position is already won or the board is full.
            SearchAborted: the node or time budget ran out.
        """
        self._check_playable(position)
        lay = self.layout
        columns = lay.column_masks
        possible = position.possible()
        winning = position.winning_cells() & possible
        if winning:
            column = next(c for c in lay.centre_first if winning & columns[c])
            return column, (lay.rules.cells + 1 - position.moves) // 2
        score = self.score(position)
        safe = position.non_losing_moves()
        if not safe:
            # Every move loses at once: block one threat if we can, for form.
            blocks = possible & position.opponent_winning_cells()
            cells = blocks or possible
            return next(c for c in lay.centre_first if cells & columns[c]), score
        current, mask, moves = position.current, position.mask, position.moves
        for column in lay.centre_first:
            cell = safe & columns[column]
            if not cell:
                continue
            child_mask = mask | cell
            threats = lay.winning_cells(current | cell, child_mask)
            # The move achieves `score` iff the child scores at most -score.
            result = self._negamax(
                current ^ mask, child_mask, moves + 1, -score, -score + 1, threats
            )
            if result <= -score:
                return column, score
        raise AssertionError(f"no move achieves the score {score} in {position!r}")

    # --- Internals -----------------------------------------------------------

    def _check_playable(self, position: Position) -> None:
        if position.layout is not self.layout:
            raise UnsupportedGameError(
                f"the solver is for {self.rules!r}, the position for {position.rules!r}"
            )
        if position.is_won() or position.is_full():
            raise GameOverError(f"the game is over after {position.moves} moves")

    def _build_native_negamax(self, search: NativeSearch) -> Negamax:
        """The compiled search behind the same signature as :meth:`_build_negamax`'s.

        The C search calls back :meth:`check_budget` at the nodes where the
        Python one would, with its explored count; an exception raised there
        unwinds the C search and comes out here unchanged.
        """
        run = search.negamax

        def check(explored: int) -> int:
            self.explored = explored
            return self.check_budget()

        def negamax(
            current: int, mask: int, moves: int, alpha: int, beta: int, threats: int
        ) -> int:
            # Without a budget the checks would change nothing: skip the calls.
            budgeted = self.node_limit is not None or self.deadline is not None
            score, self.explored = run(
                current, mask, moves, alpha, beta, threats, self.explored,
                check if budgeted else None,
            )
            return score

        return negamax

    def _build_negamax(self, table: TranspositionTable) -> Negamax:
        """The recursive search, as a closure over locals for CPython speed.

        ``negamax(current, mask, moves, alpha, beta, threats)`` returns the
        exact score if it lies in ``[alpha, beta]``, else a bound on the same
        side: at most alpha (fail low) or at least beta (fail high).
        ``threats`` are the winning cells of the player who just moved,
        already computed by the caller to order its moves. The caller
        guarantees the player to move cannot win at once (it only plays
        non-losing moves). ``engine/_native.c`` mirrors this function.
        """
        lay = self.layout
        solver = self
        keys, codes, size = table.keys, table.codes, table.size
        offset = table.offset
        winning_cells = lay.winning_cells
        bottom, board = lay.bottom_mask, lay.board_mask
        cells = lay.rules.cells
        ordered_columns = tuple(lay.column_masks[c] for c in lay.centre_first)
        next_check = 0

        def negamax(
            current: int, mask: int, moves: int, alpha: int, beta: int, threats: int
        ) -> int:
            nonlocal next_check
            solver.explored += 1
            if solver.explored >= next_check:
                next_check = solver.check_budget()
            possible = (mask + bottom) & board
            forced = possible & threats
            if forced:
                if forced & (forced - 1):
                    return -((cells - moves) // 2)  # two threats: lost next move
                possible = forced
            possible &= ~(threats >> 1)  # never play just below a threat
            if not possible:
                return -((cells - moves) // 2)
            if moves >= cells - 2:
                return 0
            lowest = -((cells - 2 - moves) // 2)  # the opponent cannot win next
            if alpha < lowest:
                alpha = lowest
                if alpha >= beta:
                    return alpha
            highest = (cells - 1 - moves) // 2  # we cannot win at once
            if beta > highest:
                beta = highest
                if alpha >= beta:
                    return beta
            key = current + mask
            slot = key % size
            if keys[slot] == key:
                code = codes[slot]  # 0 (empty) reads as a useless lower bound
                bound = (code >> 1) - offset
                if code & 1:
                    if beta > bound:
                        beta = bound
                        if alpha >= beta:
                            return beta
                elif alpha < bound:
                    alpha = bound
                    if alpha >= beta:
                        return alpha
            opponent = current ^ mask
            if possible & (possible - 1):
                # Several moves: try first those that make the most threats.
                children = []
                rank = 0
                for column_mask in ordered_columns:
                    cell = possible & column_mask
                    if cell:
                        child_mask = mask | cell
                        ours = winning_cells(current | cell, child_mask)
                        children.append((ours.bit_count(), rank, cell, ours))
                        rank -= 1
                children.sort(reverse=True)
                for _, _, cell, ours in children:
                    score = -negamax(opponent, mask | cell, moves + 1, -beta, -alpha, ours)
                    if score >= beta:
                        keys[slot] = key
                        codes[slot] = (score + offset) << 1
                        return score
                    if score > alpha:
                        alpha = score
            else:
                child_mask = mask | possible
                ours = winning_cells(current | possible, child_mask)
                score = -negamax(opponent, child_mask, moves + 1, -beta, -alpha, ours)
                if score >= beta:
                    keys[slot] = key
                    codes[slot] = (score + offset) << 1
                    return score
                if score > alpha:
                    alpha = score
            keys[slot] = key
            codes[slot] = ((alpha + offset) << 1) | 1
            return alpha

        def start(
            current: int, mask: int, moves: int, alpha: int, beta: int, threats: int
        ) -> int:
            nonlocal next_check
            next_check = solver.explored  # look at the budget on the first node
            return negamax(current, mask, moves, alpha, beta, threats)

        return start


def _pick_accelerator(rules: Rules, backend: Backend) -> ModuleType | None:
    """The compiled module to search with, or None for pure Python.

    Raises:
        ValueError: ``backend`` is not a :data:`Backend`.
        AcceleratorError: ``backend`` is "native" and the accelerator cannot run.
    """
    if backend not in ("auto", "native", "python"):
        raise ValueError(f"backend must be 'auto', 'native' or 'python', got {backend!r}")
    if backend == "python":
        return None
    if backend == "auto" and os.environ.get(PURE_PYTHON_VARIABLE) == "1":
        return None
    native = accelerator_for(rules)
    if native is None and backend == "native":
        bits = layout(rules).bits
        if bits > WIDE_BITS:
            raise AcceleratorError(
                f"{rules!r} needs {bits}-bit bitboards; the accelerator takes at most {WIDE_BITS}"
            )
        if bits <= NARROW_BITS:
            raise AcceleratorError("the accelerator engine._native is not built")
        raise AcceleratorError(
            f"the accelerator engine._native128 for boards of {NARROW_BITS + 1} to {WIDE_BITS}"
            " bits is not built (it needs a C compiler with unsigned __int128)"
        )
    return native


def _half(value: int) -> int:
    """``value / 2`` rounded towards zero, like C's integer division."""
    return -((-value) // 2) if value < 0 else value // 2
