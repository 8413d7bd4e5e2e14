"""Tests of connect_four.engine.game: playing, undoing, outcomes, errors and k-player games.

Positions are written as move records (columns from 0, comma separated), the
format ``Game.from_moves`` reads; cells are ``(row, column)``, row 0 at the
bottom.
"""

from __future__ import annotations

import copy
import pickle
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from connect_four.engine import (
    ColumnFullError,
    ColumnOutOfRangeError,
    EngineError,
    Game,
    GameOverError,
    Move,
    MoveSyntaxError,
    NotYourTurnError,
    Outcome,
    PlayerNotActiveError,
    Rules,
    RulesError,
    Status,
)

# The assignment's example game: X wins in column 0.
EXAMPLE = "0,7,0,6,0,5,0"
# A full 5 x 8 board with no four in a row anywhere (rows XXOOXXOO / OOXXOOXX).
DRAW_5X8 = "0,0,0,0,0,2,1,1,1,1,1,3,2,2,2,2,3,3,3,3,4,4,4,4,4,6,5,5,5,5,5,7,6,6,6,6,7,7,7,7"


def snapshot(game: Game) -> dict[str, Any]:
    """Everything a caller can read about a game, to compare before and after."""
    return {
        "rules": game.rules,
        "players": game.players,
        "to_move": game.to_move,
        "status": game.status,
        "outcome": game.outcome(),
        "is_over": game.is_over(),
        "is_full": game.is_full(),
        "legal_moves": game.legal_moves(),
        "heights": [game.height(column) for column in range(game.rules.columns)],
        "grid": game.grid(),
        "moves": game.moves,
        "moves_string": game.moves_string(),
        "history": game.history,
        "length": len(game),
        "active_players": game.active_players,
        "can_play": [game.can_play(column) for column in range(game.rules.columns)],
    }


# --- A new game ---------------------------------------------------------------


def test_new_game_uses_the_default_rules() -> None:
    assert Game().rules == Rules(rows=5, columns=8, connect=4)


def test_new_game_has_two_players_and_player_0_to_move() -> None:
    game = Game()
    assert (game.players, game.to_move, game.active_players) == (2, 0, (0, 1))


def test_new_game_is_in_progress_with_no_outcome() -> None:
    game = Game()
    assert game.status is Status.IN_PROGRESS
    assert game.outcome() is None
    assert not game.is_over()
    assert not game.is_full()


def test_new_game_has_empty_history() -> None:
    game = Game()
    assert (game.moves, game.history, len(game), game.moves_string()) == ([], (), 0, "")


def test_new_game_can_play_every_column() -> None:
    assert Game().legal_moves() == list(range(8))
    assert Game(Rules(rows=2, columns=3, connect=2)).legal_moves() == [0, 1, 2]


def test_new_game_grid_is_rows_of_none_top_to_bottom() -> None:
    assert Game(Rules(rows=2, columns=3, connect=2)).grid() == [[None] * 3, [None] * 3]


@pytest.mark.parametrize("players", [1, 0, -2, True, 2.0, "3", None])
def test_fewer_than_two_players_or_a_non_int_count_is_a_rules_error(players: Any) -> None:
    with pytest.raises(RulesError, match=re.escape(repr(players))):
        Game(players=players)


# --- Playing --------------------------------------------------------------------


def test_play_returns_the_move_it_recorded() -> None:
    game = Game()
    assert game.play(3) == Move(player=0, column=3)
    assert game.play(3) == Move(player=1, column=3)


def test_first_marker_lands_on_the_bottom_row() -> None:
    game = Game()
    game.play(5)
    assert game.cell(0, 5) == 0
    assert game.cell(1, 5) is None


def test_markers_stack_up_a_column() -> None:
    game = Game.from_moves("2,2,2")
    assert [game.cell(row, 2) for row in range(5)] == [0, 1, 0, None, None]


def test_players_alternate_in_a_two_player_game() -> None:
    game = Game()
    seen = []
    for column in [0, 1, 2, 3, 4]:
        seen.append(game.to_move)
        game.play(column)
    assert seen == [0, 1, 0, 1, 0]
    assert game.to_move == 1


