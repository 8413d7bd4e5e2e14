"""connect_four.terminal.match in-process: sides alternate, the score follows the sides, not the markers."""

from __future__ import annotations

import pytest

from connect_four.terminal.errors import UsageError
from connect_four.terminal.match import Match
from connect_four.terminal.options import parse_options

CROSS, NOUGHT = 0, 1  # the markers X and O


def test_two_humans_are_player_1_and_player_2_and_swap_x_each_game():
    match = Match(3, computer=frozenset())
    assert match.introduction(1) == "Game 1 of 3: X is Player 1, O is Player 2."
    assert match.introduction(2) == "Game 2 of 3: X is Player 2, O is Player 1."
    assert match.introduction(3) == "Game 3 of 3: X is Player 1, O is Player 2."
    assert match.computer_markers(2) == frozenset()


@pytest.mark.parametrize(
    "computer, first, second",
    [
        (frozenset({NOUGHT}), "X is you, O is the computer", "X is the computer, O is you"),
        (frozenset({CROSS}), "X is the computer, O is you", "X is you, O is the computer"),
    ],
)
def test_the_human_alternates_between_x_and_o(computer, first, second):
    match = Match(2, computer)
    assert first in match.introduction(1)
    assert second in match.introduction(2)
    assert match.computer_markers(1) == computer
    assert match.computer_markers(2) == frozenset({1 - next(iter(computer))})


def test_computer_against_itself_plays_both_markers_every_game():
    match = Match(2, frozenset({CROSS, NOUGHT}))
    assert match.computer_markers(1) == match.computer_markers(2) == {CROSS, NOUGHT}
    assert match.introduction(2) == "Game 2 of 2: X is computer 2, O is computer 1."


def test_a_win_counts_for_the_side_that_played_the_winning_marker():
    match = Match(3, frozenset())
    match.record(winner_marker=CROSS, number=1)  # Player 1 played X
    match.record(winner_marker=CROSS, number=2)  # Player 2 played X
    match.record(winner_marker=None, number=3)
    assert match.score_line() == "Score after game 3 of 3: Player 1 1, Player 2 1, ties 1."
    assert match.result_line() == "The match is drawn."


def test_the_match_goes_to_the_side_with_more_wins():
    match = Match(3, frozenset({NOUGHT}))
    match.record(winner_marker=NOUGHT, number=2)  # the human played O in game 2
    assert match.score_line() == "Score after game 1 of 3: you 1, the computer 0, ties 0."
    assert match.result_line() == "The match goes to you."


def test_games_default_to_one_and_are_bounded():
    assert parse_options(["--announce"]).games == 1
    assert parse_options(["--games", "5"]).games == 5
    for bad in ("0", "100", "two", "-1"):
        with pytest.raises(UsageError, match="--games"):
            parse_options(["--games", bad])
