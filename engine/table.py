"""The exact search's transposition table: a fixed number of slots, always replace.

Slot ``key % size`` remembers the last position stored there, with one
bound on its score; a newer position simply takes the slot. A lookup hits
only when the slot holds the same key. The compiled search
(``engine/_native_search.h``) keeps the same slots under the same rule,
storing ``key // size`` instead of the key (together with the slot number it
gives the key back) in one 64-bit integer, or one 128-bit integer for keys
of 65 to 128 bits, so both paths prune the same nodes. Memory: 8 bytes a
slot in the compiled table (16 past 64-bit keys), 9 in this one; the
default :data:`TABLE_SIZE` is 64 MiB compiled, and
:func:`table_size_for_megabytes` sizes a table for a big solve.

A bound is stored as a one-byte *code*, ``((bound + CODE_OFFSET) << 1) |
upper``: never 0 for a real bound, and the empty code 0 reads as a lower
bound of ``-CODE_OFFSET``, below every score, so an empty slot needs no test
of its own.
"""

from __future__ import annotations

import mmap
from collections.abc import MutableSequence

from .validate import is_int

__all__ = [
    "CODE_OFFSET",
    "MAX_TABLE_SIZE",
    "MIN_TABLE_SIZE",
    "TABLE_SIZE",
    "TranspositionTable",
    "check_table_size",
    "slot_bytes",
    "table_size_for",
    "table_size_for_megabytes",
]

TABLE_SIZE = 8_388_593
"""Slots of the table: the largest prime below 2**23, as in Pons' tutorial
(64 MB of 8-byte keys). A prime spreads keys that differ by a multiple of a
power of two, as bitboard keys often do."""

CODE_OFFSET = 64
"""Added to a bound before it is coded, on boards of at most 63 cells, whose
scores lie within -32..32. The compiled search adds it on every board it
takes (up to 127 cells): a bound it stores lies within -63..63 there (see
``engine/_native_search.h``), and it reads back the same bounds as this
table's wider offset."""


MIN_TABLE_SIZE = 256
"""The fewest slots: the compiled table packs ``key // size`` (under 2**56,
or 2**120 for 128-bit keys, then) and a code byte into one 64-bit (or
128-bit) slot."""

MAX_TABLE_SIZE = 2**32 - 1
"""The most slots: the compiled table remembers slot numbers in 32 bits."""


def check_table_size(size: int) -> int:
    """``size`` if both backends can have a table of that many slots.

    Raises:
        ValueError: ``size`` is not an int within MIN_TABLE_SIZE..MAX_TABLE_SIZE.
    """
    if not is_int(size) or not MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE:
        raise ValueError(f"a table has {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE} slots, not {size!r}")
    return size


def slot_bytes(key_bits: int) -> int:
    """Bytes of one slot of the compiled table for keys of ``key_bits`` bits: 8, or 16 past 64.

    The pure-Python table takes 9 (an 8-byte key and a code byte) for keys
    of up to 64 bits on boards of up to 63 cells, and dict entries (over
    100 bytes each, only for the slots in use) otherwise.
    """
    return 8 if key_bits <= 64 else 16


def table_size_for_megabytes(megabytes: float, *, key_bits: int = 64) -> int:
    """The most slots, a prime, whose compiled table fits in ``megabytes`` MiB.

    A bigger table lets a long search (a whole empty board) keep more of
    what it found; the default, :data:`TABLE_SIZE`, is 64 MiB.

    >>> table_size_for_megabytes(64) == TABLE_SIZE
    True
    >>> table_size_for_megabytes(1024), table_size_for_megabytes(1024, key_bits=128)
    (134217689, 67108859)

    Raises:
        ValueError: the table would have no more than :data:`MIN_TABLE_SIZE`
            or more than :data:`MAX_TABLE_SIZE` slots.
    """
    if not (is_int(megabytes) or isinstance(megabytes, float)):
        raise ValueError(f"a table size in MiB is a number, not {megabytes!r}")
    slots = int(megabytes * 2**20) // slot_bytes(key_bits) if megabytes > 0 else 0
    if not MIN_TABLE_SIZE < slots <= MAX_TABLE_SIZE:  # 257, the least prime, or more
        least = (MIN_TABLE_SIZE + 1) * slot_bytes(key_bits) / 2**20
        most = MAX_TABLE_SIZE * slot_bytes(key_bits) // 2**20
        raise ValueError(f"a table takes {least:g} to {most} MiB, not {megabytes!r}")
    while not _is_prime(slots):
        slots -= 1
    return slots


