"""The solver behind connect.py's --computer and --hint, as lines to show."""

from __future__ import annotations

import random

from engine import Game, solver

from .settings import Settings

__all__ = ["Computer"]


class Computer:
    """Moves and hints for one game, at the level and thinking time the settings ask."""

    def __init__(self, settings: Settings) -> None:
        self._think = settings.think
        self._time_limit = settings.time_limit
        self._level = max(solver.LEVELS) if settings.level is None else settings.level
        self._rng: random.Random = random.Random(settings.seed)

    def move(self, game: Game) -> int:
        """The column the computer plays for the player to move."""
        return solver.choose_move(
            game,
            self._level,
            rng=self._rng,
            time_budget=self._think,
            time_limit=self._time_limit,
        )

    def hint(self, game: Game) -> str:
        """The solver's suggestion and evaluation for the player to move, as a line."""
        analysis = solver.analyse(
            game, time_budget=self._think, time_limit=self._time_limit
        )
        if not analysis.exact:
            verdict = (
                f"an estimate from {analysis.depth} moves ahead: "
                + ("you stand better" if analysis.score > 0
                   else "you stand worse" if analysis.score < 0 else "even")
            )
        elif analysis.score > 0:
            verdict = "you can force a win"
        elif analysis.score < 0:
            verdict = "with best play you lose; this holds out longest"
        else:
            verdict = "with best play the game is a draw"
        return f"Hint: play {analysis.move} ({verdict})."

    def column_scores(self, game: Game) -> list[str]:
        """Every playable column's score for the player to move, as lines (the ``??`` command).

        Exact scores come from the opening book or the exact search; a
        column the search cannot settle in the thinking time gets an
        estimate, marked ``~``.
        """
        from engine.columns import column_scores  # deferred: start-up speed (?? only)

        scores = column_scores(game, time_budget=self._think, time_limit=self._time_limit)
        line = "  ".join(f"{column}:{score}" for column, score in scores.items())
        exact = all(score.exact for score in scores.values())
        legend = (
            "+: you can force a win, the higher the sooner; 0: a draw; "
            "-: you lose, the lower the sooner"
            + ("" if exact else "; ~: an estimate, not a proof")
        )
        return [f"Scores by column: {line}", f"({legend})"]
