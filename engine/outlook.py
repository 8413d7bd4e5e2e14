"""What each column's score says, in words, and which columns are best: one voice for every front end.

:func:`connect_four.engine.columns.column_scores` gives each playable column an exact
score, or, where its search cannot settle the column in time, a heuristic
estimate in arbitrary units. An estimate must never pass for an exact
score, so it is shown as a word (:data:`LIKELY_WIN`, :data:`UNCLEAR`,
:data:`LIKELY_LOSS`), and the columns are ranked once, here, by
:func:`ranking_key`: the hint (``?``), the scores (``??``), the review and
the service's ``POST /analysis`` all name the same best columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .bitboard import layout
from .columns import ColumnScore, column_scores
from .game import Game
from .rules import Rules

__all__ = [
    "WIN",
    "DRAW",
    "LOSS",
    "LIKELY_WIN",
    "UNCLEAR",
    "LIKELY_LOSS",
    "OUTLOOKS",
    "LIKELY_WIN_MARGIN",
    "LIKELY_LOSS_MARGIN",
    "outlook",
    "ranking_key",
    "best_columns",
    "suggestion",
    "ColumnOutlook",
    "PositionOutlook",
    "position_outlook",
]

WIN = "win"
DRAW = "draw"
LOSS = "loss"
LIKELY_WIN = "likely win"
UNCLEAR = "unclear"
LIKELY_LOSS = "likely loss"

OUTLOOKS = (WIN, LIKELY_WIN, DRAW, UNCLEAR, LOSS, LIKELY_LOSS)
"""Every outlook, best first. A proven win outranks a likely one, and a
proven draw a position nobody can call; a likely loss ranks last, below
proven losses, since every one measured was a loss (see
:data:`LIKELY_LOSS_MARGIN`) and a proven one at least says how long it
holds out."""

_TIER = {word: len(OUTLOOKS) - index for index, word in enumerate(OUTLOOKS)}

LIKELY_WIN_MARGIN = 48
"""The least estimate (for the player to move) called a likely win."""

LIKELY_LOSS_MARGIN = 16
"""How far below 0 an estimate must be to be called a likely loss.

The heuristic's units (:mod:`connect_four.engine.heuristic`): a threat on a row that
suits its owner is 16, an open three-stone window 21. Measured with
``bench/outlook_margins.py`` on 6 x 7 (random positions of 8 to 14 stones,
each column's estimate against its exact score; two runs, 265 and 297
columns): of the estimates at 48 or more, 39 of 40 and 40 of 41 were wins;
every one at -16 or less (58, 63) was a loss; between them every result was
common. The estimates err in favour of the player who moved (at +16 or
more a fifth were losses, at -16 or less none was a win), hence two margins."""


def outlook(score: ColumnScore) -> str:
    """The word for a column's score: a proven result, or what an estimate suggests.

    >>> outlook(ColumnScore(3, True)), outlook(ColumnScore(0, True)), outlook(ColumnScore(-1, True))
    ('win', 'draw', 'loss')
    >>> outlook(ColumnScore(48, False)), outlook(ColumnScore(47, False)), outlook(ColumnScore(-16, False))
    ('likely win', 'unclear', 'likely loss')
    """
    if score.exact:
        return WIN if score.score > 0 else LOSS if score.score < 0 else DRAW
    if score.score >= LIKELY_WIN_MARGIN:
        return LIKELY_WIN
    if score.score <= -LIKELY_LOSS_MARGIN:
        return LIKELY_LOSS
    return UNCLEAR


def ranking_key(score: ColumnScore) -> tuple[int, int]:
    """How good a column is, for sorting: its outlook first, then its exact score.

    Estimates of one outlook rank equal: their units say too little to
    order them in public (:func:`suggestion` still uses them to choose).

    >>> ranking_key(ColumnScore(2, True)) > ranking_key(ColumnScore(900, False))
    True
    >>> ranking_key(ColumnScore(50, False)) == ranking_key(ColumnScore(90, False))
    True
    """
    return _TIER[outlook(score)], score.score if score.exact else 0


def best_columns(scores: Mapping[int, ColumnScore], rules: Rules) -> list[int]:
    """The columns that rank best, nearest the centre first (empty when ``scores`` is).

    >>> best_columns({0: ColumnScore(-1, True), 2: ColumnScore(1, True), 3: ColumnScore(1, True)},
    ...              Rules(rows=6, columns=7))
    [3, 2]
    """
    if not scores:
        return []
    top = max(ranking_key(score) for score in scores.values())
    return [
        column
        for column in layout(rules).centre_first
        if column in scores and ranking_key(scores[column]) == top
    ]


def suggestion(scores: Mapping[int, ColumnScore], rules: Rules) -> int:
    """The column to play: one of :func:`best_columns`, the highest estimate among equals.

    Among exact scores that tie, or estimates that tie, the column nearest
    the centre is taken, as the exact search does.

    >>> suggestion({1: ColumnScore(50, False), 2: ColumnScore(90, False), 3: ColumnScore(-5, True)},
    ...            Rules(rows=6, columns=7))
    2

    Raises:
        ValueError: ``scores`` is empty (no column can be played).
    """
    best = best_columns(scores, rules)
    if not best:
        raise ValueError("no column to suggest: no column can be played")
    # max() keeps the first of equals, and best is in centre-first order.
    return max(best, key=lambda column: 0 if scores[column].exact else scores[column].score)


@dataclass(frozen=True)
class ColumnOutlook:
    """One playable column as every front end shows it: an exact score, or only a word.

    ``score`` is the exact score (Pons' convention, for the player to move),
    None when the column was only estimated; ``outlook`` is its word.
    """

    column: int
    score: int | None
    outlook: str

    @property
    def exact(self) -> bool:
        """Whether the column's score is proven."""
        return self.score is not None


@dataclass(frozen=True)
class PositionOutlook:
    """Every playable column of a position, left to right, the best ones, and the one to play."""

    columns: tuple[ColumnOutlook, ...]
    best: tuple[int, ...]
    suggestion: int


def position_outlook(
    rows: int,
    columns: int,
    connect: int,
    moves: list[int],
    time_budget: float = 1.0,
    time_limit: float | None = None,
) -> PositionOutlook:
    """The outlook of every column after ``moves``, from plain values (a worker process's job).

    ``time_budget`` and ``time_limit`` are :func:`~connect_four.engine.columns.column_scores`'s.

    >>> outlook = position_outlook(6, 7, 4, [3, 3, 4, 4])
    >>> outlook.columns[2], outlook.best, outlook.suggestion
    (ColumnOutlook(column=2, score=18, outlook='win'), (2, 5), 2)

    Raises:
        RulesError: the board or chain length is impossible.
        EngineError: a move cannot be played (see :meth:`Game.from_moves`).
        GameOverError: the game is over after ``moves``.
    """
    rules = Rules(rows, columns, connect)
    game = Game.from_moves(moves, rules)
    scores = column_scores(game, time_budget=time_budget, time_limit=time_limit)
    return PositionOutlook(
        tuple(
            ColumnOutlook(column, score.score if score.exact else None, outlook(score))
            for column, score in scores.items()
        ),
        tuple(best_columns(scores, rules)),
        suggestion(scores, rules),
    )
