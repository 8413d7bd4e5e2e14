"""The rule of winning, written once: ``connect`` stones of one player in a line.

A line runs in one of the four :data:`DIRECTIONS`. Every Python check of a
win asks this module: the searches' bitboards (:mod:`connect_four.engine.bitboard`),
the game (:mod:`connect_four.engine.game`) and the board check
(:mod:`connect_four.engine.board_check`). Two mirrors are written in other
languages, each compared with this module by a test that fails the day it
drifts: the compiled search (``engine/_native_search.h``,
tests/test_native_mirror.py) and the page (``service/static/board.js``,
tests/test_page_board_mirror.py).

The rule is stated once, as :data:`DIRECTIONS` and a chain length, and each
layout's steps come from :func:`line_steps`. It is applied by two algorithms,
because one does not serve both callers at speed: over whole bitboards, all
cells at once (:func:`bit_functions`, for the searches, which need "which
empty cells would win" at every node), and along the lines through one
marker of a grid (:func:`winning_lines`, for the game and the board check,
which need the cells of the line and only look after the last move; a game
on bitboards took 11 % more time a move). tests/test_lines.py holds the two
to the same answers on every board shape. A bitboard is in the
layout that :mod:`connect_four.engine.bitboard` draws: bit ``column * height +
row``, where ``height = rows + 1`` leaves a sentinel bit, always 0, at the
top of each column, so no line wraps from one column into the next. Its
functions are generated as straight-line Python for one height and chain
length: in CPython that is about three times faster than looping over the
shifts, and the searches call them at every node.
"""

from __future__ import annotations

import functools

# Imported for type checkers only: the terminal game's start-up stays lean.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = [
    "DIRECTIONS",
    "bit_functions",
    "bit_steps",
    "compile_function",
    "grid_steps",
    "line_steps",
    "winning_lines",
]

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1))
"""The four lines as ``(row step, column step)``, row 0 at the bottom:
across, up, up-right and down-right."""


def compile_function(source: str, name: str) -> Callable[..., object]:
    """Compile generated source and return the function it defines (for the searches too)."""
    namespace: dict[str, object] = {}
    exec(compile(source, f"<generated {name}>", "exec"), namespace)  # noqa: S102
    function = namespace[name]
    assert callable(function)
    return function


def line_steps(row_stride: int, column_stride: int) -> tuple[int, ...]:
    """The index step of each of :data:`DIRECTIONS` where a row is ``row_stride`` cells
    from the next and a column ``column_stride``: the one layout rule of both forms.

    >>> line_steps(1, 7), line_steps(9, 1)  # a 6-row bitboard; a 9-wide grid
    ((7, 1, 8, 6), (1, 9, 10, -8))
    """
    return tuple(row * row_stride + column * column_stride for row, column in DIRECTIONS)


def bit_steps(height: int) -> tuple[int, ...]:
    """The bit step of each of :data:`DIRECTIONS`: one row is 1, one column ``height``."""
    return line_steps(1, height)


def _winning_cells_source(height: int, connect: int, board: int) -> str:
    """Python source of ``winning_cells(stones, mask)`` for one shape and chain length.

    For each line direction ``d`` the empty cell ``e`` completes a chain when
    for some split ``a + b = connect - 1`` the ``a`` cells before it
    (``e - d .. e - a*d``) and the ``b`` cells after it are all stones.
    ``before[a]`` and ``after[b]`` are built by ANDing one more shift at a
    time, so each direction costs ``3 * (connect - 1)`` operations. A chain
    that would wrap around a column edge always crosses a sentinel bit, which
    is 0, so it never counts. Upwards only the stones below an empty cell
    can exist, so only ``before`` is needed.
    """
    k = connect
    lines = [
        "def winning_cells(stones, mask):",
        "    p = stones",
    ]
    if k == 1:
        lines.append(f"    return {board} & ~mask")
        return "\n".join(lines) + "\n"
    terms: list[str] = []
    for n, ((_, column_step), d) in enumerate(zip(DIRECTIONS, bit_steps(height), strict=True)):
        if column_step == 0:  # up: k - 1 stones directly below
            terms.append("(" + " & ".join(f"(p << {j * d})" for j in range(1, k)) + ")")
            continue
        lines.append(f"    a{n}_1 = p << {d}")
        lines.append(f"    b{n}_1 = p >> {d}")
        for j in range(2, k):
            lines.append(f"    a{n}_{j} = a{n}_{j - 1} & (p << {j * d})")
            lines.append(f"    b{n}_{j} = b{n}_{j - 1} & (p >> {j * d})")
        terms.append(f"a{n}_{k - 1}")
        terms.append(f"b{n}_{k - 1}")
        for a in range(1, k - 1):
            terms.append(f"(a{n}_{a} & b{n}_{k - 1 - a})")
    lines.append("    r = " + " | ".join(terms))
    lines.append(f"    return r & ({board} ^ mask)")
    return "\n".join(lines) + "\n"