def test_height_counts_the_markers_in_a_column() -> None:
    game = Game.from_moves("3,3,4,3")
    assert [game.height(column) for column in range(8)] == [0, 0, 0, 3, 1, 0, 0, 0]


def test_moves_lists_the_columns_in_order() -> None:
    game = Game.from_moves("3,3,4")
    assert game.moves == [3, 3, 4]
    assert game.history == (Move(0, 3), Move(1, 3), Move(0, 4))
    assert len(game) == 3


def test_moves_is_a_copy_that_does_not_change_the_game() -> None:
    game = Game.from_moves("3,3,4")
    game.moves.append(7)
    assert game.moves == [3, 3, 4]


def test_moves_string_is_the_comma_separated_record() -> None:
    assert Game.from_moves([3, 3, 4]).moves_string() == "3,3,4"


def test_fifth_marker_in_a_column_of_five_rows_fills_it() -> None:
    game = Game.from_moves("0,0,0,0")
    assert game.can_play(0)
    game.play(0)
    assert game.height(0) == 5
    assert not game.can_play(0)
    assert game.legal_moves() == [1, 2, 3, 4, 5, 6, 7]


def test_legal_moves_leaves_out_every_full_column_left_to_right() -> None:
    game = Game.from_moves("0,0,0,0,0,7,7,7,7,7,3,3,3,3,3")
    assert game.legal_moves() == [1, 2, 4, 5, 6]


@pytest.mark.parametrize("column", [-1, 8, 100, "3", 3.0, None])
def test_can_play_is_false_for_anything_but_a_column_of_the_board(column: Any) -> None:
    assert Game().can_play(column) is False


@pytest.mark.parametrize("column", [True, False])
def test_can_play_is_false_for_a_bool_as_play_rejects_it(column: bool) -> None:
    # play(True) raises ColumnOutOfRangeError, so can_play(True) must say no.
    assert Game().can_play(column) is False


def test_can_play_agrees_with_play_for_every_value_tried() -> None:
    game = Game.from_moves("0,0,0,0,0")
    for column in [-1, 0, 1, 7, 8, True, False, "3", 3.0, None]:
        try:
            game.copy().play(column)
        except (ColumnOutOfRangeError, ColumnFullError):
            playable = False
        else:
            playable = True
        assert game.can_play(column) is playable, column


def test_can_play_is_false_once_the_game_is_won() -> None:
    game = Game.from_moves(EXAMPLE)
    assert [game.can_play(column) for column in range(8)] == [False] * 8


def test_grid_after_two_moves_shows_them_on_the_bottom_row() -> None:
    grid = Game.from_moves("0,7").grid()
    assert len(grid) == 5
    assert grid[-1] == [0, None, None, None, None, None, None, 1]
    assert grid[:-1] == [[None] * 8] * 4


def test_grid_lists_rows_from_top_to_bottom() -> None:
    grid = Game.from_moves("1,1,1", Rules(rows=3, columns=2, connect=2)).grid()
    assert grid == [[None, 0], [None, 1], [None, 0]]


def test_grid_is_a_fresh_copy_each_time() -> None:
    game = Game.from_moves("0")
    game.grid()[-1][0] = 1
    assert game.grid()[-1][0] == 0
    assert game.cell(0, 0) == 0


def test_cell_reads_the_owner_or_none() -> None:
    game = Game.from_moves("4,4")
    assert (game.cell(0, 4), game.cell(1, 4), game.cell(2, 4), game.cell(0, 3)) == (
        0,
        1,
        None,
        None,
    )


@pytest.mark.parametrize(("row", "column"), [(5, 0), (-1, 0), (0, 8), (0, -1)])
def test_cell_off_the_board_is_an_out_of_range_error_naming_it(row: int, column: int) -> None:
    bad = row if not 0 <= row < 5 else column
    with pytest.raises(ColumnOutOfRangeError, match=re.escape(repr(bad))):
        Game().cell(row, column)


@pytest.mark.parametrize("row", [True, False])
def test_cell_rejects_a_bool_row_as_play_rejects_a_bool_column(row: bool) -> None:
    # True is not row 1, just as play(True) is not column 1.
    with pytest.raises(EngineError):
        Game.from_moves("0,0").cell(row, 0)


