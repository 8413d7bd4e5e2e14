"""Spacing of the computer's moves, so that someone watching can follow them."""

from __future__ import annotations

import time

__all__ = ["Pacer"]


class Pacer:
    """Waits until at least ``seconds`` have passed since the last move.

    The computer's thinking counts towards the pause: a move that took two
    seconds to find is shown at once.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._last = time.monotonic()

    def mark(self) -> None:
        """A move was just played: the next pause counts from now."""
        self._last = time.monotonic()

    def wait(self) -> None:
        """Sleep out what is left of the pause since the last mark."""
        remaining = self._last + self.seconds - time.monotonic()
        if remaining > 0:
            time.sleep(remaining)
