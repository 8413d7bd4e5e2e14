"""How much a search may do: node budgets that decide, a clock that only guards.

Every search stops on a node budget derived from the time budget
(``time_budget * NODES_PER_SECOND``), so the same position and budget give
the same answer on an idle and on a busy machine. The clock is only a safety
net, at :data:`SAFETY_FACTOR` times the budget, which a busy machine does not
reach in normal play. A caller that needs a hard wall-clock limit passes
``time_limit``: the search then stops when it is reached and answers with
what it has, at the price of an answer that depends on the machine's speed.

Every read of the clock by the searches goes through this module's ``time``
(tests replace it with a stepping clock).
"""

from __future__ import annotations

import time
from typing import ClassVar

from .errors import SearchAborted

__all__ = [
    "CHECK_EVERY",
    "NATIVE_NODES_PER_SECOND",
    "NODES_PER_SECOND",
    "SAFETY_FACTOR",
    "SAFETY_FLOOR",
    "WIDE_NATIVE_NODES_PER_SECOND",
    "BudgetedSearch",
    "deadline_for",
    "now",
]

NODES_PER_SECOND = 100_000
"""Exact-search nodes one second of budget buys in pure Python: below what
CPython does here on 6 x 7 (about 230,000 a second), so the node budget, not
the clock, normally ends a search."""

NATIVE_NODES_PER_SECOND = 27_000_000
"""The same for the compiled search (``connect_four.engine._native``): what it does
here when idle (a 5 x 8 position, 2026-11-24), about half that with both
cores busy, so that a second of budget takes about a second on a quiet
machine (with 20 million, as before, a 1 s ``??`` on an 8-stone 5 x 8
position ended after 0.7 s and settled 53 columns of 64 instead of 59;
bench/analysis.py). 6 x 7 positions search more slowly, about 19
million a second, so a second of budget there takes about 1.3 s without
the 12-stone database (with it, most searches end far sooner). A second
of budget is thus worth 270 times more nodes where the accelerator is
built: answers are the same on an idle and a busy machine, but not with
and without the accelerator. (Until the search got three times faster,
this was 8 million.)"""

WIDE_NATIVE_NODES_PER_SECOND = 5_500_000
"""The same for the compiled search on 128-bit bitboards (``connect_four.engine._native128``,
boards of 65 to 128 bits such as 8 x 8). The 128-bit search did not share
the 64-bit one's latest gains: early 8 x 8 and 9 x 7 positions run at
about 6 million a second here when idle (2026-11-24), so this rate, set
when the two searches were closer, still leaves the node budget in
charge."""

SAFETY_FACTOR = 10
"""Without a ``time_limit``, the clock stops a search only after this many
times its time budget (and at least :data:`SAFETY_FLOOR` seconds): far
beyond what the node budget takes on a 2-core machine at load 12 (about 6
times the idle time), so in normal play the work done, not the clock,
decides the move."""

SAFETY_FLOOR = 5.0
"""The least time, in seconds, before the safety net stops a search."""

CHECK_EVERY = 512
"""Nodes of exact search between two looks at the budget: a few
milliseconds of pure-Python search, the overshoot of a hard ``time_limit``.
The compiled search looks at the same nodes, so node counts stay equal."""


def now() -> float:
    """The searches' clock: ``time.monotonic()``."""
    return time.monotonic()


def deadline_for(start: float, time_budget: float, time_limit: float | None) -> float:
    """When the clock stops a search: the caller's hard limit, else the safety net."""
    if time_limit is not None:
        return start + time_limit
    return start + max(SAFETY_FACTOR * time_budget, SAFETY_FLOOR)


class BudgetedSearch:
    """A search that counts its nodes and stops at a node limit or a deadline."""

    check_every: ClassVar[int] = CHECK_EVERY
    """Nodes between two calls of :meth:`check_budget`."""

    def __init__(self) -> None:
        self.explored = 0
        """Positions searched since the last reset."""
        self.node_limit: int | None = None
        """Stop (raise SearchAborted) after this many explored positions."""
        self.deadline: float | None = None
        """Stop (raise SearchAborted) once the clock passes this."""

    def check_budget(self) -> int:
        """Raise SearchAborted when a budget is spent; return the next check.

        The next check comes :attr:`check_every` nodes later, or at the node
        limit if that is sooner, so a node limit stops the search exactly.
        """
        if self.node_limit is not None and self.explored >= self.node_limit:
            raise SearchAborted(f"node budget of {self.node_limit} spent")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchAborted("time budget spent")
        next_check = self.explored + self.check_every
        if self.node_limit is not None:
            next_check = min(next_check, self.node_limit)
        return next_check
