"""The solver behind connect.py's --computer and --hint, as lines to show."""

from __future__ import annotations

import random

from connect_four.engine import Game, Rules, solver

from .settings import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from connect_four.engine.columns import ColumnScore

__all__ = ["Computer"]

_ESTIMATE_LEGEND = (
    "; likely win, unclear, likely loss: estimates, not proofs, where the search ran out "
    "of time; best first: +, likely win, 0, unclear, -, likely loss"
)


class Computer:
    """Moves and hints for one game, at the level and thinking time the settings ask."""

    def __init__(self, settings: Settings) -> None:
        self._think = settings.think
        self._time_limit = settings.time_limit
        self._level = max(solver.LEVELS) if settings.level is None else settings.level
        self._rng: random.Random = random.Random(settings.seed)
        self._hint_budget = settings.think
        self._threads = settings.threads
        self._table_size = settings.table_size
        if settings.thorough:
            from connect_four.engine.review import THOROUGH_SECONDS

            self._hint_budget = THOROUGH_SECONDS
        # The last position scored, so that ? and ?? on it agree without searching twice.
        self._scored: tuple[tuple[Rules, tuple[int, ...]], dict[int, ColumnScore]] | None = None

    def move(self, game: Game) -> int:
        """The column the computer plays for the player to move."""
        return solver.choose_move(
            game,
            self._level,
            rng=self._rng,
            time_budget=self._think,
            time_limit=self._time_limit,
            threads=self._threads,
            table_size=self._table_size,
        )

    def hint(self, game: Game) -> str:
        """The column to play for the player to move, and how the game stands, as a line (``?``).

        It comes from the same scores as :meth:`column_scores` (``??``), so
        it always names a column that ``??`` ranks best.
        """
        from connect_four.engine.outlook import DRAW, LOSS, WIN, outlook, suggestion

        scores = self._scores(game)
        column = suggestion(scores, game.rules)
        word = outlook(scores[column])
        settled = all(score.exact for score in scores.values())
        if word == WIN:
            verdict = "you can force a win"
        elif word == DRAW:
            verdict = (
                "with best play the game is a draw"
                if settled
                else "it draws with best play; some columns are not settled"
            )
        elif word == LOSS:
            verdict = (
                "with best play you lose; this holds out longest"
                if settled
                else "with best play you lose; this holds out longest of the settled columns"
            )
        else:
            verdict = f"an estimate, not a proof: {word}"
        return f"Hint: play {column} ({verdict})."

    def column_scores(self, game: Game) -> list[str]:
        """Every playable column's score for the player to move, as lines (the ``??`` command).

        Exact scores come from the opening book or the exact search; a
        column the search cannot settle in the thinking time gets a word
        for its estimate (likely win, unclear, likely loss), never a number.
        """
        from connect_four.engine.outlook import outlook  # deferred: start-up speed (?? only)

        scores = self._scores(game)
        line = "  ".join(
            f"{column}:{score if score.exact else outlook(score)}"
            for column, score in scores.items()
        )
        exact = all(score.exact for score in scores.values())
        legend = (
            "+: you can force a win, the higher the sooner; 0: a draw; "
            "-: you lose, the lower the sooner" + ("" if exact else _ESTIMATE_LEGEND)
        )
        return [f"Scores by column: {line}", f"({legend})"]

    def _scores(self, game: Game) -> dict[int, ColumnScore]:
        """The column scores of ``game``'s position, computed once for ``?`` and ``??`` alike."""
        from connect_four.engine.columns import column_scores

        key = (game.rules, tuple(game.moves))
        if self._scored is None or self._scored[0] != key:
            scores = column_scores(
                game,
                time_budget=self._hint_budget,
                time_limit=self._time_limit,
                threads=self._threads,
                table_size=self._table_size,
            )
            self._scored = (key, scores)
        return self._scored[1]
