"""A wall clock the test sets: the service's time for games between friends, without sleeping."""

from __future__ import annotations

START = 1_000_000.0
"""The injected clock's first reading (any number: only differences count)."""


class FakeClock:
    """Wall time as the test says: it moves only when :meth:`advance` is called."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
