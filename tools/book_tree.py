"""The part of the game tree that a perfect computer can meet, solved for the opening book.

A full-width book deep enough for play at 1 s a move cannot be computed in
hours (see ``make_book.py --measure``). But the computer only meets the
positions its own moves lead to: where it is to move (a *computer node*) the
book records one move achieving the exact score; the position after that
move (a *reply node*) is stored with its score, for the hint; and every
reply of the opponent leads to a computer node again. The computer plays
first in one tree and second in the other; the book holds both.

A computer node is *hard* when its exact search, from an empty table,
explored more than ``hard_nodes`` positions. Only hard computer nodes with
fewer than ``depth - 1`` stones are expanded: below an easy node the
computer searches in play (a smaller position searches faster), and below
``depth`` it searches whatever happens. So the tree follows the balanced
lines, where the search is slow, and stops early where one side has blundered.

The tree is rebuilt from the solved nodes each time, so the results file
(one ``key score move explored`` line per node) is all there is to resume.
Nodes are solved fewest stones first: the shallow part of the book, the
most useful, is done first.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from connect_four.engine.bitboard import Position
from connect_four.engine.book import Book, canonical_key, position_of_key
from connect_four.engine.rules import Rules

__all__ = [
    "Node",
    "PlayTree",
    "game_continuing_children",
    "node_line",
    "progress_lines",
    "read_nodes",
]


_PRIOR_HARD_SHARE = {8: 0.9, 9: 0.7, 10: 0.5, 11: 0.35, 12: 0.2, 13: 0.1, 14: 0.05}
"""Share of positions searching more than 4M nodes, by stones, before the
run has seen enough: guessed from native timings of random 5 x 8 and 6 x 7
positions (ply 10: mean 0.5-0.65 s, ply 12: 0.3 s, ply 14: 0.07-0.15 s)."""


@dataclass(frozen=True)
class Node:
    """What the exact search found at a computer node."""

    score: int
    move: int
    """A column achieving the score, in the orientation of the canonical key."""
    explored: int
    """Positions the search explored from an empty table."""


def game_continuing_children(position: Position) -> Iterator[Position]:
    """The positions after each move that neither wins nor fills the board."""
    lay = position.layout
    possible = position.possible()
    winning = position.winning_cells()
    for column in lay.centre_first:
        cell = possible & lay.column_masks[column]
        if not cell or cell & winning:
            continue
        child = position.copy()
        child.play_cell(cell)
        if not child.is_full():
            yield child


class PlayTree:
    """The computer nodes of both trees, solved or waiting, up to ``depth`` stones."""

    def __init__(self, rules: Rules, depth: int, hard_nodes: int) -> None:
        self.rules = rules
        self.depth = depth
        self.hard_nodes = hard_nodes
        self.solved: dict[int, Node] = {}
        self.replies: dict[int, int] = {}
        """Reply nodes: canonical key to exact score."""
        self.members: dict[int, int] = {}
        """Every computer node of the tree: canonical key to stones on the board."""
        self.seconds: dict[int, float] = {}
        """Seconds each solved node's search took, where known."""
        self._waiting: list[tuple[int, int]] = []
        start = Position(rules)
        self._add(start)  # the computer plays first
        for child in game_continuing_children(start):  # the computer plays second
            self._add(child)

    def _add(self, position: Position) -> None:
        if position.moves > self.depth or position.can_win_next():
            return  # past the book, or the win is found without a search
        key = canonical_key(position)
        if key in self.members:
            return
        self.members[key] = position.moves
        if key in self.solved:
            self._expand(key)
        else:
            heapq.heappush(self._waiting, (position.moves, key))

    def _expand(self, key: int) -> None:
        node = self.solved[key]
        reply = position_of_key(key, self.rules)
        reply.play(node.move)
        if reply.is_full() or reply.is_won():
            return
        if not reply.can_win_next():
            self.replies[canonical_key(reply)] = -node.score
        if node.explored > self.hard_nodes:
            for child in game_continuing_children(reply):
                self._add(child)

    def record(self, key: int, node: Node) -> None:
        """Take the result of a computer node's search and grow the tree below it."""
        self.solved[key] = node
        if key in self.members:
            self._expand(key)

    def next_waiting(self) -> tuple[int, int] | None:
        """``(stones, key)`` of an unsolved computer node with the fewest stones, or None."""
        while self._waiting:
            moves, key = heapq.heappop(self._waiting)
            if key not in self.solved:
                return moves, key
        return None

    def waiting_count(self) -> int:
        """How many computer nodes still wait for their search."""
        return sum(1 for _, key in self._waiting if key not in self.solved)

    def book(self) -> Book:
        """The book of every solved computer node and reply node of the tree."""
        scores = dict(self.replies)
        moves: dict[int, int] = {}
        for key in self.members:
            node = self.solved.get(key)
            if node is not None:
                scores[key] = node.score
                moves[key] = node.move
        return Book(self.rules, self.depth + 1, scores, moves)

    def summary(self) -> list[tuple[int, int, int, int, float]]:
        """Per stone count: ``(stones, solved, waiting, hard, mean seconds)``.

        Mean seconds come from :attr:`seconds`, filled by the caller.
        """
        rows: dict[int, list[float]] = {}
        for key, moves in self.members.items():
            row = rows.setdefault(moves, [0, 0, 0, 0.0, 0])
            node = self.solved.get(key)
            if node is None:
                row[1] += 1
            else:
                row[0] += 1
                row[2] += node.explored > self.hard_nodes
                seconds = self.seconds.get(key)
                if seconds is not None:
                    row[3] += seconds
                    row[4] += 1
        return [
            (moves, int(r[0]), int(r[1]), int(r[2]), r[3] / r[4] if r[4] else float("nan"))
            for moves, r in sorted(rows.items())
        ]

    def estimate_seconds_left(self) -> tuple[float, float, int]:
        """A rough forecast: ``(seconds for the waiting nodes, seconds in all, nodes in all)``.

        Seconds are of one worker. Each ply's waiting nodes cost the mean
        time seen at that ply, or else at the nearest shallower ply measured,
        halved for each ply further down (as measured on random positions). The
        projection adds the nodes that hard nodes will bring two plies down:
        as many per hard node, and as large a hard share, as seen so far at
        that ply; where too little is seen yet, :data:`_PRIOR_HARD_SHARE` and
        one node per column.
        """
        table = {moves: row for moves, *row in self.summary()}
        expected: dict[int, float] = {}
        waiting_seconds = total_seconds = total_nodes = 0.0
        measured, measured_at = 1.0, 0
        for moves in range(self.depth + 1):
            row = table.get(moves)
            waiting = float(row[1]) if row is not None else 0.0
            if row is not None and row[3] == row[3]:  # not NaN: some node timed
                measured, measured_at = row[3], moves
            mean = measured / 2 ** (moves - measured_at)
            count = waiting + expected.get(moves, 0.0)
            waiting_seconds += waiting * mean
            total_seconds += count * mean
            total_nodes += count
            if row is not None and row[0] >= 20:
                share = row[2] / row[0]
            else:
                share = _PRIOR_HARD_SHARE.get(moves, 1.0 if moves < 8 else 0.0)
            below = table.get(moves + 2)
            if row is not None and row[2] and below is not None and below[0] + below[1]:
                per_hard = (below[0] + below[1]) / row[2]
            else:
                per_hard = float(self.rules.columns)
            if moves + 2 <= self.depth:
                expected[moves + 2] = expected.get(moves + 2, 0.0) + count * share * per_hard
        return waiting_seconds, total_seconds, int(total_nodes)


def progress_lines(path: Path) -> Iterator[list[bytes]]:
    """The fields of each whole line of an append-only progress file, if it exists.

    A last line cut short by an interruption is ignored: it is searched again.
    """
    if not path.exists():
        return
    with path.open("rb") as stream:
        for line in stream:
            if not line.endswith(b"\n"):
                return
            yield line.split()


def read_nodes(path: Path) -> dict[int, tuple[Node, float]]:
    """The nodes solved so far (with their seconds); a line cut short is ignored."""
    nodes: dict[int, tuple[Node, float]] = {}
    for key, score, move, explored, seconds in progress_lines(path):
        nodes[int(key)] = (Node(int(score), int(move), int(explored)), float(seconds))
    return nodes


def node_line(key: int, node: Node, seconds: float) -> str:
    """The results-file line of a solved node."""
    return f"{key} {node.score} {node.move} {node.explored} {seconds:.3f}\n"
