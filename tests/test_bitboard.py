"""Tests of connect_four.engine.bitboard: the bitboard agrees with the engine Game."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import connect_four.engine.bitboard as bitboard_module
from connect_four.engine.bitboard import Position, layout
from connect_four.engine.convert import to_position
from connect_four.engine.errors import ColumnFullError, ColumnOutOfRangeError, UnsupportedGameError
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules


@st.composite
def rules_and_moves(draw: st.DrawFn) -> tuple[Rules, list[int]]:
    """Random rules (1-8 rows and columns, any legal chain) and a random game."""
    rows = draw(st.integers(1, 8))
    columns = draw(st.integers(1, 8))
    connect = draw(st.integers(1, max(rows, columns)))
    rules = Rules(rows, columns, connect)
    game = Game(rules)
    moves: list[int] = []
    choices = draw(st.lists(st.integers(0, 10**6), max_size=rules.cells))
    for choice in choices:
        legal = game.legal_moves()
        if not legal:
            break
        column = legal[choice % len(legal)]
        game.play(column)
        moves.append(column)
    return rules, moves


@settings(max_examples=300, deadline=None)
@given(rules_and_moves())
def test_bitboard_agrees_with_game_at_every_step(case: tuple[Rules, list[int]]) -> None:
    rules, moves = case
    game = Game(rules)
    position = Position(rules)
    for column in moves:
        assert position.legal_moves() == game.legal_moves()
        for c in range(rules.columns):
            assert position.can_play(c) == game.can_play(c)
            if game.can_play(c):
                game.play(c)
                wins = game.outcome() is not None and game.outcome().winner is not None  # type: ignore[union-attr]
                game.pop()
                assert position.is_winning_move(c) == wins, (c, game.moves)
        assert position.can_win_next() == any(
            position.is_winning_move(c) for c in game.legal_moves()
        )
        game.play(column)
        position.play(column)
        won = game.outcome() is not None and game.outcome().winner is not None  # type: ignore[union-attr]
        assert position.is_won() == won
        assert position.moves == len(game.moves)


@settings(max_examples=200, deadline=None)
@given(rules_and_moves(), rules_and_moves())
def test_keys_differ_exactly_when_positions_differ(
    first: tuple[Rules, list[int]], second: tuple[Rules, list[int]]
) -> None:
    rules = first[0]
    games = []
    for moves in (first[1], second[1]):
        game = Game(rules)
        for column in moves:
            if column < rules.columns and game.can_play(column):
                game.play(column)
        games.append(game)
    a, b = (to_position(game) for game in games)
    same = games[0].grid() == games[1].grid()
    assert (a.key() == b.key()) == same


@settings(max_examples=200, deadline=None)
@given(rules_and_moves())
def test_non_losing_moves_never_hand_over_an_immediate_win(case: tuple[Rules, list[int]]) -> None:
    rules, moves = case
    game = Game(rules)
    for column in moves:
        game.play(column)
    if game.is_over():
        return
    position = to_position(game)
    if position.can_win_next():
        return
    safe = position.non_losing_columns()
    for column in game.legal_moves():
        game.play(column)
        reply_wins = not game.is_over() and any(
            to_position(game).is_winning_move(c) for c in game.legal_moves()
        )
        game.pop()
        if column in safe:
            assert not reply_wins
    # When some move is safe, the filter keeps at least one.
    if not safe:
        for column in game.legal_moves():
            game.play(column)
            assert game.is_over() or to_position(game).can_win_next()
            game.pop()


def test_sentinel_stops_a_vertical_chain_wrapping_into_the_next_column() -> None:
    rules = Rules(rows=3, columns=4, connect=4)
    # The first player fills column 0 and the bottom of column 1: bits 0, 1,
    # 2 and 4, which would be a vertical four if bit 3 were not a sentinel.
    position = Position.from_moves([0, 2, 0, 2, 0, 3, 1], rules)
    assert position.is_won() is False
    assert not position.opponent_winning_cells() & position.possible()


def test_horizontal_four_is_found_on_the_standard_board() -> None:
    position = Position.from_moves([0, 0, 1, 1, 2, 2], Rules(6, 7))
    assert position.is_winning_move(3)
    assert not position.is_winning_move(4)


def test_longer_chain_needs_every_stone() -> None:
    rules = Rules(rows=1, columns=8, connect=5)
    position = Position.from_moves([0, 7, 1, 6, 2, 5], rules)
    assert not position.is_winning_move(3)  # would make only four in a row
    position.play(3)
    assert not position.is_won()  # first player: 0 1 2 3
    position.play(4)
    assert not position.is_won()  # second player: 4 5 6 7
    assert position.is_full()


def test_chain_of_one_wins_with_any_stone() -> None:
    position = Position(Rules(rows=2, columns=2, connect=1))
    assert position.is_winning_move(0) and position.is_winning_move(1)


def test_play_into_full_column_raises() -> None:
    position = Position.from_moves([0], Rules(rows=1, columns=2, connect=2))
    with pytest.raises(ColumnFullError):
        position.play(0)


def test_play_off_the_board_raises() -> None:
    with pytest.raises(ColumnOutOfRangeError):
        Position(Rules()).play(8)
    with pytest.raises(ColumnOutOfRangeError):
        Position(Rules()).is_winning_move(-1)


def test_to_position_refuses_three_players() -> None:
    with pytest.raises(UnsupportedGameError):
        to_position(Game(Rules(), players=3))


def test_layout_is_cached_per_rules() -> None:
    assert layout(Rules(6, 7)) is layout(Rules(6, 7))


def test_copy_is_independent() -> None:
    position = Position.from_moves([3], Rules(6, 7))
    other = position.copy()
    other.play(3)
    assert position.moves == 1 and other.moves == 2


@pytest.mark.parametrize(
    ("rows", "columns", "bits"), [(6, 7, 49), (5, 8, 48), (7, 8, 64), (8, 8, 72)]
)
def test_layout_counts_the_bits_of_a_bitboard_with_sentinels(
    rows: int, columns: int, bits: int
) -> None:
    lay = layout(Rules(rows=rows, columns=columns))
    assert lay.bits == bits
    assert (lay.bottom_mask << rows).bit_length() == bits  # the last sentinel is the top bit


def test_the_bitboard_module_does_not_import_the_game() -> None:
    """The solver's board stands alone; connect_four.engine.convert turns a Game into a Position."""
    source = Path(bitboard_module.__file__).read_text()
    imported = {
        node.module
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module is not None
    }
    assert "rules" in imported  # the walk sees the module's relative imports
    assert "game" not in imported and "connect_four.engine.game" not in imported
