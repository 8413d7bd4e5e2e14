"""The grader's dialog files (test_files/): what the player types, and what a pipe shows.

A dialog is the game's output with each typed line written ``<<typed>>``
and its newline, as byu-pytest-utils reads them. The tests and
tools/release_check.py read them through these functions.
"""

from __future__ import annotations

import re

_INPUT = re.compile(r"<<(.*?)>>\n", re.DOTALL)
_TYPED = re.compile(r"<<(.*?)>>", re.DOTALL)


def dialog_inputs(text: str) -> list[str]:
    """What the player types in a dialog file, in order."""
    return _INPUT.findall(text)


def piped_transcript(text: str) -> str:
    """A dialog as standard output shows it when the inputs come from a pipe.

    Piped input is not echoed, so each ``<<typed>>`` and its newline vanish.
    """
    return _INPUT.sub("", text)


def harness_transcript(text: str) -> str:
    """A dialog as the grader's harness records it: each ``<<typed>>`` echoed in place."""
    return _TYPED.sub(r"\1", text)
