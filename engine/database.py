"""Exact scores of every 12-stone 6 x 7 position, from the optional ``bitbully-databases`` package.

Markus Thill's BitBully ships, as the PyPI package ``bitbully-databases``
(MIT; the project's ``database`` extra), the exact value and distance to the
end of every position of the standard game (7 columns, 6 rows, four in a
row) with 12 stones on the board. The exact search stops there
(:mod:`connect_four.engine.exact`, in Python and in C), which makes any position of that
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

Loading reads the 21 MB file once, on first use, as it is (0.03 to 0.1 s:
turning it into arrays took three times as long), and a lookup is a binary
search in it. The compiled search reads the same bytes as a buffer, with a
256-byte table from a value to its score, so the rule of
:func:`score_of_value` is written once.
"""

from __future__ import annotations

import functools
import os
from importlib import import_module
from pathlib import Path
from types import ModuleType

from .bitboard import Position
from .errors import DatabaseFormatError
from .rules import Rules
from .score import win_score

__all__ = [
    "DATABASE_RULES",
    "DATABASE_STONES",
    "NO_DATABASE_VARIABLE",
    "Database",
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
_NO_SCORE = b"\x80"
"""-128 as a byte: the score table's mark of a value that ends no game (no score is that)."""


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
    """The database keys of a 12-stone 6 x 7 position and of its mirror image.

    ``current`` and ``mask`` are :class:`~connect_four.engine.bitboard.Position`'s (the
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
    """The database's ``value`` of a position of ``stones`` as Pons' score (see :mod:`connect_four.engine.score`).

    ``+v`` wins with the ``(100 - v)``-th stone from now, that is with the
    board holding ``N = stones + 100 - v`` stones, which scores
    ``win_score(cells, N - 1)``; ``-v`` loses the same way; 0 draws.

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
    score = win_score(cells, stones_at_end - 1)
    return score if value > 0 else -score


def _score_table(stones: int, cells: int) -> bytes:
    """A 256-byte table from a value byte to its score byte (both signed), for bytes.translate.

    A value that ends no game maps to :data:`_NO_SCORE`.
    """
    table = bytearray(256)
    for byte in range(256):
        value = byte - 256 if byte > 127 else byte
        try:
            table[byte] = score_of_value(value, stones, cells) & 0xFF
        except DatabaseFormatError:
            table[byte] = _NO_SCORE[0]
    return bytes(table)


# === The database ============================================================


class Database:
    """The exact score of every 12-stone 6 x 7 position, looked up by binary search.

    ``records`` is the file's content as it is (5-byte records sorted by
    key); ``scores`` turns a record's value byte into its Pons score (for
    the player to move) as a signed byte: ``scores[value & 0xFF]``. The
    compiled search reads both as buffers, so loading is one read of the
    file and the rule of :func:`score_of_value` stays written once.
    """

    __slots__ = ("records", "scores", "stones")

    def __init__(self, records: bytes, stones: int = DATABASE_STONES) -> None:
        """The database whose file content is ``records``, for positions of ``stones`` stones.

        Raises:
            DatabaseFormatError: ``records`` is not a whole number of
                records, its keys are out of order (checked at 4096 places)
                or a value ends no game.
        """
        count, rest = divmod(len(records), _RECORD_BYTES)
        if not count or rest:
            raise DatabaseFormatError(
                f"{len(records)} bytes are not a whole number of {_RECORD_BYTES}-byte records"
            )
        self.records = records
        self.stones = stones
        self.scores = _score_table(stones, DATABASE_RULES.cells)
        if _NO_SCORE in records[_KEY_BYTES::_RECORD_BYTES].translate(self.scores):
            raise DatabaseFormatError("the database holds a value that ends no game")
        step = max(1, count // 4096)
        if any(self._key(i) >= self._key(i + 1) for i in range(0, count - 1, step)):
            raise DatabaseFormatError("the database has keys out of order")

    def __len__(self) -> int:
        return len(self.records) // _RECORD_BYTES

    def __repr__(self) -> str:
        return f"<Database stones={self.stones} entries={len(self)}>"

    def _key(self, index: int) -> int:
        start = index * _RECORD_BYTES
        return int.from_bytes(self.records[start : start + _KEY_BYTES], "big", signed=True)

    def _find(self, key: int) -> int | None:
        """The score stored under ``key``, or None."""
        low, high = 0, len(self)
        while low < high:
            middle = (low + high) // 2
            if self._key(middle) < key:
                low = middle + 1
            else:
                high = middle
        if low < len(self) and self._key(low) == key:
            score = self.scores[self.records[low * _RECORD_BYTES + _KEY_BYTES]]
            return score - 256 if score > 127 else score
        return None

    def score_of(self, current: int, mask: int) -> int | None:
        """The score of the position ``(current, mask)`` of :attr:`stones` stones, or None.

        None when neither the position nor its mirror image is stored: the
        player to move wins at once there (or it is no position of a game).
        The pure-Python search calls this at its 12-stone nodes.
        """
        key, mirrored = database_keys(current, mask)
        found = self._find(key)
        if found is None and mirrored != key:
            found = self._find(mirrored)
        return found

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
        try:
            return cls(path.read_bytes(), stones)
        except DatabaseFormatError as error:
            raise DatabaseFormatError(f"{path}: {error}") from None


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
    return _packaged_file(package)


@functools.lru_cache(maxsize=4)
def _packaged_file(package: ModuleType) -> Path | None:
    """The database file ``package`` ships, looked up once.

    The lookup goes through ``importlib.resources`` and a file check, about
    50 µs: every new :class:`~connect_four.engine.exact.Solver` of the board asks.
    """
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
    """The database for positions of ``rules``: the installed one on 6 x 7, else None.

    >>> database_for(Rules(rows=8, columns=5)) is None
    True
    """
    if rules != DATABASE_RULES:
        return None
    return load_database()
