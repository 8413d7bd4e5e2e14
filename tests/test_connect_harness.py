"""What byu-pytest-utils' harness needs of connect.py beyond the dialog files.

The harness runs the script with ``runpy`` and replaces only ``print`` and
``input`` in its globals. An old version of it joins several ``print``
arguments with ", ", so every call must pass exactly one string; and any
``sys.exit()``, even with 0, fails a graded test.
"""

from __future__ import annotations

import runpy
import sys

import pytest

from connect_support import CONNECT, TEST_FILES, dialog_arguments, dialog_inputs, read_dialog


def run_like_the_harness(inputs, *arguments):
    """Run connect.py with print/input replaced; return what it showed."""
    shown = []
    pending = list(inputs)

    def fake_input(prompt=""):
        shown.append(prompt)
        text = pending.pop(0)
        shown.append(text.rstrip("\r") + "\n")
        return text

    def strict_print(*values, **options):
        assert len(values) == 1 and isinstance(values[0], str), values
        assert set(options) <= {"file"}, options
        if "file" not in options:
            shown.append(values[0] + "\n")

    saved = sys.argv
    sys.argv = [str(CONNECT), *arguments]
    try:
        runpy.run_path(str(CONNECT), {"print": strict_print, "input": fake_input}, "__main__")
    finally:
        sys.argv = saved
    assert pending == []
    return "".join(shown)


def test_carriage_return_typed_through_the_harness_is_dropped():
    lf = run_like_the_harness(["0", "7", "0", "6", "0", "5", "0"])
    crlf = run_like_the_harness(["0\r", "7\r", "0\r", "6\r", "0\r", "5\r", "0\r"])
    assert crlf == lf
    assert lf.endswith("Game finished.\n")


@pytest.mark.parametrize(
    "dialog",
    ["example_game.txt", "basic_invalid_moves.txt", "options/highlight_two_lines.txt",
     "options/announce_tie.txt", "options/hint.txt", "options/computer_both_watch.txt",
     "options/version.txt"],
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
