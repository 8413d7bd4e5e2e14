"""How many columns ``connect_four.engine.column_scores`` scores exactly, and how fast, by stones on the board.

Run from the repository root, with the project installed (requirements.txt)::

    nice -n 10 python3 bench/analysis.py
    python3 bench/analysis.py --per-row 4 --seed 7
    python3 bench/analysis.py --board 5x8 --every-stone --budget 10   # connect.py --thorough

Positions come from *sensible random games*: each side takes a win in one
when it has one, else blocks the opponent's win in one, else plays at
random but never just under the opponent's winning cell (when it has
another move). For each row of the table (2, 4, ..., 12 stones, and "14+":
14, 16, ..., 28 stones) ``--per-row`` such positions are drawn, seeded so
the table repeats. Each is asked ``column_scores`` at its default budget on
6 x 7 with the 12-stone database (the ``database`` extra), on 6 x 7
without it (``CONNECT_FOUR_NO_DATABASE=1``) and on 5 x 8, the assignment's
board. The table gives the columns scored exactly out of those asked and
the median and slowest time of a query; the slowest query of all follows,
and every exact 6 x 7 score found without the database is checked against
the one found with it. Only figures are printed; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from connect_four.engine.accelerator import runs_native
from connect_four.engine.bitboard import Position
from connect_four.engine.columns import ColumnScore, column_scores
from connect_four.engine.database import NO_DATABASE_VARIABLE, load_database
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules

STANDARD = Rules(rows=6, columns=7)
ASSIGNMENT = Rules(rows=5, columns=8)
ROWS: list[tuple[str, list[int]]] = [
    *((str(stones), [stones]) for stones in range(2, 13, 2)),
    ("14+", list(range(14, 29, 2))),
]
"""Each row of the table: its label and the stone counts its positions cycle through."""

EVERY_STONE_ROWS: list[tuple[str, list[int]]] = [
    *((str(stones), [stones]) for stones in range(1, 14)),
    ("14+", list(range(14, 29))),
]
"""The rows with ``--every-stone``: each number of stones up to 13, then 14 to 28."""


@dataclass(frozen=True)
class Board:
    """One column of the table: a board, with or without the database."""

    label: str
    rules: Rules
    database: bool


BOARDS = [
    Board("6 x 7 with the database", STANDARD, True),
    Board("6 x 7 without", STANDARD, False),
    Board("5 x 8", ASSIGNMENT, False),
]

BOARD_CHOICES = {"6x7": STANDARD, "5x8": ASSIGNMENT}
"""``--board``'s names of the rules it measures alone."""


@dataclass(frozen=True)
class Query:
    """One call of column_scores: the position, the answer, and how long it took."""

    moves: str
    scores: dict[int, ColumnScore]
    seconds: float

    @property
    def exact(self) -> int:
        return sum(score.exact for score in self.scores.values())


def sensible_move(position: Position, rng: random.Random) -> int:
    """A random move that takes a win in one, else blocks one, else avoids offering one."""
    lay = position.layout
    possible = position.possible()
    threats = position.opponent_winning_cells()
    wins = possible & position.winning_cells()
    blocks = possible & threats
    safe = possible & ~(threats >> 1)
    cells = wins or blocks or safe or possible
    return rng.choice([c for c, column in enumerate(lay.column_masks) if cells & column])


def sensible_game(rules: Rules, stones: int, rng: random.Random) -> Game:
    """A sensible random game of ``stones`` moves that is not over (replayed until one is)."""
    while True:
        position = Position(rules)
        moves: list[int] = []
        while len(moves) < stones:
            column = sensible_move(position, rng)
            if position.is_winning_move(column):
                break
            position.play(column)
            moves.append(column)
            if position.is_full():
                break
        else:
            return Game.from_moves(moves, rules)


def positions(
    rules: Rules, per_row: int, seed: int, rows: list[tuple[str, list[int]]] = ROWS
) -> dict[str, list[Game]]:
    """``per_row`` sensible positions for each row of the table, the same for every run."""
    table: dict[str, list[Game]] = {}
    for label, counts in rows:
        rng = random.Random(f"{seed} {rules.rows}x{rules.columns} {label}")
        table[label] = [sensible_game(rules, counts[i % len(counts)], rng) for i in range(per_row)]
    return table


