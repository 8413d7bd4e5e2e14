"""The game review (--review): the engine's verdicts, their text, the option, and its dialogs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from ci_support import unavailable

import connect
from connect_four.engine import Game, Rules, Solver, columns
from connect_four.engine import review as engine_review
from connect_four.engine.columns import ColumnScore
from connect_four.engine.convert import to_position
from connect_four.engine.database import NO_DATABASE_VARIABLE, load_database
from connect_four.engine.review import (
    BEST,
    BLUNDER,
    MISTAKE,
    MOST_SECONDS_SECOND_PASS,
    REVIEW_SECONDS,
    SLOWER,
    THOROUGH_SECONDS,
    GameReview,
    MoveReview,
    review,
    review_budget,
    review_steps,
    verdict,
)
from connect_four.terminal import review as terminal_review
from connect_four.terminal.options import UsageError, parse_options
from connect_four.terminal.review import move_line, review_lines, summary_line
from connect_four.terminal.steps import Show
from connect_support import (
    TEST_FILES,
    dialog_arguments,
    dialog_inputs,
    harness_transcript,
    piped_transcript,
    read_dialog,
    run_like_the_harness,
    run_piped,
)

pytestmark = pytest.mark.slow

REVIEW_DIALOGS = sorted((TEST_FILES / "review").glob("*.txt"))


# --- Verdicts -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("score", "best", "expected"),
    [
        (5, 5, BEST),
        (0, 0, BEST),
        (-3, -3, BEST),
        (2, 5, SLOWER),
        (-6, -1, SLOWER),
        (0, 4, MISTAKE),
        (-2, 0, MISTAKE),
        (-1, 1, BLUNDER),
        (-9, 9, BLUNDER),
    ],
)
def test_each_drop_of_the_game_value_has_its_verdict(score, best, expected):
    assert verdict(score, best) == expected


def test_a_score_above_the_best_is_refused():
    with pytest.raises(ValueError, match="above the best score"):
        verdict(3, 2)


# --- The engine's review against the exact solver ---------------------------------------


def _exact_review(game: Game) -> list[tuple[int, int]]:
    """Each move's (score, best score), by the exact solver on every child position."""
    solver = Solver(game.rules)
    replay = Game(game.rules)
    found = []
    for column in game.moves:
        scores = {}
        for candidate in replay.legal_moves():
            child = replay.copy()
            child.play(candidate)
            outcome = child.outcome()
            if outcome is None:
                scores[candidate] = -solver.score(to_position(child))
            elif outcome.winner is None:
                scores[candidate] = 0
            else:
                scores[candidate] = (game.rules.cells + 1 - len(replay.moves)) // 2
        found.append((scores[column], max(scores.values())))
        replay.play(column)
    return found


@pytest.mark.parametrize("seed", range(6))
def test_review_of_a_random_game_on_a_small_board_matches_the_exact_solver(seed):
    rng = random.Random(seed)
    game = Game(Rules(4, 5))
    while not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    reviewed = review(game)
    assert [move.column for move in reviewed.moves] == game.moves
    assert [move.player for move in reviewed.moves] == [m.player for m in game.history]
    for move, (score, best) in zip(reviewed.moves, _exact_review(game), strict=True):
        assert (move.score, move.best, move.verdict) == (score, best, verdict(score, best))
        if move.verdict != BEST:
            child = Game.from_moves([*game.moves[: move.number - 1], move.best_column], game.rules)
            assert _exact_review(child)[-1][0] == best  # the named best move scores the best


def test_a_position_not_settled_gives_no_verdict_and_says_so(monkeypatch):
    real = columns.column_scores

    def unsettled_at_ply_two(game, **limits):
        scores = real(game, **limits)
        if len(game.moves) == 2:
            return {
                column: ColumnScore(score.score * 40, False) for column, score in scores.items()
            }
        return scores

    monkeypatch.setattr("connect_four.engine.review.column_scores", unsettled_at_ply_two)
    game = Game.from_moves("1,1,2,2,0", Rules(4, 5))
    reviewed = review(game).moves
    # Move 3 is played from the unsettled position: no score of its own, no best.
    assert (reviewed[2].best, reviewed[2].verdict) == (None, None)
    # Move 2 leads to it: its score came from the earlier position, the best too.
    assert reviewed[1].verdict is not None
    assert move_line(reviewed[2]).endswith("no verdict")


