"""connect_four.terminal.streams in-process: when the prompt's line needs ending, and closed streams."""

from __future__ import annotations

import io
import sys

import pytest

from connect_four.terminal.streams import is_terminal, prompt_on_screen


class FakeTerminal(io.StringIO):
    """A terminal that, like a real closed file, refuses questions once closed."""

    def isatty(self) -> bool:
        if self.closed:
            raise ValueError("I/O operation on closed file")
        return True


def test_a_pipe_or_file_is_no_terminal():
    assert not is_terminal(io.StringIO())
    assert not is_terminal(object())


def test_a_closed_stream_is_no_terminal():
    stream = FakeTerminal()
    assert is_terminal(stream)
    stream.close()
    assert not is_terminal(stream)


@pytest.mark.parametrize(
    "stdout_terminal, stderr_terminal, on_screen",
    [(True, True, True), (True, False, False), (False, True, False), (False, False, False)],
)
def test_the_prompt_needs_ending_only_when_both_streams_show_on_the_terminal(
    monkeypatch, stdout_terminal, stderr_terminal, on_screen
):
    monkeypatch.setattr(sys, "stdout", FakeTerminal() if stdout_terminal else io.StringIO())
    monkeypatch.setattr(sys, "stderr", FakeTerminal() if stderr_terminal else io.StringIO())
    assert prompt_on_screen() is on_screen
