"""terminal.session in-process: the conversation connect.py prints, step by step."""

from __future__ import annotations

from connect_support import TEST_FILES, dialog_inputs, piped_transcript, read_dialog
from terminal.options import Settings, parse_options
from terminal.session import PROMPT, converse


def transcript(settings: Settings, typed: list[str]) -> str:
    """What a pipe would show: every line, and each prompt without the typed answer."""
    shown = []
    pending = list(typed)
    steps = converse(settings)
    answer = None
    while True:
        try:
            is_prompt, text = steps.send(answer)
        except StopIteration:
            break
        if is_prompt:
            shown.append(text)
            answer = pending.pop(0)
        else:
            shown.append(text + "\n")
            answer = None
    assert pending == []
    return "".join(shown)


def test_the_default_conversation_is_the_assignment_transcript():
    text = read_dialog(TEST_FILES / "example_game.txt")
    assert transcript(Settings(), dialog_inputs(text)) == piped_transcript(text)


def test_every_prompt_is_the_assignment_prompt():
    steps = converse(Settings())
    prompts = set()
    answer = None
    for typed in ["0", "7", "0", "6", "0", "5", "0"]:
        is_prompt, text = steps.send(answer)
        while not is_prompt:
            is_prompt, text = steps.send(None)
        prompts.add(text)
        answer = typed
    assert prompts == {PROMPT}


def test_a_match_opens_each_game_and_keeps_the_score():
    settings = parse_options(["--games", "2", "--rows", "1", "--columns", "2", "--connect", "2"])
    shown = transcript(settings, ["0", "1", "0", "1"])
    assert shown.startswith("Game 1 of 2: X is Player 1, O is Player 2.\n")
    assert "\nGame 2 of 2: X is Player 2, O is Player 1.\n" in shown
    assert shown.endswith("Score after game 2 of 2: Player 1 0, Player 2 0, ties 2.\n"
                          "The match is drawn.\n")


def test_a_quit_in_a_match_ends_the_match():
    settings = parse_options(["--games", "3", "--commands"])
    shown = transcript(settings, ["q"])
    assert shown.endswith("X quits.\nGame finished.\n"
                          "Score after game 1 of 3: Player 1 0, Player 2 1, ties 0.\n"
                          "The match goes to Player 2.\n")
