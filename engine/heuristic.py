"""A depth-limited search that scores open windows and threats, for positions too big to solve.

Negamax with alpha-beta, iterative deepening (the best move of each depth is
searched first at the next) and the same loss-avoiding filter as the exact
search. Wins and losses seen within the horizon are exact; the rest is an
estimate in arbitrary units, positive when it favours the player to move.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from .bitboard import Layout, Position, layout, non_losing_cells
from .budget import CHECK_EVERY, BudgetedSearch
from .lines import bit_steps, compile_function
from .rules import Rules
from .score import win_score

__all__ = ["HEURISTIC_NODES_PER_SECOND", "WIN", "Heuristic", "from_heuristic"]

WIN = 1 << 24
"""Heuristic value of a win with 0 stones on the board; a win after ``m``
stones is ``WIN - m``, so faster wins are worth more, like exact scores."""

_THREAT_WEIGHT = 16
"""Heuristic bonus of a winning cell on a row that suits its owner."""

HEURISTIC_NODES_PER_SECOND = 40_000
"""Like NODES_PER_SECOND, for the slower heuristic nodes (measured here:
about 90,000 a second on 6 x 7, 40,000 on 20 x 20)."""


def _window_score_source(lay: Layout) -> str:
    """Python source of ``window_score(p, o)``, unrolled for one board and chain.

    For each direction ``d``, ``free`` marks the start cells of the
    chain-long windows holding no stone of ``o`` (a window off the board or
    across a column edge meets a 0 bit: outside the board or a sentinel).
    Unary counters ``u1 .. u(k-1)`` mark the starts of windows holding at
    least that many stones of ``p``: adding one more shifted copy ``x``
    gives ``u_t |= u_(t-1) & x``, highest ``t`` first. A window with ``t``
    stones is worth ``1 + 4 + ... + 4**(t-1)``, so near-chains dominate.
    """
    k = lay.rules.connect
    lines = ["def window_score(p, o):"]
    if k == 1:
        lines.append("    return 0")
        return "\n".join(lines) + "\n"
    lines.append(f"    f = {lay.board_mask} & ~o")
    lines.append("    total = 0")
    for d in bit_steps(lay.height):
        windows = " & ".join(["f"] + [f"(f >> {j * d})" for j in range(1, k)])
        lines.append(f"    w = {windows}")
        lines.append("    if w:")
        lines.append("        u1 = p")
        for j in range(1, k):
            lines.append(f"        x = p >> {j * d}")
            for t in range(min(j + 1, k - 1), 1, -1):
                if t == j + 1:
                    lines.append(f"        u{t} = u{t - 1} & x")
                else:
                    lines.append(f"        u{t} |= u{t - 1} & x")
            lines.append("        u1 |= x")
        terms = " + ".join(f"{4 ** (t - 1)} * (w & u{t}).bit_count()" for t in range(1, k))
        lines.append(f"        total += {terms}")
    lines.append("    return total")
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=64)
def _window_score(lay: Layout) -> Callable[[int, int], int]:
    """``window_score`` compiled for one layout, once."""
    function = compile_function(_window_score_source(lay), "window_score")
    return function  # type: ignore[return-value]


def _good_rows(lay: Layout) -> tuple[int, int]:
    """Cells of the rows where a threat helps the first player, and the second.

    Zugzwang near the end of a Connect Four game favours the first player's
    threats on odd rows (counted from 1 at the bottom) and the second
    player's on even rows.
    """
    rows = lay.rules.rows
    odd = sum(lay.bottom_mask << r for r in range(0, rows, 2))
    return odd, lay.board_mask ^ odd


class Heuristic(BudgetedSearch):
    """Depth-limited negamax scoring open windows and well-placed threats."""

    check_every = CHECK_EVERY // 4
    """Heuristic nodes cost about four exact ones: look at the budget as often in time."""

    def __init__(self, rules: Rules) -> None:
        """A search for boards of ``rules``; its budget is open until set."""
        super().__init__()
        self.layout = layout(rules)
        self.search = self._build_search()

    def _build_search(self) -> Callable[[int, int, int, int, int, int], int]:
        """``search(current, mask, moves, depth, alpha, beta)``, fail-soft.

        Wins and losses met within the horizon score ``±(WIN - m)``, where
        ``m`` is the number of stones before the winning one; the horizon
        itself scores the evaluation, always far smaller.
        """
        lay = self.layout
        owner = self
        winning_cells = lay.winning_cells
        non_losing = non_losing_cells
        bottom, board = lay.bottom_mask, lay.board_mask
        ordered_columns = tuple(lay.column_masks[c] for c in lay.centre_first)
        window_score = _window_score(lay)
        first_rows, second_rows = _good_rows(lay)
        # The move that was best (or cut off) at each position, from earlier
        # iterations: searched first, it makes alpha-beta prune far more.
        best_cells: dict[int, int] = {}
        best_cells_get = best_cells.get
        next_check = 0

        def evaluate(current: int, opponent: int, moves: int, ours: int, theirs: int) -> int:
            """Open windows, plus threats on the rows that suit their owner."""
            value = window_score(current, opponent) - window_score(opponent, current)
            if moves & 1:
                mine, yours = second_rows, first_rows
            else:
                mine, yours = first_rows, second_rows
            return value + _THREAT_WEIGHT * (
                (ours & mine).bit_count() - (theirs & yours).bit_count()
            )

        def search(current: int, mask: int, moves: int, depth: int, alpha: int, beta: int) -> int:
            nonlocal next_check
            owner.explored += 1
            if owner.explored >= next_check:
                next_check = owner.check_budget()
            possible = (mask + bottom) & board
            if not possible:
                return 0
            ours = winning_cells(current, mask)
            if ours & possible:
                return WIN - moves
            opponent = current ^ mask
            theirs = winning_cells(opponent, mask)
            possible = non_losing(possible, theirs)
            if not possible:
                return moves + 1 - WIN
            if depth <= 0:
                return evaluate(current, opponent, moves, ours, theirs)
            key = current + mask
            remembered = best_cells_get(key, 0)
            children = []
            rank = 0
            for column_mask in ordered_columns:
                cell = possible & column_mask
                if cell:
                    if cell == remembered:
                        threats = WIN  # the best move of the last, shallower search first
                    else:
                        threats = winning_cells(current | cell, mask | cell).bit_count()
                    children.append((threats, rank, cell))
                    rank -= 1
            if len(children) > 1:
                children.sort(reverse=True)
            best = -WIN - 1
            for _, _, cell in children:
                value = -search(opponent, mask | cell, moves + 1, depth - 1, -beta, -alpha)
                if value > best:
                    best = value
                    if value >= beta:
                        best_cells[key] = cell
                        return value
                    if value > alpha:
                        alpha = value
                        best_cells[key] = cell
            return best

        def start(current: int, mask: int, moves: int, depth: int, alpha: int, beta: int) -> int:
            nonlocal next_check
            next_check = owner.explored
            return search(current, mask, moves, depth, alpha, beta)

        return start

    def root_values(self, position: Position, depth: int) -> list[tuple[int, int]]:
        """``(value, column)`` of every sensible root move whose value ties the best.

        Sensible: a winning move if there is one, else the non-losing moves
        (or every move, when all lose). Each child is searched with a window
        just below the best value so far, so ties are seen exactly.

        Raises:
            SearchAborted: the node or time budget ran out.
        """
        lay = self.layout
        current, mask, moves = position.current, position.mask, position.moves
        possible = position.possible()
        winning = position.winning_cells() & possible
        if winning:
            return [(WIN - moves, c) for c in lay.centre_first if winning & lay.column_masks[c]]
        candidates = position.non_losing_moves() or possible
        best = -WIN - 2
        tied: list[tuple[int, int]] = []
        for column in lay.centre_first:
            cell = candidates & lay.column_masks[column]
            if not cell:
                continue
            value = -self.search(
                current ^ mask, mask | cell, moves + 1, depth - 1, -WIN - 2, -(best - 1)
            )
            if value > best:
                best, tied = value, [(value, column)]
            elif value == best:
                tied.append((value, column))
        return tied


def from_heuristic(value: int, cells: int) -> tuple[int, bool]:
    """A heuristic value as ``(score, exact)``: proven wins and losses are exact.

    A value beyond any evaluation means every line of the search ended in a
    win or loss within its horizon, which fixes the exact score.
    """
    if abs(value) < WIN - cells - 1:
        return value, False
    stones_before = WIN - abs(value)
    score = win_score(cells, stones_before)
    return (score if value > 0 else -score), True
