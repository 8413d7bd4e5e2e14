"""Tests of the opening book: its keys, its file, its scores, its generator, when it loads."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
from pathlib import Path

import pytest
from test_solver import brute_force

from connect_four.engine import book as book_module
from connect_four.engine.bitboard import Position
from connect_four.engine.book import (
    Book,
    BookFormatError,
    best_move,
    book_path,
    canonical_key,
    load,
    lookup,
    mirror_key,
    position_of_key,
)
from connect_four.engine.rules import Rules
from connect_four.engine.solver import SearchAborted, Solver
from tools import make_book

ROOT = Path(__file__).resolve().parent.parent


BIG_BOARDS = [Rules(rows=5, columns=8), Rules(rows=6, columns=7)]


def _random_position(rules: Rules, rng: random.Random, length: int) -> Position:
    """A position of up to ``length`` random moves that nobody has won."""
    position = Position(rules)
    for _ in range(length):
        moves = [c for c in position.legal_moves() if not position.is_winning_move(c)]
        if not moves:
            break
        position.play(rng.choice(moves))
    return position


def _small_book(rules: Rules, depth: int) -> Book:
    """A book built like the generator builds one, in-process, with the pure solver."""
    plies = make_book.positions_by_ply(rules, depth)
    solver = Solver(rules)
    solved = {
        key: solver.score(position_of_key(key, rules))
        for key in plies[-1]
        if make_book.needs_search(key, rules)
    }
    return Book(rules, depth, make_book.back_up(rules, plies, solved))


SMALL_BOOKS = {
    "4x5": (Rules(rows=4, columns=5), 4),
    "5x4": (Rules(rows=5, columns=4), 5),
}


@pytest.fixture(scope="module", params=sorted(SMALL_BOOKS))
def small_book(request: pytest.FixtureRequest) -> Book:
    rules, depth = SMALL_BOOKS[request.param]
    return _small_book(rules, depth)


def _positions_up_to(book: Book) -> list[Position]:
    plies = make_book.positions_by_ply(book.rules, book.max_ply)
    return [position_of_key(key, book.rules) for keys in plies for key in keys]


# --- Keys ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", BIG_BOARDS, ids=str)
def test_mirror_key_is_the_key_of_the_mirrored_game(rules: Rules) -> None:
    rng = random.Random(15)
    for _ in range(200):
        moves = [rng.randrange(rules.columns) for _ in range(rng.randrange(12))]
        moves = [c for i, c in enumerate(moves) if moves[:i].count(c) < rules.rows]
        mirrored = [rules.columns - 1 - c for c in moves]
        key = Position.from_moves(moves, rules).key()
        assert mirror_key(key, rules) == Position.from_moves(mirrored, rules).key()
        assert mirror_key(mirror_key(key, rules), rules) == key


def test_a_position_and_its_mirror_share_one_book_key() -> None:
    rules = Rules()
    left = Position.from_moves([0, 1, 1, 3], rules)
    right = Position.from_moves([7, 6, 6, 4], rules)
    assert canonical_key(left) == canonical_key(right) == min(left.key(), right.key())


def test_a_symmetric_position_is_its_own_mirror() -> None:
    rules = Rules(rows=6, columns=7)
    position = Position.from_moves([3, 2, 3, 4], rules)
    assert mirror_key(position.key(), rules) == position.key()


@pytest.mark.parametrize("rules", BIG_BOARDS, ids=str)
def test_position_of_key_rebuilds_the_position(rules: Rules) -> None:
    rng = random.Random(7)
    for _ in range(200):
        position = _random_position(rules, rng, rng.randrange(rules.cells))
        rebuilt = position_of_key(position.key(), rules)
        assert (rebuilt.current, rebuilt.mask, rebuilt.moves) == (
            position.current,
            position.mask,
            position.moves,
        )


# --- File format -----------------------------------------------------------------


def test_a_written_book_reads_back_the_same(tmp_path: Path) -> None:
    rules = Rules(rows=6, columns=7)
    entries = {3: 1, 1 << 48: -18, 12345: 0, 77: 18}
    path = tmp_path / "book.bin"
    Book(rules, 9, entries).write(path)
    again = Book.read(path)
    assert (again.rules, again.max_ply, again.entries()) == (rules, 9, entries)
    assert list(again.keys) == sorted(entries)


def test_an_empty_book_reads_back_empty(tmp_path: Path) -> None:
    path = tmp_path / "book.bin"
    Book(Rules(), 0, {}).write(path)
    assert len(Book.read(path)) == 0


def _written(tmp_path: Path) -> bytes:
    path = tmp_path / "book.bin"
    Book(Rules(), 2, {5: 1, 9: -1}).write(path)
    return path.read_bytes()


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:10],
        lambda data: b"NOTABOOK" + data[8:],
        lambda data: data[:-3],
        lambda data: data[:12] + b"\x05\x00\x00\x00" + data[16:],  # wrong entry count
    ],
    ids=["truncated header", "wrong magic", "truncated payload", "wrong count"],
)
def test_a_damaged_file_is_refused_clearly(tmp_path: Path, damage: object) -> None:
    path = tmp_path / "damaged.bin"
    assert callable(damage)
    path.write_bytes(damage(_written(tmp_path)))
    with pytest.raises(BookFormatError, match=r"damaged\.bin"):
        Book.read(path)


def _with_payload(tmp_path: Path, keys: list[int], scores_and_moves: bytes) -> bytes:
    """A written book's header followed by a payload of our own making."""
    import zlib
    from array import array

    stored = array("Q", keys)
    if sys.byteorder == "big":
        stored.byteswap()
    return _written(tmp_path)[:16] + zlib.compress(stored.tobytes() + scores_and_moves)


