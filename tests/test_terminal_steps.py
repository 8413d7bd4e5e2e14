"""connect_four.terminal.steps in-process: the conversation's steps are small immutable values."""

from __future__ import annotations

import pytest

from connect_four.terminal.steps import Ask, Show, Wait


def test_a_step_cannot_change():
    step = Show("X's turn")
    with pytest.raises(AttributeError, match="immutable"):
        step.text = "O's turn"
    with pytest.raises(AttributeError, match="immutable"):
        del step.text
    assert step.text == "X's turn"


def test_steps_compare_by_kind_and_value():
    assert Show("a") == Show("a")
    assert Show("a") != Show("b")
    assert Show("a") != Ask("a")
    assert Wait(1.0) == Wait(1)
    assert len({Show("a"), Show("a"), Ask("a")}) == 2


def test_a_step_reads_as_its_constructor():
    assert [repr(step) for step in (Show("x"), Ask("Enter a column: "), Wait(0.5))] == [
        "Show('x')",
        "Ask('Enter a column: ')",
        "Wait(0.5)",
    ]
