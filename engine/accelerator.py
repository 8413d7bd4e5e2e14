"""Which compiled search, if any, runs a position of given rules.

The exact search (:mod:`connect_four.engine.exact`) runs in pure Python (the reference,
for any board) or in C (``engine/_native_search.h``, the same search line
for line: same scores, moves and node counts) when the accelerator is built
and the board's bitboard fits it: ``connect_four.engine._native`` takes boards of up to
64 bits (``columns * (rows + 1)``: 6 x 7, 5 x 8, 7 x 8 ...),
``connect_four.engine._native128`` those of 65 to 128 bits (8 x 8, 9 x 9, 10 x 10 ...)
where the compiler has ``unsigned __int128``. A solver picks the
accelerator by itself unless told otherwise (:data:`Backend`) or the
environment variable ``CONNECT_FOUR_PURE_PYTHON`` is set to ``1``; this
module makes that choice, once, for every caller.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Literal, TypeAlias

from . import budget
from .bitboard import layout
from .errors import AcceleratorError
from .rules import Rules

__all__ = [
    "NARROW_BITS",
    "PURE_PYTHON_VARIABLE",
    "WIDE_BITS",
    "Backend",
    "accelerator",
    "accelerator_for",
    "fits_accelerator",
    "nodes_per_second",
    "pick_accelerator",
    "runs_native",
    "wide_accelerator",
]

Backend: TypeAlias = Literal["auto", "native", "python"]
"""Which search a :class:`~connect_four.engine.exact.Solver` runs: the accelerator where it
can ("auto"), the accelerator or an error ("native"), or pure Python."""

PURE_PYTHON_VARIABLE = "CONNECT_FOUR_PURE_PYTHON"
"""Set to ``1`` in the environment, "auto" solvers search in pure Python."""

NARROW_BITS = 64
"""The most bits of a board ``connect_four.engine._native`` takes (``uint64_t`` bitboards)."""

WIDE_BITS = 128
"""The most bits of a board ``connect_four.engine._native128`` takes (``unsigned __int128``
bitboards), and so any compiled search."""


def accelerator() -> ModuleType | None:
    """The compiled search on 64-bit bitboards, ``connect_four.engine._native``, or None where it was not built."""
    try:
        from . import _native
    except ImportError:
        return None
    return _native


def wide_accelerator() -> ModuleType | None:
    """The compiled search on 128-bit bitboards, ``connect_four.engine._native128``, or None where it was not built.

    It is left out where there is no C compiler, and where the compiler has
    no ``unsigned __int128`` (``connect_four.engine._native.COMPILER_HAS_INT128`` is 0).
    """
    try:
        from . import _native128
    except ImportError:
        return None
    return _native128


def accelerator_for(rules: Rules) -> ModuleType | None:
    """The compiled search module for positions of ``rules``, or None if none is built or fits.

    The 64-bit module for boards of at most :data:`NARROW_BITS` bits, the
    128-bit one up to :data:`WIDE_BITS`: the narrower is the faster.
    """
    bits = layout(rules).bits
    if bits <= NARROW_BITS:
        return accelerator()
    if bits <= WIDE_BITS:
        return wide_accelerator()
    return None


def fits_accelerator(rules: Rules) -> bool:
    """Whether a position of ``rules`` fits a compiled search's bitboards (128 bits at most).

    Whether that search is built is another matter (see :func:`runs_native`).

    >>> fits_accelerator(Rules(rows=8, columns=8)), fits_accelerator(Rules(rows=10, columns=12))
    (True, False)
    """
    return layout(rules).bits <= WIDE_BITS


def pick_accelerator(rules: Rules, backend: Backend) -> ModuleType | None:
    """The compiled module a solver of ``rules`` searches with, or None for pure Python.

    Raises:
        ValueError: ``backend`` is not a :data:`Backend`.
        AcceleratorError: ``backend`` is "native" and the accelerator cannot run.
    """
    if backend not in ("auto", "native", "python"):
        raise ValueError(f"backend must be 'auto', 'native' or 'python', got {backend!r}")
    if backend == "python":
        return None
    if backend == "auto" and os.environ.get(PURE_PYTHON_VARIABLE) == "1":
        return None
    native = accelerator_for(rules)
    if native is None and backend == "native":
        bits = layout(rules).bits
        if bits > WIDE_BITS:
            raise AcceleratorError(
                f"{rules!r} needs {bits}-bit bitboards; the accelerator takes at most {WIDE_BITS}"
            )
        if bits <= NARROW_BITS:
            raise AcceleratorError("the accelerator connect_four.engine._native is not built")
        raise AcceleratorError(
            f"the accelerator connect_four.engine._native128 for boards of {NARROW_BITS + 1} to {WIDE_BITS}"
            " bits is not built (it needs a C compiler with unsigned __int128)"
        )
    return native


def runs_native(rules: Rules) -> bool:
    """Whether a ``Solver(rules)`` with the default backend runs a compiled search."""
    return pick_accelerator(rules, "auto") is not None


def nodes_per_second(rules: Rules) -> int:
    """Exact-search nodes that a second of budget buys a ``Solver(rules)`` with the default backend.

    The rates of :mod:`connect_four.engine.budget`: the pure-Python one, the 64-bit
    compiled one, or the 128-bit compiled one, whichever search runs.
    """
    native = pick_accelerator(rules, "auto")
    if native is None:
        return budget.NODES_PER_SECOND
    if layout(rules).bits <= NARROW_BITS:
        return budget.NATIVE_NODES_PER_SECOND
    return budget.WIDE_NATIVE_NODES_PER_SECOND
