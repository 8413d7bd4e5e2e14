"""Perfect play where it fits the time, good play where it does not, and levels.

The public face of the solver, gathered from the modules that do one job
each:

* :mod:`connect_four.engine.score`: the score convention, and the moves it settles alone;
* :mod:`connect_four.engine.exact`: the exact search (:class:`Solver`), in pure Python or
  through the compiled accelerator;
* :mod:`connect_four.engine.accelerator`: which compiled search, if any, runs;
* :mod:`connect_four.engine.table`: its fixed-size transposition table;
* :mod:`connect_four.engine.heuristic`: the depth-limited search for positions too big;
* :mod:`connect_four.engine.analysis`: :func:`solve`, :func:`analyse` and the fallback
  from the one search to the other;
* :mod:`connect_four.engine.levels`: the computer's levels and :func:`choose_move`;
* :mod:`connect_four.engine.budget`: node budgets and the clock's safety net;
* :mod:`connect_four.engine.errors`: every exception, SearchAborted and LevelError among them.
"""

from __future__ import annotations

from .accelerator import PURE_PYTHON_VARIABLE
from .analysis import Analysis, analyse, solve
from .budget import NODES_PER_SECOND, SAFETY_FACTOR, SAFETY_FLOOR
from .errors import AcceleratorError, LevelError, SearchAborted
from .exact import Solver
from .levels import LEVELS, choose_move

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