@pytest.mark.parametrize("column", [-1, 8, True, "3"])
def test_height_of_a_non_column_is_an_out_of_range_error(column: Any) -> None:
    with pytest.raises(ColumnOutOfRangeError, match=re.escape(repr(column))):
        Game().height(column)


# --- Outcomes -----------------------------------------------------------------

WINS = [
    # (description, moves, winner, winning cells)
    ("vertical", EXAMPLE, 0, {(0, 0), (1, 0), (2, 0), (3, 0)}),
    ("horizontal", "0,0,1,1,2,2,3", 0, {(0, 0), (0, 1), (0, 2), (0, 3)}),
    ("horizontal by O", "7,0,7,1,6,2,6,3", 1, {(0, 0), (0, 1), (0, 2), (0, 3)}),
    ("diagonal up-right", "0,1,1,2,2,3,2,3,3,5,3", 0, {(0, 0), (1, 1), (2, 2), (3, 3)}),
    ("diagonal down-right", "7,6,6,5,5,4,5,4,4,2,4", 0, {(0, 7), (1, 6), (2, 5), (3, 4)}),
    (
        "diagonal down-right completed in its middle",
        "3,0,0,0,0,2,1,1,1,7,2",
        0,
        {(3, 0), (2, 1), (1, 2), (0, 3)},
    ),
    ("vertical at the top of a column", "4,5,5,4,5,4,5,6,5", 0, {(1, 5), (2, 5), (3, 5), (4, 5)}),
    ("horizontal filled in the middle", "0,0,1,1,3,3,2", 0, {(0, 0), (0, 1), (0, 2), (0, 3)}),
    ("five in a row", "0,0,1,1,3,3,4,4,2", 0, {(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)}),
    (
        "two lines at once: horizontal and diagonal",
        "1,7,1,7,2,2,2,7,3,3,6,3,3,6,0",
        0,
        {(0, 0), (0, 1), (0, 2), (0, 3), (1, 1), (2, 2), (3, 3)},
    ),
]


@pytest.mark.parametrize(
    ("moves", "winner", "cells"), [case[1:] for case in WINS], ids=[case[0] for case in WINS]
)
def test_a_line_of_four_wins_and_its_cells_are_every_cell_of_every_line(
    moves: str, winner: int, cells: set[tuple[int, int]]
) -> None:
    game = Game.from_moves(moves)
    assert game.outcome() == Outcome(Status.WON, winner, frozenset(cells))
    assert game.status is Status.WON


@pytest.mark.parametrize("moves", [case[1] for case in WINS], ids=[case[0] for case in WINS])
def test_the_move_before_a_win_leaves_the_game_in_progress(moves: str) -> None:
    game = Game.from_moves(moves)
    game.pop()
    assert game.outcome() is None
    assert game.status is Status.IN_PROGRESS


@pytest.mark.parametrize("status", [Status.IN_PROGRESS, Status.WON, Status.DRAWN], ids=repr)
def test_status_constants_cannot_be_changed(status: Status) -> None:
    # Like an enum's members: a front end must not be able to rename WON.
    changed = []
    for attribute in ("name", "value"):
        original = getattr(status, attribute)
        try:
            setattr(status, attribute, "changed")
        except AttributeError:
            pass
        if getattr(status, attribute) != original:
            changed.append(attribute)
            object.__setattr__(status, attribute, original)  # keep the other tests sane
    assert changed == []


@pytest.mark.parametrize("status", [Status.IN_PROGRESS, Status.WON, Status.DRAWN], ids=repr)
def test_status_constants_cannot_lose_their_name_or_value(status: Status) -> None:
    deleted = []
    for attribute in ("name", "value"):
        original = getattr(status, attribute)
        try:
            delattr(status, attribute)
        except AttributeError:
            pass
        if not hasattr(status, attribute):
            deleted.append(attribute)
            object.__setattr__(status, attribute, original)  # keep the other tests sane
    assert deleted == []


@pytest.mark.parametrize("status", [Status.IN_PROGRESS, Status.WON, Status.DRAWN], ids=repr)
def test_status_constants_survive_copy_and_pickle_as_themselves(status: Status) -> None:
    assert copy.copy(status) is status
    assert copy.deepcopy(status) is status
    assert pickle.loads(pickle.dumps(status)) is status


