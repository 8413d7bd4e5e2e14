"""The standard streams when a game ends abnormally or is watched: terminals, closed pipes.

Nothing here prints, and this leaf imports none of its siblings. These live
outside connect.py, loaded when needed, because a script run as
``__main__`` is compiled on every start and the assignment's game must
start fast.
"""

from __future__ import annotations

import os
import sys

__all__ = [
    "is_terminal",
    "prompt_on_screen",
    "discard_output",
    "ignore_interrupts",
]


def is_terminal(stream: object) -> bool:
    """Whether ``stream`` is a terminal (False for a replaced or closed stream)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed file
        return False


def prompt_on_screen() -> bool:
    """Whether a prompt left hanging shows where errors are shown.

    Then the cursor stands after it (Ctrl-D echoes no newline), and an error
    must start a line of its own. On a pipe or file the transcript stays
    exactly what was printed.
    """
    return is_terminal(sys.stdout) and is_terminal(sys.stderr)


def discard_output() -> None:
    """Point standard output at the null device, as the Python docs advise for
    a closed pipe, so that the flush at exit cannot fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def ignore_interrupts() -> None:
    """Ignore SIGINT from now on: the game is already stopping for one."""
    import signal  # deferred: start-up speed (only Ctrl-C needs it)

    signal.signal(signal.SIGINT, signal.SIG_IGN)