def test_keys_out_of_order_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "unsorted.bin"
    path.write_bytes(_with_payload(tmp_path, [9, 5], bytes([1, 255, 255, 255])))
    with pytest.raises(BookFormatError, match="out of order"):
        Book.read(path)


def test_a_recorded_move_off_the_board_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "offboard.bin"
    path.write_bytes(_with_payload(tmp_path, [5, 9], bytes([1, 255, 8, 255])))
    with pytest.raises(BookFormatError, match="move off the board"):
        Book.read(path)


def test_recorded_moves_read_back_and_follow_the_mirror(tmp_path: Path) -> None:
    rules = Rules()
    left = Position.from_moves([0, 1], rules)
    key = canonical_key(left)
    # Record column 2 in the canonical orientation; the other side sees column 5.
    canonical_position = position_of_key(key, rules)
    path = tmp_path / "moves.bin"
    Book(rules, 4, {key: 0}, {key: 2}).write(path)
    book = Book.read(path)
    assert book.recorded_moves() == {key: 2}
    assert book.move(canonical_position) == 2
    mirrored = Position.from_moves([7, 6], rules)
    assert canonical_key(mirrored) == key
    other = mirrored if canonical_position.key() == left.key() else left
    assert book.move(other) == 5
    assert best_move(other, book=book) == (5, 0)


def test_a_move_without_a_score_is_refused() -> None:
    with pytest.raises(BookFormatError, match="without a score"):
        Book(Rules(), 0, {}, {5: 1})


def test_a_score_beyond_a_signed_byte_is_refused() -> None:
    with pytest.raises(BookFormatError, match="signed byte"):
        Book(Rules(), 0, {1: 200})


def test_a_board_too_big_for_64_bit_keys_is_refused() -> None:
    with pytest.raises(BookFormatError, match="64 bits"):
        Book(Rules(rows=8, columns=8), 0, {})


def test_book_path_names_the_board() -> None:
    assert book_path(Rules(rows=6, columns=7), Path("d")) == Path("d/book-6x7-connect4.bin")


# --- Scores of small books against the pure solver and brute force ---------------


def test_a_small_book_knows_every_position_up_to_its_depth(small_book: Book) -> None:
    for position in _positions_up_to(small_book):
        assert small_book.score(position) is not None, position


def test_a_small_book_agrees_with_the_solver_everywhere(small_book: Book) -> None:
    solver = Solver(small_book.rules)
    for position in _positions_up_to(small_book):
        assert small_book.score(position) == solver.score(position), position