def test_statuses_are_three_distinct_constants() -> None:
    assert len({Status.IN_PROGRESS, Status.WON, Status.DRAWN}) == 3
    assert [status.value for status in (Status.IN_PROGRESS, Status.WON, Status.DRAWN)] == [
        "in progress",
        "won",
        "drawn",
    ]


def test_outcome_and_move_are_immutable_values() -> None:
    outcome = Game.from_moves("0,7,0,6,0,5,0").outcome()
    move = Move(0, 3)
    with pytest.raises(AttributeError):
        outcome.winner = 1  # type: ignore[misc, union-attr]
    with pytest.raises(AttributeError):
        move.column = 4  # type: ignore[misc]
    assert hash(Move(0, 3)) == hash(move)
    assert pickle.loads(pickle.dumps(outcome)) == outcome


def test_winning_cells_are_a_frozenset_of_row_column_pairs() -> None:
    cells = Game.from_moves(EXAMPLE).outcome().cells  # type: ignore[union-attr]
    assert isinstance(cells, frozenset)
    assert all(isinstance(cell, tuple) and len(cell) == 2 for cell in cells)


def test_a_won_game_has_nobody_to_move_and_no_legal_moves() -> None:
    game = Game.from_moves(EXAMPLE)
    assert game.to_move is None
    assert game.legal_moves() == []
    assert game.is_over()


def test_a_won_game_is_not_full() -> None:
    assert not Game.from_moves(EXAMPLE).is_full()


def test_three_in_a_row_does_not_win() -> None:
    assert Game.from_moves("0,7,0,6,0").outcome() is None


def test_a_line_broken_by_the_other_player_does_not_win() -> None:
    assert Game.from_moves("0,7,1,2,3,7,4").outcome() is None


def test_full_board_without_a_line_is_drawn() -> None:
    game = Game.from_moves(DRAW_5X8)
    assert game.outcome() == Outcome(Status.DRAWN)
    assert game.outcome().winner is None  # type: ignore[union-attr]
    assert game.outcome().cells == frozenset()  # type: ignore[union-attr]
    assert game.status is Status.DRAWN
    assert game.is_full()
    assert game.is_over()
    assert game.to_move is None
    assert game.legal_moves() == []


def test_the_move_before_a_draw_leaves_one_legal_move() -> None:
    game = Game.from_moves(DRAW_5X8)
    game.pop()
    assert game.legal_moves() == [7]
    assert not game.is_full()
    assert game.outcome() is None


@pytest.mark.parametrize(
    ("moves", "rules"),
    [
        ("0,1", Rules(rows=1, columns=2, connect=2)),
        ("0,1,2,0,1,2", Rules(rows=2, columns=3, connect=3)),
        ("0,0", Rules(rows=2, columns=1, connect=2)),
    ],
)
def test_small_full_boards_without_a_line_are_drawn(moves: str, rules: Rules) -> None:
    game = Game.from_moves(moves, rules)
    assert game.outcome() == Outcome(Status.DRAWN)
    assert game.is_full()


def test_win_on_the_last_free_cell_is_a_win_not_a_draw() -> None:
    game = Game.from_moves("0,2,1", Rules(rows=1, columns=3, connect=2))
    assert game.is_full()
    assert game.outcome() == Outcome(Status.WON, 0, frozenset({(0, 0), (0, 1)}))


def test_win_by_the_second_player_on_the_last_free_cell_is_a_win() -> None:
    # X O O X: O's second marker fills the board and joins O's first.
    game = Game.from_moves("0,1,3,2", Rules(rows=1, columns=4, connect=2))
    assert game.is_full()
    assert game.outcome() == Outcome(Status.WON, 1, frozenset({(0, 1), (0, 2)}))


def test_connect_one_wins_on_the_first_marker() -> None:
    game = Game.from_moves("0", Rules(rows=1, columns=1, connect=1))
    assert game.outcome() == Outcome(Status.WON, 0, frozenset({(0, 0)}))


def test_connect_one_on_a_wide_board_wins_with_just_the_dropped_cell() -> None:
    game = Game.from_moves("3", Rules(rows=3, columns=5, connect=1))
    assert game.outcome() == Outcome(Status.WON, 0, frozenset({(0, 3)}))


