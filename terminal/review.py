"""The text of a game review (--review): one line per move, then a summary per player.

:mod:`connect_four.engine.review` computes the review; this module turns it into lines
for connect.py to print, with a progress line now and then while a long
review runs. Loaded only for --review.
"""

from __future__ import annotations

import time

from connect_four.engine import Game
from connect_four.engine.review import BEST, GameReview, MoveReview, review_steps

from .dialog import MARKERS
from .steps import Show

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .settings import Settings
    from .steps import Conversation

__all__ = [
    "PROGRESS_AFTER",
    "HEADING",
    "review_lines",
    "review_settings",
    "move_line",
    "summary_line",
    "progress_line",
]

PROGRESS_AFTER = 1.0
"""Seconds of reviewing before the first progress line, and between two."""

HEADING = (
    "Review (each move's score for its player: +N wins, the higher the sooner; "
    "0 draws; -N loses, the lower the sooner):"
)


def review_lines(
    game: Game,
    seconds_per_position: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    *,
    threads: int = 1,
    table_size: int | None = None,
) -> Conversation[None]:
    """The review of ``game``'s moves as lines to show, progress lines first when it runs long.

    ``seconds_per_position`` is the search budget of each position (the
    engine's default when None). A progress line comes once the review has
    run :data:`PROGRESS_AFTER` seconds by ``clock``, and at most one a
    second after that. ``threads`` and ``table_size`` go to the engine's
    review (:func:`connect_four.engine.review.review_steps`).
    """
    if not game.moves:
        yield Show("No moves to review.")
        return
    steps = review_steps(
        game, seconds_per_position=seconds_per_position, threads=threads, table_size=table_size
    )
    started = shown = clock()
    # The first total counts the positions; a second pass grows the engine's.
    positions: int | None = None
    while True:
        try:
            done, total = next(steps)
        except StopIteration as finished:
            review: GameReview = finished.value
            break
        positions = total if positions is None else positions
        now = clock()
        if now - started >= PROGRESS_AFTER and now - shown >= PROGRESS_AFTER:
            shown = now
            yield Show(progress_line(done, positions))
    yield Show(HEADING)
    width = len(str(len(review.moves)))
    for move in review.moves:
        yield Show(move_line(move, width))
    for player in (0, 1):
        yield Show(summary_line(review, player))


def review_settings(game: Game, settings: Settings) -> Conversation[None]:
    """:func:`review_lines` as the command line asked: --thorough or not, --threads, --table-mb."""
    from connect_four.engine.review import THOROUGH_SECONDS

    yield from review_lines(
        game,
        THOROUGH_SECONDS if settings.thorough else None,
        threads=settings.threads,
        table_size=settings.table_size,
    )


def progress_line(done: int, positions: int) -> str:
    """How far the review is: its positions analysed, then those analysed again.

    The total is the game's positions, stated once and kept: a second look
    at the positions the first pass left unsettled counts on its own.

    >>> progress_line(4, 5)
    'Reviewing: 4 of 5 positions analysed...'
    >>> progress_line(7, 5)
    'Reviewing: 5 of 5 positions analysed, 2 unsettled ones looked at again...'
    """
    if done <= positions:
        return f"Reviewing: {done} of {positions} positions analysed..."
    again = done - positions
    ones = "one" if again == 1 else "ones"
    return (
        f"Reviewing: {positions} of {positions} positions analysed, "
        f"{again} unsettled {ones} looked at again..."
    )


def _signed(score: int) -> str:
    """An exact score as ``??`` shows it: ``+3``, ``0``, ``-2``."""
    return f"{score:+d}" if score else "0"


def move_line(move: MoveReview, width: int = 2) -> str:
    """One move's line: number, player, column, score, best score and verdict.

    >>> move_line(MoveReview(7, 0, 2, 0, 3, 4, "mistake"))
    ' 7. X 2: score 0, best +3 (play 4): mistake'
    >>> move_line(MoveReview(8, 1, 4, -3, -3, 4, "best"))
    ' 8. O 4: score -3, best -3: best'
    >>> move_line(MoveReview(9, 0, 1, None, None, None, None))
    ' 9. X 1: not settled in time, no verdict'
    """
    start = f"{move.number:>{width}}. {MARKERS[move.player]} {move.column}: "
    if move.verdict is None:
        if move.score is not None:
            return start + f"score {_signed(move.score)}, best not settled in time, no verdict"
        return start + "not settled in time, no verdict"
    assert move.score is not None and move.best is not None
    best = f"best {_signed(move.best)}"
    if move.verdict != BEST:
        best += f" (play {move.best_column})"
    return start + f"score {_signed(move.score)}, {best}: {move.verdict}"


def summary_line(review: GameReview, player: int) -> str:
    """A player's counts: moves that kept the game value, mistakes, blunders, unsettled.

    >>> review = GameReview((MoveReview(1, 0, 3, 1, 1, 3, "best"), MoveReview(2, 1, 0, -2, -1, 3, "slower")))
    >>> summary_line(review, 0)
    'X: 1 of 1 move kept the game value (1 best, 0 slower), 0 mistakes, 0 blunders.'
    """
    counts = review.summary(player)
    moves = "move" if counts.moves == 1 else "moves"
    line = (
        f"{MARKERS[player]}: {counts.kept} of {counts.moves} {moves} kept the game value "
        f"({counts.best} best, {counts.slower} slower), "
        f"{_count(counts.mistakes, 'mistake')}, {_count(counts.blunders, 'blunder')}"
    )
    if counts.unsettled:
        line += f", {counts.unsettled} not settled"
    return line + "."


def _count(number: int, noun: str) -> str:
    """``1 mistake``, ``2 mistakes``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
