"""Exact scores of every 12-stone 7 x 6 position, from the optional ``bitbully-databases`` package.

Markus Thill's BitBully ships, as the PyPI package ``bitbully-databases``
(MIT; the project's ``database`` extra), the exact value and distance to the
end of every position of the standard game (7 columns, 6 rows, four in a
row) with 12 stones on the board. The exact search stops there
(:mod:`engine.exact`, in Python and in C), which makes any position of that
board solvable in well under a second. Without the package nothing here is
found and every search runs as before.

The file (``assets/book_12ply_distances.dat`` of the package) is a list of
5-byte records, sorted by key::

    key    4 bytes, big-endian, signed: the position, column by column from
           the left, each column from the bottom: "10" for a stone of the
           first player, "11" for one of the second, "0" to end the column
           (a full column too), then one "0": 2 * 12 + 7 + 1 = 32 bits
    value  1 byte, signed: 0 a draw; +v the first player wins, -v it loses,
           the winning stone being the (100 - v)-th from now

With 12 stones the first player is the one to move. A position and its
mirror image are stored once, under either's key, so a lookup tries both.
Positions where the player to move wins at once are left out (their score
follows from the stone count); every other 12-stone position reached
without a win is there (tests/test_database.py checks both on a sample).

Loading reads the 21 MB file once, on first use, into two arrays (the keys,
and the values already turned into Pons' scores, see
:func:`score_of_value`): 21 MB of memory, about 0.1 s, and a lookup is a
binary search. The compiled search reads the same two arrays as buffers.
"""

from __future__ import annotations

import os
import sys
from array import array
from bisect import bisect_left
from importlib import import_module
from pathlib import Path

from .bitboard import Position
from .errors import EngineError
from .rules import Rules

__all__ = [
    "DATABASE_RULES",
    "DATABASE_STONES",
    "NO_DATABASE_VARIABLE",
    "Database",
    "DatabaseFormatError",
    "database_file",
    "database_for",
    "database_keys",
    "load_database",
    "score_of_value",
]

DATABASE_RULES = Rules(rows=6, columns=7, connect=4)
"""The only board the database is for."""

DATABASE_STONES = 12
"""Stones on the board of every position in the database."""

NO_DATABASE_VARIABLE = "CONNECT_FOUR_NO_DATABASE"
"""Set to ``1`` in the environment, the database is not used even when installed."""

_PACKAGE = "bitbully_databases"
_DATABASE_NAME = "12-ply-dist"
_RECORD_BYTES = 5
_KEY_BYTES = 4
_DISTANCE_BASE = 100
"""A value ``v`` means the winning stone is the ``(100 - |v|)``-th from now."""
_KEY_TYPE = next(code for code in "ilq" if array(code).itemsize == _KEY_BYTES)
"""The array type code of a signed 32-bit integer on this machine."""


class DatabaseFormatError(EngineError):
    """The database file is truncated, of another format, or holds an impossible value."""


# === Keys ====================================================================


def _column_codes(rows: int) -> list[tuple[int, int]]:
    """For each column field of a :meth:`Position.key`, its code and the code's length in bits.

    The field of a column of ``h`` stones is ``2**h - 1`` plus the stones of
    the player to move (see :meth:`Position.key`); with an even number of
    stones on the board that player is the first ("10"), the other "11".
    """
    codes: list[tuple[int, int]] = []
    for field in range(1 << (rows + 1)):
        height = (field + 1).bit_length() - 1
        if height > rows:  # not a field a position has
            codes.append((0, 0))
            continue
        ours = field - ((1 << height) - 1)
        code = 0
        for row in range(height):
            code = (code << 2) | (0b10 if ours >> row & 1 else 0b11)
        codes.append((code << 1, 2 * height + 1))
    return codes


_CODES = _column_codes(DATABASE_RULES.rows)
_FIELD = (1 << (DATABASE_RULES.rows + 1)) - 1


def database_keys(current: int, mask: int) -> tuple[int, int]:
    """The database keys of a 12-stone 7 x 6 position and of its mirror image.

    ``current`` and ``mask`` are :class:`~engine.bitboard.Position`'s (the
    player to move is the first player, with 12 stones).

    >>> position = Position.from_moves([0, 0, 1, 1, 2, 2, 4, 4, 5, 5, 6, 6], DATABASE_RULES)
    >>> [f"{key & 0xFFFFFFFF:032b}" for key in database_keys(position.current, position.mask)]
    ['10110101101011001011010110101100', '10110101101011001011010110101100']
    """
    key = current + mask
    height = DATABASE_RULES.rows + 1
    code = mirrored = shift = 0
    for column in range(DATABASE_RULES.columns):
        bits, length = _CODES[(key >> (column * height)) & _FIELD]
        code = (code << length) | bits
        mirrored |= bits << shift
        shift += length
    # 31 bits of columns and the final "0": a 32-bit pattern, read as signed.
    return _signed(code << 1), _signed(mirrored << 1)


def _signed(pattern: int) -> int:
    return pattern - (1 << 32) if pattern >> 31 else pattern


# === Values ==================================================================