# --- Undo -----------------------------------------------------------------------

UNDO_CASES = [
    ("0", None),
    ("3,3,4", None),
    ("0,0,0,0,0", None),  # fills a column
    (EXAMPLE, None),  # wins
    ("1,7,1,7,2,2,2,7,3,3,6,3,3,6,0", None),  # two lines at once
    (DRAW_5X8, None),  # draws
    ("0,2,1", Rules(rows=1, columns=3, connect=2)),  # wins on the last free cell
]


@pytest.mark.parametrize(("moves", "rules"), UNDO_CASES)
def test_pop_restores_everything_the_last_move_changed(moves: str, rules: Rules | None) -> None:
    game = Game.from_moves(moves, rules)
    last = game.moves[-1]
    game.pop()
    before = snapshot(game)
    game.play(last)
    game.pop()
    assert snapshot(game) == before


@pytest.mark.parametrize(("moves", "rules"), UNDO_CASES)
def test_popping_every_move_gives_back_a_new_game(moves: str, rules: Rules | None) -> None:
    game = Game.from_moves(moves, rules)
    while len(game):
        game.pop()
    assert snapshot(game) == snapshot(Game(rules))


@pytest.mark.parametrize(("moves", "rules"), UNDO_CASES)
def test_each_pop_matches_the_game_replayed_to_that_point(moves: str, rules: Rules | None) -> None:
    game = Game.from_moves(moves, rules)
    columns = game.moves
    for count in reversed(range(len(columns))):
        game.pop()
        assert snapshot(game) == snapshot(Game.from_moves(columns[:count], rules))


def test_pop_returns_the_move_it_undid() -> None:
    game = Game.from_moves("3,5")
    assert game.pop() == Move(1, 5)
    assert game.pop() == Move(0, 3)


def test_pop_after_a_win_lets_play_go_on() -> None:
    game = Game.from_moves(EXAMPLE)
    game.pop()
    game.play(1)
    assert game.outcome() is None
    assert game.to_move == 1


def test_peek_returns_the_last_move_without_undoing_it() -> None:
    game = Game.from_moves("3,5")
    assert game.peek() == Move(1, 5)
    assert game.moves == [3, 5]
    assert game.to_move == 0


@pytest.mark.parametrize("method", ["pop", "peek"])
def test_pop_and_peek_on_an_empty_game_raise_index_error(method: str) -> None:
    with pytest.raises(IndexError):
        getattr(Game(), method)()


@st.composite
def random_histories(draw: st.DrawFn) -> tuple[Rules, int, list[tuple[bool, int]]]:
    """Rules, a player count and a list of (quit?, pick) actions to replay."""
    rows = draw(st.integers(min_value=1, max_value=6))
    columns = draw(st.integers(min_value=1, max_value=7))
    connect = draw(st.integers(min_value=1, max_value=max(rows, columns)))
    players = draw(st.integers(min_value=2, max_value=4))
    actions = draw(
        st.lists(
            # One action in four is a quit, so games also get to end on the board.
            st.tuples(st.sampled_from([False, False, False, True]), st.integers(0, 6)),
            max_size=rows * columns + players,
        )
    )
    return Rules(rows=rows, columns=columns, connect=connect), players, actions


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(random_histories())
def test_popping_a_random_history_retraces_every_state_it_passed(
    case: tuple[Rules, int, list[tuple[bool, int]]],
) -> None:
    rules, players, actions = case
    game = Game(rules, players=players)
    states = []
    for is_quit, pick in actions:
        if game.is_over():
            break
        states.append(snapshot(game))
        if is_quit:
            active = game.active_players
            game.quit(active[pick % len(active)])
        else:
            legal = game.legal_moves()
            game.play(legal[pick % len(legal)])
    assert snapshot(game.copy()) == snapshot(game)
    for state in reversed(states):
        game.pop()
        assert snapshot(game) == state
    assert len(game) == 0


# --- Errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "shown"),
    [(-1, "-1"), (8, "8"), (True, "True"), ("3", "'3'"), (3.0, "3.0"), (None, "None")],
)
def test_playing_a_non_column_is_an_out_of_range_error_naming_it(column: Any, shown: str) -> None:
    with pytest.raises(
        ColumnOutOfRangeError, match=f"^column {re.escape(shown)} is not on the board \\(0-7\\)$"
    ):
        Game().play(column)


