"""Running a coroutine to its end from a test, whatever else the test's process has open."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)``, in a thread of its own.

    The browser tests keep Playwright's sync API open for the whole session
    of an xdist worker (tests/browser/conftest.py), and while it is open its
    event loop counts as running in the test thread, where ``asyncio.run``
    would refuse to start another.
    """
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()
