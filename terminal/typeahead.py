"""Keys typed while a network game waits for the friend: not echoed, and dropped at the prompt.

Without this, what a player types while the friend thinks shows beside
the waiting line and is played the moment the friend's move arrives,
before the player has seen the new board. At a terminal, connect.py turns
the echo off while the game waits and, at each prompt, discards what was
typed meanwhile and turns the echo back on. On a pipe or a file (a test,
the course's grader) nothing changes: every line piped in is played.

A leaf: it imports only the standard library, and only a network game
loads it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["TypeAhead", "type_ahead_of_stdin"]


class TypeAhead:
    """The terminal settings of one file descriptor: echo off to wait, on (and emptied) to ask."""

    def __init__(self, fd: int, saved: list[Any]) -> None:
        self.fd = fd
        self.saved = saved

    def hush(self) -> None:
        """Stop echoing keys: the game waits, nothing typed now is an answer."""
        import termios

        quiet = list(self.saved)
        quiet[3] = quiet[3] & ~termios.ECHO  # the local modes
        self._set(quiet)

    def listen(self) -> None:
        """Drop what was typed since :meth:`hush`, and echo again: the prompt comes."""
        import termios

        try:
            termios.tcflush(self.fd, termios.TCIFLUSH)
        except termios.error:
            pass
        self._set(self.saved)

    def restore(self) -> None:
        """Put the terminal back as it was found."""
        self._set(self.saved)

    def _set(self, settings: list[Any]) -> None:
        import termios

        try:
            termios.tcsetattr(self.fd, termios.TCSANOW, settings)
        except termios.error:
            pass  # The terminal went away: nothing left to protect.


def type_ahead_of_stdin() -> TypeAhead | None:
    """A :class:`TypeAhead` for standard input if it is a terminal, else None."""
    try:
        import termios
    except ImportError:  # Not a POSIX system: typed keys stay as they are.
        return None
    try:
        fd = sys.stdin.fileno()
        if not sys.stdin.isatty():
            return None
        return TypeAhead(fd, termios.tcgetattr(fd))
    except (AttributeError, OSError, ValueError, termios.error):
        return None
