"""Compute an opening book: the exact scores and moves of a perfect computer's openings.

Run from the repository root (or, with the project installed, anywhere)::

    python -m tools.make_book --rows 5 --columns 8 --tree --depth 24 --hard-nodes 4000000
    python -m tools.make_book --rows 6 --columns 7 --tree --depth 24 --status
    python -m tools.make_book --rows 5 --columns 8 --measure 11 --samples 40

Play-tree mode (``--tree``), which built the shipped books
(``tools/build_books.sh`` runs it for both boards): the book holds the part
of the game tree a perfect computer can meet, playing first or second, with
the move it plays wherever it is to move (:mod:`tools.book_tree` says which
positions and why). Each computer node is one exact ``best_move`` search
from an empty table, in parallel over ``--workers`` processes; a node whose
search explored more than ``--hard-nodes`` positions is expanded further,
down to ``--depth`` stones, and below an easy one the computer searches at
play time. Results are appended, one ``key score move explored seconds``
line per node, to ``<work-dir>/<rows>x<columns>-connect<k>-tree<d>-hard<n>/
nodes.txt`` as soon as each is known; a run reads that file first, so stop
it at any moment and start the same command again. ``--status`` prints the
progress and a forecast; ``--write-only`` writes the book from the nodes
solved so far. The work folder defaults to ``tools/book-progress``, where
the nodes of the shipped books are committed: there the command only
writes those books again.

Full-width mode (without ``--tree``): every position up to ``--depth``
stones is listed (one entry for a position and its mirror image; positions
where the player to move wins at once are left out, their score is known).
Only the positions *at* the depth are searched, by the exact solver, in
parallel; every shallower score then follows by negamax over the children.
Positions are solved breadth-first in order of discovery, centre columns
first, so a book written from an interrupted run (``--write-only``) already
holds every position whose whole subtree is solved. Progress goes to
``<work-dir>/<rows>x<columns>-connect<k>-ply<d>/solved.txt``, one ``key
score`` line at a time. Deep enough for play at 1 s a move, this mode takes
far too long (``--measure`` times a sample of one ply); it suits small
boards and shallow books::

    python -m tools.make_book --rows 4 --columns 5 --depth 8 --workers 1

Where the build to one stone fewer has run in the same work folder, each
search starts from the bound its parents' scores give (:func:`lower_bounds`).

``--tree --full-width PLY`` writes the play tree's book with every score the
full-width builds to PLY and fewer (in the same work folder) have settled so
far added, so that hints and reviews find positions off the computer's lines
too; a position two builds score differently stops it. The shipped 5 x 8
book is made so, from the committed progress of all three::

    python -m tools.make_book --rows 5 --columns 8 --depth 8 --output /tmp/ply8.bin  # hours
    python -m tools.make_book --rows 5 --columns 8 --depth 9 --output /tmp/ply9.bin  # more
    python -m tools.make_book --rows 5 --columns 8 --tree --depth 24 --write-only --full-width 9

Either way the book is written to ``engine/data/`` (see :mod:`connect_four.engine.book`
for the format) or to ``--output``, when every position is solved, or at
once with ``--write-only``.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import queue
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from connect_four.engine.bitboard import Position
from connect_four.engine.book import (
    DATA_DIR,
    Book,
    board_name,
    book_path,
    mirror_key,
    position_of_key,
)
from connect_four.engine.errors import BookFormatError
from connect_four.engine.rules import Rules
from connect_four.engine.score import win_score
from connect_four.engine.solver import Solver
from tools.book_tree import (
    Node,
    PlayTree,
    game_continuing_children,
    node_line,
    progress_lines,
    read_nodes,
)

DEFAULT_WORK_DIR = Path(__file__).resolve().parent / "book-progress"
"""Where progress goes unless ``--work-dir`` says: beside this tool, where the
solved nodes of the shipped books are committed."""

Scorer = Callable[[Position, int | None], int]
"""Exact score of a position, given a score it is known to reach (or None)."""


# === Positions ===============================================================


def canonical(key: int, rules: Rules) -> int:
    """The smaller of a key and its mirror's (the book's key)."""
    return min(key, mirror_key(key, rules))


def children_keys(position: Position) -> Iterator[tuple[int, Position]]:
    """``(canonical key, child)`` of each move that neither wins nor fills the board."""
    rules = position.rules
    for child in game_continuing_children(position):
        yield canonical(child.key(), rules), child


def positions_by_ply(rules: Rules, depth: int) -> list[dict[int, None]]:
    """The canonical keys of every position of each ply up to ``depth``, in discovery order.

    Positions where the game is over are left out; positions where the
    player to move can win at once are listed, since a player may miss the
    win, and their children are listed too.
    """
    start = Position(rules)
    plies: list[dict[int, None]] = [{canonical(start.key(), rules): None}]
    for _ in range(depth):
        following: dict[int, None] = {}
        for key in plies[-1]:
            for child_key, _child in children_keys(position_of_key(key, rules)):
                following[child_key] = None
        plies.append(following)
    return plies


def needs_search(key: int, rules: Rules) -> bool:
    """Whether a position is stored in the book: it is not an immediate win."""
    return not position_of_key(key, rules).can_win_next()


# === Scores of the shallower plies, by negamax over the children =============


def back_up(rules: Rules, plies: list[dict[int, None]], solved: dict[int, int]) -> dict[int, int]:
    """Every book entry that follows from ``solved`` (the deepest ply's scores).

    A position's score is the best of its moves' (minus the score of the
    position after the move); a move filling the board draws; a position
    where the opponent then wins at once needs no entry. A position with
    any unknown child stays unknown.
    """
    cells = rules.cells
    known: dict[int, int] = {k: v for k, v in solved.items() if k in plies[-1]}
    for ply in range(len(plies) - 2, -1, -1):
        for key in plies[ply]:
            position = position_of_key(key, rules)
            if position.can_win_next():
                continue
            best: int | None = -cells
            for child_key, child in _all_children(position):
                if child is None:
                    value = 0  # the move fills the board: a draw
                elif child.can_win_next():
                    value = -win_score(cells, child.moves)
                else:
                    child_score = known.get(child_key)
                    if child_score is None:
                        best = None
                        break
                    value = -child_score
                assert best is not None
                best = max(best, value)
            if best is not None:
                known[key] = best
    return known


def _all_children(position: Position) -> Iterator[tuple[int, Position | None]]:
    """Each move's child as ``(canonical key, child)``; ``(0, None)`` if it fills the board.

    Only for positions where the player to move cannot win at once.
    """
    lay = position.layout
    rules = lay.rules
    possible = position.possible()
    for column in lay.centre_first:
        cell = possible & lay.column_masks[column]
        if not cell:
            continue
        child = position.copy()
        child.play_cell(cell)
        if child.is_full():
            yield 0, None
        else:
            yield canonical(child.key(), rules), child


# === Solvers =================================================================


def make_solver(rules: Rules, kind: str) -> Solver:
    """An exact solver for positions of ``rules``: ``python`` or ``native``.

    Raises:
        AcceleratorError: ``native`` was asked for and is not built.
    """
    return Solver(rules, backend="native" if kind == "native" else "python")


def make_scorer(rules: Rules, kind: str) -> Scorer:
    """An exact scorer for positions of ``rules``: ``python`` or ``native``.

    One solver is kept for the whole run, so its transposition table
    carries over between neighbouring positions, which share subtrees.
    """
    solver = make_solver(rules, kind)

    def score(position: Position, at_least: int | None) -> int:
        return solver.score(position, at_least=at_least)

    return score


def lower_bounds(rules: Rules, parent_scores: Mapping[int, int]) -> dict[int, int]:
    """A score each child of a scored position is known to reach, by canonical key.

    A position scores the best of its moves, so no move's child can score
    below minus the position's score: ``score(child) >= -score(parent)``;
    a child with several scored parents takes the highest bound. The
    search starts from it, which saves about a third of the work of a
    full-width ply whose parents the ply before has settled.
    """
    bounds: dict[int, int] = {}
    for key, score in parent_scores.items():
        for child_key, child in _all_children(position_of_key(key, rules)):
            if child is not None and bounds.get(child_key, -rules.cells) < -score:
                bounds[child_key] = -score
    return bounds


_worker_rules: Rules | None = None
_worker_scorer: Scorer | None = None


def _init_worker(rules: Rules, kind: str) -> None:
    global _worker_rules, _worker_scorer  # noqa: PLW0603 (a pool worker's own state)
    _worker_rules = rules
    _worker_scorer = make_scorer(rules, kind)


def _solve_chunk(tasks: list[tuple[int, int | None]]) -> list[tuple[int, int]]:
    """Scores of ``(key, lower bound or None)`` tasks, in order."""
    assert _worker_rules is not None and _worker_scorer is not None
    rules, scorer = _worker_rules, _worker_scorer
    return [(key, scorer(position_of_key(key, rules), bound)) for key, bound in tasks]


_worker_solver: Solver | None = None


def _init_node_worker(rules: Rules, kind: str) -> None:
    global _worker_rules, _worker_solver  # noqa: PLW0603 (a pool worker's own state)
    _worker_rules = rules
    _worker_solver = make_solver(rules, kind)


def _solve_node(key: int) -> tuple[int, Node, float]:
    """A computer node's best move, searched from an empty table (so ``explored`` is honest)."""
    assert _worker_rules is not None and _worker_solver is not None
    solver = _worker_solver
    solver.reset()
    started = time.perf_counter()
    move, score = solver.best_move(position_of_key(key, _worker_rules))
    return key, Node(score, move, solver.explored), time.perf_counter() - started


# === Progress file ===========================================================


def read_solved(path: Path) -> dict[int, int]:
    """The results appended so far; a line cut short by an interruption is ignored."""
    return {int(key): int(score) for key, score in progress_lines(path)}


def _repair_tail(path: Path) -> None:
    """Cut a last line left unfinished by an interruption, so appends start clean."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


def _say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", flush=True)


# === Commands ================================================================


def full_width_dir(work_dir: Path, rules: Rules, depth: int) -> Path:
    """The progress folder of the full-width build to ``depth`` under ``work_dir``."""
    return work_dir / f"{board_name(rules)}-ply{depth}"


def build(rules: Rules, depth: int, work: Path, workers: int, kind: str, chunk: int) -> bool:
    """Solve what is left of the deepest ply; True when all of it is solved.

    Where the build of the ply before (beside ``work``) has scored a
    position's parents, the search starts from the bound they give
    (:func:`lower_bounds`).
    """
    work.mkdir(parents=True, exist_ok=True)
    results = work / "solved.txt"
    _repair_tail(results)
    _say(f"listing the positions of {rules.rows} x {rules.columns} up to ply {depth}")
    plies = positions_by_ply(rules, depth)
    for ply, keys in enumerate(plies):
        _say(f"  ply {ply}: {len(keys)} positions (one per mirror pair)")
    tasks = [key for key in plies[-1] if needs_search(key, rules)]
    solved = read_solved(results)
    todo = [key for key in tasks if key not in solved]
    total = len(tasks)
    _say(
        f"{total} positions to search at ply {depth}, {total - len(todo)} done before, "
        f"{len(todo)} left; {workers} worker(s), {kind} solver"
    )
    if not todo:
        return True
    parents = read_solved(full_width_dir(work.parent, rules, depth - 1) / "solved.txt")
    bounds = lower_bounds(rules, parents)
    _say(f"{len(parents)} positions of ply {depth - 1} scored: {len(bounds)} lower bounds")
    tasks_left = [(key, bounds.get(key)) for key in todo]
    chunks = [tasks_left[i : i + chunk] for i in range(0, len(tasks_left), chunk)]
    started = last_report = time.monotonic()
    done_now = 0
    recent: list[tuple[float, int]] = [(started, 0)]
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(results.open("a"))
        if workers > 1:
            pool = stack.enter_context(
                multiprocessing.Pool(workers, initializer=_init_worker, initargs=(rules, kind))
            )
            answered: Iterator[list[tuple[int, int]]] = pool.imap(_solve_chunk, chunks)
        else:  # in this process: simpler to debug and to test
            _init_worker(rules, kind)
            answered = map(_solve_chunk, chunks)
        for answers in answered:
            out.write("".join(f"{key} {score}\n" for key, score in answers))
            out.flush()
            done_now += len(answers)
            now = time.monotonic()
            if now - last_report >= 30 or done_now == len(todo):
                last_report = now
                recent.append((now, done_now))
                recent = [(t, n) for t, n in recent if now - t <= 600] or recent[-1:]
                rate = done_now / max(now - started, 1e-9)
                window_t, window_n = recent[0]
                recent_rate = (done_now - window_n) / max(now - window_t, 1e-9)
                left = len(todo) - done_now
                done = total - left
                eta = left / rate if rate > 0 else float("inf")
                _say(
                    f"{done}/{total} solved ({100 * done / total:.2f}%), "
                    f"{rate:.1f}/s this run, {recent_rate:.1f}/s last 10 min; "
                    f"about {_duration(eta)} left"
                )
    return True


def build_tree(
    rules: Rules, depth: int, hard_nodes: int, work: Path, workers: int, kind: str
) -> PlayTree:
    """Solve the computer nodes of the play tree that are left; returns the tree."""
    work.mkdir(parents=True, exist_ok=True)
    results = work / "nodes.txt"
    _repair_tail(results)
    tree = PlayTree(rules, depth, hard_nodes)
    for key, (node, seconds) in read_nodes(results).items():
        tree.seconds[key] = seconds
        tree.record(key, node)
    _say(
        f"play tree of {rules.rows} x {rules.columns} to {depth} stones, hard above "
        f"{hard_nodes} positions: {len(tree.solved)} nodes solved before, "
        f"{tree.waiting_count()} waiting; {workers} worker(s), {kind} solver"
    )
    last_report = time.monotonic()
    last_book = last_report
    done: queue.Queue[tuple[int, Node, float] | BaseException] = queue.Queue()
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(results.open("a"))
        pool = None
        if workers > 1:
            pool = stack.enter_context(
                multiprocessing.Pool(workers, initializer=_init_node_worker, initargs=(rules, kind))
            )
        else:
            _init_node_worker(rules, kind)
        in_flight = 0
        while True:
            while in_flight < max(1, workers + 1):
                waiting = tree.next_waiting()
                if waiting is None:
                    break
                if pool is None:
                    done.put(_solve_node(waiting[1]))
                else:
                    pool.apply_async(
                        _solve_node, (waiting[1],), callback=done.put, error_callback=done.put
                    )
                in_flight += 1
            if not in_flight:
                break
            try:
                answer = done.get(timeout=600)
            except queue.Empty:
                _say(f"still searching {in_flight} node(s); {len(tree.solved)} solved so far")
                continue
            in_flight -= 1
            if isinstance(answer, BaseException):
                raise answer
            key, node, seconds = answer
            out.write(node_line(key, node, seconds))
            out.flush()
            tree.seconds[key] = seconds
            tree.record(key, node)
            now = time.monotonic()
            if now - last_report >= 60:
                last_report = now
                _report(tree, workers)
            if now - last_book >= 1800:
                last_book = now
                tree.book().write(work / "book.bin")
    _report(tree, workers)
    return tree


def _report(tree: PlayTree, workers: int) -> None:
    waiting_seconds, seconds, nodes = tree.estimate_seconds_left()
    plies = ", ".join(
        f"{moves}:{solved}/{solved + waiting}" + (f"({mean:.2f}s)" if mean == mean else "")
        for moves, solved, waiting, _hard, mean in tree.summary()
    )
    _say(f"solved {len(tree.solved)}, waiting {tree.waiting_count()}; by stones {plies}")
    _say(
        f"  the {tree.waiting_count()} waiting nodes: about {_duration(waiting_seconds / workers)}; "
        f"projected: about {nodes} nodes, {_duration(seconds / workers)} left (rough)"
    )


def write_book(rules: Rules, depth: int, work: Path, output: Path) -> Book:
    """Back up the scores solved so far and write the book; returns it."""
    plies = positions_by_ply(rules, depth)
    solved = read_solved(work / "solved.txt")
    known = back_up(rules, plies, solved)
    book = Book(rules, depth, known)
    output.parent.mkdir(parents=True, exist_ok=True)
    book.write(output)
    stored = [sum(1 for key in keys if key in known) for keys in plies]
    wanted = [sum(1 for key in keys if needs_search(key, rules)) for keys in plies]
    for ply, (have, want) in enumerate(zip(stored, wanted, strict=True)):
        _say(f"  ply {ply}: {have}/{want} positions known")
    _say(f"wrote {output} ({output.stat().st_size} bytes, {len(book)} entries)")
    return book


def full_width_known(rules: Rules, depth: int, work_dir: Path) -> dict[int, int]:
    """Every score the full-width builds up to ``depth`` under ``work_dir`` have settled so far.

    The positions at ``depth`` solved so far, and each shallower one whose
    every descendant down to ``depth`` is: an interrupted build gives what
    it has. A build to fewer stones in the same folder (the one whose
    scores started this one) adds the shallower positions it settled.

    Raises:
        BookFormatError: two builds give one position different scores.
    """
    known = back_up(
        rules,
        positions_by_ply(rules, depth),
        read_solved(full_width_dir(work_dir, rules, depth) / "solved.txt"),
    )
    if depth > 1 and full_width_dir(work_dir, rules, depth - 1).is_dir():
        for key, score in full_width_known(rules, depth - 1, work_dir).items():
            if known.setdefault(key, score) != score:
                raise BookFormatError(
                    f"the full-width builds to {depth - 1} and {depth} stones score "
                    f"position {key} {score} and {known[key]}"
                )
    return known


def with_full_width(tree_book: Book, known: Mapping[int, int], depth: int) -> Book:
    """The play tree's book with the scores ``known`` of the full-width build to ``depth`` added.

    Hints, reviews and a computer that meets a position off its own lines
    then find it too. The tree's entries keep their recorded moves.

    Raises:
        BookFormatError: the two builds give one position different scores.
    """
    scores = tree_book.entries()
    for key, score in known.items():
        if scores.setdefault(key, score) != score:
            position = position_of_key(key, tree_book.rules)
            raise BookFormatError(
                f"the play tree scores {position.moves}-stone position {key} {scores[key]}, "
                f"the full-width build {score}"
            )
    return Book(tree_book.rules, max(tree_book.max_ply, depth), scores, tree_book.recorded_moves())


def measure(rules: Rules, ply: int, samples: int, kind: str, seed: int) -> None:
    """Time the exact search on positions drawn uniformly from those at ``ply``."""
    _say(f"listing the positions up to ply {ply}")
    keys = [key for key in positions_by_ply(rules, ply)[-1] if needs_search(key, rules)]
    rng = random.Random(seed)
    chosen = rng.sample(keys, min(samples, len(keys)))
    times: list[float] = []
    for key in chosen:
        scorer = make_scorer(rules, kind)  # a fresh table: the worst case
        started = time.perf_counter()
        scorer(position_of_key(key, rules), None)
        times.append(time.perf_counter() - started)
    times.sort()
    mean = sum(times) / len(times)
    _say(
        f"{rules.rows} x {rules.columns} ply {ply}: {len(keys)} positions to search; "
        f"{len(times)} sampled: mean {mean:.4f} s, median {times[len(times) // 2]:.4f} s, "
        f"90% {times[int(0.9 * (len(times) - 1))]:.4f} s, max {times[-1]:.4f} s; "
        f"all of them, one core: about {_duration(mean * len(keys))}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--columns", type=int, default=8)
    parser.add_argument("--connect", type=int, default=4)
    parser.add_argument("--depth", type=int, help="the book holds every position up to this ply")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--solver", choices=("python", "native"), default="native")
    parser.add_argument("--chunk", type=int, default=32, help="positions per task")
    parser.add_argument(
        "--work-dir",
        type=Path,
        default=DEFAULT_WORK_DIR,
        help="where the progress files live (default: tools/book-progress)",
    )
    parser.add_argument("--output", type=Path, help=f"the book file (default: in {DATA_DIR})")
    parser.add_argument(
        "--tree",
        action="store_true",
        help="the play tree of a perfect computer (book_tree.py) instead of every position",
    )
    parser.add_argument(
        "--hard-nodes",
        type=int,
        default=4_000_000,
        help="with --tree: expand computer nodes whose search explored more positions",
    )
    parser.add_argument(
        "--full-width",
        type=int,
        metavar="PLY",
        help="with --tree: add what the full-width build to PLY (same work folder) has settled",
    )
    parser.add_argument(
        "--status",
        action="store_true",
        help="with --tree: print the progress and forecast, then stop",
    )
    parser.add_argument(
        "--write-only", action="store_true", help="write the book from what is solved"
    )
    parser.add_argument(
        "--measure", type=int, metavar="PLY", help="time the search at PLY, then stop"
    )
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = Rules(args.rows, args.columns, args.connect)
    if args.measure is not None:
        measure(rules, args.measure, args.samples, args.solver, args.seed)
        return 0
    if args.depth is None:
        parser.error("--depth is needed to build or write a book")
    output = args.output or book_path(rules)
    if args.tree:
        work = args.work_dir / f"{board_name(rules)}-tree{args.depth}-hard{args.hard_nodes}"
        if args.write_only or args.status:
            tree = PlayTree(rules, args.depth, args.hard_nodes)
            for key, (node, seconds) in read_nodes(work / "nodes.txt").items():
                tree.seconds[key] = seconds
                tree.record(key, node)
            if args.status:
                _report(tree, args.workers)
                return 0
        else:
            tree = build_tree(rules, args.depth, args.hard_nodes, work, args.workers, args.solver)
        book = tree.book()
        if args.full_width is not None:
            known = full_width_known(rules, args.full_width, args.work_dir)
            book = with_full_width(book, known, args.full_width)
            _say(f"added the {len(known)} scores the full-width build to {args.full_width} knows")
        output.parent.mkdir(parents=True, exist_ok=True)
        book.write(output)
        _say(f"wrote {output} ({output.stat().st_size} bytes, {len(book)} entries)")
        return 0
    work = full_width_dir(args.work_dir, rules, args.depth)
    if not args.write_only:
        build(rules, args.depth, work, args.workers, args.solver, args.chunk)
    write_book(rules, args.depth, work, output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
