"""connect_four.terminal.options in-process: what each command line becomes, and what it refuses."""

from __future__ import annotations

import pytest

from connect_four.engine import Rules
from connect_four.engine.exact import MAX_THREADS
from connect_four.engine.table import TABLE_SIZE, table_size_for_megabytes
from connect_four.terminal.errors import UsageError
from connect_four.terminal.options import (
    MAX_MOVES_FILE_BYTES,
    MAX_TABLE_MEGABYTES,
    parse_options,
    read_moves_file,
)
from connect_four.terminal.settings import Settings
from connect_support import run_piped


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
        (
            ["--computer", "x", "--seed", "2"],
            "--seed does nothing without --level below 5 (level 5, the default, makes no "
            "random move)",
        ),
        (
            ["--computer", "o", "--level", "5", "--seed", "2"],
            "--seed does nothing without --level below 5 (level 5, the default, makes no "
            "random move)",
        ),
        (["--think", "2"], "--think does nothing without --computer or --hint"),
        (["--time-limit", "2"], "--time-limit does nothing without --computer or --hint"),
        (["--pause", "1"], "--pause does nothing without --computer"),
        (["--hint", "--pause", "1"], "--pause does nothing without --computer"),
        (["--computer", "both", "--hint"], "--hint does nothing without a human player"),
        (["--computer", "both", "--commands"], "--commands does nothing without a human player"),
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
    for example in (
        "--computer both --pause 0.5",
        "--moves-file saved_game.txt",
        "--color --computer O",
        "--computer O --commands",
        "--games 3 --announce",
    ):
        assert f"  python3 connect.py {example}\n" in text + "\n"


# --- Network game (--server, --join) --------------------------------------------


@pytest.mark.parametrize(
    "arguments, complaint",
    [
        (
            ["--server", "http://h", "--join", "http://h/drop_token/g/bob"],
            "--server and --join cannot be used together",
        ),
        (["--name", "ann"], "--name does nothing without --server"),
        (["--friend", "bob"], "--friend does nothing without --server"),
        (
            ["--join", "http://h/drop_token/g/bob", "--name", "ann"],
            "--name does nothing without --server",
        ),
        (["--token", "t"], "--token does nothing without --join"),
        (["--lobby"], "--lobby does nothing without --server"),
        (["--server", "http://h", "--show-key"], "--show-key does nothing without --lobby"),
        (["--server", "http://h", "--casual"], "--casual does nothing without --lobby"),
        (
            ["--server", "http://h", "--seek-colour", "O"],
            "--seek-colour does nothing without --lobby",
        ),
        (
            ["--server", "http://h", "--lobby", "--friend", "bob"],
            "--friend cannot be used with --lobby",
        ),
        (["--server", "http://h", "--lobby", "--computer", "o"], "--computer cannot be used"),
        (["--server", "http://h", "--token", "t"], "--token does nothing without --join"),
        (
            ["--server", "http://h", "--computer", "o"],
            "--computer cannot be used in a network game",
        ),
        (["--server", "http://h", "--hint"], "--hint cannot be used in a network game"),
        (
            ["--watch", "http://h/drop_token/g", "--commands"],
            "--commands cannot be used in a network game",
        ),
        (["--server", "http://h", "--games", "3"], "--games cannot be used in a network game"),
        (["--server", "http://h", "--moves", "3"], "--moves cannot be used in a network game"),
        (
            ["--server", "http://h", "--moves-file", "f"],
            "--moves-file cannot be used in a network game",
        ),
        (["--server", "h:8080"], "--server: 'h:8080' is not an http:// or https:// URL"),
        (["--join", "http://h/g/bob"], "--join: 'http://h/g/bob' is not a game's URL"),
        (["--server", "http://h", "--name", "a/b"], "--name: a name is 1 to 100"),
        (["--server", "http://h", "--friend", "x" * 101], "--friend: a name is 1 to 100"),
        (
            ["--server", "http://h", "--name", "ann", "--friend", "ann"],
            "--name and --friend must differ",
        ),
    ],
)
def test_a_network_command_line_that_cannot_be_served_is_refused(arguments, complaint):
    with pytest.raises(UsageError) as caught:
        parse_options(arguments)
    assert str(caught.value).startswith(complaint)


def test_server_creates_a_game_for_two_named_players():
    settings = parse_options(
        [
            "--server",
            "http://127.0.0.1:8080/",
            "--name",
            "ann",
            "--friend",
            "bob",
            "--rows",
            "6",
            "--columns",
            "7",
            "--color",
        ]
    )
    assert settings.network == "http://127.0.0.1:8080"
    assert settings.players == ("ann", "bob")
    assert settings.joining is None
    assert (settings.rules.rows, settings.rules.columns) == (6, 7)


def test_server_players_have_names_by_default():
    assert parse_options(["--server", "http://h"]).players == ("player1", "player2")