def test_out_of_range_error_gives_the_range_of_the_board_played_on() -> None:
    with pytest.raises(ColumnOutOfRangeError, match=re.escape("(0-11)")):
        Game(Rules(rows=3, columns=12)).play(12)


def test_a_rejected_move_changes_nothing() -> None:
    game = Game.from_moves("0,0,0,0,0,1")
    before = snapshot(game)
    for column in [-1, 8, True, "3", 0]:
        with pytest.raises((ColumnOutOfRangeError, ColumnFullError)):
            game.play(column)
    assert snapshot(game) == before


def test_playing_a_full_column_is_a_column_full_error_naming_column_and_moves() -> None:
    with pytest.raises(ColumnFullError, match=re.escape("column 0 is full after '0,0,0,0,0'")):
        Game.from_moves("0,0,0,0,0").play(0)


def test_playing_after_a_win_is_a_game_over_error_naming_the_moves() -> None:
    with pytest.raises(GameOverError, match=re.escape(repr(EXAMPLE))):
        Game.from_moves(EXAMPLE).play(1)


def test_playing_after_a_draw_is_a_game_over_error() -> None:
    with pytest.raises(GameOverError):
        Game.from_moves(DRAW_5X8).play(0)


def test_game_over_is_reported_before_the_column_is_checked() -> None:
    # After the game ends, every column -- even a bad one -- is a game-over error.
    with pytest.raises(GameOverError):
        Game.from_moves(EXAMPLE).play(99)


# --- from_moves, repr and copy -----------------------------------------------------


@pytest.mark.parametrize(
    "moves", ["3,3,4", "334", " 3 , 3,4 ", [3, 3, 4], (3, 3, 4), iter([3, 3, 4])]
)
def test_from_moves_reads_strings_and_iterables_of_columns(moves: Any) -> None:
    assert Game.from_moves(moves).moves == [3, 3, 4]


def test_from_moves_uses_the_rules_given() -> None:
    rules = Rules(rows=3, columns=12, connect=3)
    game = Game.from_moves("11,10,11", rules)
    assert game.rules == rules
    assert game.moves == [11, 10, 11]


def test_from_moves_of_an_empty_record_is_a_new_game() -> None:
    assert snapshot(Game.from_moves("")) == snapshot(Game())
    assert snapshot(Game.from_moves([])) == snapshot(Game())


@pytest.mark.parametrize(
    ("moves", "error"),
    [
        ("3,x", MoveSyntaxError),
        ("3,,4", MoveSyntaxError),
        ("3,8", ColumnOutOfRangeError),
        ([3, -1], ColumnOutOfRangeError),
        ("0,0,0,0,0,0", ColumnFullError),
        (EXAMPLE + ",1", GameOverError),
    ],
)
def test_from_moves_raises_the_error_of_the_first_bad_move(
    moves: Any, error: type[Exception]
) -> None:
    with pytest.raises(error):
        Game.from_moves(moves)


def test_repr_is_a_from_moves_call_with_the_rules() -> None:
    assert (
        repr(Game.from_moves("3,3,4"))
        == "Game.from_moves('3,3,4', Rules(rows=5, columns=8, connect=4))"
    )


@pytest.mark.parametrize(
    ("moves", "rules"),
    [
        ("", None),
        ("3,3,4", None),
        (EXAMPLE, None),
        (DRAW_5X8, None),
        ("11,10,11,0", Rules(rows=3, columns=12, connect=3)),
        ("0,2,1", Rules(rows=1, columns=3, connect=2)),
    ],
)
def test_eval_of_repr_replays_the_same_game(moves: str, rules: Rules | None) -> None:
    game = Game.from_moves(moves, rules)
    again = eval(repr(game), {"Game": Game, "Rules": Rules})
    assert snapshot(again) == snapshot(game)


def test_copy_has_the_same_state() -> None:
    game = Game.from_moves("3,3,4")
    assert snapshot(game.copy()) == snapshot(game)


