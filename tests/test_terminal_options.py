"""terminal.options in-process: what each command line becomes, and what it refuses."""

from __future__ import annotations

import pytest

from engine import Rules
from terminal.options import (
    MAX_MOVES_FILE_BYTES,
    Settings,
    UsageError,
    parse_options,
    read_moves_file,
)


def test_no_options_is_the_assignment_game():
    settings = Settings()
    assert (settings.rules.rows, settings.rules.columns, settings.rules.connect) == (5, 8, 4)
    assert settings.computer == frozenset()
    assert settings.moves == []


@pytest.mark.parametrize(
    "arguments, needed",
    [
        (["--level", "2"], "--level does nothing without --computer"),
        (["--seed", "7"], "--seed does nothing without --computer"),
        (["--hint", "--level", "2"], "--level does nothing without --computer"),
        (["--hint", "--seed", "2"], "--seed does nothing without --computer"),
        (["--think", "2"], "--think does nothing without --computer or --hint"),
        (["--time-limit", "2"], "--time-limit does nothing without --computer or --hint"),
        (["--pause", "1"], "--pause does nothing without --computer"),
        (["--hint", "--pause", "1"], "--pause does nothing without --computer"),
        (["--computer", "both", "--hint"], "--hint does nothing without a human player"),
        (["--computer", "both", "--commands"],
         "--commands does nothing without a human player"),
    ],
)
def test_option_that_would_be_ignored_is_refused(arguments, needed):
    with pytest.raises(UsageError) as caught:
        parse_options(arguments)
    assert str(caught.value) == needed


@pytest.mark.parametrize(
    "arguments",
    [
        ["--computer", "o", "--level", "2", "--seed", "7", "--think", "2", "--pause", "0"],
        ["--computer", "x", "--time-limit", "2"],
        ["--hint", "--think", "2", "--time-limit", "3"],
        ["--commands", "--think", "2"],
        ["--computer", "x", "--commands", "--hint"],
    ],
)
def test_option_that_something_uses_is_accepted(arguments):
    parse_options(arguments)


def test_think_keeps_its_default_when_not_given():
    assert parse_options(["--computer", "o"]).think == 1.0
    assert parse_options(["--computer", "o", "--think", "2.5"]).think == 2.5


@pytest.mark.parametrize("text", ["-1", "61", "nan", "inf", "soon"])
def test_pause_outside_0_to_60_seconds_is_refused(text):
    with pytest.raises(UsageError, match="--pause"):
        parse_options(["--computer", "both", "--pause", text])


@pytest.mark.parametrize(
    "arguments, at_terminal, seconds",
    [
        (["--computer", "both"], True, 1.0),
        (["--computer", "both"], False, 0.0),
        (["--computer", "o"], True, 0.0),
        (["--computer", "both", "--pause", "0"], True, 0.0),
        (["--computer", "both", "--pause", "0.25"], False, 0.25),
        (["--computer", "x", "--pause", "2"], True, 2.0),
    ],
)
def test_pause_is_a_second_only_when_someone_watches_the_computer_play_itself(
    arguments, at_terminal, seconds
):
    assert parse_options(arguments).pause_seconds(at_terminal) == seconds


@pytest.mark.parametrize(
    "content",
    [
        b"3,3,4",
        b"3,3,4\n",
        b"334\n",
        b"3\n3\n4\n",
        b"3\r\n3\r\n4\r\n",
        b"\xef\xbb\xbf3\r\n3\r\n\r\n4\r\n",
        b"\xef\xbb\xbf3,3,4\n",
        b"\n3\n\n 3 \n4",
        b"3,3\n4\n",
    ],
)
def test_moves_file_formats_all_give_the_same_moves(tmp_path, content):
    path = tmp_path / "record.txt"
    path.write_bytes(content)
    assert read_moves_file(str(path), Rules()) == [3, 3, 4]
    assert parse_options(["--moves-file", str(path)]).moves == [3, 3, 4]


def test_empty_moves_file_is_the_empty_board(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"\xef\xbb\xbf\n")
    assert parse_options(["--moves-file", str(path)]).moves == []


def test_bad_line_in_moves_file_is_named_by_its_number(tmp_path):
    path = tmp_path / "typo.txt"
    path.write_bytes(b"3\n3\nx\n4\n")
    with pytest.raises(UsageError) as caught:
        read_moves_file(str(path), Rules())
    assert f"--moves-file {str(path)!r}, line 3: 'x' is not a column number" == str(caught.value)


def test_moves_file_that_cannot_be_played_in_turn_is_refused(tmp_path):
    path = tmp_path / "full.txt"
    path.write_text("0\n" * 6)
    with pytest.raises(UsageError, match=r"^--moves-file: .*full"):
        parse_options(["--moves-file", str(path)])


def test_moves_file_in_another_encoding_is_refused(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"3\n\xe9\n")
    with pytest.raises(UsageError, match="cannot read --moves-file"):
        read_moves_file(str(path), Rules())


def test_huge_moves_file_is_refused_without_reading_it_whole(tmp_path):
    path = tmp_path / "huge.txt"
    path.write_bytes(b"\n" * (MAX_MOVES_FILE_BYTES + 1))
    with pytest.raises(UsageError, match="too long"):
        read_moves_file(str(path), Rules())


def test_help_shows_an_example_of_each_new_option():
    text = parse_options(["--help"]).message or ""
    for option in ("--color", "--commands", "--games", "--pause"):
        assert f"  {option}" in text
    for example in ("--computer both --pause 0.5", "--moves-file saved_game.txt",
                    "--color --computer O", "--computer O --commands", "--games 3 --announce"):
        assert f"  python3 connect.py {example}\n" in text + "\n"