def _chain_starts_lines(step: int, connect: int) -> list[str]:
    """Source lines that leave in ``m`` the first cell of every chain of ``p`` along ``step``.

    ``m & (m >> L*step)`` turns "starts a run of L" into "starts a run of 2L";
    a last step with a shift of ``(connect - L) * step`` (at most L) reaches
    exactly ``connect``. Runs cannot wrap: a sentinel bit breaks them.
    """
    lines = ["    m = p"]
    run = 1
    while 2 * run <= connect:
        lines.append(f"    m &= m >> {run * step}")
        run *= 2
    if run < connect:
        lines.append(f"    m &= m >> {(connect - run) * step}")
    return lines


def _has_chain_source(height: int, connect: int) -> str:
    """Python source of ``has_chain(p)``: whether ``p`` holds a chain, for one shape."""
    lines = ["def has_chain(p):"]
    for step in bit_steps(height):
        lines += _chain_starts_lines(step, connect)
        lines.append("    if m:")
        lines.append("        return True")
    lines.append("    return False")
    return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=64)
def bit_functions(
    rows: int, columns: int, connect: int
) -> tuple[Callable[[int, int], int], Callable[[int], bool]]:
    """``(winning_cells, has_chain)`` for ``rows x columns`` bitboards, generated once.

    ``winning_cells(stones, mask)`` is the empty cells that would complete a
    chain of ``stones`` (reachable or not); ``has_chain(stones)`` whether
    ``stones`` hold a chain.

    >>> winning_cells, has_chain = bit_functions(rows=4, columns=4, connect=3)
    >>> has_chain(0b111), has_chain(0b1_00001_00001)  # column 0; across row 0
    (True, True)
    >>> bin(winning_cells(0b011, 0b011))  # above two stones of column 0
    '0b100'
    """
    height = rows + 1
    board = sum(((1 << rows) - 1) << (column * height) for column in range(columns))
    winning_cells = compile_function(_winning_cells_source(height, connect, board), "winning_cells")
    has_chain = compile_function(_has_chain_source(height, connect), "has_chain")
    return winning_cells, has_chain  # type: ignore[return-value]


# --- The rule on a grid --------------------------------------------------------


def grid_steps(width: int) -> tuple[int, ...]:
    """The index step of each of :data:`DIRECTIONS` on a grid kept row by row, ``width`` a row.

    >>> grid_steps(9)  # a 7-column board with a border column on each side
    (1, 9, 10, -8)
    """
    return line_steps(width, 1)


def winning_lines(
    cells: Sequence[object], index: int, steps: Sequence[int], connect: int
) -> list[range]:
    """The lines through ``cells[index]`` of at least ``connect`` cells of its owner.

    ``cells`` is a grid kept row by row whose ``steps`` are
    :func:`grid_steps`'s, with a border all round of cells no player owns,
    so a walk along a line stops at the edge with no bounds check. Only the
    lines through the last marker can have changed, so a game walks only
    those, each both ways from it: on a grid that is cheaper than updating a
    bitboard (measured on random 6 x 7 games, 11 % more time a move with
    :func:`bit_functions`; 40 % more on 100 x 100, whose bitboard is large).

    >>> border, a = -2, 0
    >>> grid = [border] * 5 + [border, a, a, a, border] + [border] * 5
    >>> winning_lines(grid, 7, grid_steps(5), 3)
    [range(6, 9)]
    """
    owner = cells[index]
    found = []
    for step in steps:
        ahead = index + step
        while cells[ahead] == owner:
            ahead += step
        behind = index - step
        while cells[behind] == owner:
            behind -= step
        # ahead and behind stop one cell past each end of the line.
        if (ahead - behind) // step - 1 >= connect:
            found.append(range(behind + step, ahead, step))
    return found
