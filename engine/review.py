"""A review of a whole game: each move's exact score, the best one available, and a verdict.

Like a chess site's game review: every position of the game gets
:func:`connect_four.engine.columns.column_scores`, so each move is compared with the
best move its player had. Verdicts use exact scores only (Pons'
convention, for the player who moved: positive wins, the larger the
sooner; 0 draws; negative loses, the more negative the sooner):

* :data:`BEST`: the move scores as well as the best move;
* :data:`SLOWER`: a slower win or a faster loss, the game's value kept;
* :data:`MISTAKE`: the game's value drops one step (a win to a draw, a draw to a loss);
* :data:`BLUNDER`: a win thrown away for a loss.

A move whose score, or its position's best score, could not be settled
in the time given gets no verdict (``verdict`` None). A move's score is
also the negated value of the position it leads to, so a position whose
columns are all settled settles the move before it.

Nothing here prints: :func:`review_steps` yields its progress and returns
a :class:`GameReview`, and the front ends write the text.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from .columns import ColumnScore, column_scores
from .game import Game
from .outlook import suggestion
from .rules import Rules
from .score import win_score
from .solver import Solver
from .table import TABLE_SIZE

__all__ = [
    "BEST",
    "SLOWER",
    "MISTAKE",
    "BLUNDER",
    "REVIEW_SECONDS",
    "MOST_SECONDS_PER_POSITION",
    "MOST_SECONDS_SECOND_PASS",
    "THOROUGH_SECONDS",
    "MoveReview",
    "PlayerSummary",
    "GameReview",
    "verdict",
    "review_budget",
    "review_steps",
    "review",
    "review_moves",
]

BEST = "best"
SLOWER = "slower"
MISTAKE = "mistake"
BLUNDER = "blunder"

REVIEW_SECONDS = 8.0
"""A whole review's default budget, in seconds of search on a quiet machine.

