"""Project-wide pytest set-up."""

from __future__ import annotations

import pytest
from _pytest.doctest import DoctestItem


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Let byu-pytest-utils report doctests.

    Its report hook files every test under ``item._obj``, which a doctest item
    lacks, and then aborts the whole run; the item itself is a fine key.
    """
    for item in items:
        if isinstance(item, DoctestItem) and not hasattr(item, "_obj"):
            item._obj = item  # type: ignore[attr-defined]
