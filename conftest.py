"""Project-wide pytest set-up."""

from __future__ import annotations

import gc
import importlib
import importlib.util
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem, DoctestModule
from hypothesis import settings
from slow_support import starts_processes, unmarked_process_users

from browser.chromium import FULL_NAME, browsers_header

# Bytecode caching is on from before the plugins load: tests/bytecode_on.py
# (pyproject.toml's addopts load it).


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
# `pytest -m "not slow"` is the edit-test loop: everything but the tests
# marked slow (tests/slow_support.py), which start real processes (servers,
# database clusters, terminals, browsers, pip) or search for seconds. CI runs
# both kinds. The marker is registered in pytest_configure; a test that
# starts processes unmarked fails (pytest_runtest_setup).


# === Docstring examples =======================================================
# The examples in the docstrings of engine/, terminal/ and service/ run as
# tests. pytest's own --doctest-modules would import those files under the
# names their folders give (``engine.game``), which the packages refuse:
# each has one name, ``connect_four.engine.game``, installed or not. So the
# modules are collected here and imported by that name.

ROOT = Path(__file__).resolve().parent
PACKAGE_FOLDERS = {
    "engine": "connect_four.engine",
    "terminal": "connect_four.terminal",
    "service": "connect_four.service",
}
"""The checkout's folders that are subpackages of connect_four, by the name each has there."""


def installed_name(path: Path) -> str | None:
    """``connect_four.engine.game`` for engine/game.py; None outside the package folders."""
    try:
        folder, *inner = path.relative_to(ROOT).with_suffix("").parts
    except ValueError:
        return None
    if folder not in PACKAGE_FOLDERS or not inner:
        return None
    if inner[-1] == "__init__":
        inner.pop()
    return ".".join([PACKAGE_FOLDERS[folder], *inner])


class PackageDoctests(DoctestModule):
    """A module's docstring examples, the module imported by its installed name."""

    def _getobj(self) -> object:
        name = installed_name(self.path)
        assert name is not None
        return importlib.import_module(name)


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """The package folders as plain folders: a pytest Package would import them by their bare names."""
    if installed_name(path / "__init__.py") is not None:
        return pytest.Dir.from_parent(parent, path=path)
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect the docstring examples of every module of the package folders."""
    name = installed_name(file_path)
    if name is None or file_path.suffix != ".py":
        return None
    if (
        name == "connect_four.service.postgres_store"
        and importlib.util.find_spec("psycopg") is None
    ):
        return None  # an environment without the PostgreSQL driver (CI installs it)
    return PackageDoctests.from_parent(parent, path=file_path)


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
    return cores if runs_fast_subset(config) else WORKERS_PER_CORE * cores


def runs_fast_subset(config: pytest.Config) -> bool:
    """Whether the run's marker expression is the fast subset's, however it is spaced."""
    return " ".join(config.option.markexpr.split()) == FAST_SUBSET


WHOLLY_SLOW = re.compile(rb"^pytestmark = pytest\.mark\.slow\b", re.MULTILINE)
"""A test module's line that marks every test of it slow (tests/slow_support.py's convention)."""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """In the fast subset, leave unread the test modules whose every test is marked slow.

    Imported only to be deselected, they cost each worker their imports and,
    on a first run, the rewriting of their asserts: over a third of the
    suite's test code. tests/test_suite_setup.py checks each such module
    sets its marks once, to slow alone, so the subset is the same tests.
    """
    if not runs_fast_subset(config):
        return None
    if not (collection_path.name.startswith("test_") and collection_path.suffix == ".py"):
        return None
    return True if WHOLLY_SLOW.search(collection_path.read_bytes()) else None


def pytest_report_header() -> list[str]:
    """Name the browsers the browser tests drive, and their versions: pages differ between them."""
    return browsers_header()


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
    config.addinivalue_line(
        "markers",
        "both_browsers: a browser test run on Debian's full chromium too (tests/browser/conftest.py)",
    )


UNMARKED_SLOW = pytest.StashKey[str]()
"""Why a test must be marked slow, on a test that starts processes without the mark."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Note the unmarked tests that start processes; let byu-pytest-utils report doctests.

    The grader's report hook files every test under ``item._obj``, which a
    doctest item lacks, and then aborts the whole run; the item itself is a
    fine key.
    """
    for item, reason in unmarked_process_users(items):
        item.stash[UNMARKED_SLOW] = reason
    for item in items:
        if isinstance(item, DoctestItem) and not hasattr(item, "_obj"):
            item._obj = item  # type: ignore[attr-defined]
    # The tests on Debian's full chromium first, together: xdist's work stealing
    # hands each worker a run of the list from its front and steals from the
    # back, so one worker alone launches that browser (about a second of CPU each).
    items.sort(key=lambda item: not _drives_full_chromium(item))


def _drives_full_chromium(item: pytest.Item) -> bool:
    """Whether ``item`` is a browser test's run on the full chromium (tests/browser/conftest.py)."""
    callspec = getattr(item, "callspec", None)
    return callspec is not None and callspec.params.get("browser_name") == FULL_NAME


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a test that starts processes without the slow mark, before it starts any."""
    reason = item.stash.get(UNMARKED_SLOW, None)
    if reason is not None:
        pytest.fail(reason, pytrace=False)


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
    by Needleman-Wunsch in pure Python, quadratic in their length, at
    collection time: test_connect.py alone took 40 s (12.6 s of CPU) without
    this shortcut and 0.4 s of CPU with it (26 November 2026, load 12 on a
    shared machine). Two equal strings align with themselves, so the
    shortcut returns exactly what the alignment would; any difference still
    goes through the grader's own code (tests/test_connect_harness.py checks
    both). The library (0.8.5) has no hook for its scoring: this replaces
    ``byu_pytest_utils.dialog.edit_dist``, the name its scoring calls.
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


@pytest.fixture(scope="session", autouse=True)
def stopped_servers_end() -> Iterator[None]:
    """Every server a test told to stop (server_support.stop_later) has ended before the session."""
    yield
    # Only a session that imported server_support can have stopped one.
    support = sys.modules.get("server_support")
    if support is not None:
        support.wait_for_stopped_servers()


@pytest.fixture(scope="session")
@starts_processes
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