def test_a_settled_next_position_settles_the_move_before_it(monkeypatch):
    real = columns.column_scores
    game = Game.from_moves("1,1,2", Rules(4, 5))

    def played_column_estimated(position, **limits):
        scores = real(position, **limits)
        if position.moves == [1, 1]:
            scores[2] = ColumnScore(7, False)  # the move played, unsettled here
        return scores

    monkeypatch.setattr("connect_four.engine.review.column_scores", played_column_estimated)
    move = review(game).moves[2]
    assert move.score == -max(s.score for s in real(Game.from_moves("1,1,2", Rules(4, 5))).values())
    assert move.verdict is not None


def test_a_win_with_the_next_stone_is_best_even_where_other_columns_are_unsettled(monkeypatch):
    real = columns.column_scores
    game = Game.from_moves("0,1,0,1,0,1,0", Rules(4, 5))  # X wins in column 0 at move 7

    def only_wins_settled(position, **limits):
        scores = real(position, **limits)
        if len(position.moves) == 6:
            return {c: s if c == 0 else ColumnScore(5, False) for c, s in scores.items()}
        return scores

    monkeypatch.setattr("connect_four.engine.review.column_scores", only_wins_settled)
    last = review(game).moves[-1]
    assert (last.score, last.best, last.best_column, last.verdict) == (7, 7, 0, BEST)


def _progress_and_review(steps):
    """What a review says of its progress as it runs, and the review it ends with."""
    progress = []
    while True:
        try:
            progress.append(next(steps))
        except StopIteration as done:
            return progress, done.value


def test_progress_counts_every_position_analysed():
    finished = Game.from_moves("0,1,0,1,0,1,0", Rules(4, 4))
    seen, reviewed = _progress_and_review(review_steps(finished))
    assert len(reviewed.moves) == 7
    assert seen == [(n, 7) for n in range(1, 8)]  # the won position needs no analysis
    unfinished = review_steps(Game.from_moves("0,1", Rules(4, 4)))
    assert next(unfinished) == (1, 3)


def test_the_first_pass_takes_half_the_review_seconds():
    assert review_budget(42) * 43 == pytest.approx(REVIEW_SECONDS / 2)
    assert review_budget(3) == 1.0


def test_a_second_pass_gives_unsettled_positions_the_other_half(monkeypatch):
    real = columns.column_scores
    budgets = []

    def unsettled_at_first(game, **limits):
        budgets.append((len(game.moves), limits["time_budget"]))
        scores = real(game, **limits)
        if len(game.moves) == 2 and limits["time_budget"] < 1.0:
            return {
                column: ColumnScore(score.score * 40, False) for column, score in scores.items()
            }
        return scores

    monkeypatch.setattr("connect_four.engine.review.column_scores", unsettled_at_first)
    game = Game.from_moves("1,1,2,2,0", Rules(4, 5))
    progress, reviewed = _progress_and_review(review_steps(game))
    assert progress[-2:] == [(6, 6), (7, 7)]  # the second pass adds one analysis
    assert budgets[-1] == (2, MOST_SECONDS_SECOND_PASS)
    assert all(move.verdict is not None for move in reviewed.moves)


def test_summary_counts_each_players_verdicts():
    moves = (
        MoveReview(1, 0, 3, 1, 1, 3, BEST),
        MoveReview(2, 1, 3, -1, -1, 3, BEST),
        MoveReview(3, 0, 0, -2, 1, 3, BLUNDER),
        MoveReview(4, 1, 2, 0, 2, 4, MISTAKE),
        MoveReview(5, 0, 4, -3, -1, 2, SLOWER),
        MoveReview(6, 1, 1, None, None, None, None),
    )
    reviewed = GameReview(moves)
    x, o = reviewed.summary(0), reviewed.summary(1)
    assert (x.moves, x.kept, x.best, x.slower, x.mistakes, x.blunders, x.unsettled) == (
        3,
        2,
        1,
        1,
        0,
        1,
        0,
    )
    assert (o.moves, o.kept, o.mistakes, o.blunders, o.unsettled) == (3, 1, 1, 0, 1)
    assert summary_line(reviewed, 0) == (
        "X: 2 of 3 moves kept the game value (1 best, 1 slower), 0 mistakes, 1 blunder."
    )
    assert summary_line(reviewed, 1) == (
        "O: 1 of 3 moves kept the game value (1 best, 0 slower), 1 mistake, 0 blunders, "
        "1 not settled."
    )


# --- The text ---------------------------------------------------------------------------


