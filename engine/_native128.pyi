"""Type stub of the compiled search on 128-bit bitboards (engine/_native128.c).

The same search as ``connect_four.engine._native`` (one C source), taking boards of up
to 128 bits; its ``Search`` is a class of its own with the same interface.
"""

from ._native import COMPILER_HAS_INT128 as COMPILER_HAS_INT128
from ._native import Search as Search

BITS: int
"""Bits of a bitboard: 128."""
