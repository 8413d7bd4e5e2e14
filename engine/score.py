"""The score convention of every exact answer, and the moves it settles without a search.

Scores follow Pascal Pons' convention, for the player to move, assuming both
sides play perfectly (the winner as fast as possible, the loser as slowly):

* 0: a draw.
* positive: the player to move wins; the score is 1 plus the number of
  stones the winner would still have had to play had the board been filled,
  that is ``(cells + 2 - N) // 2`` where ``N`` is the number of stones on
  the board after the winning one. On 6 x 7 this is ``22 - stones the
  winner placed``, exactly Pons' numbers; on any board a win with your very
  last stone scores 1, and a win at once after ``n`` moves scores
  :func:`win_score` ``(cells, n)``, the highest score a position can have.
* negative: the player to move loses; minus the winner's score.

The exact search (:mod:`connect_four.engine.exact`) and the opening book
(:mod:`connect_four.engine.book`) both start a move choice the same way, here: a win now
needs no search (:func:`winning_move`), and when every move loses at once
there is nothing to choose but a block (:func:`forced_move`).
"""

from __future__ import annotations

from .bitboard import Bitboard, Layout, Position

__all__ = ["centre_most", "forced_move", "win_score", "winning_move"]


def win_score(cells: int, moves: int) -> int:
    """The score of winning with the next stone on a board of ``cells`` holding ``moves`` stones.

    It is also the upper bound of any score after ``moves`` stones, and its
    negation, with one stone more, the score of losing at the opponent's
    next move.

    >>> win_score(42, 6), win_score(42, 41)
    (18, 1)
    """
    return (cells + 1 - moves) // 2


def centre_most(layout: Layout, cells: Bitboard) -> int:
    """The column nearest the centre (left first at equal distance) holding one of ``cells``.

    The tie-break of every move choice, so that answers are deterministic.

    Raises:
        StopIteration: ``cells`` is empty.
    """
    return next(c for c in layout.centre_first if cells & layout.column_masks[c])


def winning_move(position: Position) -> tuple[int, int] | None:
    """``(column, score)`` of a move that wins at once, the centre-most; None if there is none.

    >>> winning_move(Position.from_moves([3, 3, 4, 4, 5, 5]))
    (2, 17)
    """
    winning = position.winning_cells() & position.possible()
    if not winning:
        return None
    return centre_most(position.layout, winning), win_score(position.rules.cells, position.moves)


def forced_move(position: Position) -> int | None:
    """The column to play when every move loses at once; None while some move is safe.

    Nothing saves the game then: block one of the opponent's threats if one
    can be blocked, for form, else play the centre-most column. Only
    meaningful when the player to move cannot win now (see
    :func:`winning_move`).

    >>> forced_move(Position.from_moves([1, 1, 2, 1, 3]))  # threats at 0 and 4
    4
    >>> forced_move(Position.from_moves([3])) is None
    True
    """
    if position.non_losing_moves():
        return None
    possible = position.possible()
    cells = (possible & position.opponent_winning_cells()) or possible
    return centre_most(position.layout, cells)