def test_progress_lines_come_after_a_second_and_at_most_one_a_second(monkeypatch):
    ticks = iter([0.0, 0.2, 1.1, 1.5, 2.0, 2.3, 3.2, 3.25])
    game = Game.from_moves("1,1,2,2,0,0", Rules(4, 5))
    lines = [step.text for step in review_lines(game, clock=lambda: next(ticks))]
    progress = [line for line in lines if line.startswith("Reviewing:")]
    # Clock at each of the 7 positions: 0.2, 1.1 (shown), 1.5, 2.0, 2.3 (shown), 3.2, 3.25.
    assert progress == [
        "Reviewing: 2 of 7 positions analysed...",
        "Reviewing: 5 of 7 positions analysed...",
    ]
    assert lines.index(terminal_review.HEADING) == 2


def test_the_progress_total_is_stated_once_and_kept(monkeypatch):
    # Budgets too small to settle a 6 x 7 opening: every position gets a second look.
    monkeypatch.setattr(engine_review, "MOST_SECONDS_PER_POSITION", 1e-5)
    monkeypatch.setattr(engine_review, "REVIEW_SECONDS", 0.02)
    ticks = iter(range(1000))
    game = Game.from_moves("3,3,2,4", Rules(6, 7))
    lines = [step.text for step in review_lines(game, clock=lambda: float(next(ticks)))]
    progress = [line for line in lines if line.startswith("Reviewing:")]
    assert progress[:5] == [f"Reviewing: {done} of 5 positions analysed..." for done in range(1, 6)]
    assert len(progress) > 5, "no second pass: the test's budgets settle positions"
    for again, line in enumerate(progress[5:], start=1):
        ones = "one" if again == 1 else "ones"
        assert line == (
            f"Reviewing: 5 of 5 positions analysed, {again} unsettled {ones} looked at again..."
        )


def test_a_quick_review_shows_no_progress():
    game = Game.from_moves("1,1,2,2,0,0", Rules(4, 5))
    lines = [step.text for step in review_lines(game, clock=lambda: 0.0)]
    assert lines[0] == terminal_review.HEADING
    assert len(lines) == 1 + 6 + 2


def test_an_empty_record_has_nothing_to_review():
    assert list(review_lines(Game(Rules(6, 7)))) == [Show("No moves to review.")]


# --- The option -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        (["--review"], "--review does nothing without --moves, --moves-file or --commands"),
        (["--thorough"], "--thorough does nothing without --hint, --commands or --review"),
        (
            ["--review", "--moves", "3", "--computer", "O"],
            "--computer does nothing without --commands when --review is given",
        ),
        (["--review", "--moves", "3", "--hint"], "--hint does nothing without --commands"),
        (["--review", "--moves", "3", "--games", "2"], "--games does nothing"),
        (["--review", "--moves", "3", "--think", "2"], "--think does nothing"),
        (["--review", "--server", "http://127.0.0.1:1"], "--review does nothing"),
        (
            ["--review", "--commands", "--server", "http://127.0.0.1:1"],
            "cannot be used in a network game",
        ),
    ],
)
def test_review_options_that_would_be_ignored_are_refused(arguments, complaint):
    with pytest.raises(UsageError, match=complaint.replace("-", r"\-")):
        parse_options(arguments)


def test_the_review_takes_the_thorough_budget(monkeypatch):
    seen = []

    def column_scores(game, **limits):
        seen.append(limits["time_budget"])
        return {column: ColumnScore(0, True) for column in game.legal_moves()}

    monkeypatch.setattr("connect_four.engine.review.column_scores", column_scores)
    monkeypatch.setattr(terminal_review, "PROGRESS_AFTER", float("inf"))  # a busy machine's lines
    shown = []
    monkeypatch.setattr(connect, "print", lambda text, file=None: shown.append(text), raising=False)
    status = connect.main(
        ["--rows", "4", "--columns", "4", "--moves", "0,1", "--review", "--thorough"]
    )
    assert status == 0
    assert seen == [THOROUGH_SECONDS] * 3
    assert shown[0] == terminal_review.HEADING


