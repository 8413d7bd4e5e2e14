"""The exact search's transposition table: a fixed number of slots, always replace.

Slot ``key % size`` remembers the last position stored there, with one
bound on its score; a newer position simply takes the slot. A lookup hits
only when the slot holds the same key. The compiled search
(``engine/_native.c``) keeps the same slots under the same rule, storing
``key // size`` instead of the key (together with the slot number it gives
the key back), so both paths prune the same nodes.

A bound is stored as a one-byte *code*, ``((bound + CODE_OFFSET) << 1) |
upper``: never 0 for a real bound, and the empty code 0 reads as a lower
bound of ``-CODE_OFFSET``, below every score, so an empty slot needs no test
of its own.
"""

from __future__ import annotations

import mmap
from collections.abc import MutableSequence

__all__ = ["CODE_OFFSET", "TABLE_SIZE", "TranspositionTable"]

TABLE_SIZE = 8_388_593
"""Slots of the table: the largest prime below 2**23, as in Pons' tutorial
(64 MB of 8-byte keys). A prime spreads keys that differ by a multiple of a
power of two, as bitboard keys often do."""

CODE_OFFSET = 64
"""Added to a bound before it is coded, on boards of at most 63 cells (all
those the compiled search takes), whose scores lie within -32..32."""


class _ZeroDict(dict[int, int]):
    """Slots of a table for a board of more than 63 cells: a missing slot reads 0."""

    def __missing__(self, index: int) -> int:
        return 0


class TranspositionTable:
    """The slots of one exact search, as a 64-bit key and a code per slot.

    >>> table = TranspositionTable(size=257)
    >>> table.keys[300 % 257] = 300
    >>> table.codes[300 % 257] = (5 + table.offset) << 1
    >>> table.keys[43], table.codes[43] >> 1
    (300, 69)
    >>> table.clear()
    >>> table.keys[43], table.codes[43]
    (0, 0)

    The slots live in a private anonymous memory map: the system hands it
    out as zero pages that cost nothing until touched, and :meth:`clear`
    gives the touched pages back (``madvise(MADV_DONTNEED)``), so both cost
    in proportion to the slots the last search used, and the views
    :attr:`keys` and :attr:`codes` stay valid for the search that holds
    them. Measured here (CPython 3.11, 8 M slots): 0.02 ms for a new map,
    up to 20 ms to give back one a long search filled, against 285 ms to
    build a zeroed ``array('Q')`` and about 10 ms to rewrite 72 MB of zeros
    (what :meth:`clear` does where ``madvise`` is missing); a probe and a
    store through the views cost about as much as a dict lookup and store.
    The old dict table, emptied at 2 M entries, cost Begin-Hard's first
    position 1.54 x Pons' nodes.
    """

    __slots__ = ("size", "offset", "keys", "codes", "_map")

    def __init__(self, size: int = TABLE_SIZE, *, key_bits: int = 64, cells: int = 63) -> None:
        """An empty table of ``size`` slots for keys of ``key_bits`` bits, boards of ``cells``.

        Keys wider than 64 bits, or boards of more than 63 cells (whose
        bounds may not fit a byte), keep their slots in dicts instead.
        """
        if size < 1:
            raise ValueError(f"a table needs at least one slot, got {size}")
        self.size = size
        wide = key_bits > 64 or cells > 63
        self.offset = max(CODE_OFFSET, cells + 1) if wide else CODE_OFFSET
        """Added to a bound before it is coded: more than any score's size."""
        key_bytes = 0 if wide else 8 * size
        code_bytes = 0 if wide else size
        if _GIVE_BACK_PAGES:
            self._map = mmap.mmap(-1, key_bytes + code_bytes + 1, flags=mmap.MAP_PRIVATE)
        else:
            self._map = mmap.mmap(-1, key_bytes + code_bytes + 1)
        view = memoryview(self._map)
        self.keys: MutableSequence[int] = (
            _ZeroDict() if wide else view[:key_bytes].cast("Q")  # type: ignore[assignment]
        )
        """The key of the position in each slot (0 when empty)."""
        self.codes: MutableSequence[int] = (
            _ZeroDict() if wide else view[key_bytes : key_bytes + code_bytes]  # type: ignore[assignment]
        )
        """The coded bound of each slot (0 when empty)."""

    def clear(self) -> None:
        """Forget every position; :attr:`keys` and :attr:`codes` stay the same objects."""
        for slots in (self.keys, self.codes):
            if isinstance(slots, _ZeroDict):
                slots.clear()
        if _GIVE_BACK_PAGES:
            self._map.madvise(mmap.MADV_DONTNEED)
        else:
            self._map[:] = bytes(len(self._map))


_GIVE_BACK_PAGES = hasattr(mmap, "MADV_DONTNEED") and hasattr(mmap, "MAP_PRIVATE")
"""Whether a private map reads back zeros after ``madvise(MADV_DONTNEED)``
(Linux); elsewhere :meth:`TranspositionTable.clear` writes zeros."""