def test_playing_on_a_copy_leaves_the_original_alone() -> None:
    game = Game.from_moves("3,3,4")
    before = snapshot(game)
    other = game.copy()
    other.play(4)
    other.pop()
    other.pop()
    assert snapshot(game) == before


def test_playing_on_the_original_leaves_a_copy_alone() -> None:
    game = Game.from_moves("3,3,4")
    other = game.copy()
    before = snapshot(other)
    game.play(0)
    assert snapshot(other) == before


def test_copy_of_a_won_game_is_won_and_can_be_undone_on_its_own() -> None:
    game = Game.from_moves(EXAMPLE)
    other = game.copy()
    assert other.outcome() == game.outcome()
    other.pop()
    assert game.status is Status.WON
    assert other.status is Status.IN_PROGRESS


def test_copy_module_copy_gives_an_independent_game_like_copy() -> None:
    # copy.copy must not share the move list and columns with the original.
    game = Game.from_moves("3,3")
    before = snapshot(game)
    other = copy.copy(game)
    other.play(0)
    assert snapshot(game) == before
    assert other.moves == [3, 3, 0]


def test_deepcopy_gives_an_independent_game() -> None:
    game = Game.from_moves("3,3")
    before = snapshot(game)
    other = copy.deepcopy(game)
    other.play(0)
    assert snapshot(game) == before
    assert snapshot(other) == snapshot(Game.from_moves("3,3,0"))


def test_pickled_game_comes_back_with_the_same_state() -> None:
    game = Game.from_moves("0,7,0,6,0,5,0")
    assert snapshot(pickle.loads(pickle.dumps(game))) == snapshot(game)


def test_copy_keeps_the_player_count_and_quits() -> None:
    game = Game(players=3)
    game.play(0)
    game.quit(2)
    other = game.copy()
    assert snapshot(other) == snapshot(game)
    other.pop()
    assert game.active_players == (0, 1)


# --- Players: turns, quitting, k-player games -----------------------------------


def test_play_with_the_player_to_move_is_accepted() -> None:
    game = Game()
    assert game.play(3, player=0) == Move(0, 3)
    assert game.play(3, player=1) == Move(1, 3)


def test_play_by_the_wrong_player_is_not_your_turn_naming_both() -> None:
    game = Game()
    with pytest.raises(NotYourTurnError, match=r"^it is player 0's turn, not player 1's$"):
        game.play(3, player=1)
    assert game.moves == []


@pytest.mark.parametrize("player", [2, -1, True, "0"])
def test_play_by_an_unknown_player_is_player_not_active_naming_them(player: Any) -> None:
    with pytest.raises(PlayerNotActiveError, match=re.escape(repr(player))):
        Game().play(3, player=player)


def test_three_player_game_rotates_0_1_2() -> None:
    game = Game(players=3)
    seen = []
    for column in [0, 1, 2, 3, 4, 5, 6]:
        seen.append(game.to_move)
        game.play(column)
    assert seen == [0, 1, 2, 0, 1, 2, 0]
    assert [move.player for move in game.history] == seen


