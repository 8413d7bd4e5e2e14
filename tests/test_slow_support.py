"""The slow mark's check: a test that starts processes without ``@pytest.mark.slow`` is found."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from slow_support import PROCESS_FIXTURES, starts_processes, unmarked_process_users


class Item:
    """The part of a collected test the check reads: its id, fixtures and marks."""

    def __init__(self, nodeid: str, fixturenames: list[str], *marks: str) -> None:
        self.nodeid = nodeid
        self.fixturenames = fixturenames
        self.marks = marks

    def get_closest_marker(self, name: str) -> object | None:
        return name if name in self.marks else None


@pytest.fixture
def declared() -> Iterator[Callable[..., Any]]:
    """A fixture function declared as starting processes, forgotten after the test."""

    def a_server() -> None: ...

    yield starts_processes(a_server)
    PROCESS_FIXTURES.discard("a_server")


def test_a_declared_fixture_is_known_by_name_and_unchanged(declared: Callable[..., Any]) -> None:
    assert declared.__name__ == "a_server"
    assert "a_server" in PROCESS_FIXTURES


@pytest.mark.usefixtures("declared")
def test_only_an_unmarked_test_using_a_declared_fixture_is_reported() -> None:
    items = [
        Item("t.py::unmarked", ["tmp_path", "a_server"]),
        Item("t.py::marked", ["a_server"], "slow"),
        Item("t.py::no_process", ["tmp_path"]),
    ]
    found = list(unmarked_process_users(items))  # type: ignore[arg-type]
    assert [(item.nodeid, reason) for item, reason in found] == [
        (
            "t.py::unmarked",
            "t.py::unmarked uses a_server, which starts processes: "
            "mark it @pytest.mark.slow (tests/slow_support.py)",
        )
    ]