@contextmanager
def database_used(used: bool) -> Iterator[None]:
    """Hide the installed database (as without the extra) unless ``used``."""
    before = os.environ.get(NO_DATABASE_VARIABLE)
    os.environ[NO_DATABASE_VARIABLE] = "0" if used else "1"
    try:
        yield
    finally:
        if before is None:
            del os.environ[NO_DATABASE_VARIABLE]
        else:
            os.environ[NO_DATABASE_VARIABLE] = before


def ask(game: Game, budget: float) -> Query:
    start = time.perf_counter()
    scores = column_scores(game, time_budget=budget)
    return Query(game.moves_string(), scores, time.perf_counter() - start)


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}, {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--per-row", type=int, default=8, help="positions per row (8)")
    parser.add_argument("--seed", type=int, default=19, help="the positions' seed (19)")
    parser.add_argument(
        "--budget",
        type=float,
        default=1.0,
        help="column_scores' time budget, in seconds (1, its default; connect.py's --thorough is 10)",
    )
    parser.add_argument(
        "--board",
        choices=["all", *BOARD_CHOICES],
        default="all",
        help="measure one board only (6x7: with and without the database)",
    )
    parser.add_argument(
        "--every-stone",
        action="store_true",
        help="a row for each number of stones up to 13, odd ones too",
    )
    options = parser.parse_args()
    rows = EVERY_STONE_ROWS if options.every_stone else ROWS
    boards = [
        board
        for board in BOARDS
        if options.board == "all" or board.rules == BOARD_CHOICES[options.board]
    ]

    print(f"before: {load_line()}")
    start = time.perf_counter()
    database = load_database()
    if database is None:
        print("the database extra is not installed: the first column is the second's")
    else:
        loaded = time.perf_counter() - start
        print(
            f"database: {len(database)} positions, loaded once in {loaded:.2f} s (not in the times)"
        )
    print(f"compiled search: 6 x 7 {runs_native(STANDARD)}, 5 x 8 {runs_native(ASSIGNMENT)}")

    print(f"budget {options.budget:g} s a query")

    results: dict[str, dict[str, list[Query]]] = {}
    for board in boards:
        with database_used(board.database):
            games = positions(board.rules, options.per_row, options.seed, rows)
            results[board.label] = {
                label: [ask(game, options.budget) for game in games[label]] for label, _ in rows
            }

    header = "| stones |" + "".join(f" {b.label}: exact | median | slowest |" for b in boards)
    print()
    print(header)
    print("|---|" + "---|---|---|" * len(boards))
    for label, _ in rows:
        cells = []
        for board in boards:
            queries = results[board.label][label]
            exact = sum(query.exact for query in queries)
            asked = sum(len(query.scores) for query in queries)
            times = [query.seconds for query in queries]
            cells.append(
                f" {exact} / {asked} | {statistics.median(times):.3f} s | {max(times):.3f} s |"
            )
        print(f"| {label} |" + "".join(cells))

    print()
    for board in boards:
        slowest = max(
            (query for queries in results[board.label].values() for query in queries),
            key=lambda query: query.seconds,
        )
        print(
            f"slowest query, {board.label}: {slowest.seconds:.3f} s, moves "
            f"{slowest.moves or '(none)'}, {slowest.exact} / {len(slowest.scores)} exact"
        )
    if all(board.label in results for board in BOARDS[:2]):
        print(f"agreement on 6 x 7: {agreement(results, rows)}")
    print(f"after: {load_line()}")


def agreement(results: dict[str, dict[str, list[Query]]], rows: list[tuple[str, list[int]]]) -> str:
    """How many exact scores found without the database match those found with it."""
    same = compared = 0
    for label, _ in rows:
        pairs = zip(results[BOARDS[0].label][label], results[BOARDS[1].label][label], strict=True)
        for with_it, without in pairs:
            assert with_it.moves == without.moves
            for column, score in without.scores.items():
                other = with_it.scores[column]
                if score.exact and other.exact:
                    compared += 1
                    same += score.score == other.score
    return f"{same} of {compared} exact scores without the database equal those with it"


if __name__ == "__main__":
    main()
