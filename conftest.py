"""Project-wide pytest set-up."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem
from hypothesis import settings

# On CI the property tests draw the same examples every run, so a red run
# can be replayed; on a developer's machine they keep exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Let byu-pytest-utils report doctests.

    Its report hook files every test under ``item._obj``, which a doctest item
    lacks, and then aborts the whole run; the item itself is a fine key.
    """
    for item in items:
        if isinstance(item, DoctestItem) and not hasattr(item, "_obj"):
            item._obj = item  # type: ignore[attr-defined]


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
    from engine import book as book_module

    monkeypatch.setattr(book_module, "DATA_DIR", tmp_path)
    monkeypatch.setattr(book_module, "_loaded", {})
    return tmp_path