def test_join_takes_the_token_from_the_option_or_else_the_environment(monkeypatch):
    url = "http://h:1/drop_token/abc/bob"
    monkeypatch.setenv("CONNECT_FOUR_TOKEN", "from-env")
    settings = parse_options(["--join", url])
    assert settings.network == "http://h:1"
    assert settings.joining == ("abc", "bob")
    assert settings.token == "from-env"
    assert parse_options(["--join", url, "--token", "typed"]).token == "typed"
    monkeypatch.delenv("CONNECT_FOUR_TOKEN")
    assert parse_options(["--join", url]).token is None


# --- The exact search: --threads and --table-mb --------------------------------------------


@pytest.mark.parametrize("option, value", [("--threads", "2"), ("--table-mb", "128")])
@pytest.mark.parametrize(
    "arguments",
    [
        [],
        ["--computer", "o", "--level", "4"],
        ["--computer", "both", "--level", "1"],
        ["--moves", "3,3"],
    ],
)
def test_exact_search_options_are_refused_where_no_exact_search_runs(arguments, option, value):
    with pytest.raises(UsageError) as caught:
        parse_options([*arguments, option, value])
    assert str(caught.value) == (
        f"{option} does nothing without --computer at level 5, --hint, --commands or --review"
    )


@pytest.mark.parametrize(
    "arguments",
    [
        ["--computer", "o"],
        ["--computer", "both", "--level", "5"],
        ["--hint"],
        ["--commands"],
        ["--computer", "x", "--level", "2", "--hint"],
        ["--moves", "3,3", "--review"],
    ],
)
def test_exact_search_options_are_taken_where_an_exact_search_runs(arguments):
    settings = parse_options([*arguments, "--threads", "3", "--table-mb", "1"])
    assert settings.threads == 3
    assert settings.table_size == table_size_for_megabytes(1)


def test_exact_search_options_keep_the_engines_defaults_when_not_given():
    settings = parse_options(["--computer", "o"])
    assert (settings.threads, settings.table_size) == (1, None)
    assert (Settings().threads, Settings().table_size) == (1, None)


@pytest.mark.parametrize(
    "rules, key_bits",
    [(["--rows", "6", "--columns", "7"], 64), (["--rows", "8", "--columns", "8"], 128)],
)
def test_table_megabytes_become_the_compiled_tables_slots_for_the_board(rules, key_bits):
    settings = parse_options([*rules, "--hint", "--table-mb", "64"])
    assert settings.table_size == table_size_for_megabytes(64, key_bits=key_bits)
    if key_bits == 64:
        assert settings.table_size == TABLE_SIZE  # 64 MiB is the default table


@pytest.mark.parametrize(
    "option, text, message",
    [
        ("--threads", "0", f"argument --threads: 0 is not between 1 and {MAX_THREADS}"),
        (
            "--threads",
            str(MAX_THREADS + 1),
            f"argument --threads: {MAX_THREADS + 1} is not between 1 and {MAX_THREADS}",
        ),
        ("--threads", "two", "argument --threads: 'two' is not a whole number"),
        ("--threads", "-1", "argument --threads: '-1' is not a whole number"),
        ("--table-mb", "0", f"argument --table-mb: 0 is not between 1 and {MAX_TABLE_MEGABYTES}"),
        (
            "--table-mb",
            str(MAX_TABLE_MEGABYTES + 1),
            f"argument --table-mb: {MAX_TABLE_MEGABYTES + 1} is not between 1 and "
            f"{MAX_TABLE_MEGABYTES}",
        ),
        ("--table-mb", "1.5", "argument --table-mb: '1.5' is not a whole number"),
    ],
)
def test_exact_search_options_out_of_range_are_refused_with_the_range(option, text, message):
    with pytest.raises(UsageError) as caught:
        parse_options(["--computer", "o", option, text])
    assert str(caught.value) == message


def test_the_largest_table_fits_every_board():
    for key_bits in (64, 128):
        assert table_size_for_megabytes(MAX_TABLE_MEGABYTES, key_bits=key_bits) > TABLE_SIZE


def test_help_gives_the_exact_search_options_ranges_and_defaults():
    text = " ".join((parse_options(["--help"]).message or "").split())
    assert f"--threads N search with N threads on one table, 1-{MAX_THREADS} (default 1)" in text
    assert f"--table-mb M the table of positions searched, in MiB, 1-{MAX_TABLE_MEGABYTES}" in text
    assert "default 64 MiB" in text


def test_the_computer_plays_a_game_with_two_threads_through_connect_py():
    moves = "".join(f"{column}\n" for column in [3, 3, 3, 2, 4, 5, 1, 0, 6, 7] * 3).encode()
    result = run_piped(moves, "--computer", "O", "--threads", "2", "--table-mb", "16")
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    output = result.stdout.decode()
    assert output.count("Computer plays ") >= 3
    assert output.rstrip().endswith("Game finished.")


def test_lobby_asks_for_the_lobby_with_the_name_to_register() -> None:
    settings = parse_options(["--server", "http://h:8080/", "--lobby", "--name", "ann"])
    assert (settings.network, settings.lobby, settings.show_key) == ("http://h:8080", True, False)
    assert settings.name_given and settings.players[0] == "ann"
    assert not parse_options(["--server", "http://h"]).lobby