def score_of_value(value: int, stones: int = DATABASE_STONES, cells: int = 42) -> int:
    """The database's ``value`` of a position of ``stones`` as Pons' score (see :mod:`engine.exact`).

    ``+v`` wins with the ``(100 - v)``-th stone from now, that is with the
    board holding ``N = stones + 100 - v`` stones, which Pons scores
    ``(cells + 2 - N) // 2``; ``-v`` loses the same way; 0 draws.

    >>> score_of_value(71), score_of_value(97), score_of_value(-92), score_of_value(0)
    (1, 14, -12, 0)

    Raises:
        DatabaseFormatError: no game of ``cells`` cells ends at that distance.
    """
    if value == 0:
        return 0
    stones_at_end = stones + _DISTANCE_BASE - abs(value)
    if not stones < stones_at_end <= cells:
        raise DatabaseFormatError(f"the value {value} ends no game after {stones} stones")
    score = (cells + 2 - stones_at_end) // 2
    return score if value > 0 else -score


def _score_table(stones: int, cells: int) -> bytes:
    """A 256-byte table from a value byte to its score byte (both signed), for bytes.translate."""
    table = bytearray(256)
    for byte in range(256):
        value = byte - 256 if byte > 127 else byte
        try:
            table[byte] = score_of_value(value, stones, cells) & 0xFF
        except DatabaseFormatError:
            table[byte] = 0x80  # -128: no score is that; found below as an impossible value
    return bytes(table)


# === The database ============================================================


class Database:
    """The exact score of every 12-stone 7 x 6 position, looked up by binary search.

    ``keys`` (signed 32-bit, sorted) and ``scores`` (signed bytes, Pons'
    scores for the player to move) are parallel arrays; the compiled search
    reads them as buffers.
    """

    __slots__ = ("keys", "scores", "stones")

    def __init__(self, keys: array[int], scores: array[int], stones: int = DATABASE_STONES) -> None:
        """A database of ``keys`` and their ``scores``, for positions of ``stones``."""
        if len(keys) != len(scores):
            raise DatabaseFormatError(f"{len(keys)} keys but {len(scores)} scores")
        self.keys = keys
        self.scores = scores
        self.stones = stones

    def __len__(self) -> int:
        return len(self.keys)

    def __repr__(self) -> str:
        return f"<Database stones={self.stones} entries={len(self)}>"

    def score_of(self, current: int, mask: int) -> int | None:
        """The score of the position ``(current, mask)`` of :attr:`stones` stones, or None.

        None when neither the position nor its mirror image is stored: the
        player to move wins at once there (or it is no position of a game).
        The pure-Python search calls this at its 12-stone nodes.
        """
        keys = self.keys
        count = len(keys)
        for key in database_keys(current, mask):
            index = bisect_left(keys, key)
            if index < count and keys[index] == key:
                return self.scores[index]
        return None

    def score(self, position: Position) -> int | None:
        """The exact score of ``position`` for the player to move, or None if it is not stored.

        Only 12-stone positions of the standard board can be stored.
        """
        if position.rules != DATABASE_RULES or position.moves != self.stones:
            return None
        return self.score_of(position.current, position.mask)

    @classmethod
    def read(cls, path: Path, stones: int = DATABASE_STONES) -> Database:
        """The database in the file ``path`` (the format of the module docstring).

        Raises:
            OSError: the file cannot be read.
            DatabaseFormatError: the file is not of that format.
        """
        data = path.read_bytes()
        count, rest = divmod(len(data), _RECORD_BYTES)
        if not count or rest:
            raise DatabaseFormatError(
                f"{path} holds {len(data)} bytes, not a whole number of {_RECORD_BYTES}-byte records"
            )
        # De-interleave with slices (C speed): bytes 0-3 of each record are its key.
        packed = bytearray(_KEY_BYTES * count)
        for byte in range(_KEY_BYTES):
            packed[byte::_KEY_BYTES] = data[byte::_RECORD_BYTES]
        keys = array(_KEY_TYPE)
        keys.frombytes(packed)
        if sys.byteorder == "little":
            keys.byteswap()
        translated = data[_KEY_BYTES::_RECORD_BYTES].translate(
            _score_table(stones, DATABASE_RULES.cells)
        )
        if b"\x80" in translated:
            raise DatabaseFormatError(f"{path} holds a value that ends no game")
        scores = array("b")
        scores.frombytes(translated)
        # Spot checks of the order a binary search needs (all of it would take 0.5 s).
        step = max(1, count // 4096)
        if any(keys[i] >= keys[i + 1] for i in range(0, count - 1, step)):
            raise DatabaseFormatError(f"{path} has keys out of order")
        return cls(keys, scores, stones)


# === The installed database, loaded on first use =============================


def database_file() -> Path | None:
    """The installed 12-stone database file, or None without the ``database`` extra.

    Also None when :data:`NO_DATABASE_VARIABLE` is ``1``.
    """
    if os.environ.get(NO_DATABASE_VARIABLE) == "1":
        return None
    try:
        package = import_module(_PACKAGE)
    except ImportError:
        return None
    path = Path(str(package.BitBullyDatabases.get_database_path(_DATABASE_NAME)))
    return path if path.is_file() else None


_loaded: dict[Path, Database] = {}


def load_database() -> Database | None:
    """The installed database, read once and then kept; None if it is not installed.

    Raises:
        DatabaseFormatError: the installed file is damaged.
    """
    path = database_file()
    if path is None:
        return None
    if path not in _loaded:
        _loaded[path] = Database.read(path)
    return _loaded[path]


def database_for(rules: Rules) -> Database | None:
    """The database for positions of ``rules``: the installed one on 7 x 6, else None.

    >>> database_for(Rules(rows=8, columns=5)) is None
    True
    """
    if rules != DATABASE_RULES:
        return None
    return load_database()
