"""connect_four.terminal.commands in-process, and the commands played through connect.main."""

from __future__ import annotations

import pytest

import connect
from connect_four.engine import Game
from connect_four.terminal.commands import (
    HELP,
    HELP_TEXT,
    HINT,
    QUIT,
    SCORES,
    UNDO,
    answer,
    command_for,
    moves_to_undo,
)


@pytest.mark.parametrize(
    "text, command",
    [
        ("u", UNDO),
        ("U", UNDO),
        ("q", QUIT),
        ("Q", QUIT),
        ("?", HINT),
        ("??", SCORES),
        ("h", HELP),
        ("H", HELP),
    ],
)
def test_each_key_names_its_command(text, command):
    assert command_for(text) == command


@pytest.mark.parametrize("text", ["", "3", "undo", "quit", " u", "u ", "uu", "x", "???", "? ?"])
def test_anything_else_is_no_command(text):
    assert command_for(text) is None


def test_help_text_lists_every_key():
    for key in ("u ", "q ", "? ", "??", "h "):
        assert f"\n  {key}" in HELP_TEXT


@pytest.mark.parametrize(
    "record, start, humans, count",
    [
        ("", 0, {0, 1}, 0),  # an empty board: nothing to undo
        ("3", 0, {0, 1}, 1),  # two players: the last move only
        ("3,4,5", 0, {0, 1}, 1),
        ("3,4", 0, {0}, 2),  # X against the computer: its reply and X's move
        ("3,4,5", 0, {1}, 2),  # O against the computer: X's reply and O's move
        ("3", 0, {1}, 0),  # the computer (X) moved first, O never did
        ("3,3,4", 3, {0, 1}, 0),  # the starting position is not undone
        ("3,3,4,5", 3, {0, 1}, 1),
        ("3,3,4,5", 3, {0}, 0),  # X against the computer, no X move since the start
        ("3,3,4,5,6,1", 3, {0}, 2),
    ],
)
def test_undo_goes_back_to_the_same_humans_turn(record, start, humans, count):
    game = Game.from_moves(record)
    assert moves_to_undo(game, start, humans) == count
    if count:
        mover = game.history[-count].player
        for _ in range(count):
            game.pop()
        assert game.to_move == mover
        assert mover in humans


def _play(monkeypatch, typed, *arguments):
    """Run connect.main with ``typed`` as the input lines; return (status, printed text)."""
    shown = []
    pending = list(typed)

    def fake_input(prompt=""):
        shown.append(prompt)
        if not pending:
            raise EOFError
        return pending.pop(0)

    def fake_print(text, file=None):
        if file is None:
            shown.append(text + "\n")

    monkeypatch.setattr(connect, "input", fake_input, raising=False)
    monkeypatch.setattr(connect, "print", fake_print, raising=False)
    status = connect.main(list(arguments))
    assert pending == []
    return status, "".join(shown)


def test_quit_ends_the_game_with_status_0_and_names_the_quitter(monkeypatch):
    status, shown = _play(monkeypatch, ["3", "q"], "--commands", "--announce")
    assert status == 0
    assert shown.endswith("Enter a column: O quits.\nGame finished.\nX wins.\nMoves: 3\n")


def test_without_commands_the_keys_stay_invalid_moves(monkeypatch):
    status, shown = _play(monkeypatch, ["u", "q", "h"], "--announce")
    assert status == 1  # input ended: q did not quit
    assert shown.count("Invalid move.") == 3


def test_undo_against_the_computer_returns_to_the_humans_turn(monkeypatch):
    status, shown = _play(
        monkeypatch,
        ["3", "u", "q"],
        "--commands",
        "--computer",
        "O",
        "--rows",
        "4",
        "--columns",
        "4",
    )
    assert status == 0
    assert "Undone: O in column " in shown
    assert ", X in column 3." in shown
    assert shown.endswith("X's turn\nEnter a column: X quits.\nGame finished.\n")


def test_question_mark_gives_a_hint_with_commands(monkeypatch):
    status, shown = _play(monkeypatch, ["?", "q"], "--commands", "--rows", "4", "--columns", "4")
    assert status == 0
    assert "Hint: play 1 (with best play the game is a draw).\n" in shown


def test_the_issues_command_line_shows_no_estimate_on_the_exact_scale(monkeypatch):
    """Issue 19: ``??`` here showed ``1:~-32``; ``?`` must name a column ``??`` ranks best."""
    status, shown = _play(
        monkeypatch,
        ["??", "?", "q"],
        "--rows",
        "6",
        "--columns",
        "7",
        "--moves",
        "3,3,3,3,2,1,0,4,6,4",
        "--commands",
    )
    assert status == 0
    scores = next(line for line in shown.splitlines() if "Scores by column: " in line)
    shown_scores = dict(
        item.split(":") for item in scores.split("Scores by column: ")[1].split("  ")
    )
    assert "~" not in scores
    hint = next(line for line in shown.splitlines() if "Hint: play " in line)
    column = hint.split("Hint: play ")[1].split()[0]
    numbers = [int(text) for text in shown_scores.values() if text.lstrip("+-").isdigit()]
    assert int(shown_scores[column]) == max(numbers)  # here the best columns are exact


def test_answer_leaves_columns_and_unknown_text_to_the_caller():
    game = Game()
    for text in ("3", "x", "u", "q", "h", "?"):
        assert answer(text, game) is None
    assert answer("3", game, commands=True) is None
    assert game.moves == []


def test_answer_gives_a_hint_with_hint_alone_and_other_keys_stay_unknown():
    game = Game()
    hint = lambda game: "Hint: play 3."  # noqa: E731
    assert answer("?", game, hint=hint).lines == ["Hint: play 3."]
    assert answer("u", game, hint=hint) is None


def test_answer_quit_ends_the_turn_and_the_game_for_the_other_player():
    game = Game.from_moves("3")
    reply = answer("q", game, commands=True)
    assert (reply.lines, reply.turn_over, reply.quitter) == (["O quits."], True, 1)
    assert game.outcome().winner == 0


def test_answer_undo_with_nothing_to_undo_keeps_the_turn():
    game = Game.from_moves("3,3,4")
    reply = answer("u", game, commands=True, start=3)
    assert (reply.lines, reply.turn_over) == (["Nothing to undo."], False)
    assert game.moves == [3, 3, 4]