SLOTS_PER_NODE = 4
"""Slots a budgeted search gets per position of its budget (see :func:`table_size_for`)."""


def table_size_for(node_limit: int | None, *, most: int = TABLE_SIZE) -> int:
    """Slots for a search of at most ``node_limit`` positions: a prime, at most ``most``.

    Each position stores at most one entry, so a search of ``n`` nodes
    needs no more than a few times ``n`` slots; a smaller table is a
    smaller area of memory for the system to hand out. Measured here: a
    search that touches the whole default table spends about 90 ms in page
    faults, more than a 33,000-node search (a third of a 1 s move) takes
    in C. Both backends get the same size, so they still explore alike.
    ``most``, the user's table size (connect.py's ``--table-mb``), is the
    upper limit, and the size of a search without a node limit.

    >>> table_size_for(None) == TABLE_SIZE, table_size_for(1000)
    (True, 4001)
    >>> table_size_for(1000, most=1009), table_size_for(None, most=1009)
    (1009, 1009)
    """
    if node_limit is None:
        return most
    candidate = max(257, SLOTS_PER_NODE * node_limit + 1)
    if candidate >= most:
        return most
    while not _is_prime(candidate):
        candidate += 1
    return candidate


def _is_prime(number: int) -> bool:
    """Whether ``number`` (odd or even, at least 2) is prime, by trial division."""
    if number % 2 == 0:
        return number == 2
    divisor = 3
    while divisor * divisor <= number:
        if number % divisor == 0:
            return False
        divisor += 2
    return True


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
    them. Measured here (CPython 3.11, 8 M slots): 0.015 ms for a new map
    and for clearing an unused one, 17 ms to give back one a long search
    filled, against 285 ms to build a zeroed ``array('Q')`` and 40 ms to
    write 72 MB of zeros (:meth:`touch`, also what :meth:`clear` does where
    ``madvise`` is missing). The pages given back cost their first touch
    again (about 90 ms for the whole table), small beside the pure-Python
    search that fills it (seconds). A probe and a store through the views
    cost about as much as a dict lookup and store.

    Against the dict table it replaces (emptied at 2 M entries), Begin-Hard's
    first position takes 71,408,749 nodes instead of 106,325,417, that is
    about 1.03 x Pons' count instead of 1.54 x (64,973,655 since the search's
    enhanced transposition cutoffs).
    """

    __slots__ = ("_map", "codes", "keys", "offset", "size")

    def __init__(self, size: int = TABLE_SIZE, *, key_bits: int = 64, cells: int = 63) -> None:
        """An empty table of ``size`` slots for keys of ``key_bits`` bits, boards of ``cells``.

        Keys wider than 64 bits, or boards of more than 63 cells (whose
        bounds may not fit a byte), keep their slots in dicts instead.
        """
        self.size = check_table_size(size)
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
        keys, codes = view[:key_bytes].cast("Q"), view[key_bytes : key_bytes + code_bytes]
        self.keys: MutableSequence[int] = _ZeroDict() if wide else keys  # type: ignore[assignment]
        """The key of the position in each slot (0 when empty)."""
        self.codes: MutableSequence[int] = _ZeroDict() if wide else codes  # type: ignore[assignment]
        """The coded bound of each slot (0 when empty)."""

    def clear(self) -> None:
        """Forget every position; :attr:`keys` and :attr:`codes` stay the same objects."""
        for slots in (self.keys, self.codes):
            if isinstance(slots, _ZeroDict):
                slots.clear()
        if _GIVE_BACK_PAGES:
            self._map.madvise(mmap.MADV_DONTNEED)
        else:
            self.touch()

    def touch(self) -> None:
        """Forget every position by writing zeros over all the slots.

        Slower than :meth:`clear`, but the searches that follow no longer
        pay the system's first touch of each page (benchmarks use it, as
        Pons' solver writes its whole table before each position).
        """
        self._map[:] = bytes(len(self._map))


_GIVE_BACK_PAGES = hasattr(mmap, "MADV_DONTNEED") and hasattr(mmap, "MAP_PRIVATE")
"""Whether a private map reads back zeros after ``madvise(MADV_DONTNEED)``
(Linux); elsewhere :meth:`TranspositionTable.clear` writes zeros."""