def test_a_small_book_stores_one_entry_per_mirror_pair(small_book: Book) -> None:
    rules = small_book.rules
    for key in small_book.keys:
        assert key <= mirror_key(key, rules)
        assert not position_of_key(key, rules).can_win_next()


@pytest.mark.slow
def test_a_tiny_book_agrees_with_brute_force_on_every_move_sequence() -> None:
    rules = Rules(rows=3, columns=4, connect=3)
    depth = 4
    book = _small_book(rules, depth)
    checked = 0

    def visit(moves: list[int]) -> None:
        nonlocal checked
        position = Position.from_moves(moves, rules)
        if position.is_won() or position.is_full():
            return
        assert book.score(position) == brute_force(rules, moves), moves
        checked += 1
        if len(moves) < depth:
            for column in position.legal_moves():
                visit([*moves, column])

    visit([])
    assert checked > 100


def test_book_moves_are_the_solver_s_moves(small_book: Book) -> None:
    solver = Solver(small_book.rules)
    for position in _positions_up_to(small_book):
        expected = solver.best_move(position)
        if position.moves < small_book.max_ply:
            assert best_move(position, book=small_book) == expected, position
        assert best_move(position, solver.score, small_book) == expected, position


def test_the_last_ply_needs_a_solver_for_its_children(small_book: Book) -> None:
    rules = small_book.rules
    last = make_book.positions_by_ply(rules, small_book.max_ply)[-1]
    unfinished = 0
    for key in last:
        position = position_of_key(key, rules)
        if best_move(position, book=small_book) is None:
            unfinished += 1
    assert unfinished > 0


def test_a_position_beyond_the_book_is_unknown(small_book: Book) -> None:
    rng = random.Random(3)
    deeper = [
        position
        for position in (
            _random_position(small_book.rules, rng, small_book.max_ply + 1) for _ in range(50)
        )
        if position.moves > small_book.max_ply and not position.can_win_next()
    ]
    assert deeper
    for position in deeper:
        assert small_book.score(position) is None
        assert best_move(position, book=small_book) is None


def test_a_position_of_other_rules_is_unknown(small_book: Book) -> None:
    assert small_book.score(Position(Rules(rows=6, columns=7))) is None


def test_a_win_in_one_is_scored_without_an_entry() -> None:
    rules = Rules(rows=6, columns=7)
    position = Position.from_moves([3, 3, 4, 4, 5, 5], rules)
    assert Book(rules, 0, {}).score(position) == 18


# --- Loading ------------------------------------------------------------------


def test_lookup_reads_the_shipped_file_once(no_opening_books: Path) -> None:
    rules = Rules(rows=4, columns=5)
    _small_book(rules, 3).write(book_path(rules, no_opening_books))
    position = Position.from_moves([2, 2], rules)
    assert lookup(position) == Solver(rules).score(position)
    assert load(rules) is load(rules)


@pytest.mark.usefixtures("no_opening_books")
def test_without_a_book_nothing_is_known() -> None:
    position = Position(Rules(rows=4, columns=5))
    assert load(position.rules) is None
    assert lookup(position) is None
    assert best_move(position) is None


