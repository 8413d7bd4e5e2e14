"""The exact search: the score of a position under perfect play, and a move achieving it.

It follows the ideas of Pascal Pons' tutorial "Solving Connect 4" (negamax,
alpha-beta, transposition table, null-window iteration, threat-based move
ordering, loss-avoiding move filter, lower-bound entries), written for any
board size and chain length, with enhanced transposition cutoffs near the
root (:data:`ETC_MIN_EMPTY`) and a small table of its own for the positions
near the leaves (:data:`LEAF_EMPTY`).

Scores follow Pons' convention (:mod:`connect_four.engine.score`). The search runs in
pure Python (the reference, for any board) or in C
(``engine/_native_search.h``, the same search line for line: same scores,
moves and node counts); :mod:`connect_four.engine.accelerator` chooses which.

On 6 x 7 with the ``database`` extra installed, both searches take the
score of every 12-stone position from :mod:`connect_four.engine.database` instead of
searching below it (``Solver(..., database=False)`` does not).
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal, TypeAlias

from .accelerator import NARROW_BITS, Backend, pick_accelerator
from .bitboard import Layout, Position, layout, non_losing_cells
from .budget import BudgetedSearch
from .database import Database, database_for
from .errors import GameOverError, SearchAborted, UnsupportedGameError
from .rules import Rules
from .score import forced_move, win_score, winning_move
from .table import TABLE_SIZE, TranspositionTable, check_table_size
from .validate import is_int

if TYPE_CHECKING:
    from ._native import (
        Search as NativeSearch,  # connect_four.engine._native128's has the same interface
    )

__all__ = [
    "ETC_MIN_EMPTY",
    "LEAF_EMPTY",
    "LEAF_TABLE_SIZE",
    "MAX_THREADS",
    "Solver",
    "check_threads",
]

ETC_MIN_EMPTY = 20
"""Nodes with at least this many empty cells look up each child in the table
before searching any, and stop at once if one refutes them (an enhanced
transposition cutoff); nearer the leaves the extra reads cost the compiled
search more than the positions they save. ``engine/_native_search.h`` uses
the same number."""

LEAF_EMPTY = 16
"""Positions with at most this many empty cells are kept in a table of
their own, :data:`LEAF_TABLE_SIZE` slots, the others in the solver's big
table. Most positions a search meets lie near the leaves, and each saves
little: in the big table they miss the processor's caches at nearly every
probe and push out the positions near the root, each of which saves a large
search. In their own small table (2 MiB compiled, which the caches keep)
they cost little and push out nothing. ``engine/_native_search.h`` uses the
same numbers (and one leaf table per thread)."""

LEAF_TABLE_SIZE = 262_139
"""Slots of the table of the positions near the leaves: the largest prime
below 2**18, 2 MiB of 8-byte slots."""

MAX_THREADS = 64
"""The most threads one :class:`Solver` may search with."""


def check_threads(threads: int) -> int:
    """``threads`` if a :class:`Solver` may search with that many threads.

    Raises:
        ValueError: ``threads`` is not an int within 1..MAX_THREADS.
    """
    if not is_int(threads) or not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"a solver searches with 1 to {MAX_THREADS} threads, not {threads!r}")
    return threads


Negamax: TypeAlias = Callable[[int, int, int, int, int, int], int]


class Solver(BudgetedSearch):
    """An exact negamax solver for one board size, with its transposition table.

    >>> solver = Solver(Rules(rows=6, columns=7))
    >>> solver.score(Position.from_moves([3, 3, 4, 4, 5, 5], solver.rules))
    18
    >>> solver.best_move(Position.from_moves([3, 3, 4, 4], solver.rules))
    (2, 18)

    ``backend`` chooses the search (see :data:`~connect_four.engine.accelerator.Backend`); :attr:`backend`
    tells which one runs. The table (:mod:`connect_four.engine.table`) keeps its
    ``table_size`` slots across searches until :meth:`reset`.
    ``explored`` counts the positions searched since the last reset.
    ``database`` False leaves out :mod:`connect_four.engine.database` (see :attr:`database`).

    ``threads`` above 1 runs that many threads on one shared table where the
    64-bit compiled search runs (:attr:`threads` tells how many run; other
    searches run one): the scores and moves stay exact, but the positions
    searched, and so where a node budget stops a search, vary from run to
    run with the machine's timing. One thread, the default, explores exactly
    as the pure-Python reference.

    Raises:
        AcceleratorError: ``backend="native"`` and the accelerator cannot run.
        ValueError: ``table_size`` or ``threads`` is out of range (see
            :mod:`connect_four.engine.table` and :data:`MAX_THREADS`).
    """

    def __init__(
        self,
        rules: Rules,
        *,
        backend: Backend = "auto",
        table_size: int = TABLE_SIZE,
        database: bool = True,
        threads: int = 1,
    ) -> None:
        """A solver with an empty table for boards of ``rules``."""
        super().__init__()
        check_table_size(table_size)
        check_threads(threads)
        self.rules = rules
        self.layout: Layout = layout(rules)
        native = pick_accelerator(rules, backend)
        self.backend: Literal["native", "python"] = "python" if native is None else "native"
        """The search that runs: compiled or pure Python."""
        self._native_search: NativeSearch | None = None
        self._winning_cells: Callable[[int, int], int] = self.layout.winning_cells
        """The threats of a position's stones: the compiled search's, where it runs (faster)."""
        self._table: TranspositionTable | None = None
        self._leaf_table: TranspositionTable | None = None
        self.database: Database | None = database_for(rules) if database else None
        """The solved positions the search stops at (6 x 7 with the extra), or None."""
        parallel = native is not None and self.layout.bits <= NARROW_BITS
        self.threads = threads if parallel else 1
        """Threads that search together: ``threads`` where the 64-bit compiled search runs, else 1."""
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
                threads=self.threads,
            )
            if self.database is not None:
                db = self.database
                self._native_search.use_database(db.records, db.scores, db.stones)
            self._negamax: Negamax = self._build_native_negamax(self._native_search)
            self._winning_cells = self._native_search.winning_cells
        else:
            self._table = TranspositionTable(
                table_size, key_bits=self.layout.bits, cells=rules.cells
            )
            self._leaf_table = TranspositionTable(
                LEAF_TABLE_SIZE, key_bits=self.layout.bits, cells=rules.cells
            )
            self._negamax = self._build_negamax(self._table, self._leaf_table)

    def reset(self) -> None:
        """Empty the transposition table and zero the explored count."""
        self._empty_tables(touch=False)

    def touch_table(self) -> None:
        """Empty the table by writing all of it: no later search pays to touch its pages.

        For benchmarks: the system hands out the table's memory page by page
        as searches first touch it, which costs up to 90 ms over a solver's
        life; :meth:`reset` alone keeps that lazy.
        """
        self._empty_tables(touch=True)

    def _empty_tables(self, *, touch: bool) -> None:
        """Empty every table of the search in use (writing all of it with ``touch``); zero the count."""
        for table in (self._table, self._leaf_table):
            if table is not None:
                (table.touch if touch else table.clear)()
        if self._native_search is not None:
            (self._native_search.touch if touch else self._native_search.reset)()
        self.explored = 0

    # --- Public searches -----------------------------------------------------

    def score(self, position: Position, *, at_least: int | None = None) -> int:
        """The exact score of ``position`` for the player to move.

        Null-window searches narrow ``[lower, upper]`` until they meet, each
        probe asking only "is the score above ``middle``?", which prunes far
        more than one wide search. Probes lean towards 0 first, where most
        scores lie.

        ``at_least``, a score the caller knows the position reaches (a column's
        child of a position whose exact score the book holds), narrows the
        window, and the probes climb from it one score at a time: the first
        asks whether the score is above the bound, which alone settles the
        best columns, whose score it is; the others mostly score just above
        it (on 8-stone 5 x 8 positions, 17 % fewer positions than without
        the bound, 7 % fewer than halving the window from it). A wrong bound
        gives a wrong score.

        Raises:
            GameOverError: the position is already won or the board is full.
            SearchAborted: the node or time budget ran out, or the board has
                more empty cells than Python's recursion limit allows.
        """
        self._check_playable(position)
        cells, moves = self.rules.cells, position.moves
        current, mask = position.current, position.mask
        if position.can_win_next():
            return win_score(cells, moves)
        if cells - moves > sys.getrecursionlimit() - 100:
            # One stack frame per move: a huge board would overflow the stack.
            raise SearchAborted(f"{cells - moves} empty cells are too many to solve")
        lower = -win_score(cells, moves + 1)  # lost at the opponent's next move
        upper = win_score(cells, moves)
        threats = self._winning_cells(current ^ mask, mask)
        negamax = self._negamax
        ascend = False
        if at_least is not None and at_least > lower:
            lower, ascend = min(at_least, upper), True
        while lower < upper:
            middle = lower + (upper - lower) // 2
            if ascend:
                middle = lower
            elif middle <= 0 and _half(lower) < middle:
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
        won = winning_move(position)
        if won is not None:
            return won
        score = self.score(position)
        forced = forced_move(position)
        if forced is not None:
            return forced, score
        lay = self.layout
        columns = lay.column_masks
        safe = position.non_losing_moves()
        current, mask, moves = position.current, position.mask, position.moves
        for column in lay.centre_first:
            cell = safe & columns[column]
            if not cell:
                continue
            child_mask = mask | cell
            threats = self._winning_cells(current | cell, child_mask)
            # The move achieves `score` iff the child scores at most -score.
            result = self._negamax(
                current ^ mask, child_mask, moves + 1, -score, -score + 1, threats
            )
            if result <= -score:
                return column, score
        raise AssertionError(f"no move achieves the score {score} in {position!r}")

    # --- Internals -----------------------------------------------------------

    def _check_playable(self, position: Position) -> None:
        if position.rules != self.rules:
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
        solver = _weak(self)

        def check(explored: int) -> int:
            solver.explored = explored
            return solver.check_budget()

        def negamax(
            current: int, mask: int, moves: int, alpha: int, beta: int, threats: int
        ) -> int:
            # Without a budget the checks would change nothing: skip the calls.
            budgeted = solver.node_limit is not None or solver.deadline is not None
            score, solver.explored = run(
                current,
                mask,
                moves,
                alpha,
                beta,
                threats,
                solver.explored,
                check if budgeted else None,
            )
            return score

        return negamax

    def _build_negamax(self, table: TranspositionTable, leaf_table: TranspositionTable) -> Negamax:
        """The recursive search, as a closure over locals for CPython speed.

        ``negamax(current, mask, moves, alpha, beta, threats)`` returns the
        exact score if it lies in ``[alpha, beta]``, else a bound on the same
        side: at most alpha (fail low) or at least beta (fail high).
        ``threats`` are the winning cells of the player who just moved,
        already computed by the caller to order its moves. The caller
        guarantees the player to move cannot win at once (it only plays
        non-losing moves). ``engine/_native_search.h``'s negamax mirrors this function.
        Positions with more than :data:`LEAF_EMPTY` empty cells are in
        ``table``, the others in ``leaf_table``.
        """
        lay = self.layout
        solver = _weak(self)
        tables = (
            (leaf_table.keys, leaf_table.codes, leaf_table.size),
            (table.keys, table.codes, table.size),
        )
        offset = table.offset
        winning_cells = lay.winning_cells
        non_losing = non_losing_cells
        bottom, board = lay.bottom_mask, lay.board_mask
        cells = lay.rules.cells
        ordered_columns = tuple(lay.column_masks[c] for c in lay.centre_first)
        database = self.database
        frontier = -1 if database is None else database.stones  # no node has -1 stones
        database_score = _no_database if database is None else database.score_of
        next_check = 0

        def negamax(
            current: int, mask: int, moves: int, alpha: int, beta: int, threats: int
        ) -> int:
            nonlocal next_check
            solver.explored += 1
            if solver.explored >= next_check:
                next_check = solver.check_budget()
            if moves == frontier:
                known = database_score(current, mask)
                if known is not None:
                    return known
            # The bounds below are win_score() written out: this is the
            # hottest loop, where a function call per node shows.
            possible = non_losing((mask + bottom) & board, threats)
            if not possible:
                return -((cells - moves) // 2)  # lost at the opponent's next move
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
            keys, codes, size = tables[cells - moves > LEAF_EMPTY]
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
            if cells - moves >= ETC_MIN_EMPTY:
                # A child the table bounds at or below -beta refutes this node.
                base = (current ^ mask) + mask
                child_keys, child_codes, child_size = tables[cells - moves - 1 > LEAF_EMPTY]
                for column_mask in ordered_columns:
                    cell = possible & column_mask
                    if cell:
                        child_key = base + cell
                        child_slot = child_key % child_size
                        if child_keys[child_slot] == child_key:
                            code = child_codes[child_slot]
                            if code & 1 and offset - (code >> 1) >= beta:
                                return offset - (code >> 1)
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
            else:  # one move: nothing to order
                children = [(0, 0, possible, winning_cells(current | possible, mask | possible))]
            for _, _, cell, ours in children:
                score = -negamax(opponent, mask | cell, moves + 1, -beta, -alpha, ours)
                if score >= beta:
                    keys[slot] = key
                    codes[slot] = (score + offset) << 1
                    return score
                if score > alpha:
                    alpha = score
            keys[slot] = key
            codes[slot] = ((alpha + offset) << 1) | 1
            return alpha

        def start(current: int, mask: int, moves: int, alpha: int, beta: int, threats: int) -> int:
            nonlocal next_check
            next_check = solver.explored  # look at the budget on the first node
            return negamax(current, mask, moves, alpha, beta, threats)

        return start


def _no_database(current: int, mask: int) -> int | None:
    """The lookup of a solver without a database: nothing is known."""
    return None


def _half(value: int) -> int:
    """``value / 2`` rounded towards zero, like C's integer division."""
    return -((-value) // 2) if value < 0 else value // 2


def _weak(solver: Solver) -> Solver:
    """A proxy for ``solver`` that its own search closures hold.

    A closure holding the solver itself would make a reference cycle, which
    only the cyclic garbage collector frees: the table (64 MiB by default)
    of every finished search would stay in memory until it ran.
    """
    proxy: Solver = weakref.proxy(solver)
    return proxy
