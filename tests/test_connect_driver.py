"""connect.py's driver in-process: it does what each step of the conversation says, in order.

The conversation (connect_four.terminal.session) only yields steps; every print, read,
flush and sleep is the driver's, so that the grader's replaced ``print``
and ``input`` see every byte.
"""

from __future__ import annotations

import io
import sys

import pytest

import connect
from connect_four.terminal.settings import Settings
from connect_four.terminal.steps import Ask, Show, Wait


class Recorder(io.StringIO):
    """Standard output that notes, among the other events, when it was flushed."""

    def __init__(self, events: list[tuple[str, object]]) -> None:
        super().__init__()
        self.events = events

    def flush(self) -> None:
        self.events.append(("flush", None))
        super().flush()


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object]]:
    """What the driver did, in order; the conversation is the one scripted below."""
    happened: list[tuple[str, object]] = []
    answers = iter(["3"])

    def conversation(settings: Settings, *, at_terminal: bool = False):
        yield Show("first line")
        yield Wait(0.25)
        typed = yield Ask("Enter a column: ")
        happened.append(("sent back", typed))
        shown = yield Show("last line")
        happened.append(("sent back", shown))

    def fake_input(prompt: str) -> str:
        happened.append(("input", prompt))
        return next(answers)

    monkeypatch.setattr(connect, "converse", conversation)
    monkeypatch.setattr(
        connect, "print", lambda text: happened.append(("print", text)), raising=False
    )
    monkeypatch.setattr(connect, "input", fake_input, raising=False)
    monkeypatch.setattr(connect.time, "sleep", lambda seconds: happened.append(("sleep", seconds)))
    return happened


def test_each_step_is_printed_read_or_waited_by_the_driver(events, monkeypatch):
    # Set here, not in the fixture: pytest's capture puts its own stdout back
    # between a fixture and the test.
    monkeypatch.setattr(sys, "stdout", Recorder(events))
    connect.play(Settings())
    assert events == [
        ("print", "first line"),
        ("flush", None),  # the lines so far are shown before the wait
        ("sleep", 0.25),
        ("input", "Enter a column: "),
        ("sent back", "3"),
        ("print", "last line"),
        ("sent back", None),  # only a prompt gets an answer
    ]


def test_a_game_with_no_computer_never_asks_whether_it_is_watched(monkeypatch):
    # Loading connect_four.terminal.streams is for the computer's pause only.
    seen = []

    def conversation(settings, *, at_terminal=False):
        seen.append(at_terminal)
        yield from ()

    monkeypatch.setattr(connect, "converse", conversation)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    connect.play(Settings())
    assert seen == [False]
