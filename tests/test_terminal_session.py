"""connect_four.terminal.session in-process: the conversation connect.py prints, step by step."""

from __future__ import annotations

import builtins
import time

import pytest

from connect_four.terminal.dialog import PROMPT
from connect_four.terminal.options import parse_options
from connect_four.terminal.session import converse
from connect_four.terminal.settings import Settings
from connect_four.terminal.steps import Ask, Show, Wait
from connect_support import TEST_FILES, dialog_inputs, piped_transcript, read_dialog


def all_steps(settings: Settings, typed: list[str]) -> list[Show | Ask | Wait]:
    """Every step of the conversation, ``typed`` answering its prompts in turn."""
    seen: list[Show | Ask | Wait] = []
    pending = list(typed)
    steps = converse(settings)
    answer = None
    while True:
        try:
            step = steps.send(answer)
        except StopIteration:
            break
        seen.append(step)
        answer = pending.pop(0) if isinstance(step, Ask) else None
    assert pending == []
    return seen


def transcript(settings: Settings, typed: list[str]) -> str:
    """What a pipe would show: every line, and each prompt without the typed answer."""
    shown = []
    for step in all_steps(settings, typed):
        if isinstance(step, Show):
            shown.append(step.text + "\n")
        elif isinstance(step, Ask):
            shown.append(step.prompt)
    return "".join(shown)


def test_the_default_conversation_is_the_assignment_transcript():
    text = read_dialog(TEST_FILES / "example_game.txt")
    assert transcript(Settings(), dialog_inputs(text)) == piped_transcript(text)


def test_every_prompt_is_the_assignment_prompt():
    seen = all_steps(Settings(), ["0", "7", "0", "6", "0", "5", "0"])
    assert {step.prompt for step in seen if isinstance(step, Ask)} == {PROMPT}


def test_a_match_opens_each_game_and_keeps_the_score():
    settings = parse_options(["--games", "2", "--rows", "1", "--columns", "2", "--connect", "2"])
    shown = transcript(settings, ["0", "1", "0", "1"])
    assert shown.startswith("Game 1 of 2: X is Player 1, O is Player 2.\n")
    assert "\nGame 2 of 2: X is Player 2, O is Player 1.\n" in shown
    assert shown.endswith(
        "Score after game 2 of 2: Player 1 0, Player 2 0, ties 2.\nThe match is drawn.\n"
    )


def test_a_quit_in_a_match_ends_the_match():
    settings = parse_options(["--games", "3", "--commands"])
    shown = transcript(settings, ["q"])
    assert shown.endswith(
        "X quits.\nGame finished.\n"
        "Score after game 1 of 3: Player 1 0, Player 2 1, ties 0.\n"
        "The match goes to Player 2.\n"
    )


def test_the_conversation_neither_prints_reads_nor_sleeps(monkeypatch):
    def no_io(*args, **kwargs):
        raise AssertionError("the conversation did I/O itself")

    monkeypatch.setattr(builtins, "print", no_io)
    monkeypatch.setattr(builtins, "input", no_io)
    monkeypatch.setattr(time, "sleep", no_io)
    settings = parse_options(
        [
            "--computer",
            "both",
            "--pause",
            "60",
            "--rows",
            "2",
            "--columns",
            "3",
            "--connect",
            "2",
            "--announce",
        ]
    )
    seen = all_steps(settings, [])
    # Played to its end, pauses and all, without one call to the three.
    assert Show("Game finished.") in seen
    assert any(isinstance(step, Wait) for step in seen)


def test_the_computers_pause_is_a_step_before_each_of_its_moves():
    # 60 s of pause: every move comes well inside it, so each waits for the rest.
    settings = parse_options(
        ["--computer", "both", "--pause", "60", "--rows", "2", "--columns", "3", "--connect", "2"]
    )
    seen = all_steps(settings, [])
    plays = [
        index
        for index, step in enumerate(seen)
        if isinstance(step, Show) and step.text.startswith("Computer plays")
    ]
    assert plays
    for index in plays:
        wait = seen[index - 1]
        assert isinstance(wait, Wait) and 0 < wait.seconds <= 60
    assert sum(isinstance(step, Wait) for step in seen) == len(plays)


def test_without_a_pause_the_computer_never_waits():
    settings = parse_options(
        ["--computer", "both", "--rows", "2", "--columns", "3", "--connect", "2"]
    )
    assert not any(isinstance(step, Wait) for step in all_steps(settings, []))


@pytest.mark.parametrize("at_terminal, waits", [(True, True), (False, False)])
def test_the_computer_playing_itself_pauses_only_when_watched(at_terminal, waits):
    settings = parse_options(
        ["--computer", "both", "--rows", "1", "--columns", "2", "--connect", "2"]
    )
    steps = list(_steps_without_answers(converse(settings, at_terminal=at_terminal)))
    assert any(isinstance(step, Wait) for step in steps) == waits


def _steps_without_answers(steps):
    """A conversation that asks nothing, step by step."""
    for step in steps:
        assert not isinstance(step, Ask)
        yield step
