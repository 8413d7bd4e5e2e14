"""terminal.computer in-process: the hint's verdict for every kind of analysis."""

from __future__ import annotations

import pytest

from engine import Game, Rules, solver
from terminal.computer import Computer
from terminal.options import parse_options
from terminal.settings import Settings


def _hint_for(monkeypatch, analysis: solver.Analysis) -> str:
    monkeypatch.setattr(solver, "analyse", lambda game, **limits: analysis)
    return Computer(Settings()).hint(Game())


@pytest.mark.parametrize(
    "score, exact, depth, verdict",
    [
        (3, True, None, "you can force a win"),
        (-2, True, None, "with best play you lose; this holds out longest"),
        (0, True, None, "with best play the game is a draw"),
        (5, False, 8, "an estimate from 8 moves ahead: you stand better"),
        (-5, False, 8, "an estimate from 8 moves ahead: you stand worse"),
        (0, False, 6, "an estimate from 6 moves ahead: even"),
    ],
)
def test_each_analysis_gives_its_verdict(monkeypatch, score, exact, depth, verdict):
    analysis = solver.Analysis(move=4, score=score, exact=exact, depth=depth, explored=1)
    assert _hint_for(monkeypatch, analysis) == f"Hint: play 4 ({verdict})."


@pytest.mark.parametrize(
    "record, verdict",
    [
        ("", "with best play the game is a draw"),  # the empty 4 x 4 board
        # Two positions of the --hint dialog (test_files/options/hint.txt).
        ("2,2,2,1,0,3,0,1", "you can force a win"),
        ("2,2,2,1,0,3,0,1,2,1", "with best play you lose; this holds out longest"),
        ("0,1,0,1,0,2", "you can force a win"),  # X completes column 0
    ],
)
def test_the_real_solver_on_small_boards(record, verdict):
    rules = Rules(4, 4, 4)
    game = Game.from_moves(record, rules)
    settings = parse_options(["--rows", "4", "--columns", "4", "--hint"])
    assert verdict in Computer(settings).hint(game)


def test_the_hint_uses_the_thinking_options(monkeypatch):
    seen = {}

    def analyse(game, **limits):
        seen.update(limits)
        return solver.Analysis(move=0, score=0, exact=True, depth=None, explored=1)

    monkeypatch.setattr(solver, "analyse", analyse)
    settings = parse_options(["--hint", "--think", "2", "--time-limit", "3"])
    Computer(settings).hint(Game())
    assert seen == {"time_budget": 2.0, "time_limit": 3.0}


def test_the_scores_line_lists_every_playable_column_with_a_legend():
    from engine.columns import column_scores

    game = Game.from_moves("0,0,0,0,1,2,1,2", Rules(4, 4, 4))  # column 0 is full
    settings = parse_options(["--rows", "4", "--columns", "4", "--hint"])
    scores, legend = Computer(settings).column_scores(game)
    exact = column_scores(game, time_budget=50.0)
    assert list(exact) == [1, 2, 3]
    assert scores == "Scores by column: " + "  ".join(f"{c}:{s}" for c, s in exact.items())
    assert legend.startswith("(+: you can force a win") and "~" not in legend


def test_estimated_scores_are_marked_and_the_thinking_options_are_used(monkeypatch):
    from engine import columns

    seen = {}

    def column_scores(game, **limits):
        seen.update(limits)
        return {0: columns.ColumnScore(-250, False), 3: columns.ColumnScore(2, True)}

    monkeypatch.setattr(columns, "column_scores", column_scores)
    settings = parse_options(["--hint", "--think", "2", "--time-limit", "3"])
    scores, legend = Computer(settings).column_scores(Game())
    assert scores == "Scores by column: 0:~-250  3:+2"
    assert legend.endswith("; ~: an estimate, not a proof)")
    assert seen == {"time_budget": 2.0, "time_limit": 3.0}
