"""connect_four.terminal.computer in-process: the hint's verdict for every kind of analysis."""

from __future__ import annotations

import pytest

from connect_four.engine import Game, Rules, columns
from connect_four.engine.columns import ColumnScore
from connect_four.terminal.computer import Computer
from connect_four.terminal.options import parse_options
from connect_four.terminal.settings import Settings


def _hint_for(monkeypatch, scores: dict[int, ColumnScore], rules: Rules | None = None) -> str:
    monkeypatch.setattr(columns, "column_scores", lambda game, **limits: scores)
    return Computer(Settings()).hint(Game(rules or Rules()))


@pytest.mark.parametrize(
    "scores, verdict",
    [
        ({4: ColumnScore(3, True), 3: ColumnScore(-1, True)}, "you can force a win"),
        (
            {4: ColumnScore(-2, True), 3: ColumnScore(-5, True)},
            "with best play you lose; this holds out longest",
        ),
        ({4: ColumnScore(0, True), 3: ColumnScore(-5, True)}, "with best play the game is a draw"),
        (
            {4: ColumnScore(0, True), 3: ColumnScore(5, False)},
            "it draws with best play; some columns are not settled",
        ),
        (
            {4: ColumnScore(-2, True), 3: ColumnScore(-90, False)},
            "with best play you lose; this holds out longest of the settled columns",
        ),
        (
            {4: ColumnScore(60, False), 3: ColumnScore(0, True)},
            "an estimate, not a proof: likely win",
        ),
        ({4: ColumnScore(5, False), 3: ColumnScore(-3, True)}, "an estimate, not a proof: unclear"),
        (
            {4: ColumnScore(-40, False), 3: ColumnScore(-50, False)},
            "an estimate, not a proof: likely loss",
        ),
    ],
)
def test_each_kind_of_best_column_gives_its_verdict(monkeypatch, scores, verdict):
    assert _hint_for(monkeypatch, scores) == f"Hint: play 4 ({verdict})."


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

    def column_scores(game, **limits):
        seen.update(limits)
        return {0: ColumnScore(0, True)}

    monkeypatch.setattr(columns, "column_scores", column_scores)
    settings = parse_options(["--hint", "--think", "2", "--time-limit", "3"])
    Computer(settings).hint(Game())
    assert seen == {"time_budget": 2.0, "time_limit": 3.0, "threads": 1, "table_size": None}


def test_thorough_gives_the_hint_its_long_budget(monkeypatch):
    from connect_four.engine.review import THOROUGH_SECONDS

    seen = {}

    def column_scores(game, **limits):
        seen.update(limits)
        return {0: ColumnScore(0, True)}

    monkeypatch.setattr(columns, "column_scores", column_scores)
    Computer(parse_options(["--hint", "--thorough"])).hint(Game())
    assert seen == {
        "time_budget": THOROUGH_SECONDS,
        "time_limit": None,
        "threads": 1,
        "table_size": None,
    }


def test_hint_and_scores_of_one_position_search_once(monkeypatch):
    calls = []

    def column_scores(game, **limits):
        calls.append(game.moves_string())
        return {2: ColumnScore(1, True), 3: ColumnScore(1, True)}

    monkeypatch.setattr(columns, "column_scores", column_scores)
    computer = Computer(parse_options(["--hint"]))
    game = Game.from_moves("3")
    computer.hint(game)
    computer.column_scores(game)
    game.play(3)
    computer.hint(game)
    assert calls == ["3", "3,3"]


def test_the_scores_line_lists_every_playable_column_with_a_legend():
    from connect_four.engine.columns import column_scores

    game = Game.from_moves("0,0,0,0,1,2,1,2", Rules(4, 4, 4))  # column 0 is full
    settings = parse_options(["--rows", "4", "--columns", "4", "--hint"])
    scores, legend = Computer(settings).column_scores(game)
    exact = column_scores(game, time_budget=50.0)
    assert list(exact) == [1, 2, 3]
    assert scores == "Scores by column: " + "  ".join(f"{c}:{s}" for c, s in exact.items())
    assert legend.startswith("(+: you can force a win") and "~" not in legend


def test_estimates_are_words_off_the_exact_scale_and_the_legend_says_so(monkeypatch):
    seen = {}

    def column_scores(game, **limits):
        seen.update(limits)
        return {
            0: ColumnScore(-250, False),
            1: ColumnScore(60, False),
            2: ColumnScore(3, False),
            3: ColumnScore(2, True),
        }

    monkeypatch.setattr(columns, "column_scores", column_scores)
    settings = parse_options(["--hint", "--think", "2", "--time-limit", "3"])
    scores, legend = Computer(settings).column_scores(Game())
    assert scores == "Scores by column: 0:likely loss  1:likely win  2:unclear  3:+2"
    assert "likely win, unclear, likely loss: estimates, not proofs" in legend
    assert "best first: +, likely win, 0, unclear, -, likely loss" in legend
    assert seen == {"time_budget": 2.0, "time_limit": 3.0, "threads": 1, "table_size": None}


def _shown_scores(line: str) -> dict[int, str]:
    """The ``??`` line read back: each column and what it shows."""
    assert line.startswith("Scores by column: ")
    return dict(
        (int(column), shown)
        for column, shown in (item.split(":") for item in line[18:].split("  "))
    )


@pytest.mark.slow
def test_hint_names_a_column_the_scores_rank_best_on_the_empty_7_by_9_board():
    """Issue 19: here ? said "play 2 (... you stand worse)" while ?? rated 3 to 5 best."""
    from connect_four.engine.outlook import OUTLOOKS

    game = Game(Rules(rows=7, columns=9))
    computer = Computer(parse_options(["--rows", "7", "--columns", "9", "--hint"]))
    hint = computer.hint(game)
    shown = _shown_scores(computer.column_scores(game)[0])
    column = int(hint.split()[2])
    rank = {word: len(OUTLOOKS) - index for index, word in enumerate(OUTLOOKS)}
    assert all(word in rank for word in shown.values())  # all estimates here: words only
    assert rank[shown[column]] == max(rank[word] for word in shown.values())
    assert f"not a proof: {shown[column]})" in hint


def test_an_estimate_never_shows_as_a_number_below_the_exact_scale():
    """Issue 19: ``??`` here showed ``1:~-32``, below any exact score of the position."""
    rules = Rules(rows=6, columns=7)
    game = Game.from_moves("3,3,3,3,2,1,0,4,6,4", rules)
    computer = Computer(parse_options(["--rows", "6", "--columns", "7", "--hint"]))
    line, _legend = computer.column_scores(game)
    lowest = -((rules.cells - len(game.moves)) // 2)
    for column, shown in _shown_scores(line).items():
        assert "~" not in shown
        if shown.lstrip("+-").isdigit():
            assert lowest <= int(shown) <= -lowest, (column, shown)
        else:
            assert shown in ("likely win", "unclear", "likely loss")
    hint = computer.hint(game)
    best = int(hint.split()[2])
    assert _shown_scores(line)[best] == max(
        (shown for shown in _shown_scores(line).values() if shown.lstrip("+-").isdigit()),
        key=int,
    )