def _modules_after(script: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-S", "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(result.stdout.split())


def test_the_default_game_never_loads_the_book() -> None:
    script = (
        "import runpy, sys\n"
        "moves = iter('0101010')\n"
        "runpy.run_path('connect.py', run_name='__main__', init_globals={\n"
        "    'print': lambda *args, **kwargs: None,\n"
        "    'input': lambda prompt='': next(moves)})\n"
        "print(' '.join(sys.modules))\n"
    )
    loaded = _modules_after(script)
    assert "connect_four.engine.game" in loaded  # the game did run
    assert "connect_four.engine.book" not in loaded


def test_importing_the_solver_does_not_load_the_book() -> None:
    loaded = _modules_after("import sys, connect_four.engine.solver; print(' '.join(sys.modules))")
    assert "connect_four.engine.solver" in loaded
    assert "connect_four.engine.book" not in loaded


# --- The generator ---------------------------------------------------------------


def test_the_generator_resumes_where_it_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = Rules(rows=3, columns=4, connect=3)
    options = [
        "--rows", "3", "--columns", "4", "--connect", "3", "--depth", "3",
        "--solver", "python", "--workers", "1", "--chunk", "4",
        "--work-dir", str(tmp_path), "--output", str(tmp_path / "book.bin"),
    ]  # fmt: skip
    make_book.main(options)
    whole = Book.read(tmp_path / "book.bin")
    results = tmp_path / "3x4-connect3-ply3" / "solved.txt"
    lines = results.read_text().splitlines()
    # An interruption: half the results kept, and a last line cut short.
    results.write_text("\n".join(lines[: len(lines) // 2]) + "\n" + lines[-1][:3])
    capsys.readouterr()
    make_book.main(options)
    out = capsys.readouterr().out
    assert f"{len(lines) // 2} done before, {len(lines) - len(lines) // 2} left" in out
    again = Book.read(tmp_path / "book.bin")
    assert again.entries() == whole.entries() == _small_book(rules, 3).entries()
    assert len(results.read_text().splitlines()) == len(lines)


def test_a_child_scores_no_less_than_the_bound_its_parents_give() -> None:
    rules = Rules(rows=4, columns=5, connect=3)
    book = _small_book(rules, 4)
    plies = make_book.positions_by_ply(rules, 4)
    parents = {
        key: book.score_of_key(key) for key in plies[3] if make_book.needs_search(key, rules)
    }
    bounds = make_book.lower_bounds(rules, parents)
    scored = {key: book.score_of_key(key) for key in bounds if make_book.needs_search(key, rules)}
    assert scored and all(scored[key] >= bounds[key] for key in scored)
    # A best child meets its parent's bound exactly: that is what saves the search.
    assert sum(scored[key] == bounds[key] for key in scored) >= len(scored) // 4


def test_a_build_after_the_ply_before_starts_from_its_bounds_and_scores_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = ["--rows", "3", "--columns", "4", "--connect", "3", "--solver", "python",
             "--workers", "1", "--work-dir", str(tmp_path)]  # fmt: skip
    make_book.main([*board, "--depth", "3", "--output", str(tmp_path / "ply3.bin")])
    capsys.readouterr()
    make_book.main([*board, "--depth", "4", "--output", str(tmp_path / "ply4.bin")])
    out = capsys.readouterr().out
    parents = len((tmp_path / "3x4-connect3-ply3" / "solved.txt").read_text().splitlines())
    assert f"{parents} positions of ply 3 scored" in out
    bounded = Book.read(tmp_path / "ply4.bin")
    assert bounded.entries() == _small_book(Rules(rows=3, columns=4, connect=3), 4).entries()


def test_write_only_keeps_what_is_complete(tmp_path: Path) -> None:
    rules = Rules(rows=3, columns=4, connect=3)
    plies = make_book.positions_by_ply(rules, 3)
    full = _small_book(rules, 3)
    deepest = [key for key in plies[-1] if make_book.needs_search(key, rules)]
    work = tmp_path / "3x4-connect3-ply3"
    work.mkdir()
    kept = deepest[: len(deepest) // 2]
    (work / "solved.txt").write_text("".join(f"{key} {full.score_of_key(key)}\n" for key in kept))
    make_book.main(
        ["--rows", "3", "--columns", "4", "--connect", "3", "--depth", "3", "--write-only",
         "--work-dir", str(tmp_path), "--output", str(tmp_path / "partial.bin")]
    )  # fmt: skip
    partial = Book.read(tmp_path / "partial.bin")
    assert 0 < len(partial) < len(full)
    for key, score in partial.entries().items():
        assert full.score_of_key(key) == score


def test_a_play_tree_book_takes_in_what_the_full_width_build_settled(tmp_path: Path) -> None:
    """--tree --full-width: the tree's entries and moves, and the full-width scores beside."""
    rules = Rules(rows=3, columns=4, connect=3)
    full = _small_book(rules, 3)
    work = tmp_path / "3x4-connect3-ply3"
    work.mkdir()
    (work / "solved.txt").write_text(
        "".join(f"{key} {score}\n" for key, score in full.entries().items())
    )
    board = ["--rows", "3", "--columns", "4", "--connect", "3", "--work-dir", str(tmp_path)]
    tree_options = [*board, "--tree", "--depth", "4", "--solver", "python", "--workers", "1"]
    make_book.main([*tree_options, "--output", str(tmp_path / "tree.bin")])
    make_book.main([*tree_options, "--write-only", "--full-width", "3",
                    "--output", str(tmp_path / "both.bin")])  # fmt: skip
    tree, both = Book.read(tmp_path / "tree.bin"), Book.read(tmp_path / "both.bin")
    assert both.entries() == {**full.entries(), **tree.entries()}
    assert len(both) > len(tree)
    assert both.recorded_moves() == tree.recorded_moves()


def _write_progress(folder: Path, scores: dict[int, int]) -> None:
    folder.mkdir()
    (folder / "solved.txt").write_text("".join(f"{key} {score}\n" for key, score in scores.items()))


def _deepest_scores(rules: Rules, depth: int) -> dict[int, int]:
    book = _small_book(rules, depth)
    deepest = make_book.positions_by_ply(rules, depth)[-1]
    return {key: book.score_of_key(key) for key in deepest if make_book.needs_search(key, rules)}


def test_an_unfinished_build_keeps_what_the_build_before_it_settled(tmp_path: Path) -> None:
    rules = Rules(rows=3, columns=4, connect=3)
    _write_progress(tmp_path / "3x4-connect3-ply3", _deepest_scores(rules, 3))
    ply4 = _deepest_scores(rules, 4)
    half = dict(list(ply4.items())[: len(ply4) // 2])
    _write_progress(tmp_path / "3x4-connect3-ply4", half)
    known = make_book.full_width_known(rules, 4, tmp_path)
    alone = make_book.back_up(rules, make_book.positions_by_ply(rules, 4), half)
    assert _small_book(rules, 3).entries().items() <= known.items()
    assert half.items() <= known.items()
    assert len(known) > len(alone)


def test_full_width_builds_that_contradict_each_other_are_refused(tmp_path: Path) -> None:
    rules = Rules(rows=3, columns=4, connect=3)
    wrong = {key: score + 1 for key, score in _deepest_scores(rules, 3).items()}
    _write_progress(tmp_path / "3x4-connect3-ply3", wrong)
    _write_progress(tmp_path / "3x4-connect3-ply4", _deepest_scores(rules, 4))
    with pytest.raises(BookFormatError, match="the full-width builds to 3 and 4 stones score"):
        make_book.full_width_known(rules, 4, tmp_path)


def test_a_full_width_score_that_contradicts_the_play_tree_is_refused() -> None:
    rules = Rules(rows=3, columns=4, connect=3)
    start = canonical_key(Position(rules))
    tree = Book(rules, 0, {start: 1}, {start: 1})
    assert make_book.with_full_width(tree, {start: 1}, 3).entries() == {start: 1}
    with pytest.raises(BookFormatError, match="the play tree scores 0-stone position"):
        make_book.with_full_width(tree, {start: 2}, 3)


def test_a_full_width_build_that_settled_nothing_yet_leaves_the_play_tree_as_it_is() -> None:
    rules = Rules(rows=3, columns=4, connect=3)
    start = canonical_key(Position(rules))
    tree = Book(rules, 5, {start: 1}, {start: 1})
    merged = make_book.with_full_width(tree, {}, 3)
    assert (merged.entries(), merged.recorded_moves(), merged.max_ply) == (
        {start: 1},
        {start: 1},
        5,
    )


def _best_child_score(position: Position, book: Book) -> int | None:
    """The negamax of the book's scores of every move, or None if one is missing."""
    values = []
    for column in position.legal_moves():
        if position.is_winning_move(column):
            values.append((position.rules.cells + 1 - position.moves) // 2)
            continue
        child = position.copy()
        child.play(column)
        child_score = 0 if child.is_full() else book.score(child)
        if child_score is None:
            return None
        values.append(-child_score)
    return max(values)


# --- The shipped books --------------------------------------------------------------


SHIPPED = sorted(book_module.DATA_DIR.glob("book-*.bin"))
SAMPLE_NODES = 4_000
"""Node budget of each pure-Python check of a shipped entry: a tenth of a second at most."""

SEARCHED_NODES = 20
"""Fewer positions than this settle an entry without a search (a win at
once, no safe move): such an entry checks only the obvious-move rules."""


def test_the_5_by_8_book_knows_every_position_of_up_to_9_stones() -> None:
    """Its full-width builds are complete to 9 stones (docs/engine.md): a seeded sample, none unknown."""
    rules, rng = Rules(rows=5, columns=8), random.Random(9)
    for _ in range(2_000):
        position = _random_position(rules, rng, rng.randint(0, 9))
        assert lookup(position) is not None, position


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_shipped_entries_agree_with_the_pure_solver(path: Path) -> None:
    """Ten entries that take a real search, re-solved from scratch by the pure-Python reference.

    The compiled search counts exactly the nodes the pure one would
    (tests/test_exact_backends.py), so it picks, from the entries with the
    most stones down, the first ten the pure search settles within its
    budget after a search of its own; the pure search alone then gives the
    verdict. Picking blind, most tries would run out of budget and check
    nothing; picking the cheapest, every one was settled before any search.
    """
    shipped = Book.read(path)
    rules = shipped.rules
    # Rebuilding a position from its key takes 12 us: a seeded sample of the
    # entries is sorted, not all 796,998 of the 5 x 8 book (9 s).
    indices = random.Random(path.name).sample(range(len(shipped)), min(len(shipped), 10_000))
    order = sorted(indices, key=lambda i: -position_of_key(shipped.keys[i], rules).moves)
    picker = Solver(rules)  # compiled where it is built: same nodes, far faster
    sample: list[int] = []
    for index in order:
        picker.reset()
        picker.node_limit = SAMPLE_NODES
        with contextlib.suppress(SearchAborted):
            picker.score(position_of_key(shipped.keys[index], rules))
            if picker.explored >= SEARCHED_NODES:
                sample.append(index)
        if len(sample) == 10:
            break
    assert len(sample) == 10, f"only {len(sample)} entries of {path.name} within the budget"
    reference = Solver(rules, backend="python")  # whatever built the book
    for index in sample:
        position = position_of_key(shipped.keys[index], rules)
        reference.reset()
        assert reference.score(position) == shipped.scores[index], position


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_shipped_moves_keep_the_score(path: Path) -> None:
    """A recorded move leads to a position scored minus the entry's score."""
    shipped = Book.read(path)
    rules = shipped.rules
    checked = 0
    for key, column in shipped.recorded_moves().items():
        position = position_of_key(key, rules)
        assert position.can_play(column), position
        child = position.copy()
        child.play(column)
        child_score = 0 if child.is_full() else shipped.score(child)
        score = shipped.score_of_key(key)
        if child_score is not None and score is not None:
            assert child_score == -score, position
            checked += 1
    assert checked > 0


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_shipped_entries_are_the_best_of_their_known_children(path: Path) -> None:
    """Entries whose every child is known follow from them, as negamax says.

    Every entry with a recorded move (the play tree's computer nodes) is
    checked, and a seeded sample of 8,000 of the others: the 5 x 8 book
    holds over a hundred thousand of the full-width build's entries, and
    reading them all took 4 s.
    """
    shipped = Book.read(path)
    rules = shipped.rules
    recorded = shipped.recorded_moves()
    # Indices, not a dict of every entry: that alone took 0.3 s of the 5 x 8 book.
    sample = random.Random(8).sample(range(len(shipped)), min(8_000, len(shipped)))
    others = [shipped.keys[index] for index in sample if shipped.keys[index] not in recorded]
    compared = 0
    for key in sorted(recorded) + others:
        position = position_of_key(key, rules)
        best = _best_child_score(position, shipped)
        if best is not None:
            assert best == shipped.score_of_key(key), position
            compared += 1
    assert compared > 0
