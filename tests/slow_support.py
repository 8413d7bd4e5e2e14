"""Which tests are slow: those marked so, and a check that none using a process is left unmarked.

A slow test carries ``@pytest.mark.slow`` (a whole module ``pytestmark =
pytest.mark.slow``, a parameter ``pytest.param(..., marks=pytest.mark.slow)``);
``pytest -m "not slow"`` leaves it out. A fixture that starts a process of
its own (a server, a database cluster, a browser) is declared with
:func:`starts_processes`, and the root conftest.py fails a test that uses
one without the mark: a test cannot join the fast subset by being renamed
or moved, only by losing its mark, and then it fails there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

import pytest

__all__ = ["PROCESS_FIXTURES", "starts_processes", "unmarked_process_users"]

Function = TypeVar("Function", bound=Callable[..., object])

PROCESS_FIXTURES: set[str] = set()
"""The names of the fixtures declared with :func:`starts_processes` so far (as their modules load)."""


def starts_processes(function: Function) -> Function:
    """Declare the fixture ``function`` (below ``@pytest.fixture``) as starting a process."""
    PROCESS_FIXTURES.add(function.__name__)
    return function


def unmarked_process_users(items: Iterable[pytest.Item]) -> Iterator[tuple[pytest.Item, str]]:
    """Each test that uses a process-starting fixture but is not marked slow, and why it must be."""
    for item in items:
        used = PROCESS_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        if used and item.get_closest_marker("slow") is None:
            yield (
                item,
                (
                    f"{item.nodeid} uses {', '.join(sorted(used))}, which starts processes: "
                    "mark it @pytest.mark.slow (tests/slow_support.py)"
                ),
            )
