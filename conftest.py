"""Project-wide pytest set-up."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem
from hypothesis import settings

from browser.chromium import chromium_header

# The suite starts hundreds of interpreters (games through a pipe, servers,
# terminals) and pytest rewrites every test module: with bytecode writing
# off (PYTHONDONTWRITEBYTECODE, set on some machines) each of them compiled
# the project's sources again (with a table leak fixed the same day, the
# suite's system CPU fell from 55 s to 23 s). The cache goes to the
# __pycache__ folders .gitignore already leaves out, and writing it changes
# nothing that runs; the xdist workers and every program the tests start
# inherit the setting.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


# Temporary files (each test's SQLite games, the PostgreSQL clusters, the
# browser's profiles) go to memory where the system has room there: on
# disk, creating and syncing hundreds of small databases made the service
# tests wait a third longer. A TMPDIR the developer set is kept.
MEMORY_FOLDER = Path("/dev/shm")  # noqa: S108  (only as TMPDIR: tempfile and pytest make private folders in it)
MEMORY_NEEDED = 2 * 2**30
"""Free bytes the memory folder must have for the tests to use it (the clusters take ~50 MB each)."""


def _temporary_files_in_memory() -> None:
    """Point TMPDIR (this process's, the workers' and every program's) at MEMORY_FOLDER."""
    if os.environ.get("TMPDIR") or not MEMORY_FOLDER.is_dir():
        return
    try:
        folder = os.statvfs(MEMORY_FOLDER)
    except OSError:
        return
    if folder.f_bavail * folder.f_frsize >= MEMORY_NEEDED and os.access(MEMORY_FOLDER, os.W_OK):
        os.environ["TMPDIR"] = str(MEMORY_FOLDER)
        tempfile.tempdir = None  # read TMPDIR again


_temporary_files_in_memory()

# On CI the property tests draw the same examples every run, so a red run
# can be replayed; on a developer's machine they keep exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# === The fast subset ==========================================================
# `pytest -m "not slow"` is the edit-test loop: everything but the tests named
# here, which start real processes (servers, database clusters, terminals,
# browsers, pip) or search for seconds. CI runs both kinds.

SLOW_FIXTURES = frozenset(
    {"postgres_cluster", "start_server", "run_service", "drop_token_service", "browser"}
)
"""Fixtures that start a process of their own: a test that uses one is slow."""

SLOW_FOLDERS = ("tests/browser/",)

SLOW_MODULES = frozenset(
    {
        "tests/test_connect_tmux.py",
        "tests/test_connect_tmux_push.py",
        "tests/test_connect_tmux_quit.py",
        "tests/test_connect_network.py",
        "tests/test_terminal_network.py",
        "tests/test_packaging.py",
        "tests/test_book_tree.py",
        "tests/service/test_server_process.py",
        "tests/service/test_server_guards.py",
        "tests/service/test_postgres_store.py",
        "tests/service/test_storage_faults.py",
        "tests/service/test_push_api.py",
        "tests/service/test_boundary_integers.py",
        "tests/service/test_hardening_api.py",
        "tests/service/test_analysis_api.py",
        "tests/test_review.py",
        "tests/test_database.py",
        "tests/test_terminal_push.py",
        "tests/test_connect_pipe.py",
        "tests/test_exact_backends.py",
        "tests/test_threads.py",
    }
)

SLOW_TESTS = frozenset(
    {
        "tests/test_solver.py::test_boards_wider_than_64_bits_are_solved_exactly",
        "tests/test_solver.py::test_tiny_boards_match_brute_force",
        "tests/test_solver.py::test_top_level_move_does_not_depend_on_the_machine_speed",
        "tests/test_solver.py::test_top_level_move_is_the_same_on_the_real_clock",
        "tests/test_solver.py::test_a_hard_time_limit_stops_the_search_and_still_moves",
        "tests/test_solver.py::test_score_matches_pons_sample",
        "tests/test_exact_backends.py::test_random_boards_give_the_same_moves_scores_and_node_counts",
        "tests/test_exact_backends.py::test_small_tables_replace_entries_alike_and_stay_exact",
        "tests/test_exact_backends.py::test_small_tables_on_wide_boards_replace_entries_alike",
        "tests/test_exact_backends.py::test_random_wide_boards_give_the_same_moves_scores_and_node_counts",
        "tests/test_book.py::test_shipped_entries_agree_with_the_pure_solver",
        "tests/test_book.py::test_a_tiny_book_agrees_with_brute_force_on_every_move_sequence",
        "tests/test_board_check.py::test_every_string_of_a_tiny_board_is_refused_unless_a_game_reaches_it",
        "tests/test_board_check.py::test_random_fillings_are_refused_exactly_when_a_rule_breaks",
        "tests/test_board_check.py::test_every_position_of_every_game_on_a_small_board",
        "tests/test_connectx.py::test_non_standard_boards_get_legal_moves_to_the_end",
        "tests/test_win_property.py::test_engine_outcome_matches_brute_force_after_every_move",
        "tests/test_connect_options.py::test_option_dialog_played_through_a_pipe",
        "tests/test_columns.py::test_every_column_is_scored_exactly_on_a_small_board",
        "tests/test_score.py::test_a_win_on_offer_scores_win_score_and_every_score_lies_within_its_bounds",
        "tests/test_terminal_computer.py::test_hint_names_a_column_the_scores_rank_best_on_the_empty_7_by_9_board",
        "tests/test_solver.py::test_best_move_achieves_the_score",
        "tests/service/test_hardening_api.py::test_a_long_game_reads_one_move_and_a_range",
        "tests/service/test_hardening_api.py::test_a_board_beyond_the_search_budget_says_it_was_not_verified",
        "tests/service/test_winner_pool.py::test_a_killed_worker_costs_one_refusal_then_a_new_worker_answers",
        "tests/service/test_winner_api.py::test_agrees_with_the_engine_over_http",
        "tests/service/test_store.py::test_the_command_line_help",
        "tests/test_book.py::test_shipped_entries_are_the_best_of_their_known_children",
        "tests/test_exact_backends.py::test_boards_at_the_64_and_128_bit_boundaries_agree",
        "tests/test_exact_backends.py::test_the_top_level_plays_the_same_game_on_both_backends",
        "tests/test_game.py::test_popping_a_random_history_retraces_every_state_it_passed",
        "tests/test_connectx.py::test_a_whole_game_on_kaggle_s_default_board",
        "tests/test_connectx.py::test_blocks_the_opponent_s_win_in_one",
        "tests/test_grid.py::test_a_larger_search_limit_settles_it",
        "connect_four/engine/levels.py::connect_four.engine.levels.choose_move",
        "connect_four/engine/columns.py::connect_four.engine.columns.column_scores",
    }
)
"""Single tests (every parameter of each) that take a second or more."""


def is_slow(item: pytest.Item) -> bool:
    """Whether a test belongs outside the fast subset (see SLOW_* above)."""
    path, _, name = item.nodeid.partition("::")
    return (
        item.get_closest_marker("slow") is not None
        or "[postgresql" in item.nodeid
        or bool(SLOW_FIXTURES.intersection(getattr(item, "fixturenames", ())))
        or path.startswith(SLOW_FOLDERS)
        or path in SLOW_MODULES
        or f"{path}::{name.partition('[')[0]}" in SLOW_TESTS
    )


# === Workers =================================================================
# Many slow tests wait more than they compute: on servers, terminals, a
# browser, PostgreSQL. With one xdist worker per core a core sits idle
# through every such wait, so `-n auto` starts two workers per core, and
# idle workers steal queued tests from busy ones instead of waiting at the
# end. The fast subset only computes: there a second worker per core would
# only collect the tests once more, so it keeps one.

FAST_SUBSET = "not slow"
"""The marker expression of the fast subset, as the README gives it (`-m "not slow"`)."""

WORKERS_PER_CORE = 2
"""Workers per core for a run with slow tests in it."""


@pytest.hookimpl(optionalhook=True)  # known only while xdist is loaded (not under -p no:xdist)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Workers for ``-n auto``: PYTEST_XDIST_AUTO_NUM_WORKERS if set, else by the tests' kind."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS", "")
    if chosen.isdigit() and int(chosen) > 0:
        return int(chosen)
    cores = len(os.sched_getaffinity(0))
    fast_only = " ".join(config.option.markexpr.split()) == FAST_SUBSET
    return cores if fast_only else WORKERS_PER_CORE * cores


def pytest_report_header() -> str:
    """Name the chromium the browser tests drive, and its version: pages differ between them."""
    return chromium_header()


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """With workers and no ``--dist`` given, schedule by work stealing."""
    if getattr(config.option, "numprocesses", None) and config.option.dist == "no":
        config.option.dist = "worksteal"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: starts processes or searches for seconds; `-m 'not slow'` leaves it out"
    )
    config.addinivalue_line(
        "markers", "shared_app: the test's service client is the session's one app (tests/service)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests; let byu-pytest-utils report doctests.

    The grader's report hook files every test under ``item._obj``, which a
    doctest item lacks, and then aborts the whole run; the item itself is a
    fine key.
    """
    for item in items:
        if isinstance(item, DoctestItem) and not hasattr(item, "_obj"):
            item._obj = item  # type: ignore[attr-defined]
        if is_slow(item):
            item.add_marker(pytest.mark.slow)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Leave what collection made out of the garbage collector's full passes.

    Collection leaves each worker with about a million long-lived objects
    (FastAPI, pydantic, hypothesis, every test item); each full collection
    walked them all again. Frozen, they are never scanned: the four
    workers' full collections fell from 3.5 s to 1.7 s of CPU a run. The
    server process does the same after its start-up (``settle_memory``).
    """
    gc.collect()
    gc.freeze()


def _shortcut_identical_transcripts() -> None:
    """Score a transcript that matches its dialog file at once.

    byu-pytest-utils aligns every observed transcript with the expected one
    by Needleman-Wunsch in pure Python, quadratic in their length: about two
    seconds for the assignment's tie game, at collection time. Two equal
    strings align with themselves, so the shortcut returns exactly what the
    alignment would; any difference still goes through the grader's own code.
    """
    import importlib

    # The package exports a function named like the module: fetch the module.
    dialog = importlib.import_module("byu_pytest_utils.dialog")
    align = dialog.edit_dist

    def edit_dist(observed: str, expected: str, *args: object, **kwargs: object) -> object:
        if observed == expected and observed:
            return len(observed), observed, expected
        return align(observed, expected, *args, **kwargs)

    edit_dist.aligned = align  # type: ignore[attr-defined]
    dialog.edit_dist = edit_dist


_shortcut_identical_transcripts()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    """Let pytest-xdist send byu-pytest-utils' reports between processes.

    The grader's plugin files each report under its test function
    (``metadata_key``), which cannot be serialised; nothing reads it after
    the report is made, so a worker drops it before sending the report.
    """
    outcome = yield
    report = outcome.get_result()
    if hasattr(item.config, "workerinput") and hasattr(report, "metadata_key"):
        del report.metadata_key
    return None


@pytest.fixture(scope="session")
def drop_token_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real drop-token service on 127.0.0.1 for the network game's tests; its base URL.

    One server for the session: each test creates games of its own.
    """
    from server_support import Server

    server = Server(tmp_path_factory.mktemp("drop_token") / "games.db")
    server.start()
    try:
        yield server.url
    finally:
        server.close()


@pytest.fixture
def no_opening_books(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The engine sees no shipped book, only those a test writes into the folder returned.

    For tests of the search itself, whose positions a shipped book would answer.
    """
    from connect_four.engine import book as book_module

    monkeypatch.setattr(book_module, "DATA_DIR", tmp_path)
    monkeypatch.setattr(book_module, "_loaded", {})
    return tmp_path
