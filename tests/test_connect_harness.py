"""What byu-pytest-utils' harness needs of connect.py beyond the dialog files.

The harness runs the script with ``runpy`` and replaces only ``print`` and
``input`` in its globals. An old version of it joins several ``print``
arguments with ", ", so every call must pass exactly one string; and any
``sys.exit()``, even with 0, fails a graded test.
"""

from __future__ import annotations

import pytest

from connect_support import (
    ROOT,
    TEST_FILES,
    dialog_arguments,
    dialog_inputs,
    harness_transcript,
    read_dialog,
    run_like_the_harness,
)

OPTION_DIALOGS = sorted((TEST_FILES / "options").glob("*.txt"))


def test_carriage_return_typed_through_the_harness_is_dropped():
    lf = run_like_the_harness(["0", "7", "0", "6", "0", "5", "0"])
    crlf = run_like_the_harness(["0\r", "7\r", "0\r", "6\r", "0\r", "5\r", "0\r"])
    assert crlf == lf
    assert lf.endswith("Game finished.\n")


@pytest.mark.parametrize(
    "dialog",
    [
        "example_game.txt",
        "basic_invalid_moves.txt",
        "options/highlight_two_lines.txt",
        "options/announce_tie.txt",
        "options/hint.txt",
        "options/computer_both_watch.txt",
        "options/version.txt",
    ],
)
def test_every_print_has_one_string_and_the_game_returns(dialog):
    path = TEST_FILES / dialog
    arguments = dialog_arguments(path) if path.parent.name == "options" else []
    # run_path returning at all proves no sys.exit() was called.
    shown = run_like_the_harness(dialog_inputs(read_dialog(path)), *arguments)
    assert shown


def test_help_goes_through_print_and_returns():
    shown = run_like_the_harness([], "--help")
    assert shown.startswith("usage: connect.py")


@pytest.mark.parametrize("dialog", OPTION_DIALOGS, ids=[path.stem for path in OPTION_DIALOGS])
def test_option_dialog_through_the_harness(dialog, monkeypatch):
    # What the grader compares: the transcript with the typed text in place.
    text = read_dialog(dialog)
    monkeypatch.chdir(ROOT)  # .args files name files relative to the root
    monkeypatch.delenv("NO_COLOR", raising=False)  # the --color dialogs show colours
    shown = run_like_the_harness(dialog_inputs(text), *dialog_arguments(dialog))
    assert shown == harness_transcript(text)


def test_identical_transcript_shortcut_scores_like_the_grader():
    import importlib

    scoring = importlib.import_module("byu_pytest_utils.dialog")
    align = scoring.edit_dist.aligned
    for text in ("Game finished.\n", "01234567\n........\nX's turn\n"):
        assert scoring.edit_dist(text, text) == align(text, text)
    expected = read_dialog(TEST_FILES / "example_game.txt").replace("<<", "").replace(">>", "")
    assert scoring._score_observed_output(expected, expected)["everything-else"]["passed"]
    wrong = expected.replace("Game finished.", "Game over.")
    assert not scoring._score_observed_output(expected, wrong)["everything-else"]["passed"]
