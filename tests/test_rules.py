"""Tests of connect_four.engine.rules: which board sizes and chain lengths are accepted."""

from __future__ import annotations

import pickle
import re

import pytest

from connect_four.engine import EngineError, Game, Rules, RulesError, Status


def test_defaults_are_the_cs110_board_of_five_rows_eight_columns_connect_four() -> None:
    assert (Rules().rows, Rules().columns, Rules().connect) == (5, 8, 4)


def test_defaults_equal_the_same_values_spelled_out() -> None:
    assert Rules() == Rules(rows=5, columns=8, connect=4)


@pytest.mark.parametrize(
    ("rules", "cells"),
    [
        (Rules(), 40),
        (Rules(rows=6, columns=7), 42),
        (Rules(rows=1, columns=1, connect=1), 1),
        (Rules(rows=9, columns=2, connect=3), 18),
        (Rules(rows=1, columns=20, connect=20), 20),
    ],
)
def test_cells_is_rows_times_columns(rules: Rules, cells: int) -> None:
    assert rules.cells == cells


def test_one_by_one_board_with_connect_one_is_valid() -> None:
    rules = Rules(rows=1, columns=1, connect=1)
    assert (rules.rows, rules.columns, rules.connect) == (1, 1, 1)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rows": 5, "columns": 8, "connect": 8},  # the rows are the longest line
        {"rows": 9, "columns": 3, "connect": 9},  # the columns are the longest line
        {"rows": 4, "columns": 4, "connect": 4},
        {"rows": 1, "columns": 7, "connect": 7},
        {"rows": 7, "columns": 1, "connect": 7},
    ],
)
def test_connect_exactly_the_longest_line_is_accepted(kwargs: dict[str, int]) -> None:
    assert Rules(**kwargs).connect == kwargs["connect"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"rows": 5, "columns": 8, "connect": 9},
            "connect 9 is longer than any line of a 5 x 8 board (at most 8)",
        ),
        (
            {"rows": 9, "columns": 3, "connect": 10},
            "connect 10 is longer than any line of a 9 x 3 board (at most 9)",
        ),
        (
            {"rows": 1, "columns": 1, "connect": 2},
            "connect 2 is longer than any line of a 1 x 1 board (at most 1)",
        ),
    ],
)
def test_connect_longer_than_every_line_is_rejected_with_the_sizes(
    kwargs: dict[str, int], message: str
) -> None:
    with pytest.raises(RulesError, match=f"^{re.escape(message)}$"):
        Rules(**kwargs)


@pytest.mark.parametrize("name", ["rows", "columns", "connect"])
def test_zero_is_rejected_and_named(name: str) -> None:
    with pytest.raises(RulesError, match=f"^{name} must be at least 1, got 0$"):
        Rules(**{name: 0})


@pytest.mark.parametrize("name", ["rows", "columns", "connect"])
@pytest.mark.parametrize("value", [-1, -8, -(10**30)])
def test_negative_is_rejected_and_named(name: str, value: int) -> None:
    with pytest.raises(RulesError, match=f"^{name} must be at least 1, got {value}$"):
        Rules(**{name: value})


@pytest.mark.parametrize("name", ["rows", "columns", "connect"])
@pytest.mark.parametrize("value", [True, False])
def test_bool_is_rejected_as_not_an_integer(name: str, value: bool) -> None:
    with pytest.raises(RulesError, match=f"^{name} must be an integer, got {value}$"):
        Rules(**{name: value})


@pytest.mark.parametrize("name", ["rows", "columns", "connect"])
@pytest.mark.parametrize("value", [4.0, 4.5, float("nan")])
def test_float_is_rejected_even_when_whole(name: str, value: float) -> None:
    with pytest.raises(
        RulesError, match=f"^{name} must be an integer, got {re.escape(repr(value))}$"
    ):
        Rules(**{name: value})


@pytest.mark.parametrize("name", ["rows", "columns", "connect"])
@pytest.mark.parametrize("value", ["4", "", None])
def test_non_number_is_rejected_with_its_repr(name: str, value: object) -> None:
    with pytest.raises(
        RulesError, match=f"^{name} must be an integer, got {re.escape(repr(value))}$"
    ):
        Rules(**{name: value})  # type: ignore[arg-type]


def test_first_bad_field_in_order_rows_columns_connect_is_reported() -> None:
    with pytest.raises(RulesError, match=r"^rows "):
        Rules(rows=0, columns=0, connect=0)


def test_rules_error_is_an_engine_error_and_a_value_error() -> None:
    with pytest.raises(EngineError):
        Rules(rows=-1)
    with pytest.raises(ValueError):
        Rules(rows=-1)


def test_rules_are_immutable() -> None:
    rules = Rules()
    # A frozen dataclass raises FrozenInstanceError, itself an AttributeError.
    with pytest.raises(AttributeError):
        rules.rows = 6  # type: ignore[misc]
    assert rules.rows == 5


def test_equal_rules_hash_equal_so_they_can_key_a_dict() -> None:
    assert hash(Rules(rows=6, columns=7)) == hash(Rules(6, 7, 4))
    assert len({Rules(): 1, Rules(5, 8, 4): 2}) == 1


def test_repr_is_a_constructor_call_that_evaluates_to_equal_rules() -> None:
    rules = Rules(rows=6, columns=7, connect=5)
    assert repr(rules) == "Rules(rows=6, columns=7, connect=5)"
    assert eval(repr(rules), {"Rules": Rules}) == rules


def test_positional_arguments_are_rows_columns_connect() -> None:
    assert Rules(6, 7, 3) == Rules(rows=6, columns=7, connect=3)


def test_chain_longer_than_every_line_is_allowed_only_when_asked_for() -> None:
    rules = Rules(2, 3, 4, allow_unwinnable=True)
    assert not rules.is_winnable
    assert Rules().is_winnable
    with pytest.raises(RulesError, match="connect 4"):
        Rules(2, 3, 4)


def test_unwinnable_rules_repr_and_pickle_round_trip() -> None:
    rules = Rules(2, 2, 4, allow_unwinnable=True)
    assert repr(rules) == "Rules(rows=2, columns=2, connect=4, allow_unwinnable=True)"
    assert eval(repr(rules)) == rules
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_game_on_unwinnable_rules_can_only_be_drawn() -> None:
    game = Game.from_moves([0, 0, 1, 1], Rules(2, 2, 4, allow_unwinnable=True))
    assert game.status is Status.DRAWN