def test_a_game_played_with_commands_is_reviewed_at_its_end(monkeypatch):
    monkeypatch.setattr(terminal_review, "PROGRESS_AFTER", float("inf"))  # a busy machine's lines
    typed = iter(["0", "1", "0", "1", "0", "1", "0"])
    shown = []
    monkeypatch.setattr(connect, "input", lambda prompt="": next(typed), raising=False)
    monkeypatch.setattr(connect, "print", lambda text, file=None: shown.append(text), raising=False)
    status = connect.main(["--rows", "4", "--columns", "4", "--commands", "--review"])
    assert status == 0
    end = shown.index("Game finished.")
    assert shown[end + 1] == terminal_review.HEADING
    assert shown[end + 2] == "1. X 0: score 0, best 0: best"  # 4 x 4 is a draw
    assert len(shown) == end + 2 + 7 + 2
    assert shown[-2].startswith("X: ") and "of 4 moves kept the game value" in shown[-2]
    assert shown[-1].startswith("O: ")


def test_without_review_a_commands_game_ends_as_before(monkeypatch):
    typed = iter(["0", "1", "0", "1", "0", "1", "0"])
    shown = []
    monkeypatch.setattr(connect, "input", lambda prompt="": next(typed), raising=False)
    monkeypatch.setattr(connect, "print", lambda text, file=None: shown.append(text), raising=False)
    assert connect.main(["--rows", "4", "--columns", "4", "--commands"]) == 0
    assert shown[-1] == "Game finished."


# --- Dialogs, the grader's way and through a pipe -----------------------------------------
# A progress line depends on the clock, so the dialogs hold none: the harness
# run turns progress off, the pipe run drops any progress line a slow
# machine shows. test_progress_lines_come_after_a_second... tests the lines.


def _without_progress(text: str) -> str:
    """``text`` without the review's progress lines."""
    return "".join(
        line for line in text.splitlines(keepends=True) if not line.startswith("Reviewing: ")
    )


def _needs_the_database(path: Path) -> None:
    """Skip a ``*_database`` dialog without the 12-stone database (fail in CI), as its tests do."""
    if path.stem.endswith("_database") and load_database() is None:
        unavailable("the database extra is not installed: pip install -e '.[database]'")


@pytest.mark.parametrize("path", REVIEW_DIALOGS, ids=[path.stem for path in REVIEW_DIALOGS])
def test_review_dialog_through_the_harness(path, monkeypatch):
    _needs_the_database(path)
    monkeypatch.setattr(terminal_review, "PROGRESS_AFTER", float("inf"))
    text = read_dialog(path)
    shown = run_like_the_harness(dialog_inputs(text), *dialog_arguments(path))
    assert shown == harness_transcript(text)


PIPED_REVIEW_DIALOGS = [
    TEST_FILES / "review" / "commands_then_review_5x8.txt",
    TEST_FILES / "review" / "blunder_and_mistake_6x7.txt",
]
"""One dialog of each board through a real pipe as well: the review itself is the same
either way (every dialog goes through the harness), the pipe adds the program's
streams, and each piped 5 x 8 review cost half a second of CPU."""


@pytest.mark.parametrize(
    "path", PIPED_REVIEW_DIALOGS, ids=[path.stem for path in PIPED_REVIEW_DIALOGS]
)
def test_review_dialog_through_a_pipe(path):
    _needs_the_database(path)
    text = read_dialog(path)
    stdin = "".join(line + "\n" for line in dialog_inputs(text)).encode()
    result = run_piped(stdin, *dialog_arguments(path))
    assert _without_progress(result.stdout.decode()) == piped_transcript(text)
    assert (result.stderr, result.returncode) == (b"", 0)


def test_the_7_by_6_dialog_reads_the_same_without_the_database(monkeypatch):
    """Its early positions are the opening book's: the review needs no database there."""
    monkeypatch.setenv(NO_DATABASE_VARIABLE, "1")
    monkeypatch.setattr(terminal_review, "PROGRESS_AFTER", float("inf"))
    path = TEST_FILES / "review" / "blunder_and_mistake_6x7.txt"
    text = read_dialog(path)
    assert run_like_the_harness([], *dialog_arguments(path)) == harness_transcript(text)


def test_there_are_review_dialogs_on_both_boards_with_a_blunder_and_a_mistake():
    boards = []
    for path in REVIEW_DIALOGS:
        text = read_dialog(path)
        arguments = dialog_arguments(path)
        if ": blunder" in text and ": mistake" in text:
            six_by_seven = arguments[:4] == ["--rows", "6", "--columns", "7"]
            boards.append("6x7" if six_by_seven else "5x8" if "--rows" not in arguments else "?")
    assert sorted(set(boards)) == ["5x8", "6x7"]