def test_four_player_game_rotates_through_everyone() -> None:
    game = Game(players=4)
    assert [game.play(column).player for column in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_quit_returns_and_records_a_quit_entry() -> None:
    game = Game(players=3)
    move = game.quit(1)
    assert move == Move(1, None)
    assert move.is_quit
    assert game.history == (Move(1, None),)
    assert game.moves == []
    assert len(game) == 1


def test_quit_in_turn_passes_the_turn_to_the_next_player() -> None:
    game = Game(players=3)
    game.quit(0)
    assert game.to_move == 1
    assert game.active_players == (1, 2)


def test_quit_out_of_turn_leaves_the_turn_where_it_was() -> None:
    game = Game(players=3)
    game.quit(2)
    assert game.to_move == 0
    assert game.active_players == (0, 1)


def test_turns_skip_a_player_who_quit() -> None:
    game = Game(players=3)
    game.quit(1)
    assert [game.play(column).player for column in range(5)] == [0, 2, 0, 2, 0]


def test_quit_in_turn_of_the_last_player_wraps_round_to_the_first() -> None:
    game = Game(players=3)
    game.play(0)
    game.play(1)
    game.quit(2)
    assert game.to_move == 0


def test_quit_of_the_next_player_makes_the_turn_skip_them() -> None:
    game = Game(players=4)
    game.play(0)  # player 0; player 1 to move
    game.quit(2)
    game.play(1)  # player 1
    assert game.to_move == 3


def test_markers_of_a_player_who_quit_stay_on_the_board() -> None:
    game = Game(players=3)
    game.play(4)
    game.quit(0)
    assert game.cell(0, 4) == 0


def test_last_active_player_wins_with_no_cells() -> None:
    game = Game(players=3)
    game.quit(0)
    game.quit(2)
    assert game.outcome() == Outcome(Status.WON, 1, frozenset())
    assert game.to_move is None
    assert game.legal_moves() == []
    assert game.is_over()


def test_quitting_a_two_player_game_hands_the_other_player_the_win() -> None:
    game = Game.from_moves("3,3")
    game.quit(0)
    assert game.outcome() == Outcome(Status.WON, 1)


def test_quit_by_an_unknown_player_is_player_not_active() -> None:
    with pytest.raises(PlayerNotActiveError, match="there is no player 3 in this game"):
        Game(players=3).quit(3)


def test_quitting_twice_is_player_not_active_saying_they_quit() -> None:
    game = Game(players=3)
    game.quit(1)
    with pytest.raises(PlayerNotActiveError, match=r"^player 1 has quit the game$"):
        game.quit(1)


def test_play_by_a_player_who_quit_is_player_not_active() -> None:
    game = Game(players=3)
    game.quit(1)
    game.play(0)
    with pytest.raises(PlayerNotActiveError, match="player 1 has quit"):
        game.play(0, player=1)


def test_play_by_a_waiting_player_in_a_three_player_game_is_not_your_turn() -> None:
    game = Game(players=3)
    with pytest.raises(NotYourTurnError, match="it is player 0's turn, not player 2's"):
        game.play(0, player=2)


def test_quitting_a_won_game_is_game_over() -> None:
    game = Game.from_moves(EXAMPLE)
    with pytest.raises(GameOverError):
        game.quit(1)


def test_quitting_a_drawn_game_is_game_over() -> None:
    with pytest.raises(GameOverError):
        Game.from_moves(DRAW_5X8).quit(0)


def test_quitting_a_game_won_by_quits_is_game_over_for_the_winner() -> None:
    game = Game(players=3)
    game.quit(0)
    game.quit(1)
    with pytest.raises(GameOverError):
        game.quit(2)


def test_playing_a_game_won_by_quits_is_game_over() -> None:
    game = Game(players=2)
    game.quit(0)
    with pytest.raises(GameOverError):
        game.play(3, player=1)


def test_pop_of_a_quit_restores_the_player_and_the_turn() -> None:
    game = Game(players=3)
    game.play(0)
    before = snapshot(game)
    assert game.quit(1) == Move(1, None)
    assert game.pop() == Move(1, None)
    assert snapshot(game) == before
    assert game.play(0, player=1) == Move(1, 0)


def test_pop_of_the_quit_that_ended_the_game_brings_it_back_into_play() -> None:
    game = Game(players=2)
    game.play(3)
    before = snapshot(game)
    game.quit(1)
    assert game.status is Status.WON
    game.pop()
    assert snapshot(game) == before


def test_a_player_who_quit_out_of_turn_and_was_restored_gets_their_turn_again() -> None:
    game = Game(players=3)
    game.quit(1)
    game.pop()
    assert [game.play(column).player for column in range(3)] == [0, 1, 2]


def test_three_player_line_of_four_wins_for_its_owner() -> None:
    # Player 2 drops into column 2 four times; players 0 and 1 play elsewhere.
    game = Game(players=3)
    for column in [0, 1, 2, 0, 1, 2, 4, 5, 2, 4, 5]:
        game.play(column)
    assert game.outcome() is None
    game.play(2)
    assert game.outcome() == Outcome(Status.WON, 2, frozenset({(0, 2), (1, 2), (2, 2), (3, 2)}))


def test_repr_of_a_game_with_quits_names_the_players_and_history() -> None:
    game = Game(players=3)
    game.quit(1)
    text = repr(game)
    assert "players=3" in text
    assert "Move(player=1, column=None)" in text