Half goes to a first pass over every position, shared equally (a 42-move
game: 0.09 s a position); the other half to a second pass over the
positions the first left unsettled, shared equally among them (at most
:data:`MOST_SECONDS_SECOND_PASS` each). With the 12-stone database a
42-move 6 x 7 game needs little of it: every move gets its verdict in
about a second; without one (5 x 8) the early positions take the whole
budget. ``bench/review_time.py`` measures both."""

MOST_SECONDS_PER_POSITION = 1.0
"""The most the first pass gives one position of a short game: the hint's
own default (``--think``)."""

MOST_SECONDS_SECOND_PASS = 2.0
"""The most the second pass gives one unsettled position."""

THOROUGH_SECONDS = 10.0
"""The budget per position of a review, and of a hint, asked to take its
time (connect.py's --thorough), in seconds of search on a quiet machine."""

Scores = dict[int, ColumnScore]


@dataclass(frozen=True)
class MoveReview:
    """One move of the game under review.

    ``number`` counts from 1; ``player`` is 0 for the first player. ``score``
    is the move's exact score for its player, ``best`` the best exact score
    its position offered, each None when it could not be settled;
    ``best_column`` names a move that scores ``best`` (None when unknown).
    ``verdict`` is one of the verdicts of this module, None when unsettled.
    """

    number: int
    player: int
    column: int
    score: int | None
    best: int | None
    best_column: int | None
    verdict: str | None


@dataclass(frozen=True)
class PlayerSummary:
    """How one player's moves fared: ``kept`` the game value (``best`` + ``slower``), and the rest."""

    moves: int
    best: int
    slower: int
    mistakes: int
    blunders: int
    unsettled: int

    @property
    def kept(self) -> int:
        """Moves that kept the game's value: best moves and slower ones."""
        return self.best + self.slower


@dataclass(frozen=True)
class GameReview:
    """Every move's review, in the order played."""

    moves: tuple[MoveReview, ...]

    def summary(self, player: int) -> PlayerSummary:
        """The counts of ``player``'s verdicts (0: the first player)."""
        verdicts = [move.verdict for move in self.moves if move.player == player]
        return PlayerSummary(
            moves=len(verdicts),
            best=verdicts.count(BEST),
            slower=verdicts.count(SLOWER),
            mistakes=verdicts.count(MISTAKE),
            blunders=verdicts.count(BLUNDER),
            unsettled=verdicts.count(None),
        )


def _value(score: int) -> int:
    """The game value a score stands for: 1 a win, 0 a draw, -1 a loss."""
    return (score > 0) - (score < 0)


def verdict(score: int, best: int) -> str:
    """The verdict on a move scoring ``score`` where ``best`` was available (both exact).

    >>> verdict(3, 3), verdict(1, 3), verdict(-4, -2), verdict(0, 2), verdict(-1, 0), verdict(-1, 2)
    ('best', 'slower', 'slower', 'mistake', 'mistake', 'blunder')

    Raises:
        ValueError: ``score`` is above ``best``, which no exact scores allow.
    """
    if score > best:
        raise ValueError(f"a move cannot score {score}, above the best score {best}")
    if score == best:
        return BEST
    drop = _value(best) - _value(score)
    return (SLOWER, MISTAKE, BLUNDER)[drop]


def review_budget(moves: int, total: float = REVIEW_SECONDS) -> float:
    """The seconds of search the first pass gives each position of a ``moves``-move game.

    >>> round(review_budget(42), 3), review_budget(2)
    (0.093, 1.0)
    """
    return min(MOST_SECONDS_PER_POSITION, total / 2 / (moves + 1))


def review_steps(
    game: Game,
    *,
    seconds_per_position: float | None = None,
    threads: int = 1,
    table_size: int | None = None,
    time_limit: float | None = None,
) -> Generator[tuple[int, int], None, GameReview]:
    """Review ``game``'s moves; yield ``(positions analysed, analyses in all)`` as it goes.

    Each position before a move, and the last one unless the game is over,
    gets :func:`~connect_four.engine.columns.column_scores`: by default in two passes
    sharing :data:`REVIEW_SECONDS` (see there), else once with
    ``seconds_per_position``. Budgets are seconds of search on a quiet
    machine spent as node budgets: the same game and budget always give the
    same review (with one thread, the default: ``threads`` and
    ``table_size`` go to every column_scores, where more threads may settle
    a position near its budget on one run and not on another). ``time_limit``
    (seconds, None for none) caps each position's wall-clock time, as in
    column_scores: a server's review ends in bounded time however busy its
    machine. The total grows when the second pass begins. The generator's
    return value is the :class:`GameReview`.

    Raises:
        UnsupportedGameError: the game is not for two players.
    """
    replay = Game(game.rules)
    positions: list[Game | None] = []
    for column in [*game.moves, None]:
        positions.append(None if replay.is_over() else replay.copy())
        if column is not None:
            replay.play(column)
    todo = [index for index, position in enumerate(positions) if position is not None]
    if seconds_per_position is None:
        first, second = review_budget(len(game.moves)), REVIEW_SECONDS / 2
    else:
        first, second = seconds_per_position, 0.0
    scores: list[Scores | None] = [None] * len(positions)
    done, total = 0, len(todo)
    # One table for the whole review: its positions share subtrees.
    solver = Solver(game.rules, table_size=table_size or TABLE_SIZE, threads=threads)
    for index in todo:
        position = positions[index]
        assert position is not None
        scores[index] = column_scores(
            position,
            time_budget=first,
            time_limit=time_limit,
            threads=threads,
            table_size=table_size,
            solver=solver,
        )
        done += 1
        yield done, total
    unsettled = [index for index in todo if not _settled(scores[index])]
    again = min(MOST_SECONDS_SECOND_PASS, second / len(unsettled)) if unsettled else 0.0
    if again > first:
        total += len(unsettled)
        for index in unsettled:
            position = positions[index]
            assert position is not None
            scores[index] = _merged(
                scores[index],
                column_scores(
                    position,
                    time_budget=again,
                    time_limit=time_limit,
                    threads=threads,
                    table_size=table_size,
                    solver=solver,
                ),
            )
            done += 1
            yield done, total
    players = [move.player for move in game.history]
    return GameReview(
        tuple(
            _move_review(number, player, column, scores[number - 1], scores[number], game)
            for number, (player, column) in enumerate(zip(players, game.moves, strict=True), 1)
        )
    )


def _settled(scores: Scores | None) -> bool:
    """Whether every column of a position (None: the game is over) has its exact score."""
    return scores is None or all(score.exact for score in scores.values())


def _merged(earlier: Scores | None, later: Scores) -> Scores:
    """Each column's exact score from either analysis of one position, else the later estimate."""
    assert earlier is not None
    return {
        column: score if score.exact or not earlier[column].exact else earlier[column]
        for column, score in later.items()
    }


def review(
    game: Game,
    *,
    seconds_per_position: float | None = None,
    threads: int = 1,
    table_size: int | None = None,
    time_limit: float | None = None,
) -> GameReview:
    """:func:`review_steps` run to the end, its progress ignored."""
    steps = review_steps(
        game,
        seconds_per_position=seconds_per_position,
        threads=threads,
        table_size=table_size,
        time_limit=time_limit,
    )
    while True:
        try:
            next(steps)
        except StopIteration as done:
            finished: GameReview = done.value
            return finished


def review_moves(
    rows: int,
    columns: int,
    connect: int,
    moves: list[int],
    total_seconds: float,
    time_limit: float,
) -> GameReview:
    """The review of the game ``moves`` make, from plain values (a worker process's job).

    One pass shares ``total_seconds`` of search among the positions (at most
    :data:`MOST_SECONDS_PER_POSITION` each), and ``time_limit`` caps each one's
    wall-clock time: what a server can promise to answer in bounded time.

    >>> [move.verdict for move in review_moves(6, 7, 4, [3, 0, 3, 0, 3, 0, 1, 0], 2.0, 3.0).moves][6]
    'blunder'

    Raises:
        RulesError: the board or chain length is impossible.
        EngineError: a move cannot be played (see :meth:`Game.from_moves`).
        UnsupportedGameError: the game is not for two players.
    """
    game = Game.from_moves(moves, Rules(rows, columns, connect))
    budget = min(MOST_SECONDS_PER_POSITION, total_seconds / (len(moves) + 1))
    return review(game, seconds_per_position=budget, time_limit=time_limit)


def _move_review(
    number: int, player: int, column: int, before: Scores | None, after: Scores | None, game: Game
) -> MoveReview:
    """The review of one move from the scores of the positions before and after it."""
    assert before is not None, "a move was played from a finished position"
    scores = dict(before)
    # The move's score is minus the value of the position it leads to: the
    # later position may have settled it where this one ran out of budget.
    if not scores[column].exact and after is not None and all(s.exact for s in after.values()):
        scores[column] = ColumnScore(-max(s.score for s in after.values()), True)
    played = scores[column]
    score = played.score if played.exact else None
    best = _best_score(scores, win_score(game.rules.cells, number - 1))
    if best is None:
        return MoveReview(number, player, column, score, None, None, None)
    settled = {c: s for c, s in scores.items() if s.exact and s.score == best}
    best_column = suggestion(settled, game.rules)
    judged = None if score is None else verdict(score, best)
    return MoveReview(number, player, column, score, best, best_column, judged)


def _best_score(scores: Scores, ceiling: int) -> int | None:
    """The best exact score among ``scores``, if it is known; ``ceiling`` is a win at once.

    It is known when every column is settled, or when one wins with the
    next stone: no score can be higher.
    """
    exact = [s.score for s in scores.values() if s.exact]
    if len(exact) == len(scores):
        return max(exact)
    return ceiling if ceiling in exact else None
