"""Perfect play where it fits the time, good play where it does not, and levels.

The public face of the solver, gathered from the modules that do one job
each:

* :mod:`engine.exact`: the exact search (:class:`Solver`), in pure Python or
  through the compiled accelerator, and the score convention;
* :mod:`engine.table`: its fixed-size transposition table;
* :mod:`engine.heuristic`: the depth-limited search for positions too big;
* :mod:`engine.analysis`: :func:`solve`, :func:`analyse` and the fallback
  from the one search to the other;
* :mod:`engine.levels`: the computer's levels and :func:`choose_move`;
* :mod:`engine.budget`: node budgets, the clock's safety net, SearchAborted.
"""

from __future__ import annotations

from .analysis import Analysis, analyse, solve
from .budget import NODES_PER_SECOND, SAFETY_FACTOR, SAFETY_FLOOR, SearchAborted
from .exact import PURE_PYTHON_VARIABLE, AcceleratorError, Solver
from .levels import LEVELS, LevelError, choose_move

__all__ = [
    "LEVELS",
    "NODES_PER_SECOND",
    "PURE_PYTHON_VARIABLE",
    "SAFETY_FACTOR",
    "SAFETY_FLOOR",
    "AcceleratorError",
    "Analysis",
    "LevelError",
    "SearchAborted",
    "Solver",
    "analyse",
    "choose_move",
    "solve",
]
