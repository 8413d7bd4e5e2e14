"""Spacing of the computer's moves, so that someone watching can follow them.

A leaf: it reads the clock and imports nothing else. It never sleeps
itself: the session yields the pause as a step and connect.py waits it out.
"""

from __future__ import annotations

import time

__all__ = ["Pacer"]


class Pacer:
    """Counts how long to wait until at least ``seconds`` have passed since the last move.

    The computer's thinking counts towards the pause: a move that took two
    seconds to find is shown at once.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._last = time.monotonic()

    def mark(self) -> None:
        """A move was just played: the next pause counts from now."""
        self._last = time.monotonic()

    def remaining(self) -> float:
        """Seconds left of the pause since the last mark; 0 when it is over."""
        return max(self._last + self.seconds - time.monotonic(), 0.0)
